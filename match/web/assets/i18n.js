// i18n: the message catalogs (i18n/{lang}.json) and the language choice.
// The language comes from localStorage (the user's last choice), then
// navigator.languages; English is the fallback for any missing entry.

export const LANGS = ['en', 'nb', 'da', 'nl', 'fr', 'ru'];
const KEY = 'arbiter.lang';

let lang = 'en';
let cat = {};
let en = {};

// pick maps the browser's languages onto the catalogs: Norwegian
// (nb, no, nn) reads bokmål; Danish da, Dutch nl, French fr, Russian ru.
export function pick(list) {
  for (const l of list || []) {
    const s = String(l).toLowerCase();
    if (s.startsWith('nb') || s.startsWith('no') || s.startsWith('nn')) return 'nb';
    if (s.startsWith('da')) return 'da';
    if (s.startsWith('nl')) return 'nl';
    if (s.startsWith('fr')) return 'fr';
    if (s.startsWith('ru')) return 'ru';
    if (s.startsWith('en')) return 'en';
  }
  return 'en';
}

async function load(l) {
  const r = await fetch(`/assets/i18n/${l}.json`);
  if (!r.ok) throw new Error(`catalog ${l}: HTTP ${r.status}`);
  return r.json();
}

// init loads the chosen catalog (and English beneath it).
export async function init() {
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch (_) { /* storage may be off */ }
  // A link that says its language (?lang=, as the public sheets' links
  // keep the reader's choice) opens in it; then the reader's last choice,
  // then the browser's.
  const asked = new URLSearchParams(location.search).get('lang');
  lang = LANGS.includes(asked) ? asked : LANGS.includes(stored) ? stored : browserLang();
  en = await load('en');
  cat = lang === 'en' ? en : await load(lang).catch(() => en);
  document.documentElement.lang = lang;
}

export function current() { return lang; }

function browserLang() { return pick(navigator.languages || [navigator.language]); }

// sheetQuery is what a link to a page the server draws in the reader's
// language (the public sheets, which read Accept-Language: the browser's
// language) adds to open in the page's language: "?lang=ru" when the
// reader chose one other than their browser's, else "" (a link without it
// stays right for whoever it is passed to).
export function sheetQuery() { return lang === browserLang() ? '' : `?lang=${lang}`; }

// setLang switches and remembers the language.
export async function setLang(l) {
  if (!LANGS.includes(l)) return;
  try { localStorage.setItem(KEY, l); } catch (_) { /* ignore */ }
  // An address that says its language says the new one, so that a reload
  // keeps the switch.
  const u = new URL(location.href);
  if (u.searchParams.has('lang')) {
    u.searchParams.set('lang', l);
    history.replaceState(history.state, '', u);
  }
  lang = l;
  cat = l === 'en' ? en : await load(l).catch(() => en);
  document.documentElement.lang = l;
}

// has reports whether key has an entry (in any catalog).
export function has(key) { return key in cat || key in en; }

// t translates key, filling {name} with args[name].
export function t(key, args) {
  let s = cat[key] ?? en[key];
  if (s === undefined) return key;
  return fill(s, args);
}

// fill fills {name} with args[name]. {name|form|form...} is the word that
// goes with the number args[name] in the page's language: the forms in
// the order of its plural categories (Intl.PluralRules: one, few, many for
// Russian; one, other for the others), so that a catalog writes
// "{moves} {moves|ход|хода|ходов}": 21 ход, 22 хода, 25 ходов.
export function fill(s, args) {
  return s.replace(/\{([a-z0-9_]+)((?:\|[^{}|]*)+)?\}/gi, (m, k, forms) => {
    if (!args || args[k] === undefined) return m;
    return forms ? plural(Number(args[k]), forms.slice(1).split('|')) : String(args[k]);
  });
}

const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'];

function plural(n, forms) {
  const rules = new Intl.PluralRules(lang);
  const cats = rules.resolvedOptions().pluralCategories.slice().sort((a, b) => CATEGORIES.indexOf(a) - CATEGORIES.indexOf(b));
  return forms[Math.min(Math.max(cats.indexOf(rules.select(n)), 0), forms.length - 1)];
}

