package web

// Issue 24: the server holds against one abusive address and a failing
// disk. One test per finding, each on a real listener.

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// doHost sends a JSON POST with the Host and Origin headers a browser
// would send when it opened the server under host.
func (e *env) doHost(path, body, host, origin string) (int, []byte) {
	e.t.Helper()
	req, err := http.NewRequest("POST", e.hs.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Host = host
	req.Header.Set("Content-Type", "application/json")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := e.hs.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// Finding 4: the director's pages opened as http://localhost:PORT, under
// a DNS name or through a proxy work; another site is still refused.
func TestHoldOriginIsTheRequestsHost(t *testing.T) {
	e := newDirEnv(t)
	u, _ := url.Parse(e.hs.URL) // http://127.0.0.1:PORT
	port := u.Port()
	tok, _ := e.createEvent(`{"name":"Host test","variant":"international","system":"swiss","rounds":3}`)
	for _, c := range []struct {
		name, host, origin string
		status             int
	}{
		{"the listener's address", u.Host, "http://" + u.Host, 200},
		{"localhost", "localhost:" + port, "http://localhost:" + port, 200},
		{"a DNS name", "arbiter.example.org:" + port, "http://arbiter.example.org:" + port, 200},
		{"a proxy ending TLS", "arbiter.example.org", "https://arbiter.example.org", 200},
		{"no Origin (not a browser)", "localhost:" + port, "", 200},
		{"another site", "localhost:" + port, "https://evil.example", 403},
		{"another port", "localhost:" + port, "http://localhost:1", 403},
		{"a sandboxed frame", "localhost:" + port, "null", 403},
		{"a look-alike", "arbiter.example.org", "https://arbiter.example.org.evil.example", 403},
	} {
		status, b := e.doHost("/api/d/"+tok+"/add-players", `{"players":[{"name":"Player `+c.name+`"}]}`, c.host, c.origin)
		if status != c.status {
			t.Errorf("%s (Host %s, Origin %q): %d %s, want %d", c.name, c.host, c.origin, status, b, c.status)
		}
		if c.status == 403 && errorCode(b) != codeCrossSite {
			t.Errorf("%s: code %s, want %s", c.name, errorCode(b), codeCrossSite)
		}
	}
	// Creating an event goes through the same check.
	if status, b := e.doHost("/api/events", `{"name":"Second","variant":"international","system":"swiss","rounds":3}`,
		"localhost:"+port, "http://localhost:"+port); status != 201 {
		t.Errorf("create under localhost: %d %s", status, b)
	}
}

// Finding 8: a key given twice is refused, never read as its last value.
func TestHoldDuplicateKeysRefused(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"international"}`)
	status, b := e.act(g.tokens["white"], `{"kind":"move","kind":"resign"}`)
	if status != 400 || errorCode(b) != codeBadJSON || !strings.Contains(string(b), `\"kind\" is given twice`) {
		t.Fatalf("duplicate kind: %d %s", status, b)
	}
	status, b = e.act(g.tokens["white"], `{"kind":"move","Kind":"resign"}`)
	if status != 400 || errorCode(b) != codeBadJSON {
		t.Fatalf("kind and Kind: %d %s", status, b)
	}
	if s := e.snap(g.tokens["white"]); s.State.Status != "running" || s.State.Result != "*" {
		t.Fatalf("after the refused intents the game is %s %s", s.State.Status, s.State.Result)
	}
	resp, b := e.do("POST", "/api/games", `{"variant":"international","variant":"russian"}`)
	if resp.StatusCode != 400 || errorCode(b) != codeBadJSON {
		t.Fatalf("duplicate setup key: %d %s", resp.StatusCode, b)
	}
}

