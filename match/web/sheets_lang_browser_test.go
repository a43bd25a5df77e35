package web

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserSheetsNorwegian opens the public sheets in Norwegian (?lang=nb)
// in headless Chromium: the crosstable and the pairing sheet speak bokmål
// with lang="nb", the navigation keeps the language from sheet to sheet,
// and each fits a phone's and a desktop's width (screenshots
// sheet-nb-*-360 and -1400, as TestBrowserDirector takes them).
func TestBrowserSheetsNorwegian(t *testing.T) {
	browserTest(t)
	e, id := sheetEventEnv(t)
	p := newPage(t, "sheets-nb")
	for _, c := range []struct{ path, shot, heading string }{
		{"/crosstable?lang=nb", "sheet-nb-crosstable", "Krysstabell"},
		{"/round/1?lang=nb", "sheet-nb-pairings", "Paring, runde 1"},
	} {
		p.do("open "+c.path, chromedp.Navigate(e.hs.URL+"/e/"+id+c.path))
		p.wait(c.shot+" in Norwegian", `document.documentElement && document.documentElement.lang === 'nb' && document.querySelector('h2') && document.querySelector('h2').textContent.startsWith('`+c.heading+`')`)
		p.checkLayout(c.shot+"-360", 360, 800)
		p.checkLayout(c.shot+"-1400", 1400, 900)
	}
	// The navigation's Stilling leads to the standings, still in Norwegian.
	p.do("follow Stilling", chromedp.Click(chromedp.CSS(`nav a[href$="/standings?lang=nb"]`)))
	p.wait("the standings in Norwegian", `location.pathname.endsWith('/standings') && document.documentElement && document.documentElement.lang === 'nb' && document.querySelector('h2') && document.querySelector('h2').textContent.startsWith('Stilling etter runde 1')`)
	if got := eval[string](p, `document.querySelector('table.standings th').textContent`); got != "Plass" {
		t.Errorf("the standings' first column is %q, want Plass", got)
	}
	p.checkLayout("sheet-nb-standings-360", 360, 800)
	p.checkLayout("sheet-nb-standings-1400", 1400, 900)
}
