package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

const beginnerGame = `{"variant":"english","beginner":true,"white":"Ann","black":"Bob"}`

// other is the opponent's colour.
func other(c string) string {
	if c == "white" {
		return "black"
	}
	return "white"
}

// Every response carries the security headers, errors included.
func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(beginnerGame)
	for _, tt := range []struct {
		method, path, body string
		noStore            bool
	}{
		{"GET", "/", "", false},
		{"GET", "/assets/index.js", "", false},
		{"GET", "/assets/nothing-here.js", "", false},
		{"GET", "/healthz", "", true},
		{"GET", "/api/variants", "", true},
		{"POST", "/api/games", "{", true},
		{"DELETE", "/api/games", "", true},
		{"GET", "/nowhere", "", false},
		{"GET", "/g/" + g.tokens["white"], "", true},
		{"GET", "/api/g/" + g.tokens["white"], "", true},
		{"GET", "/api/g/unknown-token", "", true},
		{"GET", "/api/g/" + g.tokens["white"] + "/pdn", "", true},
		{"POST", "/api/g/" + g.tokens["spectator"] + "/act", `{"kind":"resign"}`, true},
	} {
		t.Run(tt.method+" "+strings.ReplaceAll(tt.path, "/", "_"), func(t *testing.T) {
			resp, _ := e.do(tt.method, tt.path, tt.body)
			h := resp.Header
			if got := h.Get("Content-Security-Policy"); got != contentSecurityPolicy {
				t.Errorf("CSP %q", got)
			}
			if got := h.Get("Referrer-Policy"); got != "no-referrer" {
				t.Errorf("Referrer-Policy %q", got)
			}
			if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q", got)
			}
			if tt.noStore && h.Get("Cache-Control") != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", h.Get("Cache-Control"))
			}
		})
	}
}

// The links are absolute: from the public URL, else the listener's address.
func TestLinks(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(beginnerGame)
	seen := map[string]bool{}
	for _, role := range []string{"white", "black", "spectator", "arbiter"} {
		link := g.links[role]
		if !strings.HasPrefix(link, e.hs.URL+"/g/") {
			t.Errorf("%s link %q does not start with %s/g/", role, link, e.hs.URL)
		}
		if tok := g.tokens[role]; len(tok) < 20 || seen[tok] {
			t.Errorf("%s token %q: short or shared", role, tok)
		}
		seen[g.tokens[role]] = true
	}
	pub := newEnv(t, Config{Limits: unlimited, PublicURL: "https://draughts.example.org:8443/"})
	g = pub.create(beginnerGame)
	for role, link := range g.links {
		if !strings.HasPrefix(link, "https://draughts.example.org:8443/g/") {
			t.Errorf("%s link %q does not start with the public URL", role, link)
		}
	}
	// A Host header the client chose never makes its way into a link.
	resp, body := e.do("POST", "/api/games", beginnerGame, "Host", "evil.example")
	if resp.StatusCode != http.StatusCreated || bytes.Contains(body, []byte("evil.example")) {
		t.Errorf("create with a forged Host: %d %s", resp.StatusCode, body)
	}
	for _, bad := range []string{"ftp://x", "/relative", "https://x/?q=1", "https://u:p@x/", "http://", "https://x/club"} {
		if _, err := New(Config{Hall: e.hall, PublicURL: bad}); err == nil {
			t.Errorf("public URL %q accepted", bad)
		}
	}
}