// Finding 6: ESC, BEL, NUL and the other control characters in a player's
// move text or the arbiter's notes are refused where they enter, and no
// PDN export carries one raw.
func TestHoldControlBytesNeverReachPDN(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"international","beginner":true}`)
	for _, c := range []struct {
		role, intent, field string
	}{
		{"white", `{"kind":"move","move":"32-28\u001b[2J"}`, "move"},
		{"white", `{"kind":"move","move":"\u0007"}`, "move"},
		{"white", `{"kind":"move","path":["32","28\u0000"]}`, "path"},
		{"arbiter", `{"kind":"annotate","text":"look \u001b]0;pwned\u0007"}`, "text"},
		{"arbiter", `{"kind":"pause","text":"NUL\u0000"}`, "text"},
		{"arbiter", `{"kind":"annotate","text":"C1 \u009b31m"}`, "text"},
		{"white", `{"kind":"claim","claim":"threefold\u001b"}`, "claim"},
	} {
		status, b := e.act(g.tokens[c.role], c.intent)
		if status != 400 || errorCode(b) != "refused.bad-input" || !strings.Contains(string(b), `"field":"`+c.field+`"`) {
			t.Errorf("%s %s: %d %s, want 400 refused.bad-input naming %s", c.role, c.intent, status, b, c.field)
		}
	}
	// Line ends and tabs are text, not control: a note may have them.
	if status, b := e.act(g.tokens["arbiter"], `{"kind":"annotate","text":"two\nlines\tand a tab"}`); status != 200 {
		t.Fatalf("a note on two lines: %d %s", status, b)
	}
	e.playLegal(g)
	resp, pdn := e.do("GET", "/api/g/"+g.tokens["spectator"]+"/pdn", "")
	if resp.StatusCode != 200 || !strings.Contains(string(pdn), "two") {
		t.Fatalf("PDN: %d %s", resp.StatusCode, pdn)
	}
	for i, c := range string(pdn) {
		if c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0x7f || c >= 0x80 && c <= 0x9f {
			t.Fatalf("the PDN holds the control character %U at byte %d:\n%q", c, i, pdn)
		}
	}
}

// newDirEnvLimits is newDirEnv with limits of the test's own.
func newDirEnvLimits(t *testing.T, lim Limits) *dirEnv {
	t.Helper()
	st, err := director.Open(director.Config{Path: filepath.Join(t.TempDir(), "events.db")})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Config{Limits: lim, Director: st})
	t.Cleanup(func() { st.Close() })
	return &dirEnv{env: e, store: st}
}

// publishedRound makes an event of six players with round 1 published:
// three boards waiting for their games.
func (e *dirEnv) publishedRound() string {
	e.t.Helper()
	tok, _ := e.createEvent(`{"name":"Budget Open","variant":"international","system":"swiss","rounds":3}`)
	if resp, b := e.do("POST", "/api/d/"+tok+"/import", sixPlayers, "Content-Type", "text/csv"); resp.StatusCode != 200 {
		e.t.Fatalf("import: %d %s", resp.StatusCode, b)
	}
	e.op(tok, "pair", `{"round":1}`, 200)
	e.op(tok, "publish", `{"round":1}`, 200)
	return tok
}

// live counts the Hall's running games.
func (e *env) live() int {
	n := 0
	for _, id := range e.hall.Games() {
		if e.hall.Live(id) {
			n++
		}
	}
	return n
}

// Finding 5: simultaneous game operations on one board create one game;
// no orphan keeps running.
func TestHoldOneGamePerBoardUnderRace(t *testing.T) {
	e := newDirEnv(t)
	tok := e.publishedRound()
	const n = 200
	// Every request waits, once the board is found without a game, until
	// all have reached the server: the window between finding the board
	// free and linking its game is as wide as it can be.
	var arrived atomic.Int64
	all := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if arrived.Add(1) == n {
			close(all)
		}
		e.srv.Handler().ServeHTTP(w, r)
	}))
	defer srv.Close()
	boardGameHook = func() { <-all }
	defer func() { boardGameHook = nil }()
	client := srv.Client()
	codes := make(chan int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, _ := http.NewRequest("POST", srv.URL+"/api/d/"+tok+"/game", strings.NewReader(`{"round":1,"board":1}`))
			req.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 && resp.StatusCode != 409 || resp.StatusCode == 409 && errorCode(b) != "director.has-game" {
				t.Errorf("a game operation: %d %s", resp.StatusCode, b)
			}
			codes <- resp.StatusCode
		}()
	}
	close(start)
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	t.Logf("answers %v", count)
	if count[200] != 1 || count[409] != n-1 {
		t.Errorf("answers %v, want one 200 and %d 409", count, n-1)
	}
	if got := len(e.hall.Games()); got != 1 {
		t.Errorf("the Hall holds %d games, want 1 (orphans)", got)
	}
	v := e.view(tok)
	if g := v.Rounds[0].Boards[0].Game; g == "" || !e.hall.Live(g) {
		t.Errorf("board 1's game %q is not the running one", g)
	}
}

// Finding 1 (the budget): POST /api/games and the director's game
// operation count against one budget of running games per address; a
// game that ends gives its place back.
func TestHoldOneBudgetPerAddress(t *testing.T) {
	e := newDirEnvLimits(t, Limits{RequestRate: -1, GameRate: -1, GamesPerClient: 3})
	tok := e.publishedRound()
	g1 := e.create(`{"variant":"international"}`)
	e.create(`{"variant":"international"}`)
	e.op(tok, "game", `{"round":1,"board":1}`, 200) // the third
	_, b := e.op(tok, "game", `{"round":1,"board":2}`, 429)
	if errorCode(b) != codeTooManyRunning {
		t.Fatalf("a fourth game by the director: %s", b)
	}
	resp, b := e.do("POST", "/api/games", `{"variant":"international"}`)
	// The refusal says what to do: waiting does not free a place, ending
	// a game does.
	if resp.StatusCode != 429 || errorCode(b) != codeTooManyRunning || !strings.Contains(string(b), "3 games created from this address are still being played; finish or resign one") {
		t.Fatalf("a fourth game by the form: %d %s", resp.StatusCode, b)
	}
	if got := e.live(); got != 3 {
		t.Fatalf("%d games running, want 3 (a refused game must not run)", got)
	}
	if v := e.view(tok); v.Rounds[0].Boards[1].Game != "" {
		t.Fatalf("board 2 got game %s", v.Rounds[0].Boards[1].Game)
	}
	// A game that ends stops counting.
	if status, b := e.act(g1.tokens["white"], `{"kind":"resign"}`); status != 200 {
		t.Fatalf("resign: %d %s", status, b)
	}
	waitUntil(t, "the resigned game to stop counting", func() bool { return !e.hall.Live(g1.id) })
	e.op(tok, "game", `{"round":1,"board":2}`, 200)
}

// Finding 3: a public sheet is drawn once and kept until the event
// changes; many asking at once draw it once.
func TestHoldPublicSheetsCached(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Cache Open","variant":"international","system":"swiss","rounds":3}`)
	if resp, b := e.do("POST", "/api/d/"+tok+"/import", sixPlayers, "Content-Type", "text/csv"); resp.StatusCode != 200 {
		t.Fatalf("import: %d %s", resp.StatusCode, b)
	}
	draws := func() int64 { return e.srv.sheets.draws.Load() }
	first := e.public(id, "/cards")
	n := draws()
	if n != 1 || !strings.Contains(first, "Anna Berg") {
		t.Fatalf("first request: %d draws, page has Anna: %v", n, strings.Contains(first, "Anna Berg"))
	}
	resp, b := e.do("GET", "/e/"+id+"/cards", "")
	if string(b) != first || draws() != n {
		t.Fatalf("the second request drew the page again (%d draws) or answered another page", draws())
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "style-src 'self' 'sha256-") {
		t.Errorf("a kept page lost its header: CSP %q", csp)
	}
	// Many at once: one drawing per page.
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp, err := e.hs.Client().Get(e.hs.URL + "/e/" + id + "/standings"); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	if got := draws(); got != n+1 {
		t.Fatalf("20 requests for the standings drew %d pages, want 1", got-n)
	}
	// A change: the next request draws the page anew, with the change.
	e.op(tok, "add-players", `{"players":[{"name":"Gro Hansen"}]}`, 200)
	after := e.public(id, "/cards")
	if !strings.Contains(after, "Gro Hansen") || draws() != n+2 {
		t.Fatalf("after a change: %d draws, the page has the new player: %v", draws()-n-1, strings.Contains(after, "Gro Hansen"))
	}
	// Another language is another page.
	e.public(id, "/cards?lang=nb")
	if draws() != n+3 {
		t.Fatalf("the Norwegian page was not drawn of its own")
	}
	// The exports are kept too, and drawn again after a change.
	for _, export := range []string{"/trf", "/pdn"} {
		before := draws()
		e.public(id, export)
		e.public(id, export)
		if got := draws() - before; got != 1 {
			t.Fatalf("two requests for %s drew it %d times, want 1", export, got)
		}
	}
	e.op(tok, "add-players", `{"players":[{"name":"Ola Nordmann"}]}`, 200)
	before := draws()
	if trf := e.public(id, "/trf"); !strings.Contains(trf, "Ola Nordmann") || draws() != before+1 {
		t.Fatalf("after a change the TRF was not drawn anew with the new player (%d draws)", draws()-before)
	}
}

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// Finding 1 (adjournment): a game untouched for long (no clock, no move,
// no viewer) is adjourned and stops counting against the address's budget
// and the server's limit; its link takes it up again where it stood. The
// director's follower of a board's game is no viewer.
func TestHoldIdleGamesAdjourned(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	logs := &syncBuffer{}
	log := zerolog.New(logs)
	hall, err := online.Open(context.Background(), online.Config{Path: filepath.Join(t.TempDir(), "games.db"), Log: log,
		Now: clock.now, IdleAfter: time.Hour, MaxGames: 100})
	if err != nil {
		t.Fatal(err)
	}
	st, err := director.Open(director.Config{Path: filepath.Join(t.TempDir(), "events.db")})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, hall: hall, log: logs}
	srv, err := New(Config{Hall: hall, Log: log, Limits: Limits{RequestRate: -1, GameRate: -1, GamesPerClient: 3}, Director: st})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	e.hs = httptest.NewUnstartedServer(srv.Handler())
	e.hs.Config = srv.HTTPServer()
	e.hs.Start()
	t.Cleanup(func() { srv.Stop(); e.hs.Close(); hall.Close(); st.Close() })
	d := &dirEnv{env: e, store: st}
	tok := d.publishedRound()

	watched := e.create(`{"variant":"international","beginner":true}`)
	idle := e.create(`{"variant":"international","beginner":true}`)
	played := e.playLegal(idle)
	d.op(tok, "game", `{"round":1,"board":1}`, 200) // followed by the director, watched by nobody
	board := d.view(tok).Rounds[0].Boards[0].Game
	if resp, b := e.do("POST", "/api/games", `{"variant":"international"}`); resp.StatusCode != 429 {
		t.Fatalf("a fourth game: %d %s, want 429", resp.StatusCode, b)
	}
	stream := e.stream(watched.tokens["white"], "")
	defer stream.close()
	waitUntil(t, "the viewer to be counted", func() bool { return e.snap(watched.tokens["spectator"]).State.Presence["white"] })

	clock.add(59 * time.Minute)
	if n := hall.AdjournIdle(); n != 0 {
		t.Fatalf("%d games adjourned before an hour", n)
	}
	clock.add(2 * time.Minute)
	if n := hall.AdjournIdle(); n != 2 {
		t.Fatalf("%d games adjourned, want 2 (the idle one and the board's; not the watched one)", n)
	}
	if hall.Live(idle.id) || hall.Live(board) || !hall.Live(watched.id) {
		t.Fatalf("live: idle %v, board %v, watched %v", hall.Live(idle.id), hall.Live(board), hall.Live(watched.id))
	}
	// They stopped counting: the address may create again.
	e.create(`{"variant":"international"}`)

	// The link takes the game up where it stood.
	s := e.snap(idle.tokens["black"])
	if s.State.Status != "running" || len(s.Moves) != 1 || s.Moves[0].Text != played || !hall.Live(idle.id) {
		t.Fatalf("taken up: %s, moves %+v, live %v", s.State.Status, s.Moves, hall.Live(idle.id))
	}
	e.playLegal(idle)
	// The board's game, taken up by a player, still reports its result.
	links := d.view(tok).Links["1.1"]
	i := strings.LastIndex(links["white"], "/g/")
	if status, b := e.act(links["white"][i+3:], `{"kind":"resign"}`); status != 200 {
		t.Fatalf("resigning the board's adjourned game: %d %s", status, b)
	}
	waitUntil(t, "the director to record the board's result", func() bool { return d.view(tok).Results["1.1"].Outcome != "" })
}