// msg renders a referee/server message {code, args, text}: the catalog's
// template when there is one, else the server's English text.
export function msg(m) {
  if (!m) return '';
  if (m.code && has(m.code)) {
    const args = localArgs(m.args);
    // Arguments that are messages of their own (a result label's bye
    // sides), each translated, joined as a list is.
    for (const [name, parts] of Object.entries(m.parts || {})) args[name] = parts.map(msg).join(', ');
    // A warning's {why} comes in English; its explanation's own code
    // (m.why) is translated in its place when the catalog has it.
    // A claim's or an automatic draw's {reason} likewise: its evidence's
    // code (m.why) when the catalog has it, else the English args.reason.
    // An explanation's rulebook article (m.why.cite: "FMJD rules, art.
    // 4.13") follows it in the page's language, as the English does.
    if (m.why && m.why.code && has(m.why.code)) {
      const why = t(m.why.code, localArgs(m.why.args)) + (m.why.cite ? ` (${msg(m.why.cite)})` : '');
      args.why = why;
      // After "valid." a sentence begins; after "automatically:" not.
      if (m.code.startsWith('claim.')) args.reason = why.charAt(0).toUpperCase() + why.slice(1);
      if (m.code === 'result.draw-rule') args.reason = why;
    }
    return t(m.code, args);
  }
  return m.text || m.code || '';
}

// localArgs translates argument values the server sends in English
// ("White", "man") where the catalog has them as value.X; a list the
// referee joined with English "and" ("12, 17 and 23") is joined again in
// the page's language from its items, which come beside it as X_list
// ("12,17,23", arbiter.ListSuffix); square names, move lists and numbers
// pass through.
export function localArgs(args) {
  const out = {};
  for (const [k, v] of Object.entries(args || {})) {
    const items = args[`${k}_list`];
    if (typeof items === 'string' && items !== '') out[k] = joinList(items.split(','));
    else out[k] = typeof v === 'string' && has(`value.${v}`) ? t(`value.${v}`) : v;
  }
  return out;
}

// midSentence lowers the capital of a label (a choice on the create page:
// "L'adversaire décide", "Решает соперник") set after a colon, where none
// of the six languages writes one; an initialism (WCDF) keeps its capitals.
export function midSentence(s) {
  const [a, b] = [...s];
  return b !== undefined && a !== a.toLowerCase() && b === b.toLowerCase() ? a.toLowerCase() + s.slice(a.length) : s;
}

// joinList joins items as the page's language lists things: "12, 17 and
// 23", "12, 17 и 23", "12, 17 en 23" (list.and).
export function joinList(items) {
  if (items.length < 2) return items.join('');
  return t('list.and', { items: items.slice(0, -1).join(', '), last: items[items.length - 1] });
}

// decimal writes x with digits decimals as the page's language writes
// numbers ("12,3" in Russian, "12.3" in English), without grouping; the
// server-drawn sheets do the same (message.Decimal).
export function decimal(x, digits) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(x);
}

// apply fills every [data-i18n] element's text, and [data-i18n-attr]
// ("placeholder:key,aria-label:key") attributes, under root.
export function apply(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of el.dataset.i18nAttr.split(',')) {
      const [attr, key] = pair.split(':');
      el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

// selector builds the language switcher; onchange runs after a switch.
export function selector(onchange) {
  const sel = document.createElement('select');
  sel.id = 'lang';
  sel.setAttribute('aria-label', 'Language / Språk / Sprog / Taal / Langue / Язык');
  for (const [v, name] of [['en', 'English'], ['nb', 'Norsk (bokmål)'], ['da', 'Dansk'], ['nl', 'Nederlands'], ['fr', 'Français'], ['ru', 'Русский']]) {
    const o = document.createElement('option');
    o.value = v; o.textContent = name;
    if (v === lang) o.selected = true;
    sel.append(o);
  }
  sel.addEventListener('change', async () => { await setLang(sel.value); apply(); if (onchange) onchange(); });
  return sel;
}
