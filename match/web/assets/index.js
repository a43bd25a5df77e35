// index.js: the create-a-game page. The choices come from /api/variants;
// the form posts a Setup to /api/games and shows the four links.

import * as i18n from './i18n.js';
import { t } from './i18n.js';
import { getJSON, postJSON, ApiError } from './api.js';
import { $ } from './dom.js';

const CUSTOM = '__custom__';
let info = { variants: [], time_controls: [], engines: [] };

const names = (list) => (list || []).map((x) => (typeof x === 'string' ? { name: x } : x)).filter((x) => x && x.name);

async function main() {
  await i18n.init();
  $('langbox').append(i18n.selector(() => fill()));
  i18n.apply();
  try {
    info = (await getJSON('/api/variants')) || info;
  } catch (e) {
    show(e);
  }
  fill();
  $('variant').addEventListener('change', () => { $('custom-box').hidden = $('variant').value !== CUSTOM; modeShow(); });
  $('create').addEventListener('submit', submit);
  // A game made is not made again by a second press (a double tap, or a
  // press to be sure), which made another game and put its links in place
  // of the first's, already sent: the button waits for a change to the
  // form, and then says it makes another game.
  for (const ev of ['input', 'change']) {
    $('create').addEventListener(ev, () => {
      if ($('create-button').dataset.i18n === 'create.made') button('create.another', false);
    });
  }
  $('tc').addEventListener('input', () => { clearTimeout(clock.timer); clock.timer = setTimeout(readClock, 200); });
  $('engine').addEventListener('change', modeDefault);
  $('policy').addEventListener('change', modeShow);
  for (const id of ['mode-friendly', 'mode-tournament']) {
    $(id).addEventListener('change', () => { modeTouched = true; modeShow(); });
  }
  readClock();
}

// ---- the time control, read as players write it ----

const clock = { timer: 0, reading: null, error: null, seq: 0 };

// readClock asks the server how it reads the field (the one reader of
// players' clocks: online.ReadClock) and echoes it in words.
async function readClock() {
  const text = $('tc').value;
  const seq = ++clock.seq;
  let reading = null;
  let error = null;
  try {
    reading = await getJSON(`/api/clock?text=${encodeURIComponent(text)}`);
  } catch (e) {
    error = e;
  }
  if (seq !== clock.seq) return; // a later keystroke asked again
  clock.reading = reading;
  clock.error = error;
  echo();
  modeDefault();
}

// words says a reading's parts in the page's language.
function words(w) {
  if (!w || !w.parts) return '';
  const clauses = w.parts.map((p) => {
    const args = { ...(p.args || {}) };
    for (const [k, units] of Object.entries(p.times || {})) args[k] = units.map((u) => t(u.code, u.args)).join(' ');
    return t(p.code, args).trim().replace(/\.$/, '');
  });
  const out = clauses.join(', ');
  return out ? out.charAt(0).toUpperCase() + out.slice(1) + '.' : '';
}

function echo() {
  const r = clock.reading;
  const e = clock.error;
  $('tc-echo').textContent = r ? words(r.words) : (e ? (e instanceof ApiError ? i18n.msg(e) : t('create.offline')) : '');
  $('tc-echo').className = e ? 'echo error' : 'echo';
  $('tc-short').hidden = !(r && r.short);
  if (r && r.short) $('tc-short').textContent = i18n.msg(r.short);
  $('tc-hint').hidden = !(r && r.hint);
  if (r && r.hint) $('tc-hint').textContent = i18n.msg(r.hint);
  let read = '';
  // Minutes with a number of moves (30/60: WCDF's 30 moves in an hour)
  // are not "minutes, then seconds per move": the moves come first.
  const how = r && r.read === 'minutes' && (r.pdn || '').includes('/') ? 'moves' : r && r.read;
  if (r && r.read !== 'none') read = t(`clock.read.${how}`, { pdn: r.pdn, preset: r.preset ? t(`preset.${r.preset}`) : '' });
  $('tc-read').textContent = read;
}

// ---- friendly or tournament rules ----

let modeTouched = false;
let modeAuto = null; // modeDefault's last choice: friendly or not (null: none yet)

// modeDefault chooses friendly for a game against an engine or without a
// clock, tournament rules otherwise, until the creator chooses.
function modeDefault() {
  // A choice made before the page was ready counts too: on a slow
  // connection the radios are shown, and clicked, before main has added
  // their listeners; the first default would otherwise overwrite it.
  const friendlyNow = $('mode-friendly').checked;
  const chosen = friendlyNow || $('mode-tournament').checked;
  if (chosen && (modeAuto === null || friendlyNow !== modeAuto)) modeTouched = true;
  const name = $('engine').value;
  const engine = !!name;
  $('side-box').hidden = !engine;
  $('engine-help').hidden = !engine;
  if (engine) $('engine-help').textContent = t(i18n.has(`engine_help.${name}`) ? `engine_help.${name}` : 'engine_help.operator');
  // The field's text, not the (debounced) reading: a clock typed a moment
  // before the click still counts.
  const untimed = ['', '-', 'none'].includes($('tc').value.trim().toLowerCase());
  if (!modeTouched) {
    const friendly = engine || untimed;
    $('mode-friendly').checked = friendly;
    $('mode-tournament').checked = !friendly;
    modeAuto = friendly;
  }
  let why = '';
  if (engine) why = t('mode.why_engine');
  else if (untimed) why = t('mode.why_untimed');
  else why = t('mode.why_timed');
  $('mode-why').textContent = why;
  modeShow();
}

