package web

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserCitationKeepsNumber: Black, who must take 15x22, types 9-13
// and reads the referee's warning at phone width in each of the six
// languages. Its citation of the WCDF rule keeps its number with its
// label: a non-breaking space between them ("п. 1.20", "WCDF rules, 1.20")
// and a non-breaking hyphen in "WCDF-spelregels", so the line never breaks
// inside, and the rendered span stands on one line. At 390 px the Russian
// warning broke "п." / "1.20" and the Dutch "WCDF-" / "spelregels".
func TestBrowserCitationKeepsNumber(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	cases := []struct {
		locale string
		span   string // label and number, which must not break
	}{
		{"en-GB", "rules,\u00a01.20"},
		{"fr-FR", "WCDF,\u00a01.20"},
		{"nl-NL", "WCDF\u2011spelregels,\u00a01.20"},
		{"da-DK", "WCDF\u2011reglerne,\u00a01.20"},
		{"nb-NO", "WCDF\u2011reglene,\u00a01.20"},
		{"ru-RU", "п.\u00a01.20"},
	}
	for _, tc := range cases {
		t.Run(tc.locale, func(t *testing.T) {
			g := e.create(`{"variant":"english","time_control":"300+3","policy":"wcdf","fen":"B:W18,21,30:B15,9,1","white":"Ann","black":"Bob"}`)
			black := newPage(t, "black")
			browserSpeaks(black, tc.locale)
			black.do("viewport", chromedp.EmulateViewport(390, 844))
			black.open(g.links["black"])
			black.wait("Black may type a move", `!document.getElementById('pdn-form').hidden && !arbiterGame.sending`)
			black.do("type 9-13", chromedp.SendKeys(chromedp.CSS("#pdn-input"), "9-13"+kb.Enter))
			black.wait("the referee's warning", `document.querySelector('#log li[data-type="warning"]') !== null`)
			warning := black.logText("warning")
			if !strings.Contains(warning, tc.span) {
				t.Fatalf("the warning's citation may break between its label and number (%q); it reads\n%q", tc.span, warning)
			}
			// Where the span is laid out: its line boxes' tops, one when it
			// stands on one line.
			lines := eval[float64](black, `(() => {
				const li = document.querySelector('#log li[data-type="warning"]');
				li.scrollIntoView();
				const walk = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
				for (let n = walk.nextNode(); n; n = walk.nextNode()) {
					const i = n.data.indexOf(`+jsString(tc.span)+`);
					if (i < 0) continue;
					const r = document.createRange();
					r.setStart(n, i);
					r.setEnd(n, i + `+strconv.Itoa(len([]rune(tc.span)))+`);
					return new Set(Array.from(r.getClientRects()).map(c => Math.round(c.top))).size;
				}
				return -1;
			})()`)
			if lines != 1 {
				t.Errorf("the citation %q stands on %v lines at 390 px", tc.span, lines)
			}
			black.shot("citation-"+tc.locale+"-390", 390, 844, `#log li[data-type="warning"]`)
			black.shot("citation-"+tc.locale+"-1366", 1366, 900, "")
		})
	}
}
