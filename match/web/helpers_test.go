package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/internal/testbin"
	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// syncBuffer collects log output written from many goroutines.
type syncBuffer = testbin.SyncBuffer

// env is a real server on a real listener over a real Hall (SQLite in a
// temporary directory); log collects the output of both at debug level.
type env struct {
	t    testing.TB
	hall *online.Hall
	srv  *Server
	hs   *httptest.Server
	log  *syncBuffer
}

// unlimited turns the per-client request and creation limits off, for tests
// that send many requests from one address.
var unlimited = Limits{RequestRate: -1, GameRate: -1}

func newEnv(t testing.TB, cfg Config) *env { return newEnvLevel(t, cfg, zerolog.DebugLevel) }

// newEnvLevel is newEnv logging at level (benchmarks log only errors).
func newEnvLevel(t testing.TB, cfg Config, level zerolog.Level) *env {
	t.Helper()
	e := &env{t: t, log: &syncBuffer{}}
	log := zerolog.New(e.log).Level(level).With().Timestamp().Logger()
	hall, err := online.Open(context.Background(), online.Config{Path: filepath.Join(t.TempDir(), "web.db"), Log: log, MaxGames: 5000})
	if err != nil {
		t.Fatal(err)
	}
	e.hall = hall
	cfg.Hall, cfg.Log = hall, log
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	e.hs = httptest.NewUnstartedServer(srv.Handler())
	e.hs.Config = srv.HTTPServer()
	e.hs.Start()
	t.Cleanup(func() {
		srv.Stop()
		e.hs.Close()
		if err := hall.Close(); err != nil {
			t.Errorf("closing the Hall: %v", err)
		}
	})
	return e
}

// do sends a request and returns the response with its body read.
func (e *env) do(method, path, body string, hdr ...string) (*http.Response, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.hs.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := e.hs.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp, b
}

// game is a created game: its id and the token of each role.
type game struct {
	id     string
	links  map[string]string
	tokens map[string]string
}

// create creates a game from a Setup in JSON and checks the answer.
func (e *env) create(setup string) game {
	e.t.Helper()
	resp, body := e.do("POST", "/api/games", setup)
	if resp.StatusCode != http.StatusCreated {
		e.t.Fatalf("create %s: %d %s", setup, resp.StatusCode, body)
	}
	var c struct {
		ID    string            `json:"id"`
		Links map[string]string `json:"links"`
	}
	if err := json.Unmarshal(body, &c); err != nil {
		e.t.Fatalf("create: %v in %s", err, body)
	}
	g := game{id: c.ID, links: c.Links, tokens: map[string]string{}}
	for role, link := range c.Links {
		i := strings.LastIndex(link, "/g/")
		if i < 0 {
			e.t.Fatalf("link %q has no /g/", link)
		}
		g.tokens[role] = link[i+len("/g/"):]
	}
	return g
}

// snapshot is the part of a Snapshot the tests read.
type snapshot struct {
	V     int64    `json:"v"`
	Role  string   `json:"role"`
	Legal []string `json:"legal"`
	Moves []struct {
		Text    string `json:"text"`
		ClockMS int64  `json:"clock_ms"`
	} `json:"moves"`
	State struct {
		Turn   string `json:"turn"`
		Status string `json:"status"`
		Result string `json:"result"`
		Ply    int    `json:"ply"`
		Clocks struct {
			White   int64  `json:"white"`
			Black   int64  `json:"black"`
			Running string `json:"running"`
		} `json:"clocks"`
		Presence map[string]bool `json:"presence"`
	} `json:"state"`
}

func (e *env) snap(token string) snapshot {
	e.t.Helper()
	resp, body := e.do("GET", "/api/g/"+token, "")
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("snapshot: %d %s", resp.StatusCode, body)
	}
	var s snapshot
	if err := json.Unmarshal(body, &s); err != nil {
		e.t.Fatalf("snapshot: %v in %s", err, body)
	}
	return s
}

