// director-checks.js: the warnings on a Swiss event's settings (issue 25)
// under the FMJD's Swiss-system regulations: rounds for the size of the
// field (art. 2.4), a hand-made seeding out of rating order (art. 2.1),
// players without a rating (art. 3.1.1, 3.1.2). The server computes them
// (director.Snapshot.Checks, view.checks); they never block anything.
// director.js sends 'director:render' with the view after each render.

import * as i18n from './i18n.js';
import { $ } from './dom.js';

const { t } = i18n;

// article cites the regulation in the page's language: the server names
// it "FMJD Swiss art. 2.4"; the article's numbers stay.
function article(a) {
  const n = String(a || '').match(/^FMJD Swiss art\. (.+)$/);
  return n ? t('chk.article', { article: n[1] }) : a;
}

function render(view) {
  const checks = view.checks || [];
  let box = $('checks-box');
  if (!checks.length) {
    if (box) box.hidden = true;
    return;
  }
  if (!box) {
    const before = $('round-box');
    if (!before) return;
    box = document.createElement('section');
    box.id = 'checks-box';
    box.setAttribute('role', 'status');
    const h = document.createElement('h2');
    h.textContent = t('chk.title');
    const list = document.createElement('ul');
    list.id = 'checks';
    box.append(h, list);
    before.before(box);
  }
  box.hidden = false;
  $('checks').replaceChildren(...checks.map((c) => {
    const li = document.createElement('li');
    li.className = 'warn';
    li.dataset.check = c.code;
    const text = t('chk.' + c.code, c.args || {});
    li.textContent = `${text && text !== 'chk.' + c.code ? text : c.text} (${article(c.article)})`;
    return li;
  }));
}

document.addEventListener('director:render', (e) => render(e.detail.view));
