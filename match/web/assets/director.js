// director.js: the director's page of an event. Its address carries the
// director's secret (/d/{token}); every change is a JSON POST to
// /api/d/{token}/{op}, whose answer is the whole event again.

import * as i18n from './i18n.js';
import { t } from './i18n.js';
import { getJSON, postJSON, ApiError } from './api.js';
import { $, el } from './dom.js';

const token = decodeURIComponent(location.pathname.split('/')[2] || '');
const api = `/api/d/${encodeURIComponent(token)}`;

// pending holds the result a director chose on a board but has not saved
// yet: a redraw (the page looks again every few seconds) keeps it.
const state = { view: null, busy: false, pending: {} };
window.arbiterDirector = state;

// lookAlike tells whether a refusal is only about look-alike players (the
// same name and federation id, or name and club), which the director may
// confirm: every problem of a CSV, or the form's one refusal.
function lookAlike(e) {
  const body = (e && e.body) || {};
  const list = body.problems || (body.error ? [body.error] : []);
  return list.length > 0 && list.every((p) => /^director\.(csv-)?(duplicate-|twice)/.test(p.code || ''));
}

// showError shows a refusal; retry, given, is what "enter anyway" does
// when the refusal is only about look-alikes.
function showError(e, retry) {
  const box = $('dir-error');
  const list = $('dir-problems');
  const again = $('confirm-anyway');
  list.replaceChildren();
  list.hidden = true;
  again.hidden = true;
  state.retry = null;
  if (!e) { box.hidden = true; return; }
  box.textContent = i18n.msg(e instanceof ApiError ? e : { text: String(e) });
  box.hidden = false;
  const problems = e.body && e.body.problems;
  if (problems && problems.length > 1) {
    for (const p of problems) list.append(el('li', { text: i18n.msg(p) }));
    list.hidden = false;
  }
  if (retry && lookAlike(e)) {
    state.retry = retry;
    again.textContent = t(problems ? 'dir.import_anyway' : 'dir.enter_anyway');
    again.hidden = false;
  }
  $('error-box').scrollIntoView({ block: 'nearest' });
}

// notCheckedIn lists the players the next round expects who have not
// checked in and have no bye for it, once the check-in has begun (nobody
// checked in: the event does not use it).
function notCheckedIn(v) {
  const arr = (v.at_boards || {}).arrivals;
  const inMap = (arr && arr.in) || {};
  if (!arr || !arr.round || Object.keys(inMap).length === 0) return [];
  const late = new Set(arr.late || []);
  return arr.expected.filter((id) => !inMap[id] && !late.has(id));
}

// pairNext pairs the next round; with players not checked in it asks
// first: paired, each would leave an opponent waiting at a board, and
// the bye for them is one press away.
function pairNext() {
  const n = (state.view.rounds || []).length + 1;
  const pair = () => op('pair', { round: n });
  const away = notCheckedIn(state.view);
  if (away.length === 0) { pair(); return; }
  const byId = new Map((state.view.players || []).map((p) => [p.id, p]));
  const names = away.map((id) => { const p = byId.get(id); return p ? `${p.name} (${p.number})` : String(id); }).join(', ');
  showError(t('dir.pair_absent', { round: n, names, bye: t('atb.absent_byes', { n: away.length }) }));
  state.retry = () => { showError(null); pair(); };
  $('confirm-anyway').textContent = t('dir.pair_anyway');
  $('confirm-anyway').hidden = false;
}

// op posts one operation; the answer is the new view. A refusal of
// look-alike players offers to send it again confirmed (after, run then).
async function op(name, body = {}, after) {
  if (state.busy) return false;
  state.busy = true;
  try {
    state.view = await postJSON(`${api}/${name}`, body);
    showError(null);
    render();
    if (after) after();
    return true;
  } catch (e) {
    showError(e, () => op(name, { ...body, confirm: true }, after));
    return false;
  } finally {
    state.busy = false;
  }
}

function player(id) {
  return (state.view.players || []).find((p) => p.id === id);
}

function pname(id) {
  const p = player(id);
  return p ? `${p.name} (${p.number})` : '?';
}

