// beat.js: a live page's connection to the server, shared by the game
// page, the live view and the live boards: the watchdog of its event
// stream (heartbeat), its clocks while it is not connected (Stand), and
// for the live pages the stream itself, kept through a lost network
// (Stream). The server opens every stream with an "event: beat" whose
// data is its heartbeat in milliseconds and sends one every heartbeat
// after: a stream that says nothing for three beats died without a word
// (a phone in a tunnel, a network that dropped the connection without
// telling either end), and the browser may not notice for minutes.

import { $ } from './dom.js';
import { t } from './i18n.js';

// heartbeat watches es. The page calls the returned alive() whenever the
// stream speaks (each of its events; the beats are counted here). Silent
// for three beats, es is closed and silent() called once: the page says it
// is reconnecting and opens another stream. A stream the page closed
// itself is left alone.
export function heartbeat(es, silent) {
  let every = 0;
  let timer = 0;
  const alive = () => {
    clearTimeout(timer);
    if (!every) return;
    timer = setTimeout(() => {
      if (es.readyState === EventSource.CLOSED) return;
      es.close();
      silent();
    }, 3 * every);
  };
  es.addEventListener('beat', (e) => { every = Number(e.data) || 0; alive(); });
  return alive;
}

// Stand is what a page's clocks do while it is not connected: they stand
// where they were when the connection went, greyed in a dashed box titled
// "Not current", since the page cannot know them (the server charges no
// one for its own outage, and a player for their lost network: a clock
// that ran on jumped back when the server returned). They run again from
// the server's figures: ones that came after the connection went.
export class Stand {
  constructor() {
    this.at = 0; // when the connection went (performance.now); 0 connected
  }

  // stale reports whether the clocks stand.
  get stale() { return this.at > 0; }

  // lost notes that the connection went; the first loss counts.
  lost() { if (!this.at) this.at = performance.now(); }

  // back notes that the connection is back with the server's figures of
  // time figuresAt; it reports whether the clocks run again (false: the
  // figures are older than the loss and the page must ask for new ones).
  back(figuresAt) {
    if (this.at && figuresAt > this.at) this.at = 0;
    return !this.at;
  }

  // now is the time to read a running clock at, its figures being of time
  // since: the present, or while the clocks stand the moment they stopped
  // (or since, for figures that came after).
  now(since) { return this.at ? Math.max(this.at, since) : performance.now(); }

  // mark marks a clock's element as current or not (the look is
  // style.css's .clock.stale); a clock that stands does not run.
  mark(clk) {
    clk.classList.toggle('stale', this.stale);
    if (!this.stale) { clk.removeAttribute('title'); return; }
    clk.classList.remove('running');
    clk.title = t('game.clock_stale');
  }
}

// notice shows the page's connection notice (#conn) with the catalog's
// key, or hides it (null); data-i18n keeps it translated when the
// language changes.
export function notice(key) {
  const el = $('conn');
  el.hidden = !key;
  if (!key) return;
  el.dataset.i18n = key;
  el.textContent = t(key);
}

// Stream is a live page's event stream (the live view, the live boards),
// which opens with a snapshot of the whole page. A stream silent for
// three beats is replaced. The device's offline event closes it at once
// (it is dead though the page may not learn it for three beats) and the
// notice says the connection is lost; online opens a new one. Meanwhile
// the clocks stand (stand); the next snapshot's figures (fresh) run them
// again.
export class Stream {
  // listen adds the page's listeners to each new stream es; the page
  // calls alive() when the stream speaks (heartbeat).
  constructor(url, listen) {
    this.url = url;
    this.listen = listen;
    this.es = null;
    this.stand = new Stand();
  }

  // start opens the stream and follows the device's connection.
  start() {
    addEventListener('offline', () => {
      if (this.es) this.es.close();
      this.es = null;
      this.lost('game.offline');
    });
    addEventListener('online', () => {
      // A stream that stayed open (Wi-Fi to mobile data with no offline
      // between) goes on.
      if (this.es && this.es.readyState === EventSource.OPEN) return;
      this.lost('game.reconnecting');
      this.open();
    });
    this.open();
  }

  // open replaces the stream with a new one.
  open() {
    if (this.es) this.es.close();
    const es = new EventSource(this.url);
    this.es = es;
    const alive = heartbeat(es, () => {
      if (this.es !== es) return;
      this.lost('game.reconnecting');
      this.open();
    });
    es.addEventListener('open', () => { if (this.es === es) notice(null); });
    es.addEventListener('error', () => {
      if (this.es === es) this.lost(navigator.onLine ? 'game.reconnecting' : 'game.offline');
    });
    this.listen(es, alive);
  }

  // reopen closes the stream and opens another after ms (the server's
  // reload: it changed what the page shows as a whole).
  reopen(ms) {
    if (this.es) this.es.close();
    const es = this.es;
    setTimeout(() => { if (this.es === es) this.open(); }, ms);
  }

  // lost says the connection went (the notice, key) and stands the clocks.
  lost(key) {
    notice(key);
    this.stand.lost();
  }

  // fresh notes a snapshot just came: the clocks run from its figures.
  fresh() { this.stand.back(performance.now()); }
}
