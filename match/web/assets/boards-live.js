// boards-live.js: the live boards page of a round (/e/{id}/round/{n}/boards):
// every board with its players and its result as it comes in, and the
// position of each game played online, drawn with the web referee's board
// (board.js). The server streams "snapshot" (the whole round) and "board"
// (one game's new state).

import * as i18n from './i18n.js';
import { Board } from './board.js';
import { $, el } from './dom.js';
import { Stream } from './beat.js';

const { t } = i18n;
const parts = location.pathname.split('/');
const id = decodeURIComponent(parts[2] || '');
const round = Number(parts[4]);
const api = `/api/e/${encodeURIComponent(id)}/round/${round}/boards`;
const L = { snap: null, cards: new Map(), es: null, stream: null };
window.arbiterBoards = L; // for the browser tests and the curious

function card(b) {
  let c = L.cards.get(b.board);
  if (c) return c;
  const art = el('article', { class: 'live-board' });
  art.dataset.board = b.board;
  const h = el('h2');
  h.append(el('span', { class: 'title' }), el('span', { class: 'res' }));
  art.append(h, el('p', { class: 'pl pl-black' }));
  let board = null;
  if (b.game && L.snap.geometry) {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('class', 'board');
    art.append(svg);
    board = new Board(svg, { describe: (n) => t('board.square', { square: n }) });
    // A board to look at: not a control, not in the tab order.
    svg.setAttribute('role', 'img');
    svg.setAttribute('tabindex', '-1');
    board.setGeometry(L.snap.geometry);
  }
  const white = el('p', { class: 'pl pl-white' });
  // White below the board as it is drawn; White first without one.
  if (board) art.append(white);
  else art.querySelector('.pl-black').before(white);
  art.append(el('p', { class: 'over-board' }));
  c = { el: art, board };
  L.cards.set(b.board, c);
  return c;
}

function renderBoard(b) {
  const c = card(b);
  const a = c.el;
  a.querySelector('.title').textContent = t('boards.board', { board: b.board });
  const res = a.querySelector('.res');
  const g = b.game;
  const over = g && g.status === 'over';
  res.textContent = b.label || (over ? g.result : t(g ? 'boards.playing' : 'boards.pending'));
  res.classList.toggle('pending', !b.label && !over);
  for (const side of ['white', 'black']) {
    const p = a.querySelector(`.pl-${side}`);
    p.textContent = `${t(`color.${side}`)}: ${b[side].name} (${b[side].number})`;
    p.classList.toggle('to-move', !!g && g.status === 'running' && g.turn === side);
  }
  a.querySelector('.over-board').textContent = g ? '' : t('boards.over_board');
  if (c.board && g) {
    c.board.set({ pieces: (g.board && g.board.pieces) || [], last: g.last || null });
    c.board.svg.setAttribute('aria-label', t('boards.position', { board: b.board }));
  }
}

function render() {
  const s = L.snap;
  $('ev-name').textContent = s.event;
  $('title').textContent = t('boards.title', { round: s.round });
  document.title = `${t('boards.title', { round: s.round })}: ${s.event}`;
  const nav = $('rounds');
  nav.replaceChildren();
  for (let n = 1; n <= s.rounds; n++) {
    const a = el('a', { text: t('boards.round', { round: n }) });
    a.href = `/e/${encodeURIComponent(id)}/round/${n}/boards${i18n.sheetQuery()}`;
    if (n === s.round) a.setAttribute('aria-current', 'page');
    nav.append(a);
  }
  const pairings = el('a', { text: t('boards.pairings') });
  // The sheets open in the page's language (sheetQuery).
  pairings.href = `/e/${encodeURIComponent(id)}/round/${s.round}${i18n.sheetQuery()}`;
  $('home').href = `/e/${encodeURIComponent(id)}${i18n.sheetQuery()}`;
  nav.append(pairings);
  const done = s.boards.filter((b) => b.label).length;
  $('progress').textContent = t('boards.progress', { n: done, of: s.boards.length });
  const box = $('boards');
  const want = s.boards.map((b) => card(b).el);
  box.replaceChildren(...want);
  for (const b of s.boards) renderBoard(b);
}

// listen follows each of the round's streams (Stream: one silent for
// three of the server's beats, or lost with the device's network, is
// replaced), whose snapshot brings the page up to date.
function listen(es, alive) {
  L.es = es;
  es.addEventListener('snapshot', (e) => {
    alive();
    const s = JSON.parse(e.data);
    if (L.snap && JSON.stringify(L.snap.geometry) !== JSON.stringify(s.geometry)) L.cards.clear();
    for (const b of s.boards) {
      const c = L.cards.get(b.board);
      if (c && !!c.board !== !!(b.game && s.geometry)) L.cards.delete(b.board);
    }
    L.snap = s;
    $('main').hidden = false;
    render();
  });
  es.addEventListener('board', (e) => {
    alive();
    const u = JSON.parse(e.data);
    const b = L.snap && L.snap.boards.find((x) => x.board === u.board);
    if (!b) return;
    b.game = u.game;
    renderBoard(b);
  });
  es.addEventListener('reload', () => { L.stream.reopen(500); });
}

async function main() {
  await i18n.init();
  $('langbox').append(i18n.selector(() => { if (L.snap) render(); }));
  i18n.apply();
  $('home').href = `/e/${encodeURIComponent(id)}${i18n.sheetQuery()}`;
  const r = await fetch(api, { headers: { Accept: 'application/json' } });
  if (!r.ok) {
    const box = $('load-error');
    box.textContent = t('boards.unknown');
    box.hidden = false;
    return;
  }
  L.snap = await r.json();
  $('main').hidden = false;
  render();
  L.stream = new Stream(`${api}/events`, listen);
  L.stream.start();
}

main();
