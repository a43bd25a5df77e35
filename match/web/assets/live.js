// live.js: the live view of an engine event. It follows /api/live/events:
// a "snapshot" with the whole state, then "update"s with what changed (the
// games that moved, the games that ended, the standings, the last results).
// Read-only: it sends nothing but the stream's GET. Each game in progress is
// drawn with the web referee's board (board.js).

import * as i18n from './i18n.js';
import { t } from './i18n.js';
import { Board } from './board.js';
import { $, el, fmtClock } from './dom.js';
import { Stream } from './beat.js';

const MOVES_SHOWN = 400; // as the server sends at most

const L = { snap: null, es: null, cards: new Map(), updates: 0, stream: null };
window.arbiterLive = L; // for the browser tests and the curious

const value = (v) => (v && i18n.has(`value.${v}`) ? t(`value.${v}`) : v);

async function main() {
  addEventListener('resize', showScrollHints);
  await i18n.init();
  $('langbox').append(i18n.selector(() => renderAll()));
  i18n.apply();
  L.stream = new Stream('/api/live/events', listen);
  L.stream.start();
  setInterval(tick, 250);
}

// listen follows each of the live streams (Stream: one silent for three
// of the server's beats, or lost with the device's network, is replaced),
// whose snapshot brings the page up to date and the clocks, which stood
// meanwhile, running again.
function listen(es, alive) {
  L.es = es;
  es.addEventListener('snapshot', (e) => {
    alive();
    L.snap = JSON.parse(e.data);
    for (const g of L.snap.games) g.received = performance.now();
    L.stream.fresh();
    for (const [id, c] of L.cards) { c.el.remove(); L.cards.delete(id); }
    renderAll();
  });
  es.addEventListener('update', (e) => {
    alive();
    const u = JSON.parse(e.data);
    const s = L.snap;
    if (u.reload) { L.snap = null; L.stream.reopen(100); return; }
    if (!s) return;
    L.updates++;
    if (u.event) s.event = u.event;
    if (u.standings) s.standings = u.standings;
    if (u.recent) s.recent = u.recent;
    if (u.gone) {
      s.games = s.games.filter((g) => !u.gone.includes(g.id));
      for (const id of u.gone) {
        const c = L.cards.get(id);
        if (c) { c.el.remove(); L.cards.delete(id); }
      }
    }
    for (const g of u.games || []) {
      g.received = performance.now();
      const i = s.games.findIndex((x) => x.id === g.id);
      if (i >= 0) s.games[i] = g; else { s.games.push(g); s.games.sort((a, b) => a.id - b.id); }
      renderGame(g);
    }
    if (u.event) renderEvent();
    if (u.standings) renderStandings();
    if (u.recent) renderRecent();
    renderNoGames();
  });
}

function renderAll() {
  if (!L.snap) return;
  i18n.apply();
  renderEvent();
  for (const g of L.snap.games) renderGame(g, true);
  renderNoGames();
  renderStandings();
  renderRecent();
}

function renderEvent() {
  const ev = L.snap.event;
  $('ev-name').textContent = ev.name || '';
  document.title = `${ev.name ? ev.name + ' · ' : ''}${t('app.name')}`;
  $('ev-progress').textContent = ev.started
    ? t('live.progress', { finished: ev.finished, planned: ev.planned, running: ev.running })
    : t('live.waiting');
  $('ev-details').textContent = ev.started ? t('live.details', { variant: value(ev.variant), tc: ev.time_control || '–' }) : '';
  $('ev-stopped').hidden = !ev.stopped;
  $('ev-stopped').textContent = ev.stopped ? t('live.stopped', { why: ev.stopped }) : '';
}

// ---- the games in progress ----

// The line shown where no game is in progress. Once every planned game is
// played (or the event stopped early) it says the event is over: "No game
// is being played right now" read as a pause to someone who opened the
// page after the end.
function renderNoGames() {
  const s = L.snap, ev = s.event, none = $('no-games');
  none.hidden = s.games.length > 0;
  const over = ev.started && ev.running === 0 && (ev.finished >= ev.planned || !!ev.stopped);
  none.dataset.i18n = over ? 'live.over' : 'live.no_games';
  none.textContent = t(none.dataset.i18n);
}

