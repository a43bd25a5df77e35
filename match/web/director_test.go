package web

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

// dirEnv is a server with a director's store beside the Hall.
type dirEnv struct {
	*env
	store *director.Store
}

func newDirEnv(t *testing.T) *dirEnv {
	t.Helper()
	st, err := director.Open(director.Config{Path: filepath.Join(t.TempDir(), "events.db")})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Config{Limits: unlimited, Director: st})
	t.Cleanup(func() { st.Close() })
	return &dirEnv{env: e, store: st}
}

// dirView is the part of the director's view the tests read.
type dirView struct {
	Event struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"event"`
	Players []director.Player `json:"players"`
	Rounds  []struct {
		N      int              `json:"n"`
		State  string           `json:"state"`
		Boards []director.Board `json:"boards"`
		Bye    int              `json:"bye"`
	} `json:"rounds"`
	Standings []struct {
		director.Standing
		Points string   `json:"points"`
		Tie    []string `json:"tie"`
	} `json:"standings"`
	TieHeads []tieHead                    `json:"tie_heads"`
	Counted  director.Count               `json:"counted"`
	Audit    []director.Audit             `json:"audit"`
	Links    map[string]map[string]string `json:"links"`
	Public   string                       `json:"public"`
	Labels   map[string]string            `json:"labels"`
	Results  map[string]boardResult       `json:"results"`
}

// createEvent creates an event through the API: its token and public id.
func (e *dirEnv) createEvent(body string) (token, id string) {
	e.t.Helper()
	resp, b := e.do("POST", "/api/events", body)
	if resp.StatusCode != http.StatusCreated {
		e.t.Fatalf("create event: %d %s", resp.StatusCode, b)
	}
	var c struct{ ID, Link, Public string }
	if err := json.Unmarshal(b, &c); err != nil {
		e.t.Fatal(err)
	}
	i := strings.LastIndex(c.Link, "/d/")
	if i < 0 || !strings.HasSuffix(c.Public, "/e/"+c.ID) {
		e.t.Fatalf("links %+v", c)
	}
	return c.Link[i+3:], c.ID
}

// op posts a director's operation, wanting status; the view on 200.
func (e *dirEnv) op(token, name, body string, status int) (dirView, []byte) {
	e.t.Helper()
	resp, b := e.do("POST", "/api/d/"+token+"/"+name, body)
	if resp.StatusCode != status {
		e.t.Fatalf("%s %s: %d %s, want %d", name, body, resp.StatusCode, b, status)
	}
	var v dirView
	if status == http.StatusOK {
		if err := json.Unmarshal(b, &v); err != nil {
			e.t.Fatalf("%s: %v in %s", name, err, b)
		}
	}
	return v, b
}

// public gets the public page path of event id ("/crosstable"), wanting
// 200.
func (e *dirEnv) public(id, path string) string {
	e.t.Helper()
	resp, b := e.do("GET", "/e/"+id+path, "")
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("%s: %d %s", path, resp.StatusCode, b)
	}
	return string(b)
}

func (e *dirEnv) view(token string) dirView {
	e.t.Helper()
	resp, b := e.do("GET", "/api/d/"+token, "")
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("view: %d %s", resp.StatusCode, b)
	}
	var v dirView
	if err := json.Unmarshal(b, &v); err != nil {
		e.t.Fatal(err)
	}
	return v
}

const sixPlayers = "name,club,federation,fed_id,rating\nAnna Berg,DC Oslo,NOR,1001,2210\nBo Dahl,DK Aarhus,DEN,2002,2150\n" +
	"Cas de Vries,DC Utrecht,NED,3003,2300\nDina Eng,DC Oslo,NOR,,1980\nErik Fjell,DC Bergen,NOR,1005,2050\nFie Gram,DK Odense,DEN,,1900\n"

func TestDirectorAPI(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Oslo Open","site":"Oslo","start":"2026-05-01","end":"2026-05-03","variant":"international","time_control":"600+5","system":"swiss","rounds":3}`)

	// Refusals of the create form name the field.
	resp, b := e.do("POST", "/api/events", `{"name":"","rounds":3}`)
	if resp.StatusCode != 400 || errorCode(b) != "director.bad-field" || !strings.Contains(string(b), `"field":"name"`) {
		t.Fatalf("nameless event: %d %s", resp.StatusCode, b)
	}
	// CSV: a bad file names line and column, imports nothing.
	csv := func(body string) (*http.Response, []byte) {
		return e.do("POST", "/api/d/"+tok+"/import", body, "Content-Type", "text/csv")
	}
	resp, b = csv("name,rating\nAnna,12x\n,1500\n")
	if resp.StatusCode != 400 || errorCode(b) != "director.csv" || !strings.Contains(string(b), `"line":"3"`) {
		t.Fatalf("bad CSV: %d %s", resp.StatusCode, b)
	}
	if n := len(e.view(tok).Players); n != 0 {
		t.Fatalf("a refused import added %d players", n)
	}
	resp, b = e.do("POST", "/api/d/"+tok+"/import", sixPlayers) // JSON content type
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("CSV as JSON: %d %s", resp.StatusCode, b)
	}
	resp, b = csv("name\n" + strings.Repeat("x", director.MaxCSV))
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized CSV: %d %s", resp.StatusCode, b)
	}
	resp, b = csv(sixPlayers)
	if resp.StatusCode != 200 {
		t.Fatalf("import: %d %s", resp.StatusCode, b)
	}
	var v dirView
	json.Unmarshal(b, &v)
	if len(v.Players) != 6 {
		t.Fatalf("imported %d players", len(v.Players))
	}

	// The secret and the same-origin rule.
	for _, c := range []struct {
		name   string
		path   string
		hdr    []string
		status int
	}{
		{"unknown token", "/api/d/" + strings.Repeat("A", 43) + "/pair", nil, 404},
		{"tampered token", "/api/d/" + tok[:len(tok)-1] + "B/pair", nil, 404},
		{"cross-site fetch", "/api/d/" + tok + "/pair", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"foreign origin", "/api/d/" + tok + "/pair", []string{"Origin", "https://evil.example"}, 403},
		{"unknown op", "/api/d/" + tok + "/explode", nil, 404},
	} {
		resp, b := e.do("POST", c.path, `{"round":1}`, c.hdr...)
		if resp.StatusCode != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, resp.StatusCode, b, c.status)
		}
	}
	_, b = e.op(tok, "pair", `{"round":2}`, 409)
	if errorCode(b) != "director.round-order" {
		t.Fatalf("pair 2 first: %s", b)
	}
	e.op(tok, "pair", `{"round":1}`, 200)
	_, b = e.op(tok, "game", `{"round":1,"board":1}`, 409)
	if errorCode(b) != "director.not-published" {
		t.Fatalf("a game before publishing: %s", b)
	}
	e.op(tok, "publish", `{"round":1}`, 200)
	v, _ = e.op(tok, "game", `{"round":1,"board":1}`, 200)
	links := v.Links["1.1"]
	if links["white"] == "" || links["black"] == "" || links["spectator"] == "" || v.Rounds[0].Boards[0].Game == "" {
		t.Fatalf("board 1's game: %+v", v.Links)
	}
	// The game is played through its links: Black resigns.
	black := links["black"][strings.LastIndex(links["black"], "/g/")+3:]
	if code, body := e.act(black, `{"kind":"resign"}`); code != 200 {
		t.Fatalf("resign: %d %s", code, body)
	}
	waitUntil(t, "the game's result reaches its board", func() bool { return e.view(tok).Rounds[0].Boards[0].Done() })
	if b := e.view(tok).Rounds[0].Boards[0]; b.Score() != "1-0" || b.Source != "online" {
		t.Fatalf("board 1 from its game: %+v", b)
	}
	e.op(tok, "result", `{"round":1,"board":2,"result":"½-½"}`, 200)
	_, b = e.op(tok, "close", `{"round":1}`, 409)
	if errorCode(b) != "director.results-missing" {
		t.Fatalf("close with board 3 open: %s", b)
	}
	_, b = e.op(tok, "result", `{"round":1,"board":3,"result":"3-0"}`, 400)
	if errorCode(b) != "director.bad-result" {
		t.Fatalf("3-0: %s", b)
	}
	e.op(tok, "result", `{"round":1,"board":3,"result":"+-"}`, 200)
	e.op(tok, "close", `{"round":1}`, 200)
	e.op(tok, "bye", `{"player":6,"round":2,"kind":"H"}`, 200)
	v, _ = e.op(tok, "pair", `{"round":2}`, 200)
	if len(v.Rounds) != 2 || len(v.Rounds[1].Boards) != 2 || v.Rounds[1].Bye == 0 {
		t.Fatalf("round 2 with a half-point bye among six: %+v", v.Rounds[1])
	}
	v, _ = e.op(tok, "swap", `{"round":2,"board":1}`, 200)
	if len(v.Standings) != 6 || v.Standings[0].Score != 2 {
		t.Fatalf("standings %+v", v.Standings)
	}
	found := false
	for _, a := range v.Audit {
		found = found || a.Action == "fix"
	}
	if !found {
		t.Fatal("the swap is not in the audit log")
	}

	// Public pages: round 2 is not published, so they show round 1.
	resp, b = e.do("GET", "/e/"+id, "")
	csp := resp.Header.Get("Content-Security-Policy")
	if resp.StatusCode != 200 || !strings.Contains(string(b), "Anna Berg") || !strings.Contains(csp, "'sha256-") || strings.Contains(csp, "unsafe-inline") {
		t.Fatalf("public pairings: %d %s\n%s", resp.StatusCode, csp, b)
	}
	for _, p := range []string{"/e/" + id + "/standings", "/e/" + id + "/crosstable", "/e/" + id + "/cards", "/e/" + id + "/round/1"} {
		if resp, b := e.do("GET", p, ""); resp.StatusCode != 200 || !strings.Contains(string(b), "Oslo Open") {
			t.Errorf("%s: %d", p, resp.StatusCode)
		}
	}
	for _, p := range []string{"/e/" + id + "/round/2", "/e/nope", "/e/" + id + "/round/x"} {
		if resp, _ := e.do("GET", p, ""); resp.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", p, resp.StatusCode)
		}
	}
	resp, b = e.do("GET", "/e/"+id+"/trf", "")
	ev, err := trf.Read(strings.NewReader(string(b)))
	if resp.StatusCode != 200 || err != nil || len(ev.Players) != 6 || ev.Name != "Oslo Open" || len(ev.Players[0].History) != 1 {
		t.Fatalf("TRF: %d %v %s", resp.StatusCode, err, b)
	}
	resp, b = e.do("GET", "/e/"+id+"/pdn", "")
	if resp.StatusCode != 200 || !strings.Contains(string(b), `[Event "Oslo Open"]`) || !strings.Contains(string(b), `[Round "1.1"]`) || !strings.Contains(string(b), `[Result "2-0"]`) {
		t.Fatalf("PDN: %d %s", resp.StatusCode, b)
	}
	// The director's secret never reaches the log.
	if strings.Contains(e.log.String(), tok) {
		t.Fatal("the director's token is in the log")
	}
	// Page routes exist and carry the security headers.
	for _, p := range []string{"/director", "/d/" + tok} {
		resp, _ := e.do("GET", p, "")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("%s: %d", p, resp.StatusCode)
		}
	}
	if resp, _ := e.do("GET", "/d/"+tok, ""); resp.Header.Get("Cache-Control") != "no-store" {
		t.Error("the director's page may be cached")
	}
}

