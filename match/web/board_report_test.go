package web

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// boardsView is the director's view's players-at-the-boards part.
type boardsView struct {
	AtBoards struct {
		Round    int                     `json:"round"`
		Claims   map[int]director.Claims `json:"claims"`
		Arrivals director.Arrivals       `json:"arrivals"`
		Sheet    string                  `json:"sheet"`
		CheckIn  string                  `json:"checkin"`
		Live     string                  `json:"live"`
	} `json:"at_boards"`
}

func (e *dirEnv) getJSON(path string, v any) []byte {
	e.t.Helper()
	resp, b := e.do("GET", path, "")
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			e.t.Fatalf("GET %s: %v in %s", path, err, b)
		}
	}
	return b
}

// secretOf is the last path element of a link.
func secretOf(link string) string { return link[strings.LastIndex(link, "/")+1:] }

// TestPlayersAtBoardsAPI follows an event through the API as its director
// and players do: check-in by link and tablet, a zero-point bye for the
// absent player, the pairing sheet's result links with their QR codes,
// two players agreeing, two disagreeing and the director settling it,
// the live boards page's stream seeing the results come in; and every
// hostile request refused with a clear 4xx, an unknown or tampered link
// with the same bytes as any unknown address, no secret in the log.
func TestPlayersAtBoardsAPI(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Club open","rounds":3}`)
	resp, b := e.do("POST", "/api/d/"+tok+"/import", sixPlayers, "Content-Type", "text/csv")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("import: %d %s", resp.StatusCode, b)
	}

	// Check-in: five by their links or the tablet, Fie Gram absent.
	var ci checkInLinksView
	e.getJSON("/api/d/"+tok+"/checkin-links", &ci)
	if ci.Round != 1 || len(ci.Players) != 6 || !strings.HasPrefix(ci.Tablet.QR, "<svg") || !strings.Contains(ci.Tablet.Link, "/c/") {
		t.Fatalf("check-in links: %+v", ci)
	}
	var secrets []string
	fie := 0
	for _, p := range ci.Players {
		secrets = append(secrets, secretOf(p.Link))
		if p.Name == "Fie Gram" {
			fie = p.ID
			continue
		}
		if p.Name == "Anna Berg" {
			resp, b := e.do("POST", "/api/c/"+secretOf(ci.Tablet.Link), `{"player":`+itoa(p.ID)+`}`)
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"tablet":true`) {
				t.Fatalf("tablet check-in: %d %s", resp.StatusCode, b)
			}
			continue
		}
		resp, b := e.do("POST", "/api/c/"+secretOf(p.Link), `{}`)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"checked_in":true`) {
			t.Fatalf("%s checks in: %d %s", p.Name, resp.StatusCode, b)
		}
	}
	secrets = append(secrets, secretOf(ci.Tablet.Link))
	var bv boardsView
	e.getJSON("/api/d/"+tok, &bv)
	if a := bv.AtBoards.Arrivals; a.Round != 1 || len(a.In) != 5 || len(a.Expected) != 6 || a.In[fie] != "" {
		t.Fatalf("director's arrivals: %+v", a)
	}
	e.op(tok, "absent-byes", `{}`, http.StatusOK)
	v, _ := e.op(tok, "pair", `{"round":1}`, http.StatusOK)
	if len(v.Rounds) != 1 || len(v.Rounds[0].Boards) != 2 {
		t.Fatalf("round 1 after the byes: %+v", v.Rounds)
	}
	for _, bd := range v.Rounds[0].Boards {
		if bd.White == fie || bd.Black == fie {
			t.Fatalf("the absent player is paired: %+v", bd)
		}
	}

	// Result links: none before publishing; then two per board.
	if resp, b := e.do("GET", "/api/d/"+tok+"/round/1/links", ""); resp.StatusCode != http.StatusConflict || errorCode(b) != "director.not-published" {
		t.Fatalf("links of an unpublished round: %d %s", resp.StatusCode, b)
	}
	e.op(tok, "publish", `{"round":1}`, http.StatusOK)
	var rl reportLinksView
	e.getJSON("/api/d/"+tok+"/round/1/links", &rl)
	if len(rl.Boards) != 2 || rl.Boards[0].White.Name == "" || !strings.HasPrefix(rl.Boards[0].Black.QR, "<svg") {
		t.Fatalf("result links: %+v", rl)
	}
	w1, b1 := secretOf(rl.Boards[0].White.Link), secretOf(rl.Boards[0].Black.Link)
	w2, b2 := secretOf(rl.Boards[1].White.Link), secretOf(rl.Boards[1].Black.Link)
	secrets = append(secrets, w1, b1, w2, b2)

	// The live boards page's stream, open while the results come in.
	st := e.liveStream(id, 1)
	first := st.next(t)
	if first.Event != "snapshot" || !strings.Contains(first.Data, `"event":"Club open"`) {
		t.Fatalf("first event: %+v", first)
	}

	report := func(secret, outcome string, status int) []byte {
		t.Helper()
		resp, b := e.do("POST", "/api/r/"+secret, `{"outcome":"`+outcome+`"}`)
		if resp.StatusCode != status {
			t.Fatalf("report %s: %d %s, want %d", outcome, resp.StatusCode, b, status)
		}
		return b
	}
	report(w1, "1-0", http.StatusOK)
	got := report(b1, "1-0", http.StatusOK)
	if !strings.Contains(string(got), `"result":"1-0"`) || !strings.Contains(string(got), `"source":"players"`) {
		t.Fatalf("both agree: %s", got)
	}
	st.until(t, "board 1's result on the live page", func(ev sseEvent, m map[string]any) bool {
		return ev.Event == "snapshot" && strings.Contains(ev.Data, `"board":1,"white"`) && boardLabel(ev.Data, 1) == "2-0"
	})

	report(w2, "½-½", http.StatusOK)
	got = report(b2, "0-1", http.StatusOK)
	if !strings.Contains(string(got), `"disputed":true`) {
		t.Fatalf("a disagreement: %s", got)
	}
	e.getJSON("/api/d/"+tok, &bv)
	if c := bv.AtBoards.Claims[2]; !c.Disputed || c.White != "=-=" || c.Black != "0-1" || bv.AtBoards.Round != 1 {
		t.Fatalf("the director's flag: %+v", bv.AtBoards)
	}
	e.op(tok, "result", `{"round":1,"board":2,"result":"=-="}`, http.StatusOK)
	st.until(t, "board 2's result on the live page", func(ev sseEvent, m map[string]any) bool {
		return ev.Event == "snapshot" && boardLabel(ev.Data, 2) == "1-1"
	})
	if c := report(b2, "0-1", http.StatusConflict); errorCode(c) != "director.board-done" {
		t.Errorf("a report after the director decided: %s", c)
	}

	// Hostile requests: each a clear 4xx.
	_, unknown := e.do("GET", "/api/g/"+strings.Repeat("x", 43), "")
	tampered := w1[:len(w1)-2] + "zz"
	if tampered == w1 {
		tampered = w1[:len(w1)-2] + "yy"
	}
	for _, c := range []struct{ name, method, path, body string }{
		{"unknown result link", "GET", "/api/r/" + strings.Repeat("x", 43), ""},
		{"tampered result link", "GET", "/api/r/" + tampered, ""},
		{"too long a link", "GET", "/api/r/" + strings.Repeat("a", 300), ""},
		{"a check-in link as a result link", "GET", "/api/r/" + secretOf(ci.Players[0].Link), ""},
		{"a result link as a check-in link", "GET", "/api/c/" + w1, ""},
		{"the director's link as a result link", "GET", "/api/r/" + tok, ""},
		{"report by an unknown link", "POST", "/api/r/" + tampered, `{"outcome":"1-0"}`},
		{"check in by an unknown link", "POST", "/api/c/" + tampered, `{}`},
	} {
		resp, b := e.do(c.method, c.path, c.body)
		if resp.StatusCode != http.StatusNotFound || !bytes.Equal(b, unknown) {
			t.Errorf("%s: %d %s, want the 404 of an unknown address %s", c.name, resp.StatusCode, b, unknown)
		}
	}
	for _, c := range []struct {
		name, path, body string
		hdr              []string
		status           int
		code             string
	}{
		{"a forfeit", "/api/r/" + w2, `{"outcome":"+-"}`, nil, 400, "director.report-outcome"},
		{"not JSON", "/api/r/" + w2, `1-0`, nil, 400, codeBadJSON},
		{"an unknown field", "/api/r/" + w2, `{"outcome":"1-0","board":3}`, nil, 400, codeBadJSON},
		{"text/plain", "/api/r/" + w2, `{"outcome":"1-0"}`, []string{"Content-Type", "text/plain"}, 415, codeMediaType},
		{"too large", "/api/r/" + w2, `{"outcome":"` + strings.Repeat("1", 70<<10) + `"}`, nil, 413, codeTooLarge},
		{"cross-site", "/api/r/" + w2, `{"outcome":"1-0"}`, []string{"Sec-Fetch-Site", "cross-site"}, 403, codeCrossSite},
		{"cross-site check-in", "/api/c/" + secretOf(ci.Tablet.Link), `{"player":1}`, []string{"Origin", "https://evil.example"}, 403, codeCrossSite},
		{"the tablet, an unknown player", "/api/c/" + secretOf(ci.Tablet.Link), `{"player":99}`, nil, 404, "director.unknown-player"},
	} {
		resp, b := e.do("POST", c.path, c.body, c.hdr...)
		if resp.StatusCode != c.status || errorCode(b) != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, resp.StatusCode, b, c.status, c.code)
		}
	}
	if resp, b := e.do("GET", "/api/e/"+id+"/round/2/boards", ""); resp.StatusCode != 404 || !bytes.Equal(b, unknown) {
		t.Errorf("the live boards of a round not paired: %d %s", resp.StatusCode, b)
	}
	if resp, b := e.do("GET", "/api/e/"+id+"/round/x/boards", ""); resp.StatusCode != 404 {
		t.Errorf("the live boards of round x: %d %s", resp.StatusCode, b)
	}
	if resp, _ := e.do("GET", "/api/d/"+tok+"x/round/1/links", ""); resp.StatusCode != 404 {
		t.Errorf("links with a wrong director's link: %d", resp.StatusCode)
	}
	for _, p := range []string{"/r/" + w1, "/c/" + secretOf(ci.Tablet.Link)} {
		resp, _ := e.do("GET", p, "")
		if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: %d, Cache-Control %q, Referrer-Policy %q", p, resp.StatusCode, resp.Header.Get("Cache-Control"), resp.Header.Get("Referrer-Policy"))
		}
	}
	log := e.log.String()
	for _, s := range secrets {
		if strings.Contains(log, s) {
			t.Errorf("the log holds a secret link %q", s)
		}
	}
}