function render() {
  const v = state.view;
  const ev = v.event;
  document.title = `${ev.name}: ${t('dir.director')}`;
  $('ev-title').textContent = ev.name;
  let system = ev.system === 'swiss' ? t(ev.pairing === 'burstein' ? 'dir.swiss_burstein' : 'dir.swiss') : t('dir.round_robin');
  if (ev.baku) system += `, ${t('dir.baku')}`;
  $('ev-facts').textContent = [ev.site, [ev.start, ev.end].filter((x) => x).join(' – '),
    i18n.has(`variant.${ev.variant}`) ? t(`variant.${ev.variant}`) : ev.variant, ev.time_control, system,
    t('dir.n_rounds', { n: ev.rounds })].filter((x) => x).join(' · ');
  $('keep-link').value = location.origin + location.pathname;
  $('keep-card-link').href = `${v.card}?lang=${i18n.current()}`;
  const pub = $('public-links');
  // The sheets open in the page's language though the director chose it
  // over the browser's (they read the browser's Accept-Language).
  const q = i18n.sheetQuery();
  pub.replaceChildren(
    el('a', { href: `${v.public}${q}`, id: 'link-public', text: t('dir.public_pairings') }),
    el('a', { href: `${v.public}/standings${q}`, id: 'link-standings', text: t('dir.standings') }),
    el('a', { href: `${v.public}/crosstable${q}`, text: t('dir.crosstable') }),
    el('a', { href: `${v.public}/cards${q}`, id: 'link-cards', text: t('dir.cards') }),
    el('a', { href: `${v.public}/trf`, id: 'link-trf', text: 'TRF16' }),
  );
  const rounds = v.rounds || [];
  // The PDN holds the games played online: without one it would be an empty file.
  if (rounds.some((r) => r.boards.some((b) => b.game))) pub.append(el('a', { href: `${v.public}/pdn`, id: 'link-pdn', text: 'PDN' }));
  if (rounds.length) {
    pub.append(el('a', { href: `${v.public}/round/${rounds.length}/print${q}`, id: 'link-print', text: t('dir.print_round', { round: rounds.length }) }));
  }
  renderRound();
  renderFix();
  renderStandings();
  renderPlayers();
  renderApart();
  document.dispatchEvent(new CustomEvent('director:render', { detail: { view: v, op } })); // director-boards.js
  const audit = $('audit');
  audit.replaceChildren(...(v.audit || []).slice().reverse().map((a) =>
    el('li', {}, el('time', { text: new Date(a.at).toLocaleString(i18n.current()) }), ` ${auditLine(a)}`)));
}

// auditLine is one line of the audit log in the page's language: its
// action's word and its code's template filled with its arguments and
// parts (each part a coded message of its own, translated, joined with
// "; "). A line written before the codes, or whose code the catalog
// lacks, reads as it was stored: in English.
function auditLine(a) {
  if (!a.code || !i18n.has(a.code)) return `${a.action}: ${a.detail}`;
  const args = i18n.localArgs(a.args);
  for (const [name, parts] of Object.entries(a.parts || {})) args[name] = parts.map((p) => i18n.msg(p)).join('; ');
  const action = i18n.has(`audit.action.${a.action}`) ? t(`audit.action.${a.action}`) : a.action;
  return `${action}: ${t(a.code, args)}`;
}

