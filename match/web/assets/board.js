// board.js draws a draughts board in SVG from the server's geometry (width,
// height and the playable squares with their names, rows and columns), so
// that every variant the server offers draws without rules in the client.
// It knows nothing of legality: it reports the squares the user clicks,
// drags to or chooses with the keyboard, and the caller decides.

const NS = 'http://www.w3.org/2000/svg';
const U = 100; // one cell in viewBox units; the SVG scales to its box

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

export class Board {
  // svg is an <svg> element; cb holds onSquare(name), onDrag(from, to)
  // and describe(name) -> the accessible label of a square.
  constructor(svg, cb) {
    this.svg = svg;
    this.cb = cb;
    this.geo = { width: 8, height: 8, squares: [] };
    this.byName = new Map();
    this.byCell = new Map();
    this.flipped = false;
    this.numbers = false;
    this.pieces = [];
    this.last = null;
    this.path = [];
    this.hints = [];
    this.faded = [];
    this.interactive = false;
    this.focus = null; // {row, col} in the board's own coordinates
    this.drag = null;
    svg.setAttribute('role', 'application');
    svg.setAttribute('tabindex', '0');
    svg.setAttribute('focusable', 'true');
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    svg.addEventListener('keydown', (e) => this.key(e));
    svg.addEventListener('pointerdown', (e) => this.down(e));
    svg.addEventListener('pointermove', (e) => this.move(e));
    svg.addEventListener('pointerup', (e) => this.up(e));
    svg.addEventListener('pointercancel', () => this.cancelDrag());
    svg.addEventListener('focus', () => { if (!this.focus) this.focusDefault(); this.render(); });
  }

  setGeometry(geo) {
    this.geo = geo;
    this.byName = new Map(geo.squares.map((s) => [s.name, s]));
    this.byCell = new Map(geo.squares.map((s) => [`${s.row},${s.col}`, s]));
    this.svg.setAttribute('viewBox', `0 0 ${geo.width * U} ${geo.height * U}`);
  }

  set(o) { Object.assign(this, o); this.render(); }

  // screen maps a board cell to the displayed cell (flipped or not).
  screen(row, col) {
    const { width, height } = this.geo;
    return this.flipped ? [height - 1 - row, width - 1 - col] : [row, col];
  }

  render() {
    if (this.drag) { this.stale = true; return; } // redraw after the drop
    this.stale = false;
    const svg = this.svg;
    while (svg.firstChild) svg.firstChild.remove();
    const { width, height } = this.geo;
    const hint = new Set(this.hints);
    const path = new Set(this.path);
    const faded = new Set(this.faded);
    const last = this.last || {};
    const lastSet = new Set([last.from, last.to].filter(Boolean));
    const capt = new Set(last.captured || []);
    svgEl('rect', { x: 0, y: 0, width: width * U, height: height * U, class: 'sq-light' }, svg);
    const squares = svgEl('g', { class: 'squares' }, svg);
    // A board whose every cell is a square (Turkish, Dameo) is shaded in a
    // checker pattern all the same, so that rows and columns read.
    const parity = this.geo.squares.length ? (this.geo.squares[0].row + this.geo.squares[0].col) % 2 : 0;
    for (const s of this.geo.squares) {
      const [r, c] = this.screen(s.row, s.col);
      const g = svgEl('g', { id: `sq-${s.name}`, 'data-sq': s.name, role: 'img' }, squares);
      let cls = (s.row + s.col) % 2 === parity ? 'sq-dark' : 'sq-dark alt';
      if (lastSet.has(s.name)) cls += ' last';
      if (capt.has(s.name)) cls += ' last-captured';
      if (path.has(s.name)) cls += ' sel';
      svgEl('rect', { x: c * U, y: r * U, width: U, height: U, class: cls }, g);
      if (hint.has(s.name)) svgEl('circle', { cx: c * U + U / 2, cy: r * U + U / 2, r: U * 0.14, class: 'hint' }, g);
      g.setAttribute('aria-label', this.cb.describe ? this.cb.describe(s.name) : s.name);
    }
    const pieces = svgEl('g', { class: 'pieces' }, svg);
    for (const p of this.pieces) {
      const s = this.byName.get(p.sq);
      if (!s) continue;
      const [r, c] = this.screen(s.row, s.col);
      const cx = c * U + U / 2;
      const cy = r * U + U / 2;
      const g = svgEl('g', { class: `piece pc-${p.color}${p.king ? ' king' : ''}${faded.has(p.sq) ? ' faded' : ''}`, 'data-sq': p.sq }, pieces);
      svgEl('circle', { cx, cy, r: U * 0.38, class: 'body' }, g);
      svgEl('circle', { cx, cy, r: U * 0.27, class: 'rim' }, g);
      if (p.king) {
        // A crown: three points over a band, in the rim's colour.
        const w = U * 0.36;
        const h = U * 0.22;
        const x0 = cx - w / 2;
        const y0 = cy + h / 2;
        const pts = [[x0, y0], [x0, y0 - h], [x0 + w / 4, y0 - h / 2], [cx, y0 - h - 4], [x0 + 3 * w / 4, y0 - h / 2], [x0 + w, y0 - h], [x0 + w, y0]];
        svgEl('polygon', { points: pts.map((q) => q.join(',')).join(' '), class: 'crown' }, g);
      }
    }
    if (this.numbers) {
      // Above the pieces, in the square's corner, so a number always reads.
      const nums = svgEl('g', { class: 'numbers' }, svg);
      for (const s of this.geo.squares) {
        const [r, c] = this.screen(s.row, s.col);
        svgEl('text', { x: c * U + 4, y: r * U + 24, class: 'sqnum' }, nums).textContent = s.name;
      }
    }
    if (this.focus && document.activeElement === svg) {
      const [r, c] = this.screen(this.focus.row, this.focus.col);
      svgEl('rect', { x: c * U + 4, y: r * U + 4, width: U - 8, height: U - 8, class: 'focusring' }, svg);
      const s = this.byCell.get(`${this.focus.row},${this.focus.col}`);
      if (s) svg.setAttribute('aria-activedescendant', `sq-${s.name}`);
      else svg.removeAttribute('aria-activedescendant');
    }
  }

