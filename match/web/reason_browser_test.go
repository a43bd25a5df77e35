package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserIllegalMoveReason: under the WCDF's policy Black, who must
// take 15x22, types 9-13 twice and loses by the second illegal move.
// Black's page, in English, and White's, in Russian, say after the result
// why as a sentence of its own: "… (illegal move). Black played 9-13: …
// (second illegal move in the game)." (it read "black played 9-13: …",
// lower case and without a full stop), and so does the record, after the
// first move's warning.
func TestBrowserIllegalMoveReason(t *testing.T) {
	needBrowser(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"english","time_control":"300+3","policy":"wcdf","fen":"B:W18,21,30:B15,9,1","white":"Ann","black":"Bob"}`)
	white, black := newPage(t, "white"), newPage(t, "black")
	browserSpeaks(white, "ru-RU")
	white.open(g.links["white"])
	black.open(g.links["black"])
	for i := 1; i <= 2; i++ {
		black.wait("Black may type a move", `!document.getElementById('pdn-form').hidden && !arbiterGame.sending`)
		black.do("type 9-13", chromedp.SendKeys(chromedp.CSS("#pdn-input"), "9-13"+kb.Enter))
		black.wait(fmt.Sprintf("the referee's word on illegal move %d", i), fmt.Sprintf(`arbiterGame.messages.filter(m => m.type === 'warning' || m.type === 'result').length === %d`, i))
	}
	cases := []struct {
		p          *page
		start, end string
	}{
		{black, "Game over: 1-0 (illegal move). Black played 9-13: ", " (second illegal move in the game)."},
		{white, "Партия окончена: 1-0 (", "). Black played 9-13: "},
	}
	for _, tc := range cases {
		tc.p.wait("the result", `!document.getElementById('banner').hidden`)
		why := eval[string](tc.p, `document.querySelector('#banner .reason').textContent`)
		if !strings.Contains(why, tc.start) || !strings.Contains(why, tc.end) {
			t.Errorf("%s's page says %q; want it to have %q and %q", tc.p.name, why, tc.start, tc.end)
		}
	}
	black.shot("illegal-reason-390", 390, 844, "#banner")
	black.shot("illegal-reason-1366", 1366, 900, "")
	white.shot("illegal-reason-ru-390", 390, 844, "#banner")
	record := eval[string](black, `fetch(document.getElementById('pdn-link').href).then(r => r.text())`)
	if flat := strings.Join(strings.Fields(record), " "); !strings.Contains(flat, ". Black played 9-13: ") || !strings.Contains(flat, "(second illegal move in the game).}") {
		t.Errorf("the record's last note:\n%s", record)
	}
}