// TestLiveBoardsOnlineGame: a board played online shows its position on
// the live boards page, and each move comes as a "board" event.
func TestLiveBoardsOnlineGame(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Online open","rounds":2}`)
	resp, b := e.do("POST", "/api/d/"+tok+"/import", sixPlayers, "Content-Type", "text/csv")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("import: %d %s", resp.StatusCode, b)
	}
	e.op(tok, "pair", `{"round":1}`, http.StatusOK)
	e.op(tok, "publish", `{"round":1}`, http.StatusOK)
	v, _ := e.op(tok, "game", `{"round":1,"board":1}`, http.StatusOK)
	var lr liveRound
	e.getJSON("/api/e/"+id+"/round/1/boards", &lr)
	if len(lr.Boards) != 3 || lr.Boards[0].Game == nil || lr.Boards[1].Game != nil || lr.Geometry == nil || len(lr.Geometry.Squares) != 50 {
		t.Fatalf("live round: %+v", lr)
	}
	if n := len(lr.Boards[0].Game.Board.Pieces); n != 40 {
		t.Fatalf("%d pieces at the start, want 40", n)
	}
	st := e.liveStream(id, 1)
	if ev := st.next(t); ev.Event != "snapshot" {
		t.Fatalf("first event %+v", ev)
	}
	white := secretOf(v.Links["1.1"]["white"])
	if code, body := e.act(white, `{"kind":"move","move":"32-28"}`); code != http.StatusOK {
		t.Fatalf("32-28: %d %s", code, body)
	}
	st.until(t, "the move on the live page", func(ev sseEvent, m map[string]any) bool {
		g, _ := m["game"].(map[string]any)
		last, _ := g["last"].(map[string]any)
		return ev.Event == "board" && m["board"] == float64(1) && last["from"] == "32" && last["to"] == "28"
	})
}

