package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/rules"
)

// liveEvent is a two-engine English event of four games.
func liveEvent() store.Event {
	return store.Event{Name: "Live test", Variant: "english", TimeControl: "60+1", Planned: 4, ConfigHash: "h",
		Engines: []store.Engine{{ID: 0, Name: "alpha"}, {ID: 1, Name: "beta"}}}
}

// legalTexts plays n moves from the start of v (the first legal move each
// time) and returns their texts and the position after them.
func legalTexts(t *testing.T, v *rules.Variant, n int) ([]string, rules.Position) {
	t.Helper()
	p := rules.NewPosition(v)
	var out []string
	for range n {
		ms := p.LegalMoves()
		if len(ms) == 0 {
			t.Fatalf("no legal move after %v", out)
		}
		out = append(out, p.MoveText(ms[0]))
		p = p.Play(ms[0])
	}
	return out, p
}

// waitTick waits for the live view's next tick (a change is told there).
func waitTick(t *testing.T, h *Live, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatal("no tick of the live view within a minute")
	}
}

// The live view follows a game move by move (board, last move, what each
// engine said, clocks), ignores a move it has or one that skips a ply, and
// moves a game that ended to the last results and the standings; a stream
// is told only what changed since it looked.
func TestLiveFollowsAGame(t *testing.T) {
	v, _ := rules.Lookup("english")
	h := NewLive()
	earlier := store.Game{ID: 0, Round: 1, Board: 1, White: 0, Black: 1, Result: "1-0", Termination: "normal", Status: store.Finished,
		FirstMover: "black", Plies: 40, Finished: time.Now().Add(-time.Hour)}
	h.EventStarted(liveEvent(), []store.Game{earlier})
	h.GameStarted(store.Game{ID: 1, Round: 1, Board: 2, White: 1, Black: 0, Opening: "start", FirstMover: rules.NewPosition(v).Turn().String(), Status: store.Running})
	snap0, seen := h.snapshot()
	if len(snap0.Games) != 1 || snap0.Games[0].ID != 2 || snap0.Games[0].White != "beta" || len(snap0.Games[0].Pieces) != 24 || snap0.Games[0].Plies != 0 {
		t.Fatalf("the started game: %+v", snap0.Games)
	}
	if len(snap0.Geometry.Squares) != 32 || snap0.Event.Running != 1 || snap0.Event.Finished != 1 || len(snap0.Recent) != 1 {
		t.Fatalf("snapshot: geometry %d squares, event %+v, %d recent", len(snap0.Geometry.Squares), snap0.Event, len(snap0.Recent))
	}

	texts, after := legalTexts(t, v, 3)
	clocks := [2]time.Duration{58 * time.Second, 59 * time.Second}
	first := rules.NewPosition(v).Turn()
	for i, txt := range texts {
		h.GameMoved(1, i+1, store.Move{Text: txt, Score: float64(i), HasScore: true, Depth: 10 + i, PV: txt}, clocks)
	}
	h.GameMoved(1, 2, store.Move{Text: "1-5"}, clocks) // known already
	h.GameMoved(1, 9, store.Move{Text: "1-5"}, clocks) // skips plies
	h.GameMoved(7, 1, store.Move{Text: "1-5"}, clocks) // no such game
	u, ok := h.since(&seen)
	if !ok || len(u.Games) != 1 || u.Event != nil || u.Standings != nil || u.Gone != nil {
		t.Fatalf("update after three moves: %+v, %v; want the one game", u, ok)
	}
	g := u.Games[0]
	if g.Plies != 3 || strings.Join(g.Moves, " ") != strings.Join(texts, " ") || g.From != 1 || g.Turn != colorName(after.Turn()) {
		t.Errorf("after three moves: plies %d, moves %v from %d, turn %s; want %v, turn %s", g.Plies, g.Moves, g.From, g.Turn, texts, after.Turn())
	}
	if len(g.Pieces) != after.Pieces(rules.White).Len()+after.Pieces(rules.Black).Len() || g.Last == nil || g.Last.From == "" {
		t.Errorf("board after three moves: %d pieces, last %+v", len(g.Pieces), g.Last)
	}
	// The third move was the first mover's; the second the other side's.
	if in := g.Info[colorName(first)]; in.Ply != 3 || in.Depth != 12 || in.PV != texts[2] || !in.HasScore {
		t.Errorf("%s's info = %+v; want ply 3 depth 12", first, in)
	}
	if in := g.Info[colorName(first.Opponent())]; in.Ply != 2 || in.Depth != 11 {
		t.Errorf("%s's info = %+v; want ply 2 depth 11", first.Opponent(), in)
	}
	if g.Clocks.White != 58000 || g.Clocks.Black != 59000 || !g.Clocks.Timed {
		t.Errorf("clocks = %+v", g.Clocks)
	}
	if _, ok := h.since(&seen); ok {
		t.Error("a second look with nothing changed finds an update")
	}

	// A move the position cannot read stops the board, not the moves.
	board := g.Pieces
	h.GameMoved(1, 4, store.Move{Text: "32-1"}, clocks)
	u, _ = h.since(&seen)
	if g := u.Games[0]; g.Plies != 4 || g.Unreadable == "" || len(g.Pieces) != len(board) || g.Moves[3] != "32-1" {
		t.Errorf("after an unreadable move: %+v", g)
	}

	// The end: the game leaves, the results and standings come.
	ch := h.changes()
	h.GameEnded(store.Game{ID: 1, Round: 1, Board: 2, White: 1, Black: 0, Result: "0-1", Termination: "normal", Reason: "no move",
		Status: store.Finished, FirstMover: "black", Plies: 4, Finished: time.Now()})
	h.GameEnded(store.Game{ID: 1, Result: "1-0"}) // told twice: ignored
	waitTick(t, h, ch)
	u, ok = h.since(&seen)
	if !ok || len(u.Gone) != 1 || u.Gone[0] != 2 || len(u.Games) != 0 || u.Event == nil || u.Event.Finished != 2 || u.Event.Running != 0 {
		t.Fatalf("update after the end: %+v", u)
	}
	if len(u.Recent) != 2 || u.Recent[0].ID != 2 || u.Recent[0].Result != "0-1" || u.Recent[1].ID != 1 {
		t.Errorf("last results = %+v; want game 2 then game 1", u.Recent)
	}
	st := u.Standings
	if st == nil {
		// The standings of the end may come at a tick of their own.
		waitTick(t, h, h.changes())
		u, _ = h.since(&seen)
		st = u.Standings
	}
	if st == nil || st.Games != 2 || len(st.Rows) != 2 || st.Rows[0].Name != "alpha" || st.Rows[0].Points != 2 || st.Rows[0].W != 2 || st.Rows[1].L != 2 {
		t.Fatalf("standings = %+v; want alpha 2 wins, beta 2 losses", st)
	}
	if st.Cross[0][1] != (LiveCell{Points: 2, Games: 2}) || st.Cross[1][0] != (LiveCell{Points: 0, Games: 2}) {
		t.Errorf("crosstable = %+v", st.Cross)
	}
	// A game abandoned leaves without a result.
	h.GameStarted(store.Game{ID: 2, White: 0, Black: 1, FirstMover: "black"})
	h.GameAbandoned(2)
	if s := h.Snapshot(); len(s.Games) != 0 || s.Event.Finished != 2 {
		t.Errorf("after an abandoned game: %d running, %d finished", len(s.Games), s.Event.Finished)
	}
}