function bar(color) {
  const b = el('div', { class: `player player-${color}` });
  b.append(el('span', { class: 'swatch' }), el('span', { class: 'pname' }), el('span', { class: 'clock' }));
  b.querySelector('.clock').setAttribute('role', 'timer');
  return b;
}

function card(g) {
  let c = L.cards.get(g.id);
  if (c) return c;
  const art = el('article', { class: 'game-card' });
  art.dataset.game = g.id;
  const h = el('h3');
  h.append(el('span', { class: 'title' }), el('span', { class: 'opening' }));
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'board');
  const top = bar('black');
  const bottom = bar('white');
  const moves = el('ol', { class: 'moves' });
  art.append(h, top, svg, bottom, el('p', { class: 'info info-white' }), el('p', { class: 'info info-black' }), el('p', { class: 'unreadable' }), moves);
  const board = new Board(svg, { describe: (n) => describe(c, n) });
  // A board to look at: not a control, not in the tab order.
  svg.setAttribute('role', 'img');
  svg.setAttribute('tabindex', '-1');
  board.setGeometry(L.snap.geometry);
  c = { el: art, board, moves, shown: 0, from: 1, game: g };
  L.cards.set(g.id, c);
  // In game order on the page.
  const after = [...L.cards.keys()].filter((id) => id > g.id).sort((a, b) => a - b)[0];
  const next = after !== undefined ? L.cards.get(after).el : null;
  $('games').insertBefore(art, next && next.parentNode ? next : null);
  return c;
}

function describe(c, name) {
  const p = (c.game.pieces || []).find((x) => x.sq === name);
  let s = t('board.square', { square: name });
  if (p) s += ', ' + t(`piece.${p.color}.${p.king ? 'king' : 'man'}`);
  return s;
}

function renderGame(g, full) {
  const c = card(g);
  c.game = g;
  const a = c.el;
  a.querySelector('.title').textContent = t('live.game_title', { id: g.id, round: g.round, board: g.board });
  a.querySelector('.opening').textContent = g.opening || '';
  for (const color of ['white', 'black']) {
    const b = a.querySelector(`.player-${color}`);
    b.querySelector('.pname').textContent = g[color];
    b.classList.toggle('to-move', g.turn === color);
    const info = g.info[color] || {};
    const line = a.querySelector(`.info-${color}`);
    const parts = [];
    if (info.has_score) parts.push((info.score > 0 ? '+' : '') + i18n.decimal(info.score, 2));
    if (info.depth) parts.push(t('live.depth', { depth: info.depth }));
    if (info.pv) parts.push(info.pv);
    // An engine that says nothing of its search (a DXP engine, a Hub
    // engine without info lines) gets no line, as before its first move:
    // a bare "White:" read as something missing, and an empty line kept
    // a gap between the board and the moves all game.
    line.hidden = !parts.length;
    line.textContent = parts.length ? `${t(`color.${color}`)}: ${parts.join(' ')}` : '';
  }
  a.querySelector('.unreadable').textContent = g.unreadable ? t('live.unreadable', { why: g.unreadable }) : '';
  a.querySelector('svg').setAttribute('aria-label', t('live.board', { id: g.id }));
  c.board.set({ pieces: g.pieces || [], last: g.last || null });
  renderMoves(c, g, full);
  clock(c);
}

// renderMoves appends the new moves to the card's list (all of them again
// when the game was started over or the list was cut).
function renderMoves(c, g, full) {
  const ol = c.moves;
  const last = g.from + g.moves.length - 1; // ply of the last move
  if (full || last < c.shown || g.from > c.shown + 1) {
    ol.textContent = '';
    c.shown = g.from - 1;
  }
  for (let ply = c.shown + 1; ply <= last; ply++) {
    const li = el('li', { class: 'mv' });
    li.dataset.ply = ply;
    const text = g.moves[ply - g.from];
    li.textContent = ply % 2 === 1 ? `${(ply + 1) / 2}. ${text}` : text;
    ol.append(li);
  }
  c.shown = last;
  while (ol.children.length > MOVES_SHOWN) ol.firstChild.remove();
  ol.scrollTop = ol.scrollHeight;
}

