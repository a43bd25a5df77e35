package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// events streams a game's events as server-sent events: "id: V" and the
// event's JSON as data, one flush per event. A client resumes from the
// event after Last-Event-ID (what a browser sends when it reconnects), or
// ?since=V on its first connection; the events it missed come from the
// store (Hall.Watch), then the live ones. A client too far behind, or
// dropped by the Hall for not keeping up, gets "event: reload" (fetch the
// snapshot again) and the stream ends. An "event: beat" whose data is the
// Heartbeat in milliseconds opens the stream and comes every Heartbeat: it
// keeps idle connections open through proxies, and a page that hears
// nothing for a few beats knows its stream died without a word (a phone's
// network dropped it) and opens another. Each write has a deadline of
// WriteWait: a client that stops reading is dropped, not queued for.
// When the arbiter reissues the link a stream was opened with, the stream
// ends at the reissue event (its reconnection gets the 404 of any unknown
// link): a revoked link must not go on watching. While a player's stream
// is open the Hall counts that player present.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	id, role, ok := s.resolve(w, r)
	if !ok {
		return
	}
	if r.Method == http.MethodHead {
		// The headers only: a stream nobody reads is not opened.
		w.Header().Set("Content-Type", "text/event-stream")
		return
	}
	since, ok := sinceOf(r)
	if !ok {
		writeCode(w, http.StatusBadRequest, codeBadSince, map[string]string{"since": truncate(r.URL.Query().Get("since"), 32)})
		return
	}
	release, ok := s.acquireStream(w, r)
	if !ok {
		return
	}
	defer release()

	ctx := r.Context()
	missed, live, err := s.hall.Watch(ctx, id, since)
	if err != nil {
		s.hallError(w, r, err)
		return
	}
	s.hall.Presence(id, role, true)
	defer s.hall.Presence(id, role, false)

	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	rc := http.NewResponseController(w)
	token := r.PathValue("token")
	st := &stream{w: w, rc: rc, wait: s.lim.WriteWait, last: since, game: id, enc: s.encoded,
		revoked: func() bool {
			gid, grole, ok := s.hall.Resolve(token)
			return !ok || gid != id || grole != role
		}}
	w.WriteHeader(http.StatusOK)
	beatLine := s.beatLine()
	if !st.send(append([]byte("retry: 2000\n\n"), beatLine...)) {
		return
	}
	if len(missed) > s.lim.MaxCatchUp {
		// The reload carries the latest id: the browser reconnects from
		// there (its snapshot has everything before), not from where it
		// was, which would only be too far behind again.
		st.last = missed[len(missed)-1].V
		st.reload()
		return
	}
	for _, ev := range missed {
		if !st.add(ev) {
			return
		}
	}
	if !st.flush() {
		return
	}
	beat := time.NewTicker(s.lim.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.stop:
			return
		case ev, open := <-live:
			if !open {
				// The Hall let this watcher go (too slow, or the game is
				// gone from memory): the client starts again from a snapshot.
				if ctx.Err() == nil {
					st.reload()
				}
				return
			}
			// Whatever else is queued goes in the same write: a viewer
			// that fell behind catches up in one system call, not many.
			for more := true; more; {
				if !st.add(*ev) {
					return
				}
				select {
				case ev, open = <-live:
					more = open
				default:
					more = false
				}
			}
			if !st.flush() || !open {
				if !open && ctx.Err() == nil {
					st.reload()
				}
				return
			}
		case <-beat.C:
			if !st.send(beatLine) {
				return
			}
		}
	}
}

// beatLine is the heartbeat of every event stream (a game's, the live
// view's, the live boards'): an "event: beat" whose data is the Heartbeat
// in milliseconds, sent when the stream opens and every Heartbeat after.
// It keeps idle connections open through proxies, and by it a page tells
// a live stream from one its network dropped without a word (beat.js).
func (s *Server) beatLine() []byte {
	return []byte("event: beat\ndata: " + strconv.FormatInt(s.lim.Heartbeat.Milliseconds(), 10) + "\n\n")
}

