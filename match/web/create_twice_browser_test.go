package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserCreateOncePerPress follows a creator who presses "Create the
// game" and, the links shown, presses it again to be sure (or taps twice
// on a phone): the second press made a second game and put its links in
// place of the first's, which the creator may already have sent, and
// "Open White's board" then opened the other game. The button now says
// the game is made and waits for a change to the form; after one it
// makes another game, and says so. Dutch, at 390 px.
func TestBrowserCreateOncePerPress(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	p := newPage(t, "creator")
	p.do("open the create page", chromedp.Navigate(e.hs.URL+"/"))
	eval[bool](p, `(localStorage.setItem('arbiter.lang', 'nl'), true)`)
	p.do("reload in Dutch", chromedp.Reload())
	p.wait("the create page in Dutch", `document.documentElement.lang === 'nl' && document.querySelector('#variant option[value="international"]')`)
	p.do("the names", chromedp.SendKeys(chromedp.CSS("#white"), "Anna"), chromedp.SendKeys(chromedp.CSS("#black"), "Bram"))
	p.do("create", chromedp.Click(chromedp.CSS("#create-button")))
	p.wait("the links", `!document.getElementById('links').hidden && document.getElementById('create-button').disabled`)
	first := eval[string](p, `document.getElementById('link-black').value`)
	if got := p.text("create-button"); !strings.Contains(got, "Partij aangemaakt") {
		t.Errorf("the button reads %q once the game is made", got)
	}
	p.shot("create-made-390", 390, 844, "#create-button")
	p.do("press again", chromedp.Click(chromedp.CSS("#create-button")))
	// A press on a disabled button sends nothing: the page's links and the
	// server's games are the first game's.
	if got := eval[string](p, `document.getElementById('link-black').value`); got != first {
		t.Errorf("a second press replaced Black's link %q with %q", first, got)
	}
	if n := len(e.hall.Games()); n != 1 {
		t.Errorf("%d games on the server after two presses, want 1", n)
	}
	p.do("change the opponent's name", chromedp.SendKeys(chromedp.CSS("#black"), "s"))
	p.wait("the button for another game", `!document.getElementById('create-button').disabled`)
	if got := p.text("create-button"); got != "Nog een partij aanmaken" {
		t.Errorf("after a change the button reads %q, want %q", got, "Nog een partij aanmaken")
	}
	p.do("create another", chromedp.Click(chromedp.CSS("#create-button")))
	p.wait("the second game's links", `document.getElementById('link-black').value !== `+jsString(first)+` && document.getElementById('create-button').disabled`)
	if n := len(e.hall.Games()); n != 2 {
		t.Errorf("%d games on the server after another game, want 2", n)
	}
	p.shot("create-another-1366", 1366, 900, "#links")
}