// act posts an intent and returns the status and body.
func (e *env) act(token, intent string) (int, []byte) {
	e.t.Helper()
	resp, body := e.do("POST", "/api/g/"+token+"/act", intent)
	return resp.StatusCode, body
}

// playLegal plays the first legal move for the side to move (the game is
// a beginner game, so the snapshot lists them) and returns it.
func (e *env) playLegal(g game) string {
	e.t.Helper()
	turn := e.snap(g.tokens["white"]).State.Turn
	s := e.snap(g.tokens[turn])
	if len(s.Legal) == 0 {
		e.t.Fatalf("no legal moves listed for %s", turn)
	}
	if code, body := e.act(g.tokens[turn], `{"kind":"move","move":"`+s.Legal[0]+`"}`); code != http.StatusOK {
		e.t.Fatalf("%s plays %s: %d %s", turn, s.Legal[0], code, body)
	}
	return s.Legal[0]
}

// errorCode is the code of a JSON error body ("" when it is not one).
func errorCode(body []byte) string {
	var eb struct {
		Error struct {
			Code string `json:"code"`
			Text string `json:"text"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &eb) != nil {
		return ""
	}
	return eb.Error.Code
}

// sseEvent is one server-sent event.
type sseEvent struct {
	ID, Event, Data string
}

// sse is an open event stream.
type sse struct {
	resp   *http.Response
	events chan sseEvent
	cancel context.CancelFunc
}

// stream opens the event stream of token with extra headers; it fails the
// test unless the server answers 200.
func (e *env) stream(token, query string, hdr ...string) *sse {
	e.t.Helper()
	s, code, body := e.tryStream(token, query, hdr...)
	if code != http.StatusOK {
		e.t.Fatalf("events: %d %s", code, body)
	}
	return s
}

func (e *env) tryStream(token, query string, hdr ...string) (*sse, int, []byte) {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", e.hs.URL+"/api/g/"+token+"/events"+query, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := e.hs.Client().Do(req)
	if err != nil {
		cancel()
		e.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		return nil, resp.StatusCode, b
	}
	s := &sse{resp: resp, events: make(chan sseEvent, 1024), cancel: cancel}
	go readSSE(resp.Body, s.events)
	e.t.Cleanup(s.close)
	return s, resp.StatusCode, nil
}

func (s *sse) close() {
	s.cancel()
	s.resp.Body.Close()
}

// readSSE parses a stream into events (comments and the game stream's
// beats are dropped) until it ends.
func readSSE(r io.Reader, out chan<- sseEvent) {
	defer close(out)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var ev sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev != (sseEvent{}) && ev.Event != "beat" {
				out <- ev
			}
			ev = sseEvent{}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "id: "):
			ev.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			ev.Event = line[7:]
		case strings.HasPrefix(line, "data: "):
			ev.Data += line[6:]
		}
	}
}

// next waits for the next event with data (a generous bound: a loaded
// machine, not a timing).
func (s *sse) next(t *testing.T) sseEvent {
	t.Helper()
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				t.Fatal("the event stream ended")
			}
			if ev.Data == "" {
				continue // the retry: line
			}
			return ev
		case <-time.After(time.Minute):
			t.Fatal("no event within a minute")
		}
	}
}

// until reads events until one satisfies cond.
func (s *sse) until(t *testing.T, what string, cond func(sseEvent, map[string]any) bool) sseEvent {
	t.Helper()
	for {
		ev := s.next(t)
		var m map[string]any
		json.Unmarshal([]byte(ev.Data), &m)
		if cond(ev, m) {
			return ev
		}
	}
}

// waitUntil polls cond (a state the server reaches on its own) for up to a
// minute.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !poll.Until(time.Minute, 10*time.Millisecond, cond) {
		t.Fatalf("%s: not within a minute", what)
	}
}
