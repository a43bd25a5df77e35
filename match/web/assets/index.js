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
  $('variant').addEventListener('change', () => { $('custom-box').hidden = $('variant').value !== CUSTOM; });
  $('create').addEventListener('submit', submit);
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

  const examples = names(info.time_controls || info.timeControls || []).length
    ? names(info.time_controls || info.timeControls) : [];
  const dl = $('tc-examples');
  const help = $('tc-help');
  dl.replaceChildren(); help.replaceChildren();
  const list = examples.length ? examples : [
    { name: '300+3' }, { name: '1500+5' }, { name: '40/7200:1800' }, { name: '600 delay=5' }, { name: 'move=30' }];
  for (const ex of list) {
    const o = document.createElement('option');
    o.value = ex.name || ex.tc;
    dl.append(o);
    const li = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = ex.name || ex.tc;
    li.append(code);
    const what = ex.description || ex.text || ex.title;
    const key = `tc.${ex.name}`;
    if (i18n.has(key)) li.append(' ', t(key));
    else if (what) li.append(' ', what);
    help.append(li);
  }

  const engines = names(info.engines);
  $('engine-box').hidden = engines.length === 0;
  const es = $('engine');
  const keepE = es.value;
  while (es.options.length > 1) es.remove(1);
  es.options[0].textContent = t('create.no_engine');
  for (const e of engines) {
    const o = document.createElement('option');
    o.value = e.name; o.textContent = e.name;
    es.append(o);
  }
  es.value = keepE;
  i18n.apply($('create'));
  document.title = `${t('app.name')}: ${t('create.title')}`;
  // apply() rewrote the custom option's text from data-i18n-less nodes? no: refresh it.
  c.textContent = t('create.custom_option');
}

function show(e) {
  const p = $('create-error');
  p.hidden = !e;
  if (!e) return;
  if (e instanceof ApiError) {
    p.textContent = i18n.msg(e); // setup.invalid names the field and says why
  } else {
    p.textContent = String(e);
  }
}

async function submit(e) {
  e.preventDefault();
  show(null);
  const f = new FormData($('create'));
  const variant = f.get('variant');
  const setup = {
    variant: variant === CUSTOM ? '' : variant,
    rules: variant === CUSTOM ? f.get('rules') : '',
    time_control: f.get('time_control').trim(),
    policy: f.get('policy'),
    draws: f.get('draws'),
    fen: f.get('fen').trim(),
    opening: f.get('opening').trim(),
    engine: f.get('engine') || '',
    engine_side: f.get('engine') ? f.get('engine_side') : '',
    beginner: $('beginner').checked,
    white: f.get('white').trim(),
    black: f.get('black').trim(),
  };
  $('create-button').disabled = true;
  try {
    const res = await postJSON('/api/games', setup);
    links(res.links || {});
  } catch (err) {
    show(err);
  } finally {
    $('create-button').disabled = false;
  }
}

function links(l) {
  const dl = $('link-list');
  dl.replaceChildren();
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
