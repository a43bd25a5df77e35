// player-links.js: the director's printable sheets of the players' links,
// each with its QR code: the pairing sheet with each board's two result
// links (/d/{dtoken}/round/{n}/links), or the check-in links of every
// player and the tablet's (/d/{dtoken}/checkin-links).

import * as i18n from './i18n.js';
import { getJSON } from './api.js';
import { $, el } from './dom.js';

const { t } = i18n;
const parts = location.pathname.split('/');
const token = decodeURIComponent(parts[2] || '');
const round = parts[3] === 'round' ? Number(parts[4]) : 0;
const api = round ? `/api/d/${encodeURIComponent(token)}/round/${round}/links` : `/api/d/${encodeURIComponent(token)}/checkin-links`;
let data = null;

// side is one link on a slip: who, the QR code (server-made SVG), the URL.
function side(label, name, link) {
  const d = el('div', { class: 'side' });
  d.append(el('div', { text: label }), el('div', { class: 'name', text: name }));
  const q = el('div', { class: 'qr-box' });
  q.innerHTML = link.qr; // an <svg> from internal/qr: modules only
  const svg = q.querySelector('svg');
  if (svg) svg.setAttribute('aria-label', t('links.qr_for', { name }));
  d.append(q, el('div', { class: 'url', text: link.link }));
  return d;
}

function render() {
  const slips = $('slips');
  slips.replaceChildren();
  // Links on loopback: no phone opens them; said before printing, not printed.
  $('local').hidden = !data.local_only;
  $('local').textContent = data.local_only ? t('atb.local_only', { cmd: 'arbiter serve --addr :8080' }) : '';
  if (round) {
    $('title').textContent = t('links.results_title', { round: data.round });
    $('subtitle').textContent = `${data.event} · ${t('links.results_help')}`;
    for (const b of data.boards) {
      const s = el('section', { class: 'slip' });
      s.dataset.board = b.board;
      s.append(el('h2', { text: t('links.board', { board: b.board, round: data.round }) }));
      const sides = el('div', { class: 'sides' });
      sides.append(side(t('color.white'), `${b.white.name} (${b.white.number})`, b.white),
        side(t('color.black'), `${b.black.name} (${b.black.number})`, b.black));
      s.append(sides);
      slips.append(s);
    }
  } else {
    $('title').textContent = data.round ? t('links.checkin_title', { round: data.round }) : t('checkin.role');
    $('subtitle').textContent = `${data.event} · ${t('links.checkin_help')}`;
    const tab = el('section', { class: 'slip wide' });
    tab.id = 'tablet-slip';
    tab.append(el('h2', { text: t('links.tablet') }));
    const sides = el('div', { class: 'sides' });
    sides.append(side(t('links.tablet_for'), data.event, data.tablet));
    tab.append(sides);
    slips.append(tab);
    for (const p of data.players) {
      const s = el('section', { class: 'slip wide' });
      s.dataset.player = p.id;
      s.append(el('h2', { text: t('links.checkin_for', { name: p.name, number: p.number }) }));
      const sd = el('div', { class: 'sides' });
      sd.append(side(t('checkin.role'), `${p.name} (${p.number})`, p));
      s.append(sd);
      slips.append(s);
    }
  }
  document.title = `${$('title').textContent}: ${data.event}`;
}

async function main() {
  await i18n.init();
  $('langbox').append(i18n.selector(() => { if (data) render(); }));
  i18n.apply();
  $('back').href = `/d/${encodeURIComponent(token)}`;
  $('print').addEventListener('click', () => window.print());
  try {
    data = await getJSON(api);
  } catch (e) {
    const box = $('load-error');
    box.textContent = i18n.msg(e);
    box.hidden = false;
    return;
  }
  $('sheet').hidden = false;
  render();
}

main();