function renderRound() {
  const v = state.view;
  const rounds = v.rounds || [];
  const last = rounds[rounds.length - 1];
  const next = rounds.length + 1;
  const canPair = next <= v.event.rounds && (!last || last.state === 'closed');
  $('pair').hidden = !canPair;
  $('pair').textContent = t('dir.pair_round', { round: next });
  const tbody = $('boards').querySelector('tbody');
  tbody.replaceChildren();
  $('round-byes').textContent = '';
  if (!last) {
    $('round-title').textContent = t('dir.no_round');
    $('round-state').textContent = '';
    for (const id of ['publish', 'close', 'undo']) $(id).hidden = true;
    $('boards').hidden = true;
    $('exchange-form').hidden = true;
    return;
  }
  $('boards').hidden = false;
  const n = last.n;
  $('round-title').textContent = t('dir.round', { round: n });
  // The last round closed: the event is over, and the page says what is left to do.
  const over = last.state === 'closed' && n >= v.event.rounds;
  $('round-state').textContent = over ? t('dir.state_final', { rounds: v.event.rounds }) : t(`dir.state_${last.state}`);
  const results = last.boards.some((b) => b.white_result && b.source !== 'auto');
  const games = last.boards.some((b) => b.game);
  $('publish').hidden = last.state !== 'paired';
  $('close').hidden = last.state !== 'published';
  $('undo').hidden = last.state === 'closed' || results || games;
  const open = last.state !== 'closed';
  for (const b of last.boards) {
    const key = `r${n}b${b.board}`;
    const resultCell = el('td', { id: `${key}-result-cell` });
    // The server writes every result as the event does (2-0 or 1-0).
    const res = (v.results || {})[`${n}.${b.board}`];
    const done = !!res;
    const current = done ? res.outcome || '' : '';
    const label = done ? res.label : '';
    if (open && last.state === 'published') {
      const sel = el('select', { id: `${key}-result`, 'aria-label': t('dir.result_of', { board: b.board }) });
      // A board no director enters (a round-robin's bye) shows its label here.
      sel.append(el('option', { value: '', text: done && !current ? label : '…' }));
      for (const o of v.outcomes) sel.append(el('option', { value: o, text: (v.labels || {})[o] || o }));
      sel.value = state.pending[key] ?? current;
      sel.addEventListener('change', () => { state.pending[key] = sel.value; });
      const save = el('button', { type: 'button', id: `${key}-save`, text: t('dir.save'),
        onclick: async () => {
          if (sel.value && await op('result', { round: n, board: b.board, result: sel.value })) delete state.pending[key];
        } });
      resultCell.append(el('span', { class: 'cell-actions' }, sel, save));
    } else {
      resultCell.textContent = label;
    }
    if (done) {
      resultCell.dataset.result = current;
      resultCell.dataset.label = label;
    }
    if (b.source) resultCell.title = t(`dir.source_${b.source}`);
    const onlineCell = el('td', { id: `${key}-online` });
    const links = (v.links || {})[`${n}.${b.board}`];
    if (links) {
      const box = el('span', { class: 'game-links' });
      for (const role of ['white', 'black', 'spectator', 'arbiter']) {
        if (links[role]) box.append(el('a', { href: links[role], class: `link-${role}`, target: '_blank', rel: 'noopener', text: t(`role.${role}`) }));
      }
      onlineCell.append(box);
    } else if (open && last.state === 'published') {
      onlineCell.append(el('button', { type: 'button', id: `${key}-game`, text: t('dir.make_game'),
        onclick: () => op('game', { round: n, board: b.board }) }));
    }
    const cells = [el('td', { class: 'num', text: String(b.board) }), el('td', { text: pname(b.white) }), el('td', { text: pname(b.black) }), resultCell, onlineCell];
    if (open && !results && !games) {
      cells[0].append(' ', el('button', { type: 'button', id: `${key}-swap`, title: t('dir.swap'), 'aria-label': t('dir.swap'), text: '⇄',
        onclick: () => op('swap', { round: n, board: b.board }) }));
    }
    tbody.append(el('tr', { id: `${key}` }, ...cells));
  }
  const byes = [];
  if (last.bye) byes.push(t('dir.pab', { player: pname(last.bye) }));
  const onBoard = new Set(last.boards.flatMap((b) => [b.white, b.black]));
  for (const [pid, kind] of Object.entries(last.absent || {})) {
    if (!onBoard.has(Number(pid))) byes.push(t(`dir.bye_${String.fromCharCode(kind).toLowerCase()}`, { player: pname(Number(pid)) }));
  }
  $('round-byes').textContent = byes.join(' · ');
  // Exchange: the players of the round (boards and bye).
  const ex = $('exchange-form');
  ex.hidden = !(open && !results && !games);
  const ids = [...onBoard];
  if (last.bye) ids.push(last.bye);
  for (const sel of [$('exchange-a'), $('exchange-b')]) {
    const keep = sel.value;
    sel.replaceChildren(...ids.map((id) => el('option', { value: String(id), text: pname(id) })));
    if (keep) sel.value = keep;
  }
}

