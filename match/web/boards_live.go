package web

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// The live boards page of a round (public, /e/{id}/round/{n}/boards):
// every board of a published round, its players and its result as it
// comes in, and the position of each board played online, drawn with the
// web referee's board (board.js). Its stream sends "snapshot" (the whole
// round) first and again whenever the event changes (a result, a game
// made), and "board" with a game's new state after each of its events.

// liveBoard is one board on the live boards page.
type liveBoard struct {
	Board  int           `json:"board"`
	White  director.Seat `json:"white"`
	Black  director.Seat `json:"black"`
	Result string        `json:"result"` // one of director.Outcomes, "" not in
	Label  string        `json:"label"`  // as the event writes it
	// Game is the state of the board's online game (nil: played over
	// the board).
	Game *online.State `json:"game"`
	id   string        // the online game's id
	v    int64         // the version State is of
}

// liveRound is the live boards page's round.
type liveRound struct {
	Event  string      `json:"event"`
	Round  int         `json:"round"`
	State  string      `json:"state"`  // published | closed
	Rounds int         `json:"rounds"` // rounds published so far
	Boards []liveBoard `json:"boards"`
	// Geometry is the board's layout (every game of an event has its
	// variant); nil when no board is played online.
	Geometry *online.Geometry `json:"geometry"`
}

// liveRoundOf reads round n of a public event as the page shows it.
func (s *Server) liveRoundOf(w http.ResponseWriter, r *http.Request) (*liveRound, bool) {
	sn, ok := s.publicEvent(w, r)
	if !ok {
		return nil, false
	}
	n, ok := roundOf(w, r)
	if !ok {
		return nil, false
	}
	if n > len(sn.Rounds) {
		writeCode(w, http.StatusNotFound, codeNotFound, nil)
		return nil, false
	}
	return s.liveRound(sn, n), true
}

// liveRound builds round n of sn (a published round).
func (s *Server) liveRound(sn *director.Snapshot, n int) *liveRound {
	rd := sn.Rounds[n-1]
	out := &liveRound{Event: sn.Event.Name, Round: n, State: rd.State, Rounds: len(sn.Rounds), Boards: make([]liveBoard, 0, len(rd.Boards))}
	seat := func(id int) director.Seat {
		if p := sn.Player(id); p != nil {
			return director.Seat{Name: p.Name, Number: p.Number}
		}
		return director.Seat{}
	}
	for _, b := range rd.Boards {
		lb := liveBoard{Board: b.Board, White: seat(b.White), Black: seat(b.Black), Result: b.Outcome(), Label: sn.Event.ResultLabel(b), id: b.Game}
		if b.Game != "" && s.hall != nil {
			if snap, err := s.hall.Snapshot(b.Game, online.RoleSpectator); err == nil {
				st := snap.State
				lb.Game, lb.v = &st, snap.V
				if out.Geometry == nil {
					g := snap.Geometry
					out.Geometry = &g
				}
			}
		}
		out.Boards = append(out.Boards, lb)
	}
	return out
}

func (s *Server) liveBoards(w http.ResponseWriter, r *http.Request) {
	lr, ok := s.liveRoundOf(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, lr)
}

// boardUpdate is a "board" event: a game's new state.
type boardUpdate struct {
	Board int           `json:"board"`
	Game  *online.State `json:"game"`
}

// liveBoardsEvents streams the live boards page (see above). The stream
// counts against the same limits as a game's (StreamsPerClient, Streams);
// each write has the deadline WriteWait; it beats as a game's stream does
// (beatLine): the page replaces a stream silent for three beats. A game
// whose watch ends (its watcher fell behind) sends "reload": the browser
// reconnects and gets a new snapshot.
func (s *Server) liveBoardsEvents(w http.ResponseWriter, r *http.Request) {
	lr, ok := s.liveRoundOf(w, r)
	if !ok {
		return
	}
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Type", "text/event-stream")
		return
	}
	release, ok := s.acquireStream(w, r)
	if !ok {
		return
	}
	defer release()
	id := r.PathValue("id")
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
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	updates := make(chan boardUpdate, 64)
	lost := make(chan struct{}, 1)
	watched := map[string]bool{}
	watch := func(lr *liveRound) {
		for _, b := range lr.Boards {
			if b.id == "" || b.Game == nil || watched[b.id] || s.hall == nil {
				continue
			}
			watched[b.id] = true
			missed, live, err := s.hall.Watch(ctx, b.id, b.v)
			if err != nil {
				continue // a broken game: its board shows what the snapshot had
			}
			board := b.Board
			go func() {
				for i := range missed {
					select {
					case updates <- boardUpdate{Board: board, Game: &missed[i].State}:
					case <-ctx.Done():
						return
					}
				}
				for e := range live {
					st := e.State
					select {
					case updates <- boardUpdate{Board: board, Game: &st}:
					case <-ctx.Done():
						return
					}
				}
				if ctx.Err() == nil {
					select {
					case lost <- struct{}{}:
					default:
					}
				}
			}()
		}
	}
	changed := s.boards.next(id) // before the snapshot: no change falls between
	w.WriteHeader(http.StatusOK)
	beatLine := s.beatLine()
	if !send(append([]byte("retry: 2000\n\n"), beatLine...)) || !event("snapshot", lr) {
		return
	}
	watch(lr)
	beat := time.NewTicker(s.lim.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.stop:
			return
		case u := <-updates:
			if !event("board", u) {
				return
			}
		case <-lost:
			event("reload", struct{}{})
			return
		case <-changed:
			changed = s.boards.next(id)
			sn, err := s.dir.Get(ctx, id)
			if err != nil || lr.Round > len(sn.Rounds) || sn.Rounds[lr.Round-1].State == director.Paired {
				event("reload", struct{}{})
				return
			}
			lr = s.liveRound(sn, lr.Round)
			if !event("snapshot", lr) {
				return
			}
			watch(lr)
		case <-beat.C:
			if !send(beatLine) {
				return
			}
		}
	}
}
