package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDirectorBurstein: a director chooses "Swiss (Burstein
// system)" on the create page, beside the Dutch system; the event page
// says so, the event stores the choice ("pairing":"burstein"), round 1
// (a seeding round, paired by the Dutch system) is paired from the page,
// and the TRF says the event is a Burstein Swiss. Screenshots of the
// create page with the choice made and of the event page at 390 and
// 1366 px.
func TestBrowserDirectorBurstein(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	d := newPage(t, "director")
	d.do("open /director", chromedp.Navigate(e.hs.URL+"/director"))
	d.wait("the create page", `document.querySelector('#ev-system option[value="burstein"]')`)
	if got := eval[string](d, `document.querySelector('#ev-system option[value="burstein"]').textContent`); got != "Swiss (Burstein system)" {
		t.Errorf("the option reads %q", got)
	}
	d.do("choose Burstein",
		chromedp.SendKeys(chromedp.CSS("#ev-name"), "Burstein Open"),
		chromedp.SetValue(chromedp.CSS("#ev-rounds"), "4"),
		chromedp.SetValue(chromedp.CSS("#ev-system"), "burstein"))
	for _, w := range []int64{390, 1366} {
		d.checkLayout(fmt.Sprintf("director-burstein-create-%d", w), w, 900)
	}
	d.do("create the event", chromedp.Click(chromedp.CSS("#event-create")))
	d.wait("the director's page", `location.pathname.startsWith('/d/') && window.arbiterDirector && arbiterDirector.ready`)
	if !eval[bool](d, `arbiterDirector.view.event.pairing === 'burstein' && arbiterDirector.view.event.system === 'swiss'`) {
		t.Fatalf("the stored event: %s", eval[string](d, `JSON.stringify(arbiterDirector.view.event)`))
	}
	if facts := eval[string](d, `document.getElementById('ev-facts').textContent`); !strings.Contains(facts, "Swiss (Burstein system)") {
		t.Errorf("the event's facts read %q", facts)
	}
	token := strings.TrimPrefix(eval[string](d, `location.pathname`), "/d/")
	e.op(token, "add-players", `{"players":[{"name":"Anna","rating":2300},{"name":"Bo","rating":2200},{"name":"Cas","rating":2100},{"name":"Dina","rating":2000},{"name":"Eva","rating":1900},{"name":"Finn","rating":1800}]}`, 200)
	// As a director does after keeping the link: then the page may be left.
	d.do("say the link is kept", chromedp.Click(chromedp.CSS("#keep-done")))
	d.wait("the guard off", `document.getElementById('keep-done').hidden`)
	d.do("open the page again", chromedp.Navigate(e.hs.URL+"/d/"+token))
	d.wait("six players", `window.arbiterDirector && arbiterDirector.ready && arbiterDirector.view.players.length === 6`)
	d.do("pair round 1", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("three boards", `(arbiterDirector.view.rounds || []).length === 1 && document.querySelectorAll('#boards tbody tr').length === 3`)
	for _, w := range []int64{390, 1366} {
		d.checkLayout(fmt.Sprintf("director-burstein-event-%d", w), w, 900)
	}
	id := eval[string](d, `arbiterDirector.view.event.id`)
	if trf := e.public(id, "/trf"); !strings.Contains(trf, "Swiss-System Burstein") {
		t.Errorf("the TRF does not say Burstein:\n%s", trf)
	}
}