// renderFix fills the form that corrects a result of a closed round: the
// closed rounds (the last one unless the director chose another), the
// boards of the chosen one (with their players and result as stored),
// and the results; the choices survive a redraw.
function renderFix() {
  const v = state.view;
  const closed = (v.rounds || []).filter((r) => r.state === 'closed');
  $('fix-box').hidden = closed.length === 0;
  if (!closed.length) return;
  const rsel = $('fix-round');
  rsel.replaceChildren(...closed.map((r) => el('option', { value: String(r.n), text: String(r.n) })));
  rsel.value = closed.some((r) => String(r.n) === state.fixRound) ? state.fixRound : String(closed[closed.length - 1].n);
  const rd = closed.find((r) => String(r.n) === rsel.value);
  const bsel = $('fix-board');
  const keepBoard = bsel.value;
  bsel.replaceChildren(...rd.boards.map((b) => {
    const res = (v.results || {})[`${rd.n}.${b.board}`];
    return el('option', { value: String(b.board), text: `${b.board}: ${pname(b.white)} – ${pname(b.black)}${res ? `, ${res.label}` : ''}` });
  }));
  if (rd.boards.some((b) => String(b.board) === keepBoard)) bsel.value = keepBoard;
  const xsel = $('fix-result');
  const keepResult = xsel.value;
  xsel.replaceChildren(el('option', { value: '', text: '…' }), ...v.outcomes.map((o) => el('option', { value: o, text: (v.labels || {})[o] || o })));
  xsel.value = keepResult;
}

function renderStandings() {
  const v = state.view;
  const c = v.counted || {};
  let note = '';
  if (c.provisional) note = t('dir.standings_provisional', { round: c.round, in: c.in || 0, of: c.of || 0 });
  else if (c.round) note = t('dir.standings_after', { round: c.round });
  $('standings-note').textContent = note;
  $('standings-box').classList.toggle('provisional', !!c.provisional);
  const table = $('standings');
  // The tie-breaks' headings in the page's language (the sheets' keys),
  // else the server's English one; the values as the server wrote them.
  const heading = (h) => { const k = `sheet.tb.${h.name}`; const s = t(k); return s === k ? h.heading : s; };
  table.querySelector('thead').replaceChildren(el('tr', {},
    el('th', { class: 'num', text: t('dir.rank') }), el('th', { text: t('dir.name') }), el('th', { class: 'num', text: t('dir.points') }),
    // A phone gets FIDE's acronyms (BH-C1, SB): the headings in words
    // pushed the last tie-breaks past the screen's edge.
    ...(v.tie_heads || []).map((h) => el('th', { class: 'num', title: `${heading(h)} (${h.acronym})` },
      el('span', { class: 'tb-long', text: heading(h) }), el('span', { class: 'tb-short', text: h.acronym })))));
  table.querySelector('tbody').replaceChildren(...(v.standings || []).map((s) => el('tr', {},
    el('td', { class: 'num', text: String(s.rank) }), el('td', { text: `${s.player.name} (${s.player.number})` }),
    el('td', { class: 'num', text: s.points }), // the server's FormatScore
    ...(s.tie || []).map((x) => el('td', { class: 'num', text: x })))));
}