// liveStream opens the live boards stream of round n of event id.
func (e *dirEnv) liveStream(id string, n int) *sse {
	e.t.Helper()
	s, code, body := e.tryStreamPath("/api/e/" + id + "/round/" + itoa(n) + "/boards/events")
	if code != http.StatusOK {
		e.t.Fatalf("live boards stream: %d %s", code, body)
	}
	return s
}

// boardLabel reads board n's label from a live round's JSON.
func boardLabel(data string, n int) string {
	var lr struct {
		Boards []struct {
			Board int    `json:"board"`
			Label string `json:"label"`
		} `json:"boards"`
	}
	json.Unmarshal([]byte(data), &lr)
	for _, b := range lr.Boards {
		if b.Board == n {
			return b.Label
		}
	}
	return ""
}

func itoa(n int) string { return strconv.Itoa(n) }

// tryStreamPath opens the event stream at path (tryStream's, for a path
// other than a game's).
func (e *env) tryStreamPath(path string) (*sse, int, []byte) {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", e.hs.URL+path, nil)
	if err != nil {
		e.t.Fatal(err)
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

// TestPlayersAtBoardsLimits: the players' links are under the server's
// per-client request rate, and the live boards stream under its stream
// limit, like every other route.
func TestPlayersAtBoardsLimits(t *testing.T) {
	st, err := director.Open(director.Config{Path: filepath.Join(t.TempDir(), "events.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &dirEnv{env: newEnv(t, Config{Limits: Limits{RequestRate: 0.001, RequestBurst: 12, GameRate: -1, StreamsPerClient: 1}, Director: st}), store: st}
	tok, id := e.createEvent(`{"name":"Limits open","rounds":1}`)
	e.do("POST", "/api/d/"+tok+"/import", sixPlayers, "Content-Type", "text/csv")
	e.op(tok, "pair", `{"round":1}`, http.StatusOK)
	e.op(tok, "publish", `{"round":1}`, http.StatusOK)
	s := e.liveStream(id, 1)
	if ev := s.next(t); ev.Event != "snapshot" {
		t.Fatalf("first event %+v", ev)
	}
	if _, code, b := e.tryStreamPath("/api/e/" + id + "/round/1/boards/events"); code != http.StatusTooManyRequests || errorCode(b) != codeTooManyStreams {
		t.Errorf("a second stream from one client: %d %s", code, b)
	}
	limited := false
	for i := 0; i < 12 && !limited; i++ {
		resp, b := e.do("POST", "/api/r/"+strings.Repeat("x", 43), `{"outcome":"1-0"}`)
		switch resp.StatusCode {
		case http.StatusNotFound:
		case http.StatusTooManyRequests:
			limited = errorCode(b) == codeRateLimited
		default:
			t.Fatalf("guess %d: %d %s", i, resp.StatusCode, b)
		}
	}
	if !limited {
		t.Error("guessing result links is not rate-limited")
	}
}

// The links of the players (result slips, check-in, a game's) open on the
// server's computer only when the director reached it on loopback without
// --public-url: the view says so (at_boards.local_only), for the page to
// warn before QR codes are printed that no phone can open; with a public
// address it does not.
func TestLinksLocalOnly(t *testing.T) {
	for _, tt := range []struct {
		public string
		want   bool
	}{{"", true}, {"https://draughts.example.org", false}} {
		st, err := director.Open(director.Config{Path: filepath.Join(t.TempDir(), "events.db")})
		if err != nil {
			t.Fatal(err)
		}
		e := &dirEnv{env: newEnv(t, Config{Limits: unlimited, Director: st, PublicURL: tt.public}), store: st}
		t.Cleanup(func() { st.Close() })
		tok := e.publishedRound()
		resp, b := e.do("GET", "/api/d/"+tok, "")
		var v struct {
			AtBoards struct {
				LocalOnly *bool `json:"local_only"`
			} `json:"at_boards"`
		}
		if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &v) != nil || v.AtBoards.LocalOnly == nil || *v.AtBoards.LocalOnly != tt.want {
			t.Errorf("public URL %q: %d %s; want local_only %v", tt.public, resp.StatusCode, b[:min(len(b), 200)], tt.want)
		}
		// The printed sheets' links, likewise.
		for _, path := range []string{"/api/d/" + tok + "/round/1/links", "/api/d/" + tok + "/checkin-links"} {
			resp, b := e.do("GET", path, "")
			var sheet struct {
				LocalOnly *bool `json:"local_only"`
			}
			if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &sheet) != nil || sheet.LocalOnly == nil || *sheet.LocalOnly != tt.want {
				t.Errorf("%s, public URL %q: %d; want local_only %v", path, tt.public, resp.StatusCode, tt.want)
			}
		}
		// A game's links, likewise.
		resp, b = e.do("POST", "/api/games", `{"variant":"english","time_control":"300+3"}`)
		var c struct {
			LocalOnly *bool `json:"local_only"`
		}
		if resp.StatusCode != http.StatusCreated || json.Unmarshal(b, &c) != nil || c.LocalOnly == nil || *c.LocalOnly != tt.want {
			t.Errorf("a game, public URL %q: %d %s; want local_only %v", tt.public, resp.StatusCode, b, tt.want)
		}
	}
	// A game against an engine offers no opponent's link: no notice about
	// an opponent on another device. (Black moves first: the stand-in
	// engine, White, is never asked for a move.)
	e := newEngineEnv(t, map[string]online.EngineSpec{"stand-in": {Name: "stand-in", Command: "true", Argv: []string{"true"}, Protocol: configs.Hub}})
	resp, b := e.do("POST", "/api/games", `{"variant":"english","engine":"stand-in","engine_side":"white"}`)
	var c struct {
		Links     map[string]string `json:"links"`
		LocalOnly *bool             `json:"local_only"`
	}
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(b, &c) != nil || c.Links["black"] == "" || c.Links["white"] != "" || c.LocalOnly == nil || *c.LocalOnly {
		t.Errorf("a game against an engine on loopback: %d %s; want black's link and local_only false", resp.StatusCode, b)
	}
}
