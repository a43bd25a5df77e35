// director-new.js: the create-an-event page. It posts the settings to
// /api/events and opens the director's secret page.

import * as i18n from './i18n.js';
import { t } from './i18n.js';
import { getJSON, postJSON, ApiError } from './api.js';
import { $ } from './dom.js';

// titled names the tab in the page's language (the HTML's title is
// English).
function titled() { document.title = `${t('app.name')}: ${t('dir.new_title')}`; }

// variantNames labels the variants' options in the page's language.
function variantNames() {
  for (const o of $('ev-variant').options) o.textContent = i18n.has(`variant.${o.value}`) ? t(`variant.${o.value}`) : o.value;
}

async function main() {
  await i18n.init();
  // A switch of language names the tab and the variants again: they are
  // written here, not by data-i18n.
  $('langbox').append(i18n.selector(() => { titled(); variantNames(); }));
  i18n.apply();
  titled();
  let variants = [];
  try {
    variants = ((await getJSON('/api/variants')) || {}).variants || [];
  } catch (e) {
    show(e);
  }
  const sel = $('ev-variant');
  for (const v of variants) {
    const o = document.createElement('option');
    o.value = v;
    sel.append(o);
  }
  variantNames();
  sel.value = variants.includes('international') ? 'international' : (variants[0] || '');
  sel.addEventListener('change', () => { $('ev-half').checked = sel.value === 'english'; });
  $('event-form').addEventListener('submit', submit);
  $('trf-form').addEventListener('submit', importTRF);
}

async function importTRF(ev) {
  ev.preventDefault();
  const box = $('trf-error');
  box.hidden = true;
  let text = $('trf-text').value;
  const file = $('trf-file').files[0];
  if (file) text = await file.text();
  if (!text.trim()) return;
  const q = new URLSearchParams({ variant: $('ev-variant').value, time_control: $('ev-tc').value.trim() });
  try {
    const r = await fetch(`/api/events/trf?${q}`, { method: 'POST', headers: { 'Content-Type': 'text/plain', Accept: 'application/json' }, body: text });
    const body = await r.json().catch(() => null);
    if (!r.ok) throw new ApiError(r.status, body);
    location.assign(`${body.link}#new`); // the link to keep, as for a new event
  } catch (e) {
    box.textContent = i18n.msg(e);
    box.hidden = false;
  }
}

function show(e) {
  const el = $('event-error');
  el.textContent = e ? i18n.msg(e) : '';
  el.hidden = !e;
}

async function submit(ev) {
  ev.preventDefault();
  show(null);
  const tb = $('ev-tb').value.split(',').map((s) => s.trim()).filter((s) => s);
  const sys = $('ev-system').value;
  const swiss = sys === 'swiss' || sys === 'burstein';
  const body = {
    name: $('ev-name').value, site: $('ev-site').value, start: $('ev-start').value, end: $('ev-end').value,
    variant: $('ev-variant').value, time_control: $('ev-tc').value.trim(), system: swiss ? 'swiss' : sys,
    rounds: parseInt($('ev-rounds').value, 10) || 0, half_points: $('ev-half').checked,
    baku: swiss && $('ev-accel').value === 'baku',
  };
  // The Burstein system is a Swiss event paired by C.04.4.2.
  if (sys === 'burstein') body.pairing = 'burstein';
  if (tb.length) body.tie_breaks = tb;
  $('event-create').disabled = true;
  try {
    const r = await postJSON('/api/events', body);
    // The director's page shows the link to keep, the first time (#new).
    location.assign(`${r.link}#new`);
  } catch (e) {
    show(e);
    $('event-create').disabled = false;
  }
}

main();