function renderPlayers() {
  const v = state.view;
  const next = (v.rounds || []).length + 1;
  const before = next === 1;
  const requested = v.requested || {};
  const removable = new Set(v.removable || []);
  const tbody = $('players').querySelector('tbody');
  const players = (v.players || []).slice().sort((a, b) => a.number - b.number);
  // The seeding: by the ranking, or by hand; before round 1 the director
  // may move a player up or down.
  $('seeding-note').textContent = before
    ? t(v.event.seeding === 'manual' ? 'dir.seeding_manual' : 'dir.seeding_auto')
    : t('dir.seeding_fixed');
  $('seeding-reset').hidden = !(before && v.event.seeding === 'manual');
  const move = (i, d) => {
    const order = players.map((p) => p.id);
    [order[i], order[i + d]] = [order[i + d], order[i]];
    op('seeding', { order });
  };
  tbody.replaceChildren(...players.map((p, i) => {
    let status = t('dir.playing');
    if (p.withdrawn) status = t('dir.withdrawn_from', { round: p.withdrawn });
    else if (p.entered > 1) status = t('dir.entered_from', { round: p.entered });
    const asked = requested[next] && requested[next][p.id];
    if (asked) status += ` · ${t(`dir.bye_${String.fromCharCode(asked).toLowerCase()}`, { player: '' }).trim()}`;
    const actions = el('span', { class: 'cell-actions' });
    actions.append(el('button', { type: 'button', id: `edit-${p.id}`, text: t('dir.edit'), onclick: () => openEdit(p) }));
    if (p.withdrawn) {
      actions.append(el('button', { type: 'button', id: `reinstate-${p.id}`, text: t('dir.reinstate'),
        onclick: () => op('reinstate', { player: p.id }) }));
    } else {
      actions.append(el('button', { type: 'button', id: `withdraw-${p.id}`, text: t('dir.withdraw'),
        onclick: () => op('withdraw', { player: p.id }) }));
      if (next <= v.event.rounds) {
        const sel = el('select', { id: `bye-${p.id}`, 'aria-label': t('dir.bye_for', { round: next }) },
          el('option', { value: '', text: t('dir.no_bye') }), el('option', { value: 'H', text: t('dir.bye_half') }),
          el('option', { value: 'Z', text: t('dir.bye_zero') }), el('option', { value: 'F', text: t('dir.bye_full') }));
        if (asked) sel.value = String.fromCharCode(asked);
        sel.addEventListener('change', () => op('bye', { player: p.id, round: next, kind: sel.value }));
        actions.append(el('label', { class: 'check' }, t('dir.bye_for', { round: next }), ' ', sel));
      }
    }
    if (removable.has(p.id)) {
      // Two steps: the first click asks, the second removes.
      const rm = el('button', { type: 'button', id: `remove-${p.id}`, class: 'danger', text: t('dir.remove') });
      rm.addEventListener('click', () => {
        if (rm.dataset.armed) { op('remove-player', { player: p.id }); return; }
        rm.dataset.armed = '1';
        rm.textContent = t('dir.remove_confirm', { name: p.name });
      });
      actions.append(rm);
    }
    const num = el('td', { class: 'num' }, String(p.number));
    if (before) {
      const arrows = el('span', { class: 'seed-moves' });
      if (i > 0) arrows.append(el('button', { type: 'button', id: `seed-up-${p.id}`, class: 'seed', title: t('dir.seed_up'), 'aria-label': t('dir.seed_up'), text: '▲', onclick: () => move(i, -1) }));
      if (i < players.length - 1) arrows.append(el('button', { type: 'button', id: `seed-down-${p.id}`, class: 'seed', title: t('dir.seed_down'), 'aria-label': t('dir.seed_down'), text: '▼', onclick: () => move(i, 1) }));
      num.append(' ', arrows);
    }
    return el('tr', { class: p.withdrawn ? 'withdrawn' : '', id: `player-${p.id}` },
      num, el('td', { text: p.name }), el('td', { text: p.title || '' }), el('td', { text: p.club || '' }),
      el('td', { text: p.federation || '' }), el('td', { text: p.fed_id || '' }), el('td', { class: 'num', text: p.rating ? String(p.rating) : '' }),
      el('td', { text: status }), el('td', {}, actions));
  }));
}