// A player's token acts for its side only: the opponent's, the spectator's,
// the arbiter's (for moves), none, an unknown and a tampered one are refused,
// and the game is unchanged.
func TestTokenActsForItsSideOnly(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(beginnerGame)
	turn := e.snap(g.tokens["white"]).State.Turn
	mover, opp := g.tokens[turn], g.tokens[other(turn)]
	legal := e.snap(mover).Legal
	if len(legal) == 0 {
		t.Fatal("no legal moves in the snapshot of a beginner game")
	}
	move := `{"kind":"move","move":"` + legal[0] + `"}`

	tampered := []byte(mover)
	tampered[len(tampered)/2] ^= 1
	if tampered[len(tampered)/2] == 0 {
		tampered[len(tampered)/2] = 'A'
	}
	_, unknownBody := e.do("POST", "/api/g/"+strings.Repeat("x", len(mover))+"/act", move)

	for _, tt := range []struct {
		name, token, intent string
		want                []int
	}{
		{"opponent moves out of turn", opp, move, []int{403, 409}},
		{"spectator moves", g.tokens["spectator"], move, []int{403}},
		{"spectator resigns", g.tokens["spectator"], `{"kind":"resign"}`, []int{403}},
		{"spectator offers a draw", g.tokens["spectator"], `{"kind":"offer"}`, []int{403}},
		{"spectator claims", g.tokens["spectator"], `{"kind":"claim","claim":"threefold"}`, []int{403}},
		{"arbiter moves", g.tokens["arbiter"], move, []int{403}},
		{"player pauses", mover, `{"kind":"pause"}`, []int{403}},
		{"player declares a result", mover, `{"kind":"declare","outcome":"1-0","text":"mine"}`, []int{403}},
		{"player reissues links", mover, `{"kind":"reissue","role":"black"}`, []int{403}},
		{"player adds time to itself", mover, `{"kind":"add-time","seconds":60,"color":"` + turn + `"}`, []int{403}},
		{"opponent accepts a draw never offered", opp, `{"kind":"accept"}`, []int{400, 403, 409}},
		{"opponent decides a move never made", opp, `{"kind":"decide","correct":true}`, []int{400, 403, 409}},
		{"unknown token", strings.Repeat("x", len(mover)), move, []int{404}},
		{"tampered token", string(tampered), move, []int{404}},
		{"overlong token", strings.Repeat("A", 4096), move, []int{404}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, body := e.act(tt.token, tt.intent)
			ok := false
			for _, w := range tt.want {
				ok = ok || code == w
			}
			if !ok {
				t.Fatalf("%d %s, want one of %v", code, body, tt.want)
			}
			if errorCode(body) == "" {
				t.Errorf("no JSON error: %s", body)
			}
			if code == 404 && !bytes.Equal(body, unknownBody) {
				t.Errorf("404 body %s differs from the unknown token's %s (information leak)", body, unknownBody)
			}
			for _, tok := range g.tokens {
				if bytes.Contains(body, []byte(tok)) {
					t.Errorf("the answer holds a token: %s", body)
				}
			}
		})
	}
	// None of it changed the game.
	if s := e.snap(mover); s.State.Ply != 0 || s.State.Status == "over" {
		t.Fatalf("after the refused intents: ply %d status %s", s.State.Ply, s.State.Status)
	}
	// No token at all: the route does not exist.
	resp, body := e.do("POST", "/api/g//act", move)
	if resp.StatusCode < 300 || resp.StatusCode >= 500 {
		t.Errorf("act without a token: %d %s", resp.StatusCode, body)
	}
	// The same requests on the other routes: unknown and tampered look alike.
	for _, suffix := range []string{"", "/pdn", "/events"} {
		r1, b1 := e.do("GET", "/api/g/"+string(tampered)+suffix, "")
		r2, b2 := e.do("GET", "/api/g/"+strings.Repeat("x", len(mover))+suffix, "")
		if r1.StatusCode != 404 || r2.StatusCode != 404 || !bytes.Equal(b1, b2) {
			t.Errorf("GET %s: tampered %d %s, unknown %d %s", suffix, r1.StatusCode, b1, r2.StatusCode, b2)
		}
	}
	// The mover's own move is played; then the opponent resigns: for itself.
	if code, body := e.act(mover, move); code != http.StatusOK {
		t.Fatalf("the mover's move: %d %s", code, body)
	}
	if s := e.snap(mover); s.State.Ply != 1 {
		t.Fatalf("ply %d after the move", s.State.Ply)
	}
	if code, body := e.act(opp, `{"kind":"resign"}`); code != http.StatusOK {
		t.Fatalf("the opponent resigns: %d %s", code, body)
	}
	s := e.snap(g.tokens["spectator"])
	want := "1-0"
	if turn == "black" {
		want = "0-1"
	}
	if s.State.Status != "over" || s.State.Result != want {
		t.Fatalf("after %s resigned: status %s result %s, want over %s", other(turn), s.State.Status, s.State.Result, want)
	}
	if code, body := e.act(mover, move); code < 400 || code >= 500 {
		t.Errorf("a move after the end: %d %s", code, body)
	}
}

