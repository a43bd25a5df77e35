// board-report.js: a board's result link (/r/{pass}): the player sees the
// board, chooses the result and sends it; the page says what each side
// reported and whether the result is recorded or the director decides.

import * as i18n from './i18n.js';
import { getJSON, postJSON, ApiError } from './api.js';
import { $ } from './dom.js';

const { t } = i18n;
const pass = decodeURIComponent(location.pathname.split('/')[2] || '');
const api = `/api/r/${encodeURIComponent(pass)}`;
const state = { v: null, chosen: '', busy: false };

// word names an outcome from White's side: "White won", "Draw", ...
function word(o) {
  return t({ '1-0': 'report.white_won', '0-1': 'report.black_won', '=-=': 'report.draw' }[o] || 'report.unknown');
}

function choiceLabel(o) {
  const c = (state.v.choices || []).find((x) => x.outcome === o);
  return c ? `${word(o)} (${c.label})` : word(o);
}

function render() {
  const v = state.v;
  document.title = `${t('report.title', { round: v.round, board: v.board })}: ${v.event}`;
  $('ev-name').textContent = v.event;
  $('title').textContent = t('report.title', { round: v.round, board: v.board });
  for (const side of ['white', 'black']) {
    const li = $(`seat-${side}`);
    const p = v[side];
    li.textContent = `${t(`color.${side}`)}: ${p.name} (${p.number})` + (v.side === side ? ` · ${t('report.you')}` : '');
    li.classList.toggle('me', v.side === side);
  }
  const st = $('status');
  st.className = 'status';
  if (v.result) {
    st.textContent = t(v.source === 'players' ? 'report.recorded_agreed' : 'report.recorded', { result: choiceLabel(v.result), label: v.label });
    st.classList.add('ok');
  } else if (v.disputed) {
    st.textContent = t('report.disputed', { mine: choiceLabel(v.mine), theirs: choiceLabel(v.theirs) });
    st.classList.add('warn');
  } else if (v.mine) {
    st.textContent = t('report.waiting', { mine: choiceLabel(v.mine) });
  } else if (v.theirs) {
    st.textContent = t('report.opponent_said', { theirs: choiceLabel(v.theirs) });
  } else {
    st.textContent = v.open ? t('report.nothing_yet') : t('report.closed');
  }
  $('report-form').hidden = !v.open || !!v.result;
  const box = $('choices');
  box.replaceChildren();
  for (const c of v.choices || []) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.outcome = c.outcome;
    b.textContent = choiceLabel(c.outcome);
    b.setAttribute('aria-pressed', String(state.chosen === c.outcome));
    b.addEventListener('click', () => { state.chosen = c.outcome; render(); });
    box.append(b);
  }
  $('send').disabled = !state.chosen || state.chosen === v.mine || state.busy;
}

function showError(e) {
  const box = $('error');
  box.hidden = !e;
  if (e) box.textContent = i18n.msg(e instanceof ApiError ? e : { text: String(e) });
}

async function send(ev) {
  ev.preventDefault();
  if (!state.chosen || state.busy) return;
  state.busy = true;
  try {
    state.v = await postJSON(api, { outcome: state.chosen });
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
  state.chosen = state.v.mine || '';
  $('report-form').addEventListener('submit', send);
  // Back on the page (the phone unlocked, the tab shown again): what the
  // opponent or the director did meanwhile.
  document.addEventListener('visibilitychange', async () => {
    if (document.visibilityState !== 'visible' || state.busy) return;
    try { state.v = await getJSON(api); render(); } catch (_) { /* the next visit tries again */ }
  });
  $('report').hidden = false;
  render();
}

main();