// renderApart shows the groups of players kept apart (a Swiss only), each
// with its Remove button, and the players to tick for a new group; the
// ticks survive a redraw.
function renderApart() {
  const v = state.view;
  const swiss = v.event.system === 'swiss';
  $('apart-box').hidden = !swiss;
  if (!swiss) return;
  const groups = v.event.forbidden || [];
  const rounds = (g) => (g.from ? ` · ${t('dir.apart_rounds', { from: g.from, to: g.to })}` : '');
  $('apart-list').replaceChildren(...(groups.length ? groups.map((g, i) => el('li', { id: `apart-${i}` },
    el('span', { text: g.players.map(pname).join(' · ') + rounds(g) }), ' ',
    el('button', { type: 'button', id: `apart-remove-${i}`, text: t('dir.apart_remove'),
      onclick: () => op('forbidden', { forbidden: groups.filter((_, j) => j !== i) }) })))
    : [el('li', { id: 'apart-none', class: 'help', text: t('dir.apart_none') })]));
  const box = $('apart-choose');
  const ticked = new Set([...box.querySelectorAll('input:checked')].map((x) => Number(x.value)));
  const players = (v.players || []).filter((p) => !p.withdrawn).sort((a, b) => a.number - b.number);
  box.replaceChildren(...players.map((p) => {
    const cb = el('input', { type: 'checkbox', id: `apart-pick-${p.id}`, value: String(p.id) });
    cb.checked = ticked.has(p.id);
    return el('label', { class: 'check' }, cb, ` ${p.name} (${p.number})${p.club ? ` · ${p.club}` : ''}`);
  }));
}

// openEdit fills the correction form with a player as stored.
function openEdit(p) {
  state.editing = p.id;
  $('player-form-title').textContent = t('dir.edit_player', { number: p.number, name: p.name });
  $('ep-name').value = p.name || '';
  $('ep-title').value = p.title || '';
  $('ep-club').value = p.club || '';
  $('ep-fed').value = p.federation || '';
  $('ep-fedid').value = p.fed_id || '';
  $('ep-rating').value = p.rating ? String(p.rating) : '';
  $('ep-born').value = p.born ? String(p.born) : '';
  $('ep-games').value = p.games ? String(p.games) : '';
  $('ep-k').value = p.k ? String(p.k) : '';
  $('player-form').hidden = false;
  $('ep-name').focus();
}

function closeEdit() {
  state.editing = 0;
  $('player-form').hidden = true;
}

async function importCSV(ev, confirm = false) {
  if (ev) ev.preventDefault();
  let text = $('import-text').value;
  const file = $('import-file').files[0];
  if (file) text = await file.text();
  if (!text.trim() || state.busy) return;
  state.busy = true;
  try {
    const q = confirm ? '?confirm=1' : '';
    const r = await fetch(`${api}/import${q}`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'application/json', 'Accept-Language': i18n.current() }, body: text });
    const body = await r.json().catch(() => null);
    if (!r.ok) throw new ApiError(r.status, body);
    state.view = body;
    $('import-text').value = '';
    $('import-file').value = '';
    showError(null);
    render();
  } catch (e) {
    showError(e, () => importCSV(null, true));
  } finally {
    state.busy = false;
  }
}

// keepLink sets up the director's link box: after the event is created
// (#new) it is open, and leaving the page asks first until the link is
// copied, the card opened or the director says it is kept.
function keepLink() {
  const fresh = location.hash === '#new';
  const kept = () => {
    state.guarded = false;
    $('keep-done').hidden = true;
    $('keep-new').hidden = true;
    $('keep-box').classList.remove('fresh');
    if (fresh) history.replaceState(null, '', location.pathname);
  };
  state.guarded = fresh;
  if (fresh) {
    $('keep-box').open = true;
    $('keep-box').classList.add('fresh');
    $('keep-new').hidden = false;
    $('keep-done').hidden = false;
  }
  window.addEventListener('beforeunload', (e) => {
    if (!state.guarded) return;
    e.preventDefault();
    e.returnValue = '';
  });
  $('keep-copy').addEventListener('click', async () => {
    const input = $('keep-link');
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (_) {
      input.select();
      document.execCommand('copy');
    }
    $('keep-status').textContent = t('dir.copied');
    kept();
  });
  $('keep-card-link').addEventListener('click', kept);
  $('keep-done').addEventListener('click', kept);
}