// Hostile requests get a clear 4xx JSON error, never a 500.
func TestHostileRequests(t *testing.T) {
	e := newEnv(t, Config{Limits: Limits{RequestRate: -1, GameRate: -1, MaxBody: 32 << 10}})
	g := e.create(beginnerGame)
	act := "/api/g/" + g.tokens["white"] + "/act"
	big := `{"variant":"english","fen":"` + strings.Repeat("W", 40<<10) + `"}`
	for _, tt := range []struct {
		name, method, path, body string
		hdr                      []string
		status                   int
		code                     string
	}{
		{"bad JSON", "POST", act, `{"kind":`, nil, 400, codeBadJSON},
		{"not an object", "POST", act, `[1,2]`, nil, 400, codeBadJSON},
		{"two values", "POST", act, `{"kind":"resign"}{"kind":"resign"}`, nil, 400, codeBadJSON},
		{"unknown field", "POST", act, `{"kind":"move","move":"11-15","evil":true}`, nil, 400, codeBadJSON},
		{"wrong type", "POST", act, `{"kind":"move","seconds":"sixty"}`, nil, 400, codeBadJSON},
		{"empty body", "POST", act, ``, []string{"Content-Type", "application/json"}, 400, codeBadJSON},
		{"invalid UTF-8", "POST", act, "{\"kind\":\"annotate\",\"text\":\"\xff\xfe\"}", nil, 400, codeBadUTF8},
		{"not JSON content", "POST", act, `{"kind":"resign"}`, []string{"Content-Type", "text/plain"}, 415, codeMediaType},
		{"huge body", "POST", act, `{"kind":"annotate","text":"` + strings.Repeat("a", 1<<20) + `"}`, nil, 413, codeTooLarge},
		{"huge FEN", "POST", "/api/games", big, nil, 413, codeTooLarge},
		{"wrong method", "PUT", act, `{}`, nil, 405, codeMethod},
		{"wrong method on games", "GET", "/api/games", ``, nil, 405, codeMethod},
		{"unknown route", "GET", "/api/nothing", ``, nil, 404, codeNotFound},
		{"bad since", "GET", "/api/g/" + g.tokens["white"] + "/events?since=-1", ``, nil, 400, codeBadSince},
		{"bad Last-Event-ID", "GET", "/api/g/" + g.tokens["white"] + "/events", ``, []string{"Last-Event-ID", "x"}, 400, codeBadSince},
		{"asset path escape", "GET", "/assets/..%2f..%2fgo.mod", ``, nil, 404, ""},
		{"asset directory", "GET", "/assets/", ``, nil, 404, codeNotFound},
		// Judged by the Hall: a 4xx with its own code.
		{"unknown intent", "POST", act, `{"kind":"teleport"}`, nil, 400, ""},
		{"garbage move", "POST", act, `{"kind":"move","move":"99x77x\u0000"}`, nil, 0, ""},
		{"bad FEN", "POST", "/api/games", `{"variant":"english","fen":"W:Wxx:B1"}`, nil, 400, ""},
		{"long FEN within the body limit", "POST", "/api/games", `{"variant":"english","fen":"W:W` + strings.Repeat("1,", 8000) + `:B2"}`, nil, 400, ""},
		{"HEAD of a stream", "HEAD", "/api/g/" + g.tokens["white"] + "/events", ``, nil, 200, ""},
		{"bad variant", "POST", "/api/games", `{"variant":"chess"}`, nil, 400, ""},
		{"bad YAML", "POST", "/api/games", `{"rules":"board: [unclosed"}`, nil, 400, ""},
		{"bad time control", "POST", "/api/games", `{"variant":"english","time_control":"forever+ever"}`, nil, 400, ""},
		{"engine not offered", "POST", "/api/games", `{"variant":"english","engine":"/bin/sh","engine_side":"black"}`, nil, 400, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.do(tt.method, tt.path, tt.body, tt.hdr...)
			if resp.StatusCode >= 500 {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
			if tt.status != 0 && resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if resp.StatusCode >= 400 {
				code := errorCode(body)
				if code == "" {
					t.Errorf("no JSON error code: %s", body)
				}
				if tt.code != "" && code != tt.code {
					t.Errorf("code %q, want %q", code, tt.code)
				}
				if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
					t.Errorf("Content-Type %q", ct)
				}
			}
			if tt.status == 405 && resp.Header.Get("Allow") == "" {
				t.Error("405 without Allow")
			}
		})
	}
	if s := e.snap(g.tokens["white"]); s.State.Status == "over" {
		t.Errorf("the hostile requests ended the game: %+v", s.State)
	}
}