  // focusDefault puts the keyboard focus on the bottom-left playable square.
  focusDefault() {
    const sq = [...this.geo.squares].sort((a, b) => {
      const [ra, ca] = this.screen(a.row, a.col);
      const [rb, cb] = this.screen(b.row, b.col);
      return rb - ra || ca - cb;
    })[0];
    this.focus = sq ? { row: sq.row, col: sq.col } : { row: 0, col: 0 };
  }

  focusedName() {
    if (!this.focus) return null;
    const s = this.byCell.get(`${this.focus.row},${this.focus.col}`);
    return s ? s.name : null;
  }

  key(e) {
    const dirs = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (!this.focus) this.focusDefault();
    if (dirs[e.key]) {
      e.preventDefault();
      let [dr, dc] = dirs[e.key];
      if (this.flipped) { dr = -dr; dc = -dc; }
      const { width, height } = this.geo;
      this.focus = {
        row: Math.min(height - 1, Math.max(0, this.focus.row + dr)),
        col: Math.min(width - 1, Math.max(0, this.focus.col + dc)),
      };
      this.render();
      if (this.cb.onFocus) this.cb.onFocus(this.focusedName());
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      const name = this.focusedName();
      if (name && this.interactive) this.cb.onSquare(name);
      return;
    }
    if (e.key === 'Escape' && this.cb.onCancel) { e.preventDefault(); this.cb.onCancel(); }
  }

  // cellAt returns the square name under a pointer event, or null.
  cellAt(e) {
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    let c = Math.floor(pt.x / U);
    let r = Math.floor(pt.y / U);
    const { width, height } = this.geo;
    if (r < 0 || c < 0 || r >= height || c >= width) return null;
    if (this.flipped) { r = height - 1 - r; c = width - 1 - c; }
    const s = this.byCell.get(`${r},${c}`);
    return s ? s.name : null;
  }

  svgPoint(e) {
    const m = this.svg.getScreenCTM();
    return new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
  }

  down(e) {
    if (!this.interactive || e.button !== 0) return;
    const name = this.cellAt(e);
    if (!name) return;
    const s = this.byName.get(name);
    this.focus = { row: s.row, col: s.col };
    const pieceEl = this.svg.querySelector(`.piece[data-sq="${CSS.escape(name)}"]`);
    this.drag = { from: name, id: e.pointerId, start: this.svgPoint(e), pieceEl, moving: false };
    try { this.svg.setPointerCapture(e.pointerId); } catch (_) { /* synthetic events */ }
    e.preventDefault();
  }

  move(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id || !d.pieceEl) return;
    const p = this.svgPoint(e);
    const dx = p.x - d.start.x;
    const dy = p.y - d.start.y;
    if (!d.moving && Math.hypot(dx, dy) < U * 0.15) return;
    d.moving = true;
    d.pieceEl.classList.add('dragging');
    d.pieceEl.setAttribute('transform', `translate(${dx} ${dy})`);
  }

  up(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.drag = null;
    const to = this.cellAt(e);
    if (d.moving || this.stale) this.render();
    // A piece put down where it was picked up is a tap: on a phone a
    // finger slips a few pixels between touching and leaving the screen.
    if (d.moving && to !== d.from) {
      if (to) this.cb.onDrag(d.from, to);
      return;
    }
    if (to) this.cb.onSquare(to);
  }

  cancelDrag() {
    this.drag = null;
    this.render();
  }
}
