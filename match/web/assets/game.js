// game.js: the game page. It reads the link's token from the path, loads the
// snapshot, follows the game's events and sends the user's intents. The
// referee on the server judges every move: the page lets a player attempt
// any move and only shows legal moves in beginner mode.

import * as i18n from './i18n.js';
import { t } from './i18n.js';
import { getJSON, postJSON, ApiError } from './api.js';
import { Board } from './board.js';
import { $, fmtClock } from './dom.js';
import { heartbeat, notice, Stand } from './beat.js';

const token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
const base = `/api/g/${encodeURIComponent(token)}`;
const EVENT_TYPES = ['move', 'warning', 'illegal', 'claim', 'offer', 'decision', 'result', 'presence',
  'pause', 'clock', 'annotation', 'reissue', 'resume-after-restart', 'message', 'rematch'];

const g = {
  snap: null, state: null, v: 0, moves: [], messages: [],
  role: 'spectator', flipped: false, sel: [], captured: [], choose: null,
  es: null, clockAt: 0, refetching: null, error: null, speech: null, sending: null,
  snapAt: 0, stand: new Stand(), retry: 0,
};
window.arbiterGame = g; // for the browser tests and the curious

const other = (c) => (c === 'white' ? 'black' : 'white');
const isPlayer = () => g.role === 'white' || g.role === 'black';
const setup = () => (g.snap && g.snap.setup) || {};
const sv = (o, k) => (o[k] ?? o[k[0].toUpperCase() + k.slice(1)] ?? '');

let board;

async function main() {
  await i18n.init();
  $('langbox').append(i18n.selector(() => render()));
  i18n.apply();
  board = new Board($('board'), {
    onSquare: square, onDrag: dragged, onCancel: cancelEntry,
    describe: describe, onFocus: (n) => { $('announce').textContent = n ? describe(n) : ''; },
  });
  g.board = board;
  wire();
  placeReferee();
  watchNetwork();
  try {
    await refetch();
  } catch (e) {
    fatal(e);
    return;
  }
  $('game').hidden = false;
  setInterval(tick, 200);
}

// placeReferee puts what the referee says and asks (a warning, a pause,
// the choice between two captures, the decision on an illegal move) where
// the player looks. On a wide screen that is the head of the side column,
// beside the board; on a phone the side column comes after the board, its
// help and the typed move's box, and the referee's words were below the
// fold (at 390x844 a warning's first line showed, cut): there they go
// under the board, beside the error of a move, which leaves the board its
// size. The width is style.css's for two columns.
function placeReferee() {
  const wide = matchMedia('(min-width: 56rem)');
  const place = () => {
    if (wide.matches) $('mode-note').after($('referee'));
    else $('error').after($('referee'));
  };
  wide.addEventListener('change', place);
  place();
}

// ---- loading and live events ----

async function refetch() {
  if (g.refetching) return g.refetching;
  g.refetching = (async () => {
    // A loaded page asking again gives up on a silent network after a
    // while (resync tries again); the first load waits as long as it takes.
    const snap = await getJSON(base, g.started ? 15000 : 0);
    g.snap = snap;
    g.v = snap.v;
    g.role = snap.role;
    g.state = snap.state;
    g.moves = snap.moves || [];
    g.messages = snap.messages || [];
    g.speech = lastSpeech(g.messages);
    g.clockAt = g.snapAt = performance.now();
    if (!g.started) {
      g.started = true;
      // Black's view is upside down from the geometry's (row 0 is where
      // White promotes); the server says whose view each role gets.
      g.flipped = (snap.flipped_for || g.role) === 'black';
      board.setGeometry(snap.geometry);
    }
    // With its stream open the page is up to date again: a notice left by
    // a catch-up that failed goes, and the clocks run from these figures.
    if (g.es && g.es.readyState === EventSource.OPEN) conn(null);
    render();
    // A stream that is open goes on across a fetch (a rematch's link, a
    // gap in the versions; one the server ended reconnects by itself from
    // its last id): replacing it would tell both players that this one
    // went away and came back.
    if (!g.es || g.es.readyState === EventSource.CLOSED) listen();
  })().finally(() => { g.refetching = null; });
  return g.refetching;
}

function listen() {
  if (g.es) g.es.close();
  const es = new EventSource(`${base}/events?since=${g.v}`);
  g.es = es;
  // A stream silent for three of the server's beats (a phone in a tunnel:
  // no error, no offline event) is replaced, from the snapshot.
  const alive = heartbeat(es, () => {
    if (g.es !== es) return;
    g.es = null;
    conn('game.reconnecting');
    resync();
  });
  const handle = (e) => {
    alive();
    let ev;
    try { ev = JSON.parse(e.data); } catch (_) { return; }
    onEvent(ev);
  };
  for (const type of EVENT_TYPES) es.addEventListener(type, handle);
  es.addEventListener('reload', () => { alive(); resync(); });
  es.onopen = () => { conn(null); };
  es.onerror = () => {
    conn(navigator.onLine ? 'game.reconnecting' : 'game.offline');
    // The browser retries a dropped stream by itself; one it gave up on
    // (an error status: a revoked link, a full server) starts again from
    // the snapshot, which says what is wrong if it fails too.
    if (es.readyState === EventSource.CLOSED && g.es === es) {
      setTimeout(() => { if (g.es === es) { g.es = null; resync(); } }, 3000);
    }
  };
}

