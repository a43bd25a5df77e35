package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserRussian plays the opening of an international game in
// Russian as two players would: each picks Русский in the language
// switcher, the board's buttons, the turn line and the referee's messages
// (a move, a draw offer) are in Russian with lang="ru", and the page fits
// a phone's and a desktop's width (screenshots game-ru-390 and -1366).
func TestBrowserRussian(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"international","white":"Анна","black":"Борис"}`)
	white, black := newPage(t, "white-ru"), newPage(t, "black-ru")
	for _, p := range []*page{white, black} {
		p.open(g.links[strings.TrimSuffix(p.name, "-ru")])
		p.do("choose Русский", chromedp.SetValue(chromedp.CSS("#lang"), "ru"))
		eval[bool](p, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
		p.wait("the page speaks Russian", `document.documentElement.lang === 'ru' && document.getElementById('resign').textContent === 'Сдаться'`)
	}
	white.wait("White is told to move", `document.getElementById('turn').textContent.startsWith('Ваш ход: начинают Белые; вариант: Международные шашки')`)
	// The side to move named, the variant alone follows (it said "Ходят
	// Белые: начинают Белые; ...", the side twice).
	black.wait("Black sees whose move it is", `document.getElementById('turn').textContent === 'Ходят Белые: Международные шашки 10×10 (ФМЖД)'`)

	white.click("32")
	white.click("28")
	white.waitMoves(1)
	black.wait("Black's move", `document.getElementById('turn').textContent === 'Ваш ход'`)

	// A referee message reaches the other player in Russian.
	black.do("offer a draw", chromedp.Click(chromedp.CSS("#offer")))
	white.wait("the offer is shown", `!document.getElementById('offer-got').hidden && document.querySelector('#log li[data-code="offer.made"]')`)
	if got := white.logText("offer"); !strings.Contains(got, "Чёрные предлагают ничью.") {
		t.Errorf("the draw offer reads %q, want Чёрные предлагают ничью.", got)
	}
	if got := eval[string](white, `document.getElementById('accept').textContent`); got != "Принять" {
		t.Errorf("the accept button reads %q, want Принять", got)
	}
	// The choice is remembered across a reload.
	white.open(g.links["white"])
	white.wait("Russian is remembered", `document.documentElement.lang === 'ru' && document.getElementById('lang').value === 'ru' && document.getElementById('resign').textContent === 'Сдаться'`)
	white.checkLayout("game-ru-390", 390, 844)
	white.checkLayout("game-ru-1366", 1366, 900)
}

// TestBrowserSheetsRussian opens the public standings and crosstable in
// Russian (?lang=ru): Cyrillic headings and columns, lang="ru", and each
// sheet fits 390 px and 1366 px (screenshots sheet-ru-*).
func TestBrowserSheetsRussian(t *testing.T) {
	browserTest(t)
	e, id := sheetEventEnv(t)
	p := newPage(t, "sheets-ru")
	for _, c := range []struct{ path, shot, heading, firstCol string }{
		{"/standings?lang=ru", "sheet-ru-standings", "Положение после тура 1", "Место"},
		{"/crosstable?lang=ru", "sheet-ru-crosstable", "Кросс-таблица", ""},
	} {
		p.do("open "+c.path, chromedp.Navigate(e.hs.URL+"/e/"+id+c.path))
		p.wait(c.shot+" in Russian", `document.documentElement && document.documentElement.lang === 'ru' && document.querySelector('h2') && document.querySelector('h2').textContent.startsWith('`+c.heading+`')`)
		if c.firstCol != "" {
			if got := eval[string](p, `document.querySelector('table.standings th').textContent`); got != c.firstCol {
				t.Errorf("%s: the first column is %q, want %q", c.path, got, c.firstCol)
			}
		}
		p.checkLayout(c.shot+"-390", 390, 844)
		p.checkLayout(c.shot+"-1366", 1366, 900)
	}
}
