package web

import (
	"fmt"
	"testing"
)

// TestBrowserRefereeInView: what the referee says or asks is in view on a
// phone (390x844) and beside the board on a desktop (1366x900), and the
// board keeps its size: a warning for an illegal move (on the phone it
// was below the fold, its first line cut), and the decision asked of
// Black after White's illegal move, with its buttons (they were two
// screens down, below the referee's words said twice).
func TestBrowserRefereeInView(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	cases := []struct {
		name, setup, move, role, shows string
	}{
		// Black must take 15x22 and plays 9-13.
		{"warning", `{"variant":"english","time_control":"300+3","policy":"wcdf","fen":"B:W18,21,30:B15,9,1"}`, `{"kind":"move","move":"9-13"}`, "black", "#speech"},
		// White's 32x23 takes one piece where 45x12 takes three.
		{"decision", `{"variant":"international","time_control":"600+5","policy":"opponent-decides","fen":"W:W32,33,45:B28,18,29,40,5"}`, `{"kind":"move","move":"32x23","path":["32","23"]}`, "white", "#decide"},
	}
	sizes := [][2]int64{{390, 844}, {1366, 900}}
	boardWidth := `document.getElementById('board').getBoundingClientRect().width`
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := e.create(tc.setup)
			black := newPage(t, "black")
			black.open(g.links["black"])
			var before []float64
			for _, s := range sizes {
				black.shot(fmt.Sprintf("referee-%s-before-%d", tc.name, s[0]), s[0], s[1], "")
				before = append(before, eval[float64](black, boardWidth))
			}
			if code, body := e.act(g.tokens[tc.role], tc.move); code != 200 {
				t.Fatalf("%s: %d %s", tc.move, code, body)
			}
			black.wait("the referee speaks", `!document.querySelector('`+tc.shows+`').hidden`)
			for i, s := range sizes {
				black.shot(fmt.Sprintf("referee-%s-%d", tc.name, s[0]), s[0], s[1], "")
				r := eval[[]float64](black, `(r => [r.top, r.bottom, innerHeight])(document.querySelector('`+tc.shows+`').getBoundingClientRect())`)
				if r[0] < 0 || r[1] > r[2] {
					t.Errorf("at %dx%d the referee's %s is at %v-%v px of %v: out of view", s[0], s[1], tc.shows, r[0], r[1], r[2])
				}
				if w := eval[float64](black, boardWidth); w != before[i] {
					t.Errorf("at %dx%d the board is %v px wide with the referee's words, %v before", s[0], s[1], w, before[i])
				}
			}
			if tc.name == "decision" && !eval[bool](black, `document.getElementById('speech').hidden`) {
				t.Error("the decision's words are said twice: in the referee's speech and in the decision's box")
			}
		})
	}
}
