package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// liveRoutes are the live view's routes: read-only, GET (and HEAD) only,
// under the server's middleware and limits like every other route.
func (s *Server) liveRoutes() {
	m := s.mux
	m.HandleFunc("GET /live", s.page("live.html"))     // the page
	m.HandleFunc("GET /api/live", s.liveSnapshot)      // the whole state
	m.HandleFunc("GET /api/live/events", s.liveEvents) // server-sent events
	if s.hall == nil {
		m.HandleFunc("GET /{$}", s.page("live.html")) // nothing else is served
	}
}

func (s *Server) liveSnapshot(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.live.Snapshot())
}

// liveEvents streams the live view as server-sent events: "snapshot" with
// the whole state first, then "update" with what changed (LiveUpdate), at
// most one a liveTick; when the event is set anew (a watched directory's
// event replaced) "update" says reload and the stream ends. A reconnecting
// browser gets a new snapshot: nothing
// is replayed, so there is no event id. The stream counts against the
// same limits as a game's (StreamsPerClient, Streams), and each write has
// the deadline WriteWait: a client that stops reading is dropped. It beats
// as a game's stream does (beatLine): the page replaces a stream silent
// for three beats.
func (s *Server) liveEvents(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Type", "text/event-stream")
		return
	}
	release, ok := s.acquireStream(w, r)
	if !ok {
		return
	}
	defer release()

	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	send := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(s.lim.WriteWait))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	event := func(name string, v any) bool {
		data, err := json.Marshal(v)
		if err != nil {
			return false
		}
		b := make([]byte, 0, len(data)+32)
		b = append(b, "event: "...)
		b = append(b, name...)
		b = append(b, "\ndata: "...)
		b = append(b, data...)
		b = append(b, "\n\n"...)
		return send(b)
	}
	w.WriteHeader(http.StatusOK)
	lv := s.live
	changed := lv.changes() // before the snapshot: no change falls between
	lv.mu.Lock()
	snap, seen := lv.snapshot()
	lv.mu.Unlock()
	beatLine := s.beatLine()
	if !send(append([]byte("retry: "+strconv.Itoa(2000)+"\n\n"), beatLine...)) || !event("snapshot", snap) {
		return
	}
	beat := time.NewTicker(s.lim.Heartbeat)
	defer beat.Stop()
	ctx := r.Context()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.stop:
			return
		case <-changed:
			changed = lv.changes()
			u, ok := lv.since(&seen)
			if ok && !event("update", u) {
				return
			}
			if u.Reload {
				return // the browser reconnects and gets the new snapshot
			}
		case <-beat.C:
			if !send(beatLine) {
				return
			}
		}
	}
}