// watchNetwork follows the device's connection. A phone that loses its
// signal says so: its stream is dead though the page may not learn it for
// minutes, so it is closed and the notice says the connection is lost.
// Back online, the snapshot brings what happened meanwhile (the
// opponent's move, the clocks) and the stream opens again from there.
function watchNetwork() {
  addEventListener('offline', () => {
    if (g.es) g.es.close();
    g.es = null;
    conn('game.offline');
  });
  addEventListener('online', () => {
    // A stream that stayed open (a switch from Wi-Fi to mobile data with
    // no offline between) goes on; the snapshot checks nothing was missed.
    if (g.es && g.es.readyState === EventSource.OPEN) { refetch().catch(() => {}); return; }
    conn('game.reconnecting');
    resync();
  });
}

// resync loads the snapshot (and reopens the stream if it is closed): to
// come back from a lost connection, and to catch up with what the stream
// says the page lacks (a gap in the versions, the server's reload, a
// rematch's link). A failure for want of a network is the connection's:
// the notice says so, in the page's language, and the page tries again
// while the device says it is online (it said "TypeError: Failed to
// fetch" beside the board, or in place of the game). An answer of the
// server's about this link, such as a revoked link, is final.
function resync() {
  const at = performance.now();
  refetch().catch((e) => {
    if (e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 429) { fatal(e); return; }
    conn(navigator.onLine ? 'game.reconnecting' : 'game.offline');
    clearTimeout(g.retry);
    if (navigator.onLine) g.retry = setTimeout(() => { if (g.snapAt < at) resync(); }, 3000);
  });
}

// conn shows the connection notice with the catalog's key, or hides it
// (null). While it shows, the clocks stand and are marked as not current
// (Stand, tick). They run again from the server's figures: a snapshot
// taken since the notice came, asked for when there is none.
function conn(key) {
  notice(key);
  if (key) g.stand.lost();
  else if (!g.stand.back(g.snapAt)) resync();
  tick();
}

function onEvent(ev) {
  if (typeof ev.v !== 'number' || ev.v <= g.v) return; // already seen
  if (ev.v > g.v + 1) { resync(); return; } // a gap: the snapshot has it all
  g.v = ev.v;
  if (ev.state) { g.state = ev.state; g.clockAt = performance.now(); }
  if (ev.type === 'move') {
    const m = ev.move;
    if (!m || !m.text) { resync(); return; }
    g.moves.push(m);
    g.choose = null;
    // A move answers the referee's last words about the move before it
    // (a warning, a refused claim): they no longer stay on screen.
    if (g.speech && g.speech.type !== 'result') g.speech = null;
  }
  if (ev.type === 'rematch') resync(); // this player's link to it
  if (ev.type === 'reissue' && ev.msg && ev.msg.args && ev.msg.args.role === g.role) {
    // This page's own link was replaced: the snapshot will say it is gone.
    resync();
  }
  if (ev.msg && ev.msg.code) {
    g.messages.push(ev);
    if (speaks(ev)) g.speech = ev;
  }
  render();
}

// lastSpeech is what the referee said last that still stands (as onEvent
// leaves it: a move ends what was said before it), so that a page that
// catches up from the snapshot (back online, reloaded) shows what one that
// saw the events shows.
function lastSpeech(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const ev = messages[i];
    if (ev.type === 'move') return null;
    if (ev.msg && ev.msg.code && speaks(ev)) return ev;
  }
  return null;
}

// speaks reports whether an event is the referee addressing the players.
function speaks(ev) {
  return ['warning', 'illegal', 'claim', 'offer', 'decision', 'result', 'pause', 'annotation', 'resume-after-restart', 'rematch'].includes(ev.type);
}

// ---- sending ----

async function act(intent) {
  g.error = null;
  const moves = g.moves.length;
  try {
    const reply = await postJSON(`${base}/act`, intent);
    if (reply) handleReply(reply);
    return reply;
  } catch (e) {
    if (e instanceof ApiError) {
      const cands = candidates(e.body && e.body.error, e.body);
      if (cands.length > 1 && intent.kind === 'move') { g.choose = cands; render(); return null; }
      g.error = e;
    } else {
      // No answer at all (no network): the player is told what was not
      // sent and what to do, in their language, not the browser's words.
      // A move whose answer alone was lost did reach the server: when the
      // game shows a move after those it had (render), this goes.
      g.error = intent.kind === 'move' || intent.with_move
        ? { code: 'move.not_sent', args: { move: intent.move || intent.with_move }, moves }
        : { code: 'act.not_sent' };
    }
    render();
    return null;
  }
}