async function main() {
  await i18n.init();
  // The server writes the result labels in the page's language: another
  // language asks for the view again.
  $('langbox').append(i18n.selector(async () => {
    if (!state.view) return;
    render();
    try { state.view = await getJSON(api); render(); } catch (_) { /* the next answer brings them */ }
  }));
  i18n.apply();
  try {
    state.view = await getJSON(api);
  } catch (e) {
    const box = $('load-error');
    box.textContent = i18n.msg(e);
    box.hidden = false;
    return;
  }
  const round = () => (state.view.rounds || []).length;
  $('pair').addEventListener('click', pairNext);
  $('publish').addEventListener('click', () => op('publish', { round: round() }));
  $('close').addEventListener('click', () => op('close', { round: round() }));
  $('undo').addEventListener('click', () => op('undo', { round: round() }));
  $('exchange-form').addEventListener('submit', (e) => {
    e.preventDefault();
    op('exchange', { round: round(), player: Number($('exchange-a').value), other: Number($('exchange-b').value) });
  });
  $('fix-round').addEventListener('change', () => { state.fixRound = $('fix-round').value; renderFix(); });
  $('fix-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const result = $('fix-result').value;
    if (!result) return;
    op('result', { round: Number($('fix-round').value), board: Number($('fix-board').value), result }, () => { $('fix-result').value = ''; });
  });
  $('add-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const p = { name: $('add-name').value, title: $('add-title').value, club: $('add-club').value, federation: $('add-fed').value,
      fed_id: $('add-fedid').value, rating: parseInt($('add-rating').value, 10) || 0 };
    const clear = () => {
      for (const id of ['add-name', 'add-title', 'add-club', 'add-fed', 'add-fedid', 'add-rating']) $(id).value = '';
      $('add-name').focus();
    };
    await op('add-players', { players: [p] }, clear);
  });
  $('player-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const edit = { name: $('ep-name').value, title: $('ep-title').value, club: $('ep-club').value, federation: $('ep-fed').value,
      fed_id: $('ep-fedid').value, rating: parseInt($('ep-rating').value, 10) || 0,
      born: parseInt($('ep-born').value, 10) || 0, games: parseInt($('ep-games').value, 10) || 0, k: parseInt($('ep-k').value, 10) || 0 };
    op('edit-player', { player: state.editing, edit }, closeEdit);
  });
  $('ep-cancel').addEventListener('click', closeEdit);
  $('seeding-reset').addEventListener('click', () => op('seeding', { order: [] }));
  $('apart-save').addEventListener('click', () => {
    const picks = [...$('apart-choose').querySelectorAll('input:checked')];
    const forbidden = [...(state.view.event.forbidden || []), { players: picks.map((x) => Number(x.value)) }];
    // After the answer the list is drawn again (ticks kept): untick the new boxes.
    op('forbidden', { forbidden }, () => { for (const x of $('apart-choose').querySelectorAll('input')) x.checked = false; });
  });
  $('confirm-anyway').addEventListener('click', () => { if (state.retry) state.retry(); });
  keepLink();
  $('import-form').addEventListener('submit', importCSV);
  // The details form shows the event as stored each time it is opened and
  // after a save; a redraw does not overwrite what is being typed.
  const fillDetails = () => {
    const ev = state.view.event;
    $('edit-name').value = ev.name || '';
    $('edit-site').value = ev.site || '';
    $('edit-start').value = ev.start || '';
    $('edit-end').value = ev.end || '';
    $('edit-tc').value = ev.time_control || '';
  };
  $('edit-box').addEventListener('toggle', () => { if ($('edit-box').open) fillDetails(); });
  $('edit-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const details = { name: $('edit-name').value, site: $('edit-site').value, start: $('edit-start').value,
      end: $('edit-end').value, time_control: $('edit-tc').value };
    if (await op('edit-event', { details })) fillDetails();
  });
  // Results of the online games arrive on the server: look again now and then.
  setInterval(async () => {
    if (state.busy || document.hidden) return;
    try {
      const v = await getJSON(api);
      if (JSON.stringify(v.rounds) !== JSON.stringify(state.view.rounds)) { state.view = v; render(); }
    } catch (_) { /* the next look will tell */ }
  }, 5000);
  render();
  $('director').hidden = false;
  state.ready = true;
}

main();
