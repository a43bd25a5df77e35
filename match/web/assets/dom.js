// dom.js: the small helpers every page uses, defined once: $ (an element by
// id), el (an HTML element with its properties and children) and fmtClock
// (a clock's time as the pages show it).

export const $ = (id) => document.getElementById(id);

// el makes an HTML element: props are attributes, except class (the class
// name; none when empty), text (the text content) and on* (event
// listeners); kids are appended, null and undefined skipped.
export function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (k === 'class') { if (v) e.className = v; }
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  e.append(...kids.filter((k) => k !== null && k !== undefined));
  return e;
}

// fmtClock writes a time in milliseconds as h:mm:ss or m:ss; with tenths,
// under ten seconds as m:ss.t (a player's own clock running low).
export function fmtClock(ms, { tenths = false } = {}) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  if (h) return `${h}:${String(m).padStart(2, '0')}:${sec}`;
  if (tenths && ms < 10000) return `${m}:${sec}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${sec}`;
}
