package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// TestBrowserDirectorForfeitLabelsInLanguage: a director who reads Russian
// enters round 1's results. The result menu's forfeits and the result of a
// board won by forfeit read in Russian ("2-0 без игры"); they read "2-0 by
// forfeit", the server's English, on a page otherwise in Russian. Switched
// to French on the page, they follow ("2-0 par forfait").
func TestBrowserDirectorForfeitLabelsInLanguage(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	ctx := context.Background()
	ev, token, err := e.store.Create(ctx, director.Event{Name: "Открытый турнир", Variant: "international", System: director.Swiss, Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	var ps []director.Player
	for i, n := range []string{"Анна", "Борис", "Вера", "Глеб"} {
		ps = append(ps, director.Player{Name: n, Rating: 2000 - 10*i})
	}
	if _, err := e.store.AddPlayers(ctx, ev.ID, ps); err != nil {
		t.Fatal(err)
	}
	if err := e.store.PairRound(ctx, ev.ID, 1, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.store.Publish(ctx, ev.ID, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.Record(ctx, ev.ID, 1, 1, [2]tally.Result{tally.ForfeitWin, tally.ForfeitLoss}, "director"); err != nil {
		t.Fatal(err)
	}
	d := newPage(t, "director-forfeit-ru")
	d.do("open the director's page", chromedp.Navigate(e.hs.URL+"/d/"+token))
	d.wait("the page", `window.arbiterDirector && arbiterDirector.ready`)
	eval[bool](d, `(localStorage.setItem('arbiter.lang', 'ru'), true)`)
	d.do("reload in Russian", chromedp.Navigate(e.hs.URL+"/d/"+token))
	d.wait("the page in Russian", `document.documentElement.lang === 'ru' && window.arbiterDirector && arbiterDirector.ready && document.getElementById('r1b2-result')`)
	menu := `[...document.querySelectorAll('#r1b2-result option')].map(o => o.textContent).join(' | ')`
	if got := eval[string](d, menu); !strings.Contains(got, "2-0 без игры") || strings.Contains(got, "forfeit") {
		t.Errorf("board 2's result menu in Russian reads %q", got)
	}
	if got := eval[string](d, `document.getElementById('r1b1-result').selectedOptions[0].textContent`); got != "2-0 без игры" {
		t.Errorf("board 1's result, won by forfeit, reads %q in Russian", got)
	}
	d.shot("director-forfeit-ru-390", 390, 844, "#round-box")
	d.do("switch to French", chromedp.SetValue(chromedp.CSS("#lang"), "fr"))
	eval[bool](d, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	d.wait("the menu in French", `document.documentElement.lang === 'fr' && [...document.querySelectorAll('#r1b2-result option')].some(o => o.textContent === '2-0 par forfait')`)
}
