package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestDirectorCorrectionsAPI: the corrections through the director's API.
// A look-alike entered by the form is refused (409, the other player
// named) and entered when confirmed; a CSV with a look-alike is refused
// naming its line (400, nothing imported) and imported with ?confirm=1; a
// player is corrected and removed; the seeding is set by hand and back.
func TestDirectorCorrectionsAPI(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Fix Open","rounds":3}`)
	e.op(tok, "add-players", `{"players":[{"name":"Ingrid Hansen","club":"Bergen SK","federation":"NOR","fed_id":"4711","rating":1850}]}`, 200)
	_, b := e.op(tok, "add-players", `{"players":[{"name":"ingrid hansen","club":"Bergen SK"}]}`, http.StatusConflict)
	if errorCode(b) != "director.duplicate-club" || !strings.Contains(string(b), "Ingrid Hansen (Bergen SK, NOR 4711)") {
		t.Fatalf("a look-alike by the form: %s", b)
	}
	v, _ := e.op(tok, "add-players", `{"players":[{"name":"ingrid hansen","club":"Bergen SK"}],"confirm":true}`, 200)
	if len(v.Players) != 2 {
		t.Fatalf("confirmed: %d players", len(v.Players))
	}
	csv := "name,club,federation,fed_id,rating\nAnna Berg,DC Oslo,NOR,1001,2210\nIngrid Hansen,Oslo DK,NOR,4711,1850\n"
	post := func(q string) (*http.Response, []byte) {
		return e.do("POST", "/api/d/"+tok+"/import"+q, csv, "Content-Type", "text/csv")
	}
	resp, b := post("")
	if resp.StatusCode != 400 || errorCode(b) != "director.csv-duplicate-fed_id" || !strings.Contains(string(b), `"line":"3"`) {
		t.Fatalf("a CSV look-alike: %d %s", resp.StatusCode, b)
	}
	if n := len(e.view(tok).Players); n != 2 {
		t.Fatalf("a refused CSV imported: %d players", n)
	}
	if resp, b = post("?confirm=1"); resp.StatusCode != 200 {
		t.Fatalf("confirmed CSV: %d %s", resp.StatusCode, b)
	}
	v = e.view(tok)
	if len(v.Players) != 4 {
		t.Fatalf("after the confirmed CSV: %d players", len(v.Players))
	}
	// Correct player 2 (the confirmed look-alike), then remove player 4.
	v, _ = e.op(tok, "edit-player", `{"player":2,"edit":{"name":"Inga Hansen","club":"Bergen SK","federation":"nor","fed_id":"4712","rating":2400,"title":"mf"}}`, 200)
	if p := v.Players[1]; p.Name != "Inga Hansen" || p.Rating != 2400 || p.Title != "MF" || p.Federation != "NOR" || p.Number != 1 {
		t.Fatalf("corrected: %+v", p)
	}
	e.op(tok, "edit-player", `{"player":2}`, 400)
	v, _ = e.op(tok, "remove-player", `{"player":4}`, 200)
	if len(v.Players) != 3 || !strings.Contains(v.Audit[len(v.Audit)-1].Detail, "removed before round 1") {
		t.Fatalf("removed: %d players, audit %+v", len(v.Players), v.Audit[len(v.Audit)-1])
	}
	v, _ = e.op(tok, "seeding", `{"order":[3,1,2]}`, 200)
	for _, p := range v.Players {
		if want := map[int]int{3: 1, 1: 2, 2: 3}[p.ID]; p.Number != want {
			t.Errorf("by hand: player %d has number %d, want %d", p.ID, p.Number, want)
		}
	}
	e.op(tok, "seeding", `{"order":[3,1]}`, 400)
	v, _ = e.op(tok, "seeding", `{}`, 200)
	if v.Players[1].Number != 1 {
		t.Errorf("back to the ranking: %+v", v.Players)
	}

	// After round 1: a rating corrected, the numbers stay; a player who
	// played cannot be removed.
	e.op(tok, "add-players", `{"players":[{"name":"Kari Nes","rating":1500}]}`, 200)
	e.op(tok, "pair", `{"round":1}`, 200)
	e.op(tok, "publish", `{"round":1}`, 200)
	e.op(tok, "result", `{"round":1,"board":1,"result":"1-0"}`, 200)
	e.op(tok, "result", `{"round":1,"board":2,"result":"0-1"}`, 200)
	e.op(tok, "close", `{"round":1}`, 200)
	v, _ = e.op(tok, "edit-player", `{"player":1,"edit":{"name":"Ingrid Hansen","club":"Bergen SK","federation":"NOR","fed_id":"4711","rating":1900}}`, 200)
	if a := v.Audit[len(v.Audit)-1]; a.Action != "edit-player" || !strings.Contains(a.Detail, `rating "1850" -> "1900"`) || !strings.Contains(a.Detail, "after round 1") {
		t.Fatalf("the audit of the rating: %+v", a)
	}
	_, b = e.op(tok, "remove-player", `{"player":1}`, http.StatusConflict)
	if errorCode(b) != "director.has-played" {
		t.Fatalf("removing a player who played: %s", b)
	}

	// The public pages: standings after round 1, the round's print-out.
	if page := e.public(id, "/standings/1"); !strings.Contains(page, "Standings after round 1") || !strings.Contains(page, `id="nav-after"`) {
		t.Errorf("standings after round 1:\n%s", page)
	}
	if page := e.public(id, "/round/1/print"); !strings.Contains(page, "Round 1: pairings and result slips") {
		t.Errorf("round 1's print-out:\n%s", page)
	}
	for _, path := range []string{"/standings/2", "/round/2/print", "/standings/x"} {
		if resp, _ := e.do("GET", "/e/"+id+path, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d", path, resp.StatusCode)
		}
	}
}

// TestKeepCard: the director's "keep this" card carries the secret link
// written out and as a QR code, and the public address; it is not
// cached, and an unknown token has no card.
func TestKeepCard(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Card <Open>","site":"Tromsø","start":"2026-07-01","end":"2026-07-03","rounds":3}`)
	resp, b := e.do("GET", "/d/"+tok+"/card", "")
	page := string(b)
	if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("the card: %d %v", resp.StatusCode, resp.Header)
	}
	for _, want := range []string{e.hs.URL + "/d/" + tok, e.hs.URL + "/e/" + id, "Card &lt;Open&gt;", "Tromsø · 2026-07-01 – 2026-07-03", "Keep this card"} {
		if !strings.Contains(page, want) {
			t.Errorf("the card misses %q", want)
		}
	}
	if n := strings.Count(page, `<svg xmlns="http://www.w3.org/2000/svg" class="qr"`); n != 2 {
		t.Errorf("%d QR codes on the card", n)
	}
	resp, b = e.do("GET", "/d/"+tok+"/card", "", "Accept-Language", "nb")
	if !strings.Contains(string(b), "Ta vare på dette kortet") {
		t.Errorf("the card in Norwegian: %d", resp.StatusCode)
	}
	if resp, _ := e.do("GET", "/d/"+strings.Repeat("x", 43)+"/card", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown token's card: %d", resp.StatusCode)
	}
}