// sinceOf is the version the client has seen: Last-Event-ID (newer, set by
// the browser on reconnection) before ?since=; 0 when neither is given.
func sinceOf(r *http.Request) (int64, bool) {
	v := r.Header.Get("Last-Event-ID")
	if v == "" {
		v = r.URL.Query().Get("since")
	}
	if v == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil && n >= 0
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// stream writes one SSE connection.
type stream struct {
	w    http.ResponseWriter
	rc   *http.ResponseController
	wait time.Duration
	last int64 // the last version sent
	buf  []byte
	game string
	enc  *encodeCache
	// revoked says whether the stream's token no longer opens it (the
	// arbiter reissued the link). It is asked on every reissue event: a
	// stream opened with a revoked token ends at once, before the event.
	revoked func() bool
}

// send writes b and flushes, within the write deadline.
func (st *stream) send(b []byte) bool {
	_ = st.rc.SetWriteDeadline(time.Now().Add(st.wait))
	if _, err := st.w.Write(b); err != nil {
		return false
	}
	return st.rc.Flush() == nil
}

// add queues ev unless the client has it already (the catch-up and the
// live feed may overlap by an event); past 64 KiB it flushes.
func (st *stream) add(ev online.Event) bool {
	if ev.V <= st.last {
		return true
	}
	if ev.Type == online.EvReissue && st.revoked != nil && st.revoked() {
		st.flush() // what came before the reissue was still theirs
		return false
	}
	data, err := st.enc.encode(st.game, ev)
	if err != nil {
		return false
	}
	st.buf = append(st.buf, "id: "...)
	st.buf = strconv.AppendInt(st.buf, ev.V, 10)
	st.buf = append(st.buf, "\ndata: "...)
	st.buf = append(st.buf, data...)
	st.buf = append(st.buf, "\n\n"...)
	st.last = ev.V
	if len(st.buf) >= 64<<10 {
		return st.flush()
	}
	return true
}

// flush sends what add queued. A buffer grown large by a catch-up is let
// go: an idle viewer keeps only a small one.
func (st *stream) flush() bool {
	if len(st.buf) == 0 {
		return true
	}
	ok := st.send(st.buf)
	st.buf = st.buf[:0]
	if cap(st.buf) > 16<<10 {
		st.buf = nil
	}
	return ok
}

// reload tells the client to fetch the snapshot again; its id is where
// the client's reconnection resumes.
func (st *stream) reload() {
	st.buf = append(st.buf, "id: "...)
	st.buf = strconv.AppendInt(st.buf, st.last, 10)
	st.buf = append(st.buf, "\nevent: reload\ndata: {\"v\":"...)
	st.buf = strconv.AppendInt(st.buf, st.last, 10)
	st.buf = append(st.buf, "}\n\n"...)
	st.flush()
}

// encodeCache keeps the JSON of recent events, so that an event going to a
// thousand viewers of a game is encoded once, not a thousand times. An
// event is immutable once it has a version, so (game, version) names it.
type encodeCache struct {
	mu sync.Mutex
	m  map[eventKey][]byte
}

type eventKey struct {
	game string
	v    int64
}

// encodeCacheSize bounds the cache: the events of the moment (one per game
// that just moved), not a history.
const encodeCacheSize = 4096

func newEncodeCache() *encodeCache { return &encodeCache{m: make(map[eventKey][]byte)} }

func (c *encodeCache) encode(game string, ev online.Event) ([]byte, error) {
	k := eventKey{game, ev.V}
	c.mu.Lock()
	b, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.m) >= encodeCacheSize {
		clear(c.m) // crude but bounded; the next event of each game refills it
	}
	c.m[k] = b
	c.mu.Unlock()
	return b, nil
}

// acquireStream takes one of the event-stream places the limits allow
// (StreamsPerClient for r's client, Streams in all); without one it answers
// 429 or 503 with Retry-After and reports false. release gives the place back.
func (s *Server) acquireStream(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	client := clientIP(r, s.trust)
	switch s.streams.acquire(client) {
	case http.StatusTooManyRequests:
		s.warnCrowded(client, "live streams")
		w.Header().Set("Retry-After", "5")
		writeCode(w, http.StatusTooManyRequests, codeTooManyStreams, nil)
		return nil, false
	case http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", "30")
		writeCode(w, http.StatusServiceUnavailable, codeServerFull, nil)
		return nil, false
	}
	return func() { s.streams.release(client) }, true
}