// TestDirectorFollowsAfterRestart: a board's game that ends while the
// server is down is recorded when it starts again.
func TestDirectorFollowsAfterRestart(t *testing.T) {
	e := newDirEnv(t)
	tok, _ := e.createEvent(`{"name":"Club","variant":"english","system":"round-robin","rounds":1}`)
	e.op(tok, "add-players", `{"players":[{"name":"A"},{"name":"B"}]}`, 200)
	e.op(tok, "pair", `{"round":1}`, 200)
	e.op(tok, "publish", `{"round":1}`, 200)
	v, _ := e.op(tok, "game", `{"round":1,"board":1}`, 200)
	e.srv.Stop() // the followers stop
	e.srv.followers.Wait()
	white := v.Links["1.1"]["white"]
	if code, body := e.act(white[strings.LastIndex(white, "/g/")+3:], `{"kind":"resign"}`); code != 200 {
		t.Fatalf("resign: %d %s", code, body)
	}
	if e.view(tok).Rounds[0].Boards[0].Done() {
		t.Fatal("recorded with no follower")
	}
	srv, err := New(Config{Hall: e.hall, Log: e.srv.log, Director: e.store, Limits: unlimited})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	waitUntil(t, "the result of the game that ended meanwhile is recorded", func() bool { return e.view(tok).Rounds[0].Boards[0].Done() })
	if b := e.view(tok).Rounds[0].Boards[0]; b.Score() != "0-1" || b.Source != "online" {
		t.Fatalf("board %+v", b)
	}
}