// A link cut short to /g/ shows a browser the same page as a wrong token
// (the game page, whose script says "copy the whole link again"), not raw
// JSON; a program still gets the JSON 404.
func TestEmptyTokenPage(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	html := []string{"Accept", "text/html,application/xhtml+xml,*/*;q=0.8"}
	wrong, want := e.do("GET", "/g/not-a-token", "", html...)
	resp, got := e.do("GET", "/g/", "", html...)
	if resp.StatusCode != wrong.StatusCode || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !bytes.Equal(got, want) {
		t.Errorf("a browser at /g/: %d %s %.200s; want the page a wrong token gets (%d)", resp.StatusCode, resp.Header.Get("Content-Type"), got, wrong.StatusCode)
	}
	if resp, body := e.do("GET", "/g/", ""); resp.StatusCode != 404 || errorCode(body) != codeNotFound {
		t.Errorf("a program at /g/: %d %s", resp.StatusCode, body)
	}
}

// A client that sends too many requests, opens too many streams or creates
// too many games is refused with 429 (503 when the server as a whole is full).
func TestLimits(t *testing.T) {
	t.Run("requests", func(t *testing.T) {
		e := newEnv(t, Config{Limits: Limits{RequestRate: 0.001, RequestBurst: 5, GameRate: -1}})
		for i := 0; i < 5; i++ {
			if resp, body := e.do("GET", "/api/variants", ""); resp.StatusCode != 200 {
				t.Fatalf("request %d: %d %s", i+1, resp.StatusCode, body)
			}
		}
		resp, body := e.do("GET", "/api/variants", "")
		if resp.StatusCode != 429 || errorCode(body) != codeRateLimited || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("request 6: %d %s", resp.StatusCode, body)
		}
		if resp, _ := e.do("GET", "/healthz", ""); resp.StatusCode != 200 {
			t.Errorf("healthz is rate limited: %d", resp.StatusCode)
		}
	})
	t.Run("games", func(t *testing.T) {
		e := newEnv(t, Config{Limits: Limits{RequestRate: -1, GameRate: 0.0001, GameBurst: 2}})
		e.create(beginnerGame)
		e.create(beginnerGame)
		resp, body := e.do("POST", "/api/games", beginnerGame)
		if resp.StatusCode != 429 || errorCode(body) != codeTooManyGames {
			t.Fatalf("third game: %d %s", resp.StatusCode, body)
		}
	})
	t.Run("streams", func(t *testing.T) {
		e := newEnv(t, Config{TrustProxy: true, Limits: Limits{RequestRate: -1, GameRate: -1, StreamsPerClient: 2, Streams: 3}})
		g := e.create(beginnerGame)
		tok := g.tokens["spectator"]
		a1 := e.stream(tok, "", "X-Forwarded-For", "198.51.100.1")
		e.stream(tok, "", "X-Forwarded-For", "198.51.100.1")
		if _, code, body := e.tryStream(tok, "", "X-Forwarded-For", "198.51.100.1"); code != 429 || errorCode(body) != codeTooManyStreams {
			t.Fatalf("third stream of one client: %d %s", code, body)
		}
		e.stream(tok, "", "X-Forwarded-For", "198.51.100.2")
		if _, code, body := e.tryStream(tok, "", "X-Forwarded-For", "198.51.100.3"); code != 503 || errorCode(body) != codeServerFull {
			t.Fatalf("fourth stream in all: %d %s", code, body)
		}
		// A closed stream gives its place back.
		a1.close()
		waitUntil(t, "the closed stream's place is free", func() bool { return e.srv.streams.open() == 2 })
		e.stream(tok, "", "X-Forwarded-For", "198.51.100.3")
	})
}