// handleReply applies the events of an accepted intent at once (the event
// stream brings the same ones; onEvent skips what it has seen).
function handleReply(reply) {
  for (const ev of reply.events || []) onEvent(ev);
  if (reply.link || reply.token) {
    $('arb-link').hidden = false;
    $('arb-link').textContent = reply.link || `${location.origin}/g/${reply.token}`;
  }
  render();
}

// candidates finds the moves the server says a text could mean (an
// ambiguous capture): a list field, or a comma-separated argument.
function candidates(...objs) {
  for (const o of objs) {
    if (!o) continue;
    for (const k of ['candidates', 'moves', 'matches']) {
      if (Array.isArray(o[k]) && o[k].every((x) => typeof x === 'string')) return o[k];
    }
    const a = o.args || (o.msg && o.msg.args);
    if (a && /ambiguous/.test(o.code || (o.msg && o.msg.code) || '')) {
      for (const k of ['choices', 'candidates', 'moves', 'matches']) {
        if (typeof a[k] === 'string') return a[k].split(/[,;]\s*|\s+/).filter(Boolean);
      }
    }
  }
  return [];
}

// sendMove sends a move once: until the server answers, the page says the
// move is on its way, shows it where it was entered, and takes no other
// (on a slow network a second tap must not play again). Refused or not
// sent, the board is the server's again.
async function sendMove(text, path) {
  if (g.sending) return;
  const intent = { kind: 'move', move: text };
  if (path) intent.path = path;
  // The refusal of the move before is answered by this one: it goes now,
  // not when the server answers (shown meanwhile, it read as this move's).
  g.error = null;
  g.sending = text;
  // The entry's last words ("32 selected: now the square...") are done
  // with: a screen reader would read them after the move as if still due.
  announce('');
  render();
  try {
    if ($('claim-with').checked) {
      $('claim-with').checked = false;
      await act({ kind: 'claim', claim: 'threefold', with_move: text });
    } else {
      await act(intent);
    }
  } finally {
    g.sending = null;
    g.sel = []; g.captured = [];
    render();
  }
}

// ---- move entry ----

const myColor = () => (isPlayer() ? g.role : null);
const canMove = () => isPlayer() && g.state && g.state.status !== 'over';
const pieceAt = (name) => ((g.state && g.state.board && g.state.board.pieces) || []).find((p) => p.sq === name);

function square(name) {
  if (!canMove() || g.sending) return;
  g.choose = null;
  const p = pieceAt(name);
  const sel = g.sel;
  if (sel.length === 0) {
    // Only one's own pieces are picked up; a typed move may name any.
    if (p && p.color === myColor()) { g.sel = [name]; announce(t('move.selected', { square: name })); }
    render();
    return;
  }
  const last = sel[sel.length - 1];
  if (name === last) {
    if (sel.length === 1) { cancelEntry(); return; }
    finish(); // the current landing again: the capture is complete
    return;
  }
  // A capture may come back through its own starting square (a circular
  // capture), which the moving piece has left.
  if (p && !g.captured.includes(name) && !(name === sel[0] && sel.length > 1)) {
    // Another piece of one's own: pick that one up instead. A click on an
    // opponent's piece is taken for a slip, not a move onto it.
    if (sel.length === 1 && p.color === myColor()) { g.sel = [name]; render(); return; }
    announce(t('move.land_empty'));
    return;
  }
  step(name);
}

function dragged(from, to) {
  if (!canMove() || g.sending) return;
  const sel = g.sel;
  if (sel.length === 0 || sel[sel.length - 1] !== from) { g.sel = []; g.captured = []; square(from); }
  if (g.sel.length) square(to);
}

// between lists the playable squares strictly between two squares on one
// line (a diagonal, a row or a column); empty when they are not on one.
function between(a, b) {
  const A = board.byName.get(a);
  const B = board.byName.get(b);
  if (!A || !B) return [];
  const dr = B.row - A.row;
  const dc = B.col - A.col;
  if (!(dr === 0 || dc === 0 || Math.abs(dr) === Math.abs(dc)) || (dr === 0 && dc === 0)) return [];
  const out = [];
  const n = Math.max(Math.abs(dr), Math.abs(dc));
  for (let i = 1; i < n; i++) {
    const s = board.byCell.get(`${A.row + i * Math.sign(dr)},${A.col + i * Math.sign(dc)}`);
    if (s) out.push(s.name);
  }
  return out;
}

// The presets whose pieces move and capture on diagonals only; any other
// game (orthogonal captures, custom rules) is searched in eight directions.
const DIAGONAL = new Set(['english', 'international', 'russian', 'brazilian', 'pool', 'czech', 'spanish',
  'portuguese', 'italian', 'thai', 'canadian', 'antidraughts', 'giveaway']);

