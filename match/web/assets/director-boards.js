// director-boards.js: the "Players at the boards" part of the director's
// page: what the players reported on the open round's boards (a
// disagreement flagged, settled by one click), the check-in of the next
// round (a zero-point bye for the absent in one action), and the links to
// the printed sheets of the players' links and to the live boards page.
// director.js sends 'director:render' with the view and its op function
// after each render; this module draws its section from that view.

import * as i18n from './i18n.js';
import { $, el } from './dom.js';

const { t } = i18n;

function render(view, op) {
  const ab = view.at_boards;
  const box = $('at-boards');
  if (!box || !ab) return;
  box.hidden = false;
  const players = new Map((view.players || []).map((p) => [p.id, p]));
  const pname = (id) => { const p = players.get(id); return p ? `${p.name} (${p.number})` : '?'; };
  const label = (o) => (view.labels && view.labels[o]) || o;
  const word = (o) => ({ '1-0': t('report.white_won'), '0-1': t('report.black_won'), '=-=': t('report.draw') }[o] || o);

  // The links.
  const links = $('atb-links');
  links.replaceChildren();
  // Links on loopback open on this computer only: say so before anyone
  // prints QR codes the players' phones cannot open.
  if (ab.local_only) links.append(el('p', { class: 'warn', id: 'atb-local', text: t('atb.local_only', { cmd: 'arbiter serve --addr :8080' }) }));
  if (ab.sheet) links.append(el('a', { href: ab.sheet, id: 'atb-sheet', text: t('atb.sheet', { round: ab.round }) }));
  if (ab.live) links.append(el('a', { href: ab.live, id: 'atb-live', text: t('atb.live') }));
  links.append(el('a', { href: ab.checkin, id: 'atb-checkin-links', text: t('atb.checkin_links') }));

  // The players' reports.
  const rep = $('atb-reports');
  rep.replaceChildren();
  const rd = ab.round ? (view.rounds || [])[ab.round - 1] : null;
  const claims = ab.claims || {};
  const rows = [];
  const flags = [];
  if (rd) {
    for (const b of rd.boards) {
      const c = claims[b.board];
      if (!c) continue;
      const done = b.white_result && b.black_result;
      const key = `${ab.round}.${b.board}`;
      const res = (view.results || {})[key];
      const tr = el('tr', { 'data-board': b.board, class: c.disputed ? 'disputed' : '' },
        el('td', { class: 'num', text: String(b.board) }),
        el('td', { text: pname(b.white) }), el('td', { text: pname(b.black) }),
        el('td', { text: c.white ? `${word(c.white)} (${label(c.white)})` : '–' }),
        el('td', { text: c.black ? `${word(c.black)} (${label(c.black)})` : '–' }));
      const act = el('td');
      // The buttons that record one side's word: in the row, and for a
      // disagreement also in a flag above the table (it wraps on a phone).
      const buttons = () => [...new Set([c.white, c.black].filter((x) => x))].map((o) => el('button', {
        type: 'button', 'data-outcome': o, text: t('atb.record', { result: label(o) }),
        onclick: () => op('result', { round: ab.round, board: b.board, result: o }),
      }));
      if (done) {
        act.append(el('span', { text: t('atb.recorded', { label: res ? res.label : '' }) }));
      } else {
        if (c.disputed) {
          act.append(el('span', { class: 'atb-flag', text: t('atb.disputed') }), ' ', ...buttons());
          flags.push(el('p', { class: 'atb-dispute buttons', 'data-board': b.board },
            el('span', { class: 'atb-flag', text: t('atb.dispute_line', { board: b.board, white: pname(b.white), black: pname(b.black),
              wsays: word(c.white), bsays: word(c.black) }) }), ...buttons()));
        } else {
          act.append(...buttons());
        }
      }
      tr.append(act);
      rows.push(tr);
    }
  }
  $('atb-reports-box').hidden = !rd;
  $('atb-reports-title').textContent = rd ? t('atb.reports_title', { round: ab.round }) : '';
  $('atb-none').hidden = rows.length > 0;
  rep.append(...rows);
  $('atb-disputes').replaceChildren(...flags);

  // The check-in.
  const arr = ab.arrivals || { round: 0, expected: [], in: {} };
  const ci = $('atb-checkin');
  ci.hidden = !arr.round;
  if (!arr.round) return;
  $('atb-checkin-title').textContent = t('atb.checkin_title', { round: arr.round });
  const inMap = arr.in || {};
  const late = new Set(arr.late || []); // given the bye for absence; may still check in
  const absent = arr.expected.filter((id) => !inMap[id] && !late.has(id));
  let count = t('atb.count', { n: Object.keys(inMap).filter((id) => arr.expected.includes(Number(id))).length, of: arr.expected.length });
  if (absent.length > 0 && absent.length <= 10 && absent.length < arr.expected.length) count += ' ' + t('atb.missing', { names: absent.map(pname).join(', ') });
  $('atb-count').textContent = count;
  const ul = $('atb-arrivals');
  ul.replaceChildren();
  for (const id of arr.expected) {
    const how = inMap[id];
    const li = el('li', { 'data-player': id, class: how ? 'in' : '' }, el('span', { class: 'who', text: pname(id) }));
    li.append(el('span', { class: 'help', text: how ? t(`atb.how.${how}`) : t(late.has(id) ? 'atb.absent_bye' : 'atb.absent') }));
    li.append(el('button', {
      type: 'button', text: how ? t('atb.undo_checkin') : t('atb.do_checkin'),
      onclick: () => op('check-in', { player: id, kind: how ? 'out' : 'in' }),
    }));
    ul.append(li);
  }
  const bye = $('atb-absent-byes');
  bye.textContent = t('atb.absent_byes', { n: absent.length });
  bye.disabled = absent.length === 0 || Object.keys(inMap).length === 0;
  bye.onclick = () => op('absent-byes', {});
}

document.addEventListener('director:render', (e) => render(e.detail.view, e.detail.op));
