package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/draughts-arbiter/arbiter/match/people/director"
)

// TestBrowserDirectorRussian: a director who reads Russian opens a Swiss
// event with round 1 published. The "players who must not meet" part is
// in Russian (it was left in English), and a second publication of round
// 1, refused by the server with the round's state as an English word
// ("published"), reads "Тур 1 уже в состоянии: опубликован." once the
// page's catalog translates the value. Screenshots at 390 and 1366 px.
func TestBrowserDirectorRussian(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	ctx := context.Background()
	ev, token, err := e.store.Create(ctx, director.Event{Name: "Открытый турнир", Variant: "russian", System: director.Swiss, Rounds: 3})
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
	d := newPage(t, "director-ru")
	d.do("open the director's page", chromedp.Navigate(e.hs.URL+"/d/"+token))
	d.wait("the page", `window.arbiterDirector && arbiterDirector.ready`)
	eval[bool](d, `(localStorage.setItem('arbiter.lang', 'ru'), true)`)
	d.do("reload in Russian", chromedp.Navigate(e.hs.URL+"/d/"+token))
	d.wait("the page in Russian", `document.documentElement.lang === 'ru' && window.arbiterDirector && arbiterDirector.ready && !document.getElementById('apart-box').hidden`)
	if got := text(d, "#apart-box h2"); got != "Участники, которые не должны встречаться" {
		t.Errorf("the keep-apart heading reads %q", got)
	}
	if got := text(d, "#apart-box"); strings.Contains(got, "players") || strings.Contains(got, "apart") {
		t.Errorf("English left in the keep-apart part: %q", got)
	}
	got := eval[string](d, `fetch('/api/d/`+token+`/publish', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({round: 1})})
		.then(r => r.json()).then(b => import('/assets/i18n.js').then(m => m.msg(b.error)))`)
	if got != "Тур 1 уже в состоянии: опубликован." {
		t.Errorf("the refusal reads %q", got)
	}
	d.shot("director-ru-390", 390, 844, "#apart-box")
	d.shot("director-ru-1366", 1366, 900, "#apart-box")
}
