package web

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// TestBrowserInitialRating: a six-player round-robin where Nina New,
// unrated, meets players rated 1900, 2000, 2100, 1950 and 2050 (she beats
// 1900 and 2000, loses to 2100, draws the others; every other game is
// drawn), all five rounds closed. FIDE B.02 art. 8.2 by hand (as
// reports/rating.TestInitialByHand): Ra = (10000 + 2 × 1800) / 7 =
// 1942.857..., p = 4/7 → .57, dp 50, Ru = 1993. The director reads
// "Nina New: initial rating 1993 after 5 games" under the rating changes,
// the public standings say "(initial rating 1993 after 5 games)" by her
// name and her player card says it too; in Dutch the standings say
// "eerste rating 1993 na 5 partijen". Screenshots at 390 and 1366 px.
func TestBrowserInitialRating(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	ctx := context.Background()
	ev, token, err := e.store.Create(ctx, director.Event{Name: "Initial Open", Variant: "international", System: director.RoundRobin, Rounds: 5})
	if err != nil {
		t.Fatal(err)
	}
	ps := []director.Player{{Name: "Nina New"}}
	for _, r := range []int{1900, 2000, 2100, 1950, 2050} {
		ps = append(ps, director.Player{Name: fmt.Sprintf("Rated %d", r), Rating: r})
	}
	if _, err := e.store.AddPlayers(ctx, ev.ID, ps); err != nil {
		t.Fatal(err)
	}
	nina := map[int]tally.Result{1900: tally.Win, 2000: tally.Win, 2100: tally.Loss, 1950: tally.Draw, 2050: tally.Draw}
	flip := map[tally.Result]tally.Result{tally.Win: tally.Loss, tally.Loss: tally.Win, tally.Draw: tally.Draw}
	for n := 1; n <= 5; n++ {
		if err := e.store.PairRound(ctx, ev.ID, n, nil); err != nil {
			t.Fatal(err)
		}
		if err := e.store.Publish(ctx, ev.ID, n); err != nil {
			t.Fatal(err)
		}
		sn, err := e.store.Get(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range sn.Rounds[n-1].Boards {
			w, bl := sn.Player(b.White), sn.Player(b.Black)
			res := [2]tally.Result{tally.Draw, tally.Draw}
			if w.Rating == 0 {
				res = [2]tally.Result{nina[bl.Rating], flip[nina[bl.Rating]]}
			} else if bl.Rating == 0 {
				res = [2]tally.Result{flip[nina[w.Rating]], nina[w.Rating]}
			}
			if _, err := e.store.Record(ctx, ev.ID, n, b.Board, res, "director"); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.store.CloseRound(ctx, ev.ID, n); err != nil {
			t.Fatal(err)
		}
	}

	d := newPage(t, "director")
	d.do("open the director's page", chromedp.Navigate(e.hs.URL+"/d/"+token))
	d.wait("the initial rating", `document.querySelector('#initial li') && !document.getElementById('initial-title').hidden`)
	if got := text(d, "#initial li"); got != "Nina New: initial rating 1993 after 5 games" {
		t.Errorf("the director's page says %q", got)
	}
	d.shot("director-initial-390", 390, 844, "#ratings-box")
	d.shot("director-initial-1366", 1366, 900, "#ratings-box")
	// The director's standings print the direct encounter as the public
	// ones do (below): a dash where Sonneborn-Berger decided already.
	if got := eval[string](d, `[...document.querySelectorAll('#standings tbody tr')].map(r => r.children[4].textContent).join(',')`); got != "–,–,1,1,1,1" {
		t.Errorf("the director's direct-encounter column reads %q, want –,–,1,1,1,1", got)
	}
	d.shot("director-standings-rr-390", 390, 844, "#standings-box")
	d.shot("director-standings-rr-1366", 1366, 900, "#standings-box")

	pub := newPage(t, "public")
	pub.do("open the standings", chromedp.Navigate(e.hs.URL+"/e/"+ev.ID+"/standings"))
	pub.wait("the standings", `document.querySelector('table.standings tbody tr')`)
	if got := eval[string](pub, `[...document.querySelectorAll('table.standings tbody tr')].find(r => r.textContent.includes('Nina New')).querySelector('.initial').textContent`); got != "(initial rating 1993 after 5 games)" {
		t.Errorf("the standings say %q", got)
	}
	if n := eval[int](pub, `document.querySelectorAll('table.standings .initial').length`); n != 1 {
		t.Errorf("%d initial ratings on the standings, want Nina New's only", n)
	}
	// The direct encounter shows where it breaks a tie: 1 and 6 are
	// separated by Sonneborn-Berger already (a dash), the pairs level on
	// points and SB drew each other (1 each: equal, C.07 6).
	if got := eval[string](pub, `(() => { const i = [...document.querySelectorAll('table.standings thead th')].findIndex(th => th.textContent.trim() === 'DE');
		return [...document.querySelectorAll('table.standings tbody tr')].map(r => r.children[i].textContent.trim()).join(','); })()`); got != "–,–,1,1,1,1" {
		t.Errorf("the standings' direct-encounter column reads %q, want –,–,1,1,1,1", got)
	}
	pub.shot("standings-initial-390", 390, 844, "")
	pub.shot("standings-initial-1366", 1366, 900, "")
	pub.do("open the cards", chromedp.Navigate(e.hs.URL+"/e/"+ev.ID+"/cards"))
	pub.wait("the cards", `document.querySelector('section.card')`)
	if got := eval[string](pub, `(() => { const c = [...document.querySelectorAll('section.card')].find(s => s.querySelector('h3').textContent.includes('Nina New')); c.scrollIntoView(); const i = c.querySelector('.initial'); return i ? i.textContent : ''; })()`); got != "initial rating 1993 after 5 games" {
		t.Errorf("Nina New's card says %q", got)
	}
	pub.shot("cards-initial-390", 390, 844, "section.card:last-of-type")
	pub.shot("cards-initial-1366", 1366, 900, "section.card:last-of-type")
	pub.do("the standings in Dutch", chromedp.Navigate(e.hs.URL+"/e/"+ev.ID+"/standings?lang=nl"))
	pub.wait("the Dutch standings", `document.documentElement.lang === 'nl' && document.querySelector('table.standings .initial')`)
	if got := text(pub, "table.standings .initial"); got != "(eerste rating 1993 na 5 partijen)" {
		t.Errorf("the Dutch standings say %q", got)
	}
}
