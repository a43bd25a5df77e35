// beat.js: the watchdog of a live page's event stream, shared by the game
// page, the live view and the live boards. The server opens every stream
// with an "event: beat" whose data is its heartbeat in milliseconds and
// sends one every heartbeat after: a stream that says nothing for three
// beats died without a word (a phone in a tunnel, a network that dropped
// the connection without telling either end), and the browser may not
// notice for minutes.

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