// nextOnLine is the next playable square from (r, c) in direction (dr, dc),
// skipping cells that are not squares of the board (a column of a
// dark-squares board), or undefined off the board.
function nextOnLine(r, c, dr, dc) {
  const { width, height } = board.geo;
  for (r += dr, c += dc; r >= 0 && c >= 0 && r < height && c < width; r += dr, c += dc) {
    const s = board.byCell.get(`${r},${c}`);
    if (s) return s;
  }
  return undefined;
}

function step(name) {
  const sel = g.sel;
  const last = sel[sel.length - 1];
  const jumped = between(last, name).filter((s) => pieceAt(s) && !g.captured.includes(s) && s !== sel[0]);
  if (jumped.length === 0) {
    g.sel = [...sel, name];
    if (sel.length === 1) { sendMove(`${sel[0]}-${name}`, [sel[0], name]); return; }
    finish();
    return;
  }
  g.sel = [...sel, name];
  g.captured = [...g.captured, ...jumped];
  if (mayContinue(name)) {
    announce(t('move.continue'));
    render();
    return;
  }
  finish();
}

function finish() {
  const path = g.sel;
  const capture = g.captured.length > 0;
  sendMove(path.join(capture ? captureMark() : '-'), path);
}

// captureMark joins a capture's squares as the board's notation does: "x"
// for numbered squares (23x14x7), ":" for algebraic ones (c3:e5:g7), as
// Russian players write them and the record shows them.
function captureMark() {
  return algebraic() ? ':' : 'x';
}

function algebraic() {
  const sq = (g.snap && g.snap.geometry && g.snap.geometry.squares) || [];
  return sq.length > 0 && /^[a-z]/i.test(sq[0].name);
}

// mayContinue reports whether the capturing piece, now on sq, might take
// another piece: an unjumped opponent piece next to it (or, for a king, at
// the end of empty squares) with an empty square behind. It errs towards
// "yes" (the user then presses Send): the referee alone knows the rules,
// and a capture sent short of its end would be an illegal move. On a
// preset's diagonal board it heeds the variant's facts the server sends
// (snap.captures): a man that captures forward only looks forward (White
// towards row 0), a man crowned in a capture that goes on goes on as a
// king, a short king looks next to it only.
function mayContinue(sq) {
  const mover = pieceAt(g.sel[0]);
  if (!mover) return false;
  const from = board.byName.get(sq);
  const empty = (s) => s && (!pieceAt(s.name) || s.name === g.sel[0]);
  const dirs = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
  const preset = DIAGONAL.has(g.snap.variant) && !sv(setup(), 'rules');
  const cap = (preset && g.snap.captures) || {};
  const far = mover.color === 'white' ? 0 : board.geo.height - 1;
  const king = mover.king || (cap.promotion === 'continue' && g.sel.slice(1).some((n) => board.byName.get(n).row === far));
  const flying = !(king && cap.kings_fly === false);
  if (!preset) dirs.push([0, 1], [0, -1], [1, 0], [-1, 0]);
  for (const [dr, dc] of dirs) {
    if (!king && cap.men_backward === false && dr === (mover.color === 'white' ? 1 : -1)) continue;
    let s = nextOnLine(from.row, from.col, dr, dc);
    if (king && flying) while (s && empty(s)) s = nextOnLine(s.row, s.col, dr, dc);
    if (!s || empty(s)) continue;
    const q = pieceAt(s.name);
    if (!q || q.color === mover.color || g.captured.includes(s.name)) continue;
    if (empty(nextOnLine(s.row, s.col, dr, dc))) return true;
  }
  return false;
}

function cancelEntry() {
  g.sel = []; g.captured = [];
  announce('');
  render();
}

function announce(s) { $('announce').textContent = s; }

function describe(name) {
  const p = pieceAt(name);
  let s = t('board.square', { square: name });
  if (p) s += ', ' + t(`piece.${p.color}.${p.king ? 'king' : 'man'}`);
  if (g.sel.includes(name)) s += ', ' + t('board.selected');
  return s;
}

// ---- wiring the controls ----