// The event stream: ids are versions; a reconnection with Last-Event-ID or
// ?since= gets only what it missed, from the store; presence follows the
// player's stream.
func TestEvents(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(beginnerGame)
	turn := e.snap(g.tokens["white"]).State.Turn
	oppStream := e.stream(g.tokens[other(turn)], "")
	waitUntil(t, "the opponent is present", func() bool { return e.snap(g.tokens["spectator"]).State.Presence[other(turn)] })

	move := e.playLegal(g)
	ev := oppStream.until(t, "the move event", func(ev sseEvent, m map[string]any) bool { return m["type"] == "move" })
	var m struct {
		V    int64  `json:"v"`
		Type string `json:"type"`
	}
	if err := json.Unmarshal([]byte(ev.Data), &m); err != nil {
		t.Fatal(err)
	}
	if ev.ID != strconv.FormatInt(m.V, 10) {
		t.Errorf("id %q, event v %d", ev.ID, m.V)
	}
	moveV := m.V
	e.playLegal(g)
	second := oppStream.until(t, "the second move", func(ev sseEvent, m map[string]any) bool { return m["type"] == "move" })

	// A spectator who saw up to the first move gets the second, not the first.
	for _, how := range [][]string{{"?since=" + ev.ID}, {"", "Last-Event-ID", ev.ID}, {"?since=0", "Last-Event-ID", ev.ID}} {
		s := e.stream(g.tokens["spectator"], how[0], how[1:]...)
		got := s.next(t)
		if id, _ := strconv.ParseInt(got.ID, 10, 64); id <= moveV {
			t.Errorf("resumed with %v: first event %s (v %d), already seen", how, got.ID, id)
		}
		if got.ID != second.ID {
			s.until(t, "the second move again", func(ev sseEvent, _ map[string]any) bool { return ev.ID == second.ID })
		}
		s.close()
	}
	if !strings.Contains(ev.Data, move) && !strings.Contains(ev.Data, strings.ReplaceAll(move, "-", "")) {
		t.Logf("move event %s does not spell %s (informational)", ev.Data, move)
	}
	oppStream.close()
	waitUntil(t, "the opponent is away", func() bool { return !e.snap(g.tokens["spectator"]).State.Presence[other(turn)] })

	// Stop ends live streams (what Shutdown does).
	s := e.stream(g.tokens["spectator"], "")
	e.srv.Stop()
	for range s.events {
	}
}

// A stream too far behind is told to reload.
func TestEventsReload(t *testing.T) {
	e := newEnv(t, Config{Limits: Limits{RequestRate: -1, GameRate: -1, MaxCatchUp: 2}})
	g := e.create(beginnerGame)
	for i := 0; i < 4; i++ {
		e.playLegal(g)
	}
	s := e.stream(g.tokens["spectator"], "?since=0")
	ev := s.next(t)
	if ev.Event != "reload" {
		t.Fatalf("first event %+v, want reload", ev)
	}
	if _, ok := <-s.events; ok {
		t.Error("the stream went on after reload")
	}
	// The reconnection (from the reload's id, as a browser does) is not
	// told to reload again: it is up to date.
	latest := e.snap(g.tokens["spectator"]).V
	if ev.ID != strconv.FormatInt(latest, 10) {
		t.Fatalf("reload id %q, want the latest version %d", ev.ID, latest)
	}
	s = e.stream(g.tokens["spectator"], "", "Last-Event-ID", ev.ID)
	e.playLegal(g)
	if next := s.next(t); next.Event == "reload" {
		t.Fatalf("reconnected from the reload's id, told to reload again: %+v", next)
	}
}

