package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserIllegalMoveReason: Black, who must take 15x22, types 9-13
// and loses by it: under the WCDF's policy the second time, under the
// strict policy the first. Black's page, in English, and White's, in
// Russian or French, say after the result who played what, why it is
// illegal and why that loses, as sentences in the page's language (they
// said "Game over: 1-0 (illegal move). black played 9-13: capturing is
// compulsory: …", the reason in English with a lower-case colour, and
// without a full stop). The record's note says it in English, as a
// sentence: "… Black played 9-13: … (second illegal move in the game).".
func TestBrowserIllegalMoveReason(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	cases := []struct {
		policy, locale string
		tries          int
		black, white   string // what each page says after the result
		note           string
	}{
		{"wcdf", "ru-RU", 2,
			"Black played 9-13, which is illegal: capturing is compulsory: 15 can capture (15x22) (WCDF rules,\u00a01.20). A second illegal move loses. 1-0",
			"Чёрные сделали ход 9-13, но он неправильный: бить обязательно; бить могут: 15 (15x22) (правила WCDF, п.\u00a01.20). Второй неправильный ход — поражение. 1-0",
			". Black played 9-13: capturing is compulsory: 15 can capture (15x22) (WCDF rules, 1.20) (second illegal move in the game).}"},
		{"strict", "fr-FR", 1,
			"Black played 9-13, which is illegal: capturing is compulsory: 15 can capture (15x22) (WCDF rules,\u00a01.20). Under the strict policy an illegal move loses. 1-0",
			"",
			"{Black played 9-13: capturing is compulsory: 15 can capture (15x22) (WCDF rules, 1.20) (strict policy).}"},
	}
	for _, tc := range cases {
		t.Run(tc.policy, func(t *testing.T) {
			g := e.create(`{"variant":"english","time_control":"300+3","policy":"` + tc.policy + `","fen":"B:W18,21,30:B15,9,1","white":"Ann","black":"Bob"}`)
			white, black := newPage(t, "white"), newPage(t, "black")
			browserSpeaks(white, tc.locale)
			white.open(g.links["white"])
			black.open(g.links["black"])
			for i := 1; i <= tc.tries; i++ {
				black.wait("Black may type a move", `!document.getElementById('pdn-form').hidden && !arbiterGame.sending`)
				black.do("type 9-13", chromedp.SendKeys(chromedp.CSS("#pdn-input"), "9-13"+kb.Enter))
				black.wait(fmt.Sprintf("the referee's word on illegal move %d", i), fmt.Sprintf(`arbiterGame.messages.filter(m => m.type === 'warning' || m.type === 'result').length === %d`, i))
			}
			for _, p := range []*page{black, white} {
				p.wait("the result", `!document.getElementById('banner').hidden`)
				why := eval[string](p, `document.querySelector('#banner .reason').textContent`)
				want := tc.black
				if p == white {
					want = tc.white
				}
				if want == "" { // said in the page's language, checked by its start
					want = why
					if !strings.HasPrefix(why, "Les Noirs ont joué 9-13, qui est irrégulier : ") || !strings.HasSuffix(why, "Selon la règle stricte, un coup irrégulier perd. 1-0") {
						want = "Les Noirs ont joué 9-13, qui est irrégulier : … Selon la règle stricte, un coup irrégulier perd. 1-0"
					}
				}
				if why != want {
					t.Errorf("%s's page says\n%q, want\n%q", p.name, why, want)
				}
			}
			black.shot("illegal-reason-"+tc.policy+"-390", 390, 844, "#banner")
			black.shot("illegal-reason-"+tc.policy+"-1366", 1366, 900, "")
			white.shot("illegal-reason-"+tc.policy+"-"+tc.locale+"-390", 390, 844, "#banner")
			white.shot("illegal-reason-"+tc.policy+"-"+tc.locale+"-1366", 1366, 900, "")
			record := eval[string](black, `fetch(document.getElementById('pdn-link').href).then(r => r.text())`)
			if flat := strings.Join(strings.Fields(record), " "); !strings.Contains(flat, tc.note) {
				t.Errorf("the record does not say %q:\n%s", tc.note, record)
			}
		})
	}
}
