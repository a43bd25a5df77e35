package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserRefereeListLanguages: an international game from W:W31,33,35,
// 45:B27,28,29,30, the opponent deciding on an illegal move. Anna, White,
// reads Russian; Bram, Black, Dutch. Anna moves 45-40 while 31, 33 and 35
// can capture: the referee's explanation names the three pieces, joined
// in each reader's language ("31, 33 и 35", "31, 33 en 35"), not with the
// English "and" the referee writes (arbiter.ListSuffix carries the items),
// and cites the rule's article of the FMJD rules in each reader's words
// ("правила ФМЖД, ст. 4.2, 4.3", "FMJD-spelregels, art. 4.2, 4.3").
// Screenshots of both pages at 390 and 1366 px.
func TestBrowserRefereeListLanguages(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"international","fen":"W:W31,33,35,45:B27,28,29,30","policy":"opponent-decides","white":"Anna","black":"Bram"}`)
	white, black := newPage(t, "white"), newPage(t, "black")
	for _, c := range []struct {
		p          *page
		lang, word string
	}{{white, "ru", "Сдаться"}, {black, "nl", "Opgeven"}} {
		c.p.open(g.links[c.p.name])
		c.p.do("choose "+c.lang, chromedp.SetValue(chromedp.CSS("#lang"), c.lang))
		eval[bool](c.p, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
		c.p.wait("the page speaks "+c.lang, `document.documentElement.lang === '`+c.lang+`' && document.getElementById('resign').textContent === '`+c.word+`'`)
	}
	white.click("45")
	white.click("40")
	black.wait("Bram is asked", `!document.getElementById('decide').hidden && document.getElementById('decide-text').textContent.includes('45-40')`)
	if got := eval[string](black, `document.getElementById('decide-text').textContent`); !strings.Contains(got, "slaan is verplicht; slaan kan met 31, 33 en 35 (") || strings.Contains(got, " and ") ||
		!strings.Contains(got, ") (FMJD\u2011spelregels, art.\u00a04.2, 4.3)") {
		t.Errorf("Bram (Dutch) reads %q", got)
	}
	white.wait("Anna's log has it", `document.querySelector('#log li[data-type="illegal"]')`)
	if got := white.logText("illegal"); !strings.Contains(got, "бить обязательно; бить могут: 31, 33 и 35 (") || strings.Contains(got, " and ") ||
		!strings.Contains(got, ") (правила ФМЖД, ст.\u00a04.2, 4.3)") || strings.Contains(got, "FMJD") {
		t.Errorf("Anna (Russian) reads %q", got)
	}
	black.checkLayout("list-nl-390", 390, 844)
	black.checkLayout("list-nl-1366", 1366, 900)
	white.checkLayout("list-ru-390", 390, 844)
	white.checkLayout("list-ru-1366", 1366, 900)
}