function wire() {
  $('entry-done').addEventListener('click', finish);
  $('entry-cancel').addEventListener('click', cancelEntry);
  $('pdn-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const v = $('pdn-input').value.trim();
    if (!v || g.sending) return; // the text stays for when the move on its way is answered
    $('pdn-input').value = '';
    sendMove(v, null);
  });
  $('decide-correct').addEventListener('click', () => act({ kind: 'decide', correct: true }));
  $('decide-stand').addEventListener('click', () => act({ kind: 'decide', correct: false }));
  $('claim-rep').addEventListener('click', () => act({ kind: 'claim', claim: 'threefold' }));
  $('claim-n').addEventListener('click', () => act({ kind: 'claim', claim: nMoveClaim() }));
  $('offer').addEventListener('click', () => act({ kind: 'offer' }));
  $('accept').addEventListener('click', () => act({ kind: 'accept' }));
  $('decline').addEventListener('click', () => act({ kind: 'decline' }));
  $('resign').addEventListener('click', () => { $('resign-confirm').hidden = false; $('resign').hidden = true; $('resign-yes').focus(); });
  $('resign-no').addEventListener('click', () => { $('resign-confirm').hidden = true; $('resign').hidden = false; });
  $('resign-yes').addEventListener('click', () => {
    $('resign-confirm').hidden = true; $('resign').hidden = false;
    act({ kind: 'resign' });
  });
  $('flip').addEventListener('click', () => { g.flipped = !g.flipped; render(); });
  try { $('numbers').checked = localStorage.getItem('arbiter.numbers') === '1'; } catch (_) { /* storage may be off */ }
  $('numbers').addEventListener('change', () => {
    try { localStorage.setItem('arbiter.numbers', $('numbers').checked ? '1' : '0'); } catch (_) { /* ignore */ }
    render();
  });
  $('arb-pause').addEventListener('click', () => act({ kind: 'pause', text: '' }));
  $('arb-resume').addEventListener('click', () => act({ kind: 'resume' }));
  const form = (id, fn) => $(id).addEventListener('submit', (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    act(fn(f)).then((r) => { if (r) e.target.reset(); });
  });
  form('arb-time', (f) => ({ kind: 'add-time', color: f.get('color'), seconds: Number(f.get('seconds')), text: f.get('text') }));
  form('arb-declare', (f) => ({ kind: 'declare', outcome: f.get('outcome'), text: f.get('text') }));
  form('arb-note', (f) => ({ kind: 'annotate', text: f.get('text') }));
  form('arb-reissue', (f) => ({ kind: 'reissue', role: f.get('role') }));
  $('arb-egdb').addEventListener('click', askEndgame);
  $('pdn-link').href = `${base}/pdn`;
  $('after-pdn').href = `${base}/pdn`;
  $('rematch').addEventListener('click', async () => {
    $('rematch').disabled = true;
    try {
      const r = await postJSON(`${base}/rematch`, {});
      if (r && r.link) location.assign(r.link);
    } catch (e) {
      showError(e);
    } finally {
      $('rematch').disabled = false;
    }
  });
  $('after-copy').addEventListener('click', async () => {
    const input = $('after-fen');
    try { await navigator.clipboard.writeText(input.value); } catch (_) { input.select(); document.execCommand('copy'); }
    $('after-copy').textContent = t('links.copied');
  });
}

// nMoveClaim names the N-move rule of the game's variant.
function nMoveClaim() {
  const v = g.snap.variant || sv(setup(), 'variant') || 'english';
  return v === 'english' ? '40-move' : '25-move';
}

function claimsOn() {
  const s = setup();
  const d = sv(s, 'draws');
  if (d) return d === 'claim';
  // The variants' defaults: WCDF (English) claims, FMJD's automatic draws.
  const v = g.snap.variant || sv(s, 'variant') || '';
  return v === 'english' || !!sv(s, 'rules');
}

// ---- rendering ----