// The PDN download is an attachment named after the game.
func TestPDNDownload(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(beginnerGame)
	e.playLegal(g)
	e.playLegal(g)
	resp, body := e.do("GET", "/api/g/"+g.tokens["spectator"]+"/pdn", "")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if got, want := resp.Header.Get("Content-Disposition"), fmt.Sprintf(`attachment; filename="game-%s.pdn"`, fileSafe(g.id)); got != want {
		t.Errorf("Content-Disposition %q, want %q", got, want)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if !bytes.Contains(body, []byte(`[White "Ann"]`)) || !bytes.Contains(body, []byte("1.")) {
		t.Errorf("PDN without the players or the moves:\n%s", body)
	}
}

// No secret reaches the log: a whole game's worth of requests, refused ones
// included, at debug level.
func TestNoSecretInLogs(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(beginnerGame)
	s := e.stream(g.tokens["black"], "")
	e.stream(g.tokens["spectator"], "?since=0")
	for i := 0; i < 4; i++ {
		e.playLegal(g)
	}
	s.until(t, "a move", func(_ sseEvent, m map[string]any) bool { return m["type"] == "move" })
	e.act(g.tokens["spectator"], `{"kind":"resign"}`)
	e.act(g.tokens["white"], `{"kind":"bogus"}`)
	e.do("GET", "/api/g/"+g.tokens["white"]+"x/pdn", "")
	e.do("GET", "/g/"+g.tokens["white"], "", "Referer", "http://x/g/"+g.tokens["black"])
	e.do("GET", "/api/g/"+g.tokens["arbiter"]+"/pdn", "")
	e.act(g.tokens["arbiter"], `{"kind":"annotate","text":"a note"}`)
	e.act(g.tokens["white"], `{"kind":"resign"}`)
	log := e.log.String()
	if !strings.Contains(log, g.id) {
		t.Fatalf("the log does not even name the game %s:\n%s", g.id, log)
	}
	for role, tok := range g.tokens {
		if strings.Contains(log, tok) {
			t.Errorf("the %s token is in the log", role)
		}
	}
}

// The arbiter reissues a player's link: the answer has the new absolute
// link, the old one is dead (the same 404 as any unknown link), the new one
// acts for the same side.
func TestReissue(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(beginnerGame)
	code, body := e.act(g.tokens["arbiter"], `{"kind":"reissue","role":"white"}`)
	if code != http.StatusOK {
		t.Fatalf("reissue: %d %s", code, body)
	}
	var r struct {
		Token string `json:"token"`
		Link  string `json:"link"`
	}
	if err := json.Unmarshal(body, &r); err != nil || r.Token == "" || r.Link != e.hs.URL+"/g/"+r.Token {
		t.Fatalf("reissue answer %s (%v)", body, err)
	}
	resp, old := e.do("GET", "/api/g/"+g.tokens["white"], "")
	_, unknown := e.do("GET", "/api/g/"+strings.Repeat("y", len(g.tokens["white"])), "")
	if resp.StatusCode != 404 || !bytes.Equal(old, unknown) {
		t.Errorf("the old link: %d %s", resp.StatusCode, old)
	}
	if s := e.snap(r.Token); s.Role != "white" {
		t.Errorf("the new link's role %q", s.Role)
	}
	if strings.Contains(e.log.String(), r.Token) {
		t.Error("the reissued token is in the log")
	}
}

// A reissue ends at once every stream opened with the old link (before the
// reissue event reaches it), and the old link's reconnection gets the 404
// of an unknown link; the other roles' streams go on.
func TestReissueEndsOldStreams(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(beginnerGame)
	old := []*sse{e.stream(g.tokens["white"], ""), e.stream(g.tokens["white"], "")}
	other := e.stream(g.tokens["spectator"], "")
	waitUntil(t, "white is present", func() bool { return e.snap(g.tokens["spectator"]).State.Presence["white"] })
	if code, body := e.act(g.tokens["arbiter"], `{"kind":"reissue","role":"white"}`); code != http.StatusOK {
		t.Fatalf("reissue: %d %s", code, body)
	}
	for i, s := range old {
		deadline := time.After(time.Minute)
		for ended := false; !ended; {
			select {
			case ev, open := <-s.events:
				if !open {
					ended = true
				} else if strings.Contains(ev.Data, `"type":"reissue"`) || ev.Event == "reload" {
					t.Errorf("old stream %d got %q %s", i, ev.Event, ev.Data)
				}
			case <-deadline:
				t.Fatalf("old stream %d still open a minute after the reissue", i)
			}
		}
	}
	other.until(t, "the reissue event", func(_ sseEvent, m map[string]any) bool { return m["type"] == "reissue" })
	_, code, body := e.tryStream(g.tokens["white"], "")
	_, ucode, unknown := e.tryStream(strings.Repeat("y", len(g.tokens["white"])), "")
	if code != http.StatusNotFound || ucode != code || !bytes.Equal(body, unknown) {
		t.Errorf("the old link's stream: %d %s (unknown: %d %s)", code, body, ucode, unknown)
	}
	waitUntil(t, "white is away", func() bool { return !e.snap(g.tokens["spectator"]).State.Presence["white"] })
}

// A client that stops reading its stream is dropped at the write deadline:
// its place and its presence are given back, the game and the other
// viewers go on.
func TestStalledReaderIsDropped(t *testing.T) {
	e := newEnv(t, Config{Limits: Limits{RequestRate: -1, GameRate: -1, WriteWait: 200 * time.Millisecond}})
	g := e.create(beginnerGame)
	conn, err := net.Dial("tcp", e.hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(2048) // a small window: the server's writes block soon
	fmt.Fprintf(conn, "GET /api/g/%s/events HTTP/1.1\r\nHost: test\r\n\r\n", g.tokens["black"])
	waitUntil(t, "the stalled player is present", func() bool { return e.snap(g.tokens["spectator"]).State.Presence["black"] })
	watcher := e.stream(g.tokens["spectator"], "")
	note := `{"kind":"annotate","text":"` + strings.Repeat("n", 400) + `"}`
	dropped, i := false, 0
	for ; i < 5000 && !dropped; i++ {
		if code, body := e.act(g.tokens["arbiter"], note); code != http.StatusOK {
			t.Fatalf("annotation %d: %d %s", i+1, code, body)
		}
		dropped = e.srv.streams.open() == 1
	}
	if !dropped {
		t.Fatal("a client that reads nothing still holds its stream after 5000 events")
	}
	t.Logf("dropped after %d events", i)
	waitUntil(t, "the stalled player is away", func() bool { return !e.snap(g.tokens["spectator"]).State.Presence["black"] })
	// The other viewer is still served, up to the latest event.
	latest := strconv.FormatInt(e.snap(g.tokens["spectator"]).V, 10)
	watcher.until(t, "the latest event", func(ev sseEvent, _ map[string]any) bool { return ev.ID == latest })
}

// A game's stream opens with a beat that says the Heartbeat in
// milliseconds, and an idle one gets another every Heartbeat (by which the
// page tells a live stream from one its network dropped without a word).
func TestHeartbeat(t *testing.T) {
	e := newEnv(t, Config{Limits: Limits{RequestRate: -1, GameRate: -1, Heartbeat: 20 * time.Millisecond}})
	g := e.create(beginnerGame)
	resp, err := e.hs.Client().Get(e.hs.URL + "/api/g/" + g.tokens["spectator"] + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	var got []byte
	buf := make([]byte, 4096)
	for beats := 0; beats < 3; { // the first, then two while idle
		n, err := resp.Body.Read(buf)
		if err != nil {
			t.Fatalf("after %q: %v", got, err)
		}
		got = append(got, buf[:n]...)
		beats = bytes.Count(got, []byte("event: beat\ndata: 20\n\n"))
	}
}

// TestIllegalMoveAdvice: in international draughts White clicks 32 and 23,
// a capture short of its end (from 23 it could go on over 29) and short of
// the majority (45x12 takes three). Both players read what the rule wants,
// the capture taking the most pieces, and not "go on capturing from 23",
// which would be a second illegal move. Black lets the move stand (FMJD),
// and the game's record reads back through the check.
func TestIllegalMoveAdvice(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"international","time_control":"600+5","policy":"opponent-decides","fen":"W:W32,33,45:B28,18,29,40,5"}`)
	if code, body := e.act(g.tokens["white"], `{"kind":"move","move":"32x23","path":["32","23"]}`); code != 200 {
		t.Fatalf("the move: %d %s", code, body)
	}
	for _, role := range []string{"white", "black"} {
		_, body := e.do("GET", "/api/g/"+g.tokens[role], "")
		if s := string(body); !strings.Contains(s, "the capture taking the most pieces is compulsory in international: 3 pieces (45x12), and 32x23 takes 1") ||
			strings.Contains(s, "go on capturing") {
			t.Errorf("%s reads of the illegal 32x23: %s", role, s)
		}
		// The rule's article of the FMJD rules: after the English text,
		// and as a message of its own that the page translates.
		if s := string(body); !strings.Contains(s, "and 32x23 takes 1 (FMJD rules, art. 4.13)") ||
			!strings.Contains(s, `"cite":{"code":"article.fmjd","args":{"article":"4.13"},"text":"FMJD rules, art. 4.13"}`) {
			t.Errorf("%s is not told FMJD art. 4.13: %s", role, s)
		}
	}
	// Black lets it stand and plays on; the record they download passes
	// the check, the irregular move noted, the next move checked.
	for _, intent := range []string{`{"kind":"decide","correct":false}`, `{"kind":"move","move":"29x38"}`} {
		if code, body := e.act(g.tokens["black"], intent); code != 200 {
			t.Fatalf("Black's %s: %d %s", intent, code, body)
		}
	}
	_, record := e.do("GET", "/api/g/"+g.tokens["black"]+"/pdn", "")
	checkPDN(t, string(record), 2)
	if !strings.Contains(strings.Join(strings.Fields(string(record)), " "), "takes 1 (FMJD rules, art. 4.13); let stand at the opponent's choice.") {
		t.Errorf("the record's note does not cite FMJD art. 4.13:\n%s", record)
	}
}