// TestDirectorImportTRF exports an event's TRF and imports it through the
// API as a new event that goes on from there.
func TestDirectorImportTRF(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Export me","variant":"english","half_points":true,"rounds":3}`)
	e.op(tok, "add-players", `{"players":[{"name":"A","rating":2000},{"name":"B","rating":1900},{"name":"C","rating":1800},{"name":"D","rating":1700}]}`, 200)
	e.op(tok, "pair", `{"round":1}`, 200)
	e.op(tok, "publish", `{"round":1}`, 200)
	e.op(tok, "result", `{"round":1,"board":1,"result":"1-0"}`, 200)
	e.op(tok, "result", `{"round":1,"board":2,"result":"½-½"}`, 200)
	e.op(tok, "close", `{"round":1}`, 200)
	_, text := e.do("GET", "/e/"+id+"/trf", "")
	imp := func(body string) (*http.Response, []byte) {
		return e.do("POST", "/api/events/trf?variant=english", body, "Content-Type", "text/plain")
	}
	resp, b := imp(string(text))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("import: %d %s", resp.StatusCode, b)
	}
	var c struct{ Link string }
	json.Unmarshal(b, &c)
	tok2 := c.Link[strings.LastIndex(c.Link, "/d/")+3:]
	v := e.view(tok2)
	if v.Event.Name != "Export me" || len(v.Rounds) != 1 || v.Rounds[0].State != "closed" || len(v.Players) != 4 || v.Standings[0].Score != 2 {
		t.Fatalf("imported %+v", v)
	}
	e.op(tok2, "pair", `{"round":2}`, 200)
	resp, b = imp("012 x\n001 garbage\n")
	if resp.StatusCode != 400 || errorCode(b) != "director.trf" || !strings.Contains(string(b), `"line":"2"`) {
		t.Fatalf("bad TRF: %d %s", resp.StatusCode, b)
	}
	if resp, _ := e.do("POST", "/api/events/trf", string(text)); resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("TRF as JSON: %d", resp.StatusCode)
	}
}

// A new event's view, as a script reads it from the API: the lists it has
// none of yet are [] like the view's other lists ("players" and "rounds"
// were null).
func TestDirectorViewEmptyListsAreEmpty(t *testing.T) {
	e := newDirEnv(t)
	token, _ := e.createEvent(`{"name":"Empty","variant":"english","system":"swiss","rounds":3}`)
	resp, b := e.do("GET", "/api/d/"+token, "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("view: %d %s", resp.StatusCode, b)
	}
	var v map[string]json.RawMessage
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"players", "rounds", "standings", "checks", "removable"} {
		if string(v[k]) != "[]" {
			t.Errorf("%q is %s, want []", k, v[k])
		}
	}
}
