// director-ratings.js: the "Rating changes" part of the director's page
// (issue 25): each rated player's change per round and in total, and the
// performance, under the FIDE Rating Regulations (B.02, art. 8.3; see
// reports/rating), with the CSV for the federation and the rating-list
// import. director.js sends 'director:render' with the view after each
// render; this module draws its section from view.ratings.

import * as i18n from './i18n.js';
import { ApiError } from './api.js';
import { $, el } from './dom.js';

const { t } = i18n;
const token = location.pathname.split('/')[2] || '';

const signed = (x, digits) => (x > 0 ? '+' : x < 0 ? '−' : '±') + i18n.decimal(Math.abs(x), digits);

function box() {
  let b = $('ratings-box');
  if (b) return b;
  const after = $('standings-box');
  if (!after) return null;
  const file = el('input', { type: 'file', id: 'rl-file', accept: '.csv,text/csv' });
  const status = el('p', { id: 'rl-status', class: 'help', role: 'status' });
  file.addEventListener('change', async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    const res = await fetch(`/api/d/${token}/ratinglist`, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: await f.text() });
    const body = await res.json().catch(() => null);
    if (!res.ok) {
      // The arbiter's refusal, every problem of the list in the reader's
      // language (it showed the HTTP status's English words, "Bad
      // Request": the message is under body.error, not body.text).
      const problems = (body && body.problems) || [];
      status.textContent = problems.length ? problems.map(i18n.msg).join('; ') : i18n.msg(new ApiError(res.status, body));
      return;
    }
    status.textContent = t('rat.imported');
    if (window.arbiterDirector) window.arbiterDirector.guarded = false; // the players' table is director.js's: load the page again
    location.reload();
  });
  // The section is built once: its fixed texts carry their keys
  // (data-i18n), so that a switch of language (i18n.apply) redraws them
  // with the rest of the page; they stayed in the first language.
  const fixed = (tag, key, attrs = {}) => el(tag, { ...attrs, 'data-i18n': key, text: t(key) });
  b = el('section', { id: 'ratings-box' },
    fixed('h2', 'rat.title'),
    fixed('p', 'rat.note', { id: 'ratings-note', class: 'help' }),
    el('div', { class: 'table-box' }, el('table', { id: 'ratings', class: 'dir-table' }, el('thead'), el('tbody'))),
    fixed('h3', 'rat.initial_title', { id: 'initial-title', hidden: true }),
    el('ul', { id: 'initial' }),
    el('p', {}, fixed('a', 'rat.csv', { id: 'ratings-csv', href: `/d/${token}/ratings.csv` })),
    el('label', { for: 'rl-file' }, fixed('span', 'rat.list'), ' '), file, status);
  after.after(b);
  return b;
}

function render(view) {
  const rs = view.ratings;
  const b = box();
  if (!b || !rs) return;
  const rounds = (view.rounds || []).map((r) => r.n);
  const table = $('ratings');
  table.querySelector('thead').replaceChildren(el('tr', {},
    el('th', { text: t('rat.no') }), el('th', { text: t('rat.name') }), el('th', { text: t('rat.rating') }), el('th', { text: 'K' }),
    ...rounds.map((n) => el('th', { text: t('rat.round', { round: n }) })),
    el('th', { text: t('rat.change') }), el('th', { text: t('rat.performance') })));
  table.querySelector('tbody').replaceChildren(...rs.lines.map((l) => {
    const per = new Map(l.rounds.map((g) => [g.round, g.change]));
    return el('tr', { 'data-player': String(l.player) },
      el('td', { text: String(l.number || '') }), el('td', { text: l.name }), el('td', { text: String(l.rating) }), el('td', { class: 'k', 'data-k-from': l.k_from, title: t(`rat.k_${l.k_from}`), text: String(l.k) }),
      ...rounds.map((n) => el('td', { class: 'num', text: per.has(n) ? signed(per.get(n), 1) : '' })),
      el('td', { class: 'num rating-change', text: l.rounds.length ? `${signed(l.change, 0)} (${signed(l.total, 1)})` : '' }),
      el('td', { class: 'num', text: l.rounds.length ? String(l.performance) : '' }));
  }));
  if (!rs.lines.length) table.querySelector('tbody').append(el('tr', {}, el('td', { colspan: String(6 + rounds.length), text: t('rat.none') })));
  // Unrated players who met rated ones: the initial rating so far (art. 8.2).
  const initial = rs.initial || [];
  $('initial-title').hidden = !initial.length;
  $('initial').replaceChildren(...initial.map((l) => el('li', { 'data-player': String(l.player),
    text: t(l.rating ? 'rat.initial' : `rat.initial_${l.none}`, { name: l.name, rating: l.rating, games: l.games }) })));
}

document.addEventListener('director:render', (e) => render(e.detail.view));