// clock shows the card's clocks, the side to move's running since the
// last move. Not connected, they stand, marked as not current (Stand),
// as the game page's do.
function clock(c) {
  const g = c.game;
  const stand = L.stream.stand;
  for (const color of ['white', 'black']) {
    const e = c.el.querySelector(`.player-${color} .clock`);
    if (!g.clocks.timed) { e.textContent = t('live.untimed'); e.classList.remove('running', 'stale'); e.removeAttribute('title'); continue; }
    let ms = g.clocks[color];
    const running = g.turn === color;
    if (running) ms -= g.clocks.since_ms + (stand.now(g.received) - g.received);
    e.textContent = fmtClock(ms);
    e.classList.toggle('running', running);
    e.classList.toggle('low', ms < 10000);
    stand.mark(e);
  }
}

function tick() {
  for (const c of L.cards.values()) clock(c);
}

// ---- standings, crosstable, last results ----

function fmtPoints(p) {
  const whole = Math.floor(p + 1e-9);
  const half = p - whole > 0.25;
  if (!half) return String(whole);
  return whole ? `${whole}½` : '½';
}

function renderStandings() {
  const st = L.snap.standings;
  const tb = $('standings').querySelector('tbody');
  tb.textContent = '';
  const cross = $('cross');
  cross.textContent = '';
  if (!st) return;
  $('standings').dataset.games = st.games;
  $('scoring').textContent = st.scoring && st.scoring.win === 2 ? t('live.scoring_fmjd') : t('live.scoring_one');
  for (const r of st.rows || []) {
    const tr = el('tr');
    tr.dataset.engine = r.name;
    tr.dataset.games = r.games;
    // No game, no score: "0.0%" read as every game lost.
    const score = r.games ? `${i18n.decimal(r.score * 100, 1)}%` : '–';
    for (const v of [r.rank, r.name, fmtPoints(r.points), r.games, `${r.w}-${r.d}-${r.l}`, score]) {
      tr.append(el('td', { text: String(v) }));
    }
    tb.append(tr);
  }
  const rows = st.rows || [];
  const head = el('tr');
  head.append(el('th', { text: '' }));
  rows.forEach((r, i) => { const th = el('th', { text: String(i + 1) }); th.title = r.name; head.append(th); });
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  rows.forEach((r, i) => {
    const tr = el('tr');
    tr.append(el('th', { class: 'row', text: `${i + 1}. ${r.name}` }));
    rows.forEach((_, j) => {
      if (i === j) { tr.append(el('td', { class: 'self', text: '' })); return; }
      const cell = (st.cross[i] || [])[j] || { points: 0, games: 0 };
      const td = el('td', { text: cell.games ? `${fmtPoints(cell.points)} (${cell.games})` : '·' });
      tr.append(td);
    });
    body.append(tr);
  });
  cross.append(thead, body);
  showScrollHints();
}

// showScrollHints shows the line under a table that is wider than its
// box: on a phone the standings' last columns (the score) are off to the
// right, and nothing else says the table scrolls.
function showScrollHints() {
  for (const box of document.querySelectorAll('.scroll-x')) {
    const hint = box.nextElementSibling;
    if (hint && hint.classList.contains('scroll-hint')) hint.hidden = box.scrollWidth <= box.clientWidth + 1;
  }
}

function renderRecent() {
  const ol = $('recent');
  ol.textContent = '';
  const list = L.snap.recent || [];
  $('no-recent').hidden = list.length > 0;
  for (const r of list) {
    const li = el('li');
    li.dataset.game = r.id;
    li.append(el('span', { text: `${t('live.game_title', { id: r.id, round: r.round, board: r.board })}: ${r.white} – ${r.black} ` }),
      el('span', { class: 'res', text: r.result }));
    const why = [value(r.termination), r.reason].filter(Boolean).join(': ');
    if (why) li.append(el('span', { class: 'why', text: ` (${why})` }));
    ol.append(li);
  }
}

main().catch((e) => {
  $('fatal').hidden = false;
  $('fatal').textContent = String(e && e.message ? e.message : e);
});
