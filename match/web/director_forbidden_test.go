package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDirectorForbiddenAPI: the director's "players who must not meet"
// through the API. A new event shows "forbidden":[]; each bad list of the
// table is refused with its status and code and changes nothing; a good
// one is stored, audited, honoured by round 1's pairing (players 1 and 3
// of four would meet on board 1) and exported as XXP in the TRF; {}
// clears it; a round-robin refuses it.
func TestDirectorForbiddenAPI(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Family Open","rounds":3}`)
	_, b := e.op(tok, "add-players", `{"players":[{"name":"Anna Berg","rating":2300},{"name":"Bo Dahl","rating":2200},{"name":"Cas Berg","rating":2100},{"name":"Dina Eng","rating":2000}]}`, 200)
	if !strings.Contains(string(b), `"forbidden":[]`) {
		t.Fatalf("a new event's list is not []: %s", b)
	}
	for _, c := range []struct {
		body   string
		status int
		code   string
	}{
		{`{"forbidden":[{"players":[1]}]}`, 400, "director.bad-forbidden"},
		{`{"forbidden":[{"players":[1,1]}]}`, 400, "director.bad-forbidden"},
		{`{"forbidden":[{"players":[1,99]}]}`, 400, "director.bad-forbidden"},
		{`{"forbidden":[{"players":[1,2],"from":2,"to":9}]}`, 400, "director.bad-forbidden"},
		{`{"forbidden":"Berg"}`, 400, "bad-json"},
	} {
		_, b := e.op(tok, "forbidden", c.body, c.status)
		if got := errorCode(b); c.code != "bad-json" && got != c.code {
			t.Errorf("%s: code %q, want %q (%s)", c.body, got, c.code, b)
		}
	}
	v, b := e.op(tok, "forbidden", `{"forbidden":[{"players":[3,1]}]}`, 200)
	if !strings.Contains(string(b), `"forbidden":[{"players":[1,3]}]`) {
		t.Fatalf("stored: %s", b)
	}
	if a := v.Audit[len(v.Audit)-1]; a.Action != "forbidden" || a.Detail != "kept apart: Anna Berg (1), Cas Berg (3)" {
		t.Errorf("audit %+v", a)
	}
	v, _ = e.op(tok, "pair", `{"round":1}`, 200)
	for _, bd := range v.Rounds[0].Boards {
		if bd.White+bd.Black == 4 && bd.White*bd.Black == 3 {
			t.Errorf("board %d pairs the two Bergs", bd.Board)
		}
	}
	if trf := e.public(id, "/trf"); !strings.Contains(trf, "\nXXP 1 3") {
		t.Errorf("the TRF lacks XXP 1 3:\n%s", trf)
	}
	_, b = e.op(tok, "forbidden", `{}`, 200)
	if !strings.Contains(string(b), `"forbidden":[]`) {
		t.Errorf("cleared: %s", b)
	}
	rr, _ := e.createEvent(`{"name":"All play all","rounds":3,"system":"round-robin"}`)
	e.op(rr, "add-players", `{"players":[{"name":"A"},{"name":"B"}]}`, 200)
	if _, b := e.op(rr, "forbidden", `{"forbidden":[{"players":[1,2]}]}`, http.StatusConflict); errorCode(b) != "director.forbidden-swiss" {
		t.Errorf("round-robin: %s", b)
	}
}