// The last results keep the liveRecent newest, newest first, whatever
// order the games are told in.
func TestLiveRecentOrder(t *testing.T) {
	h := NewLive()
	t0 := time.Now()
	var games []store.Game
	for i := range liveRecent + 5 {
		// Told in ID order, finished in another.
		games = append(games, store.Game{ID: i, White: 0, Black: 1, Result: "1/2-1/2", Finished: t0.Add(time.Duration((i*7)%(liveRecent+5)) * time.Second)})
	}
	h.EventStarted(liveEvent(), games)
	r := h.Snapshot().Recent
	if len(r) != liveRecent {
		t.Fatalf("%d recent games; want %d", len(r), liveRecent)
	}
	for i := 1; i < len(r); i++ {
		if !r[i-1].finished.After(r[i].finished) {
			t.Errorf("recent %d (game %d, %v) is not after recent %d (game %d, %v)", i-1, r[i-1].ID, r[i-1].finished, i, r[i].ID, r[i].finished)
		}
	}
}

// liveServer is a live view's server on a real listener.
func liveServer(t *testing.T, h *Live, lim Limits) *httptest.Server {
	t.Helper()
	srv, err := New(Config{Live: h, Log: zerolog.Nop(), Limits: lim, TrustProxy: true})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(srv.Handler())
	hs.Config = srv.HTTPServer()
	hs.Start()
	t.Cleanup(func() { srv.Stop(); hs.Close() })
	return hs
}

// openLive opens the live stream as client ip; the status, and the stream
// when it is 200.
func openLive(t *testing.T, hs *httptest.Server, ip string) (int, *sse, []byte) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", hs.URL+"/api/live/events", nil)
	req.Header.Set("X-Forwarded-For", ip)
	resp, err := hs.Client().Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		return resp.StatusCode, nil, b
	}
	s := &sse{resp: resp, events: make(chan sseEvent, 1024), cancel: cancel}
	go readSSE(resp.Body, s.events)
	t.Cleanup(s.close)
	return resp.StatusCode, s, nil
}