function render() {
  if (!g.snap) return;
  const st = g.state || {};
  const over = st.status === 'over';
  const s = setup();
  document.title = `${playerName('white')} – ${playerName('black')}`; // the built-in engine by its translated name
  $('role').textContent = t(`role.${g.role}`);
  $('role').className = `role role-${g.role}`;

  // The board: the pieces, the capture being entered, the hints.
  const pieces = ((st.board && st.board.pieces) || []).map((p) => ({ ...p }));
  if (g.sel.length > 1) {
    const mover = pieces.find((p) => p.sq === g.sel[0]);
    if (mover) mover.sq = g.sel[g.sel.length - 1];
  }
  let hints = [];
  // The state's list is the current one (the snapshot's is as it loaded).
  const legal = st.legal || (st === g.snap.state ? g.snap.legal : null) || [];
  if (legal.length && canMove() && st.turn === myColor()) {
    const parts = legal.map((m) => m.split(/[-x:]/));
    hints = g.sel.length === 0 ? parts.map((p) => p[0]) : parts.filter((p) => p[0] === g.sel[0]).map((p) => p[p.length - 1]);
  }
  board.set({
    flipped: g.flipped, numbers: $('numbers').checked, pieces, last: st.last,
    path: g.sel, faded: g.captured, hints, interactive: canMove() && !g.sending,
  });
  const wrap = $('board-wrap');
  const geo = g.snap.geometry;
  // The height left for the board is the window's less what style.css
  // reserves (--board-reserve) for the lines around it.
  wrap.style.maxWidth = `calc((100vh - var(--board-reserve)) * ${geo.width / geo.height})`;

  // The players' bars: the side at the bottom of the board below it.
  const bottom = g.flipped ? 'black' : 'white';
  bar($('bar-bottom'), bottom, st);
  bar($('bar-top'), other(bottom), st);

  // Entry of a capture step by step.
  $('entry').hidden = g.sel.length < 2 || !!g.sending;
  $('entry-text').textContent = g.sel.length > 1 ? t('move.entering', { path: g.sel.join(captureMark()) }) : '';
  $('pdn-form').hidden = !canMove();
  $('pdn-input').placeholder = moveExample();
  $('board-help').hidden = !canMove();

  // Result, pause, the referee's last words, errors.
  $('banner').hidden = !over;
  if (over) {
    // The result, then the referee's sentence about how it came
    // ("Black resigned."), translated, rather than the record's terms.
    const head = document.createElement('strong');
    head.textContent = resultHead(st);
    const why = document.createElement('span');
    why.className = 'reason';
    const ev = [...g.messages].reverse().find((m) => m.type === 'result' && m.msg);
    why.textContent = ev ? i18n.msg(ev.msg) : resultText(st);
    $('banner').replaceChildren(head, why);
  }
  renderAfter(st, over);
  $('turn').textContent = g.sending ? t('move.sending', { move: g.sending }) : turnText(st);
  $('turn').hidden = over;
  // A move on its way is no longer the player's to make: not shown as "yours".
  $('turn').className = `turn${isPlayer() && st.turn === g.role && st.status === 'running' && !g.sending ? ' yours' : ''}`;
  $('mode-note').textContent = modeText();
  $('paused').hidden = st.status !== 'paused';
  // Opponent-decides: the opponent of an illegal move chooses.
  const pd = st.pending_decision;
  const deciding = !!(pd && isPlayer() && pd.decider === g.role && !over);
  // The decision's box says the referee's words with its buttons: the
  // player who decides does not read them twice (on a phone the second
  // copy pushed the buttons below the fold).
  const asked = deciding && g.speech && g.speech.msg && g.speech.msg.code === 'decision.pending';
  // A draw offer to answer is asked the same way, its buttons beside the
  // board on a phone; they were with the other controls, below the fold.
  const offer = st.offer || '';
  const offered = isPlayer() && !over && offer !== '' && offer !== g.role;
  const askedOffer = offered && g.speech && g.speech.msg && g.speech.msg.code === 'offer.made';
  const sp = g.speech && !(over && g.speech.type === 'result') && !asked && !askedOffer ? g.speech : null;
  $('speech').hidden = !sp;
  if (sp) {
    // Only a new message is written: a live region re-reads what it is given.
    const text = eventText(sp);
    if ($('speech').textContent !== text) $('speech').textContent = text;
    $('speech').className = `speech speech-${sp.type}`;
  }
  if (g.error && g.error.moves !== undefined && g.moves.length > g.error.moves) g.error = null;
  $('error').hidden = !g.error;
  if (g.error) $('error').textContent = i18n.msg(g.error);

  // Choosing between captures.
  $('choose').hidden = !g.choose;
  const cl = $('choose-list');
  cl.replaceChildren();
  for (const m of g.choose || []) {
    const b = document.createElement('button');
    b.type = 'button'; b.textContent = m; b.className = 'cand';
    b.addEventListener('click', () => { g.choose = null; sendMove(m, m.split(/[-x:]/)); });
    cl.append(b);
  }

  $('decide').hidden = !deciding;
  if (pd) {
    // The referee's own words (translated) when the event is at hand.
    const ev = [...g.messages].reverse().find((m) => m.msg && m.msg.code === 'decision.pending');
    $('decide-text').textContent = ev ? i18n.msg(ev.msg) : `${t('decide.prompt', { move: pd.move })} ${pd.why || ''}`;
  }

  // The player's controls.
  $('controls').hidden = !isPlayer() || over;
  $('claims').hidden = !claimsOn();
  const rule = nMoveClaim();
  $('claim-n').textContent = t('claim.nmove', { rule: i18n.has(`value.${rule}`) ? t(`value.${rule}`) : rule });
  $('offer').hidden = offer !== '';
  $('offer-sent').hidden = offer !== g.role;
  $('offer-got').hidden = !offered;

  // The arbiter's panel.
  $('arbiter').hidden = g.role !== 'arbiter';
  $('arb-pause').hidden = st.status !== 'running';
  $('arb-resume').hidden = st.status !== 'paused';
  $('log-title').textContent = t(g.role === 'arbiter' ? 'log.record' : 'log.title');
  renderEndgame();

  renderMoves();
  renderLog();
  tick();
}

// playerName is the name of the side's player: the name given, the
// engine's (translated for the built-in one), or the colour.
function playerName(color) {
  const s = setup();
  const name = sv(s, color);
  const e = sv(s, 'engine');
  // The Hall names the engine's side after the engine when no name is given.
  if (e && g.snap.engine === color && (!name || name === e)) return i18n.has(`engine.${e}`) ? t(`engine.${e}`) : e;
  return name || t(`color.${color}`);
}

// moveExample is the typed move's example in the game's own notation: a
// Russian player shown "32-28" (numbers, the catalog's example) could not
// tell that this board's squares are c3 and d4.
function moveExample() {
  return algebraic() ? 'c3-d4, c3:e5' : t('move.placeholder');
}