function modeShow() {
  $('policy-box').hidden = !$('mode-tournament').checked;
  // Under the default, which policy it is for the chosen variant (the
  // opponent decides under FMJD's rules, WCDF's warn first), in a line of
  // its own: a phone's select cuts a long choice short.
  const p = (info.default_policies || {})[$('variant').value];
  const named = !!p && i18n.has(`policy.${p}`) && $('policy').value === '';
  $('policy-read').hidden = !named;
  $('policy-read').textContent = named ? t('create.policy_default_is', { policy: i18n.midSentence(t(`policy.${p}`)) }) : '';
}

// fill writes the choices from the server (again after a language switch).
function fill() {
  const sel = $('variant');
  const keep = sel.value;
  sel.replaceChildren();
  for (const v of names(info.variants || info.presets)) {
    const o = document.createElement('option');
    o.value = v.name;
    const key = `variant.${v.name}`;
    o.textContent = i18n.has(key) ? t(key) : (v.title || v.name);
    sel.append(o);
  }
  const c = document.createElement('option');
  c.value = CUSTOM; c.textContent = t('create.custom_option');
  sel.append(c);
  sel.value = keep || (names(info.variants || info.presets).some((v) => v.name === 'english') ? 'english' : sel.options[0].value);
  $('custom-box').hidden = sel.value !== CUSTOM;

  const pr = $('tc-presets');
  pr.replaceChildren();
  for (const p of info.clock_presets || []) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'preset';
    b.dataset.preset = p.name;
    b.textContent = `${t(`preset.${p.name}`)} ${p.label}`;
    b.addEventListener('click', () => { $('tc').value = p.label; readClock(); });
    pr.append(b);
  }

  const engines = names(info.engines);
  const es = $('engine');
  const keepE = es.value;
  while (es.options.length > 1) es.remove(1);
  es.options[0].textContent = t('create.no_engine');
  for (const e of engines) {
    const o = document.createElement('option');
    o.value = e.name;
    o.textContent = i18n.has(`engine.${e.name}`) ? t(`engine.${e.name}`) : t('engine.operator', { name: e.name });
    es.append(o);
  }
  es.value = keepE;
  i18n.apply($('create'));
  document.title = `${t('app.name')}: ${t('create.title')}`;
  c.textContent = t('create.custom_option');
  echo();
  modeDefault();
}

// show shows why a request failed: the server's answer (setup.invalid
// names the field and says why), or, when none came (no network), offline
// in the page's language, never the browser's "TypeError: Failed to fetch".
function show(e, offline = 'create.offline') {
  const p = $('create-error');
  p.hidden = !e;
  if (!e) return;
  p.textContent = e instanceof ApiError ? i18n.msg(e) : t(offline);
  // It comes above the button just pressed and pushes it down: on a phone
  // its last lines were below the fold.
  p.scrollIntoView({ block: 'center' });
}

async function submit(e) {
  e.preventDefault();
  show(null);
  modeDefault();
  const f = new FormData($('create'));
  const variant = f.get('variant');
  const setup = {
    variant: variant === CUSTOM ? '' : variant,
    rules: variant === CUSTOM ? f.get('rules') : '',
    clock: f.get('clock').trim(),
    mode: f.get('mode') || '',
    policy: f.get('mode') === 'tournament' ? f.get('policy') : '',
    draws: f.get('draws'),
    fen: f.get('fen').trim(),
    opening: f.get('opening').trim(),
    engine: f.get('engine') || '',
    engine_side: f.get('engine') ? f.get('engine_side') : '',
    beginner: $('beginner').checked,
    white: f.get('white').trim(),
    black: f.get('black').trim(),
  };
  const label = $('create-button').dataset.i18n;
  $('create-button').disabled = true;
  try {
    const res = await postJSON('/api/games', setup);
    links(res.links || {}, res.local_only);
    button('create.made', true);
  } catch (err) {
    show(err, 'act.not_sent');
    button(label, false);
  }
}

// button sets the create button's label (a catalog key, kept for a change
// of language) and whether it can be pressed.
function button(key, disabled) {
  const b = $('create-button');
  b.dataset.i18n = key;
  b.textContent = t(key);
  b.disabled = disabled;
}

function links(l, localOnly) {
  const dl = $('link-list');
  dl.replaceChildren();
  // Links on loopback open on this computer only: fine for a game here,
  // not for an opponent on another device.
  $('links-local').hidden = !localOnly;
  $('links-local').textContent = localOnly ? t('links.local_only', { cmd: 'arbiter serve --addr :8080' }) : '';
  for (const role of ['white', 'black', 'spectator', 'arbiter']) {
    if (!l[role]) continue;
    const dt = document.createElement('dt');
    dt.textContent = t(`links.${role}`);
    const dd = document.createElement('dd');
    const help = document.createElement('p');
    help.className = 'help';
    help.textContent = t(`links.${role}_help`);
    const row = document.createElement('div');
    row.className = 'link-row';
    const input = document.createElement('input');
    input.readOnly = true; input.value = l[role]; input.id = `link-${role}`;
    input.setAttribute('aria-label', t(`links.${role}`));
    const b = document.createElement('button');
    b.type = 'button'; b.textContent = t('links.copy'); b.className = 'copy';
    b.addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(input.value); } catch (_) { input.select(); document.execCommand('copy'); }
      b.textContent = t('links.copied');
    });
    row.append(input, b);
    dd.append(row, help);
    dl.append(dt, dd);
  }
  $('open-white').href = l.white || '#';
  $('links').hidden = false;
  $('links').scrollIntoView({ block: 'start' });
}

main();
