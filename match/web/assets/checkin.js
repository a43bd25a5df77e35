// checkin.js: a check-in link (/c/{pass}): a player's own ("I am here"),
// or the event's tablet, where each player finds their name and taps it.
// The check-in is for the next round to pair.

import * as i18n from './i18n.js';
import { getJSON, postJSON, ApiError } from './api.js';
import { $ } from './dom.js';

const { t } = i18n;
const pass = decodeURIComponent(location.pathname.split('/')[2] || '');
const api = `/api/c/${encodeURIComponent(pass)}`;
const state = { v: null, busy: false, last: null };

function render() {
  const v = state.v;
  $('ev-name').textContent = v.event;
  $('title').textContent = v.open ? t('checkin.title', { round: v.round }) : t('checkin.role');
  document.title = `${$('title').textContent}: ${v.event}`;
  const st = $('status');
  st.className = 'status';
  $('mine').hidden = v.tablet || !v.open;
  $('tablet').hidden = !v.tablet || !v.open;
  if (!v.open) {
    st.textContent = t('checkin.no_round');
  } else if (!v.tablet) {
    const p = v.players[0];
    st.textContent = p.checked_in ? t('checkin.done', { name: p.name, round: v.round }) : t('checkin.not_yet', { name: p.name, round: v.round });
    st.classList.toggle('ok', p.checked_in);
    $('here').hidden = p.checked_in;
  } else {
    const n = v.players.filter((p) => p.checked_in).length;
    st.textContent = state.last ? t('checkin.done', { name: state.last, round: v.round }) : t('checkin.count', { n, of: v.players.length });
    st.classList.toggle('ok', !!state.last);
    renderList();
  }
}

function renderList() {
  const v = state.v;
  const f = $('filter').value.trim().toLowerCase();
  const ul = $('arrivals');
  ul.replaceChildren();
  for (const p of v.players) {
    if (f && !p.name.toLowerCase().includes(f) && String(p.number) !== f) continue;
    const li = document.createElement('li');
    li.classList.toggle('in', p.checked_in);
    li.dataset.player = p.id;
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = `${p.number}. ${p.name}` + (p.club ? ` (${p.club})` : '');
    li.append(who);
    if (p.checked_in) {
      const s = document.createElement('span');
      s.className = 'help';
      s.textContent = t('checkin.present');
      li.append(s);
    } else {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = t('checkin.here');
      b.setAttribute('aria-label', t('checkin.here_for', { name: p.name }));
      b.addEventListener('click', () => checkIn(p.id, p.name));
      li.append(b);
    }
    ul.append(li);
  }
}

function showError(e) {
  const box = $('error');
  box.hidden = !e;
  if (e) box.textContent = i18n.msg(e instanceof ApiError ? e : { text: String(e) });
}

async function checkIn(player, name) {
  if (state.busy) return;
  state.busy = true;
  try {
    state.v = await postJSON(api, { player });
    state.last = name || null;
    $('filter').value = ''; // the next player starts from the whole list
    showError(null);
  } catch (e) {
    showError(e);
  } finally {
    state.busy = false;
    render();
  }
}

async function main() {
  await i18n.init();
  $('langbox').append(i18n.selector(() => { if (state.v) render(); }));
  i18n.apply();
  try {
    state.v = await getJSON(api);
  } catch (e) {
    const box = $('load-error');
    box.textContent = e instanceof ApiError && e.status === 404 ? t('report.unknown_link') : i18n.msg(e);
    box.hidden = false;
    return;
  }
  $('here').addEventListener('click', () => checkIn(0, null));
  $('filter').addEventListener('input', () => { state.last = null; render(); });
  $('checkin').hidden = false;
  render();
}

main();