// TestBrowserDirectorForbidden: the director ticks two players of one
// family in "Players who must not meet" and keeps them apart; the group
// is listed with their names, round 1 does not pair them, and Remove
// empties the list again. Screenshots of the section at 390 and 1366 px.
func TestBrowserDirectorForbidden(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	tok, _ := e.createEvent(`{"name":"Family Open","rounds":3}`)
	e.op(tok, "add-players", `{"players":[{"name":"Anna Berg","club":"DC Oslo","rating":2300},{"name":"Bo Dahl","club":"DK Aarhus","rating":2200},{"name":"Cas Berg","club":"DC Oslo","rating":2100},{"name":"Dina Eng","club":"DC Bergen","rating":2000}]}`, 200)
	d := newPage(t, "director")
	d.do("open the director's page", chromedp.Navigate(e.hs.URL+"/d/"+tok))
	d.wait("the section, empty", `window.arbiterDirector && arbiterDirector.ready && !document.getElementById('apart-box').hidden &&
		document.getElementById('apart-none').textContent === 'No players are kept apart.' && document.querySelectorAll('#apart-choose input').length === 4`)
	d.do("tick the two Bergs", chromedp.Click(chromedp.CSS("#apart-add-box summary")),
		chromedp.Click(chromedp.CSS("#apart-pick-1")), chromedp.Click(chromedp.CSS("#apart-pick-3")), chromedp.Click(chromedp.CSS("#apart-save")))
	d.wait("the group listed", `document.getElementById('apart-0') && !arbiterDirector.busy && document.querySelectorAll('#apart-choose input:checked').length === 0`)
	if got := eval[string](d, `document.querySelector('#apart-0 span').textContent`); got != "Anna Berg (1) · Cas Berg (3)" {
		t.Errorf("the group reads %q", got)
	}
	for _, w := range []int64{390, 1366} {
		d.do("viewport", chromedp.EmulateViewport(w, 900))
		d.wait("the layout settles", fmt.Sprintf(`innerWidth === %d`, w))
		d.checkLayout(fmt.Sprintf("director-forbidden-page-%d", w), w, 900)
		d.picture(fmt.Sprintf("director-forbidden-%d", w), chromedp.Screenshot(chromedp.CSS("#apart-box")))
	}
	d.do("pair round 1", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("two boards", `(arbiterDirector.view.rounds || []).length === 1 && document.querySelectorAll('#boards tbody tr').length === 2`)
	if eval[bool](d, `arbiterDirector.view.rounds[0].boards.some(b => b.white + b.black === 4 && b.white * b.black === 3)`) {
		t.Error("round 1 pairs the two Bergs")
	}
	d.do("remove the group", chromedp.Click(chromedp.CSS("#apart-remove-0")))
	d.wait("the list empty again", `document.getElementById('apart-none') && arbiterDirector.view.event.forbidden.length === 0`)
}

// TestBrowserDirectorBaku: a director creates a Swiss with the Baku
// acceleration chosen on the create page; the event page says so, the
// event stores it, and its TRF carries the virtual points as XXA records
// (4 players: group A is players 1 and 2).
func TestBrowserDirectorBaku(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	d := newPage(t, "director")
	d.do("open /director", chromedp.Navigate(e.hs.URL+"/director"))
	d.wait("the create page", `document.querySelector('#ev-accel option[value="baku"]')`)
	d.do("create the event",
		chromedp.SendKeys(chromedp.CSS("#ev-name"), "Fast Open"),
		chromedp.SetValue(chromedp.CSS("#ev-rounds"), "5"),
		chromedp.SetValue(chromedp.CSS("#ev-accel"), "baku"),
		chromedp.Click(chromedp.CSS("#event-create")))
	d.wait("the director's page", `location.pathname.startsWith('/d/') && window.arbiterDirector && arbiterDirector.ready`)
	if !eval[bool](d, `arbiterDirector.view.event.baku === true && document.getElementById('ev-facts').textContent.includes('Swiss (Dutch system), Baku acceleration')`) {
		t.Errorf("the event's facts read %q", eval[string](d, `document.getElementById('ev-facts').textContent`))
	}
	token := strings.TrimPrefix(eval[string](d, `location.pathname`), "/d/")
	e.op(token, "add-players", `{"players":[{"name":"A","rating":2300},{"name":"B","rating":2200},{"name":"C","rating":2100},{"name":"D","rating":2000}]}`, 200)
	id := eval[string](d, `arbiterDirector.view.event.id`)
	trf := e.public(id, "/trf")
	if strings.Count(trf, "\nXXA ") != 2 || !strings.Contains(trf, "\nXXA    1") {
		t.Errorf("the TRF's XXA records:\n%s", trf)
	}
}