// turnText says whose move it is, in words, for players and spectators.
function turnText(st) {
  if (!st || st.status === 'over') return '';
  if (st.status === 'paused') return t('game.paused');
  const pd = st.pending_decision;
  if (pd) {
    return isPlayer() && pd.decider === g.role ? t('turn.decide') : t('turn.deciding', { color: t(`color.${pd.decider}`) });
  }
  const c = st.turn;
  const color = t(`color.${c}`);
  const yours = isPlayer() && c === g.role;
  let s;
  if (yours) s = t('turn.yours');
  else if (g.snap.engine === c) s = t('turn.engine', { color });
  else s = t('turn.side', { color });
  const su = setup();
  if (st.ply === 0 && !sv(su, 'fen') && !sv(su, 'opening') && !sv(su, 'rules')) {
    const v = g.snap.variant;
    const variant = i18n.has(`variant.${v}`) ? t(`variant.${v}`) : v;
    // "Your move" says who starts; "White to move" has said it: the
    // variant alone follows ("Ходят Белые: начинают Белые" said it twice).
    // Joined by the catalog: French sets a space before the colon.
    s = t('turn.with_start', { turn: s, start: yours ? t('turn.starts', { color, variant }) : variant });
  }
  return s;
}

// modeText says how the referee treats an illegal move in this game.
function modeText() {
  const su = setup();
  if (sv(su, 'mode') === 'friendly') return t('game.friendly');
  // The policy in force (the variant's when left to it), not "the
  // federation's": a player should know before the first illegal move.
  const p = sv(su, 'policy') || g.snap.policy;
  return t('game.tournament', { policy: p && i18n.has(`policy.${p}`) ? i18n.midSentence(t(`policy.${p}`)) : t('game.policy_default') });
}

// renderAfter shows, once the game is over, the rematch, the record and
// the final position to analyse.
function renderAfter(st, over) {
  $('after').hidden = !over;
  $('pdn-link').hidden = over; // the after-game box has it
  if (!over) return;
  const player = isPlayer() && g.snap.engine !== g.role;
  const link = g.snap.rematch ? `${location.origin}/g/${encodeURIComponent(g.snap.rematch)}` : '';
  $('rematch').hidden = !player || !!link;
  $('rematch-link').hidden = !link;
  if (link) {
    $('rematch-link').href = link;
    $('rematch-link').textContent = t('after.rematch_open', { color: t(`color.${other(g.role)}`) });
  }
  if ($('after-fen').value !== st.fen) $('after-fen').value = st.fen || '';
}

function bar(el, color, st) {
  const s = setup();
  const toMove = st.turn === color && st.status === 'running';
  el.className = `player player-${color}${toMove ? ' to-move' : ''}`;
  el.querySelector('.to-move-mark').hidden = !toMove;
  el.dataset.color = color;
  el.querySelector('.pname').textContent = `${playerName(color)}${g.role === color ? ` (${t('game.you')})` : ''}`;
  const pres = st.presence || {};
  // Never the player's own bar: until its stream is open the server has
  // not seen the page that shows it (a slow phone read "away" beside its
  // own name); a page that loses the server says so in its header.
  el.querySelector('.away').hidden = pres[color] !== false || g.role === color;
  const w = (st.warnings || {})[color] || 0;
  el.querySelector('.warn-count').textContent = w ? t('game.warnings', { n: w }) : '';
}

function tick() {
  const st = g.state;
  if (!st) return;
  const c = st.clocks;
  // Not connected, the clocks stand where they were when the connection
  // went (or at the figures of a snapshot taken since), marked as not
  // current (conn).
  const now = g.stand.now(g.clockAt);
  for (const id of ['bar-top', 'bar-bottom']) {
    const el = $(id);
    const color = el.dataset.color;
    const clk = el.querySelector('.clock');
    if (!c || !c.timed) { clk.hidden = true; continue; }
    clk.hidden = false;
    let ms = c[color];
    // A fallen flag reads 0 whatever the clock held when the move began.
    const flagged = st.status === 'over' && st.termination === 'time forfeit' &&
      ((color === 'white' && /^0-/.test(st.result || '')) || (color === 'black' && /-0$/.test(st.result || '')));
    if (flagged) ms = 0;
    const running = c.running === color && st.status === 'running';
    if (running) ms -= now - g.clockAt;
    clk.textContent = fmtClock(ms, { tenths: true });
    clk.classList.toggle('running', running);
    clk.classList.toggle('low', ms < 20000);
    g.stand.mark(clk);
  }
}

function resultHead(st) {
  const r = st.result || '';
  const who = { '1-0': 'result.white_wins', '2-0': 'result.white_wins', '0-1': 'result.black_wins', '0-2': 'result.black_wins',
    '1/2-1/2': 'result.draw', '1-1': 'result.draw' }[r];
  return who ? `${t(who)} (${r})` : r;
}