// The live server: the page at / and /live, the state as JSON, a stream
// that starts with the snapshot and goes on with updates; GET only, no
// referee routes, streams bounded per client and in all.
func TestLiveServer(t *testing.T) {
	h := NewLive()
	h.EventStarted(liveEvent(), nil)
	hs := liveServer(t, h, Limits{RequestRate: -1, StreamsPerClient: 2, Streams: 3})
	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		resp, err := hs.Client().Get(hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	for _, p := range []string{"/", "/live"} {
		resp, body := get(p)
		if resp.StatusCode != 200 || !strings.Contains(string(body), "/assets/live.js") || resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: %d, CSP %q, %.80s", p, resp.StatusCode, resp.Header.Get("Content-Security-Policy"), body)
		}
	}
	resp, body := get("/api/live")
	var snap LiveSnapshot
	if resp.StatusCode != 200 || json.Unmarshal(body, &snap) != nil || snap.Event.Name != "Live test" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("GET /api/live: %d %s", resp.StatusCode, body)
	}
	// Read-only: no other method, no referee.
	for _, c := range []struct{ method, path string }{{"POST", "/api/live"}, {"PUT", "/api/live/events"}, {"DELETE", "/live"}, {"POST", "/api/games"}} {
		req, _ := http.NewRequest(c.method, hs.URL+c.path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		resp, err := hs.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed && resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s %s: %d %s; want 405 or 404", c.method, c.path, resp.StatusCode, b)
		}
		if c.path != "/api/games" && (resp.StatusCode != http.StatusMethodNotAllowed || errorCode(b) != codeMethod) {
			t.Errorf("%s %s: %d %s; want 405 %s", c.method, c.path, resp.StatusCode, b, codeMethod)
		}
	}
	if resp, _ := get("/g/abc"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a game link on the live server: %d; want 404", resp.StatusCode)
	}

	// The stream: the snapshot, then what changes.
	code, s1, _ := openLive(t, hs, "198.51.100.1")
	if code != 200 {
		t.Fatalf("first stream: %d", code)
	}
	if ev := s1.next(t); ev.Event != "snapshot" || !strings.Contains(ev.Data, `"Live test"`) {
		t.Fatalf("first event %+v; want the snapshot", ev)
	}
	h.GameStarted(store.Game{ID: 0, White: 0, Black: 1, FirstMover: "black"})
	// The event's first standings may come on their own first (the tick
	// that counts them can fall after the snapshot on a loaded machine);
	// the game comes in an update of its own, with nothing but updates
	// before it.
	ev := s1.until(t, "the started game", func(ev sseEvent, m map[string]any) bool {
		if ev.Event != "update" {
			t.Fatalf("event after a game started: %+v; want updates", ev)
		}
		return m["games"] != nil
	})
	var u LiveUpdate
	if json.Unmarshal([]byte(ev.Data), &u) != nil || len(u.Games) != 1 || u.Games[0].ID != 1 {
		t.Fatalf("event after a game started: %+v", ev)
	}

	// Limits: two streams a client, three in all.
	if code, _, _ := openLive(t, hs, "198.51.100.1"); code != 200 {
		t.Fatalf("second stream of a client: %d", code)
	}
	if code, _, b := openLive(t, hs, "198.51.100.1"); code != http.StatusTooManyRequests || errorCode(b) != codeTooManyStreams {
		t.Errorf("third stream of a client: %d %s; want 429 %s", code, b, codeTooManyStreams)
	}
	if code, _, _ := openLive(t, hs, "198.51.100.2"); code != 200 {
		t.Fatalf("a second client's stream: %d", code)
	}
	if code, _, b := openLive(t, hs, "198.51.100.3"); code != http.StatusServiceUnavailable || errorCode(b) != codeServerFull {
		t.Errorf("fourth stream in all: %d %s; want 503 %s", code, b, codeServerFull)
	}
	// A closed stream gives its place back.
	s1.close()
	waitUntil(t, "the closed stream's place is free", func() bool {
		code, _, _ := openLive(t, hs, "198.51.100.3")
		return code == 200
	})
}

// A server needs something to serve.
func TestLiveServerNeedsAnEvent(t *testing.T) {
	if _, err := New(Config{Log: zerolog.Nop()}); err == nil {
		t.Error("a server with neither a Hall nor a live event was made")
	}
}

// An event set anew (a watched directory's event replaced) tells every
// stream to start again from a snapshot, once.
func TestLiveReload(t *testing.T) {
	h := NewLive()
	_, seen := h.snapshot() // before the event: no board yet
	h.EventStarted(liveEvent(), nil)
	u, ok := h.since(&seen)
	if !ok || !u.Reload {
		t.Fatalf("update after the event was set: %+v, %v; want a reload", u, ok)
	}
	if u, ok := h.since(&seen); ok {
		t.Errorf("a second update after the reload: %+v", u)
	}
	h.GameStarted(store.Game{ID: 0, White: 0, Black: 1})
	if u, ok := h.since(&seen); !ok || u.Reload || len(u.Games) != 1 {
		t.Errorf("update after a game started: %+v, %v", u, ok)
	}
}