function resultText(st) {
  const r = st.result || '';
  const term = st.termination || '';
  // PDN results, and the wide forms some variants use (2-0, 0-2, 1-1).
  const who = { '1-0': 'result.white_wins', '2-0': 'result.white_wins', '0-1': 'result.black_wins', '0-2': 'result.black_wins',
    '1/2-1/2': 'result.draw', '1-1': 'result.draw' }[r];
  return resultLine(who ? t(who) : r, r, term);
}

function resultLine(who, r, term) {
  const key = `termination.${term}`;
  const why = term ? (i18n.has(key) ? t(key) : term) : '';
  return why ? `${who} (${r}): ${why}` : `${who} (${r})`;
}

function eventText(ev) {
  return i18n.msg(ev.msg);
}

function renderMoves() {
  const ol = $('moves');
  ol.replaceChildren();
  let li = null;
  const first = g.moves.length ? g.moves[0].color : null;
  for (const m of g.moves) {
    if (!li || m.color === first) {
      li = document.createElement('li');
      ol.append(li);
      if (m.color !== first) li.append(document.createTextNode('… '));
    }
    const span = document.createElement('span');
    span.className = 'mv';
    span.textContent = m.text;
    li.append(span, document.createTextNode(' '));
  }
  ol.scrollTop = ol.scrollHeight;
}

function renderLog() {
  const ol = $('log');
  ol.replaceChildren();
  for (const ev of g.messages) {
    if (!ev.msg) continue;
    // The move list has the moves; the log keeps the referee's words (and
    // an illegal move that was let stand).
    if (ev.type === 'move' && !(ev.move && ev.move.illegal)) continue;
    const li = document.createElement('li');
    li.className = `ev ev-${ev.type}`;
    li.dataset.type = ev.type;
    li.dataset.code = ev.msg.code || '';
    li.textContent = eventText(ev);
    ol.append(li);
  }
  // A heading over nothing reads as something missing: a spectator, to
  // whom the referee has said nothing yet, sees no "Referee" at all.
  const empty = ol.children.length === 0;
  ol.hidden = empty;
  $('log-title').hidden = empty;
  ol.scrollTop = ol.scrollHeight;
}

// fatal replaces the page with an error (a link that no longer works). A
// failure without the server's word (no network on the first load; a
// proxy's bare 502) says so in the page's language, not the browser's.
function fatal(e) {
  if (g.es) g.es.close();
  g.es = null;
  clearTimeout(g.retry);
  $('game').hidden = true;
  $('conn').hidden = true;
  $('role').textContent = ''; // the link acts for no role now
  $('fatal').hidden = false;
  $('fatal').textContent = e instanceof ApiError && e.code ? i18n.msg(e) : t('game.unreachable');
}

// askEndgame asks the server's endgame databases for the value of the
// current position: the arbiter's link only (the server answers any other
// link's question as an unknown link's). The answer stands until the next
// move.
async function askEndgame() {
  $('arb-egdb').disabled = true;
  try {
    const a = await getJSON(`${base}/egdb`);
    g.egdb = { at: g.moves.length, a };
    render();
  } catch (e) {
    g.egdb = null;
    showError(e);
  } finally {
    $('arb-egdb').disabled = false;
  }
}

// renderEndgame shows the database's answer: who wins with perfect play
// and what each move gives, or why the position is not in it.
function renderEndgame() {
  const e = g.egdb;
  const out = $('arb-egdb-out');
  out.hidden = !e || e.at !== g.moves.length || g.role !== 'arbiter';
  if (out.hidden) return;
  const a = e.a;
  let text;
  if (a.value === 'unknown') {
    // No database: say what the server's operator does, the commands as
    // typed (they are not translated).
    // A variant no database can hold (Frisian, Turkish): nothing to build.
    text = a.held ? t('egdb.unknown', { pieces: a.pieces, held: a.held })
      : a.possible === false ? t('egdb.impossible', { doc: 'docs/egdb.md' })
      : t('egdb.none', { build: 'arbiter egdb build', serve: 'arbiter serve --egdb DIR', doc: 'docs/egdb.md' });
  } else if (a.value === 'draw') {
    text = t('egdb.draw', { pieces: a.pieces });
  } else {
    const turn = a.fen.startsWith('B') ? 'black' : 'white';
    const winner = a.value === 'win' ? turn : other(turn);
    text = t('egdb.wins', { color: t(`color.${winner}`), pieces: a.pieces });
  }
  $('arb-egdb-value').textContent = text;
  const moves = (a.moves || []).map((m) => `${m.move} ${t(`egdb.move_${m.value}`)}`).join(', ');
  $('arb-egdb-moves').textContent = moves ? t('egdb.moves', { moves }) : '';
  $('arb-egdb-moves').hidden = !moves;
}

// showError shows why a request of the player's failed (the rematch, the
// endgame database): the server's answer, or that it was not sent, in the
// page's language.
function showError(e) {
  g.error = e instanceof ApiError ? e : { code: 'act.not_sent' };
  render();
}

main();
