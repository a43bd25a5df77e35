package reports

import (
	"strings"
	"testing"
	"time"
)

// TestTimeChartsUseFittingUnit: games of a few milliseconds a move are
// charted in ms (never "0.000 s"), slow ones in seconds.
func TestTimeChartsUseFittingUnit(t *testing.T) {
	for _, tc := range []struct {
		move time.Duration
		unit string
		want string // a value the time-per-move chart must hold
	}{
		{3 * time.Millisecond, `"name":"ms"`, `3`},
		{2500 * time.Millisecond, `"name":"s"`, `2.5`},
	} {
		ev := Event{}
		for i := range 4 {
			g := Game{Round: 1, Board: i + 1, Pair: i/2 + 1, White: "a", Black: "b", Result: "1-0", Plies: 10, Opening: "o" + string(rune('1'+i/2))}
			if i%2 == 1 {
				g.White, g.Black = "b", "a"
			}
			for range 10 {
				g.MoveTimes = append(g.MoveTimes, tc.move)
			}
			ev.Games = append(ev.Games, g)
		}
		st, err := Compute(ev)
		if err != nil {
			t.Fatal(err)
		}
		cd, err := aggregate(ev, st)
		if err != nil {
			t.Fatal(err)
		}
		specs, err := buildCharts(st, cd)
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]bool{}
		for _, s := range specs {
			found[s.ID] = !s.Skipped
			switch s.ID {
			case "chart-time-move", "chart-time-spread":
				js := string(s.Option)
				if !strings.Contains(js, tc.unit) || !strings.Contains(js, tc.want) {
					t.Errorf("%v a move: %s lacks %s or the value %s: %s", tc.move, s.ID, tc.unit, tc.want, js)
				}
				if strings.Contains(s.Note, "0.000") {
					t.Errorf("%s note %q", s.ID, s.Note)
				}
			case "chart-openings":
				// Two openings, each a pair won by White both times: decided by colour.
				if !strings.Contains(string(s.Option), "2 of 2 pairs decided by colour") && !strings.Contains(string(s.Option), "1 of 1 pairs decided by colour") {
					t.Errorf("opening chart does not count the colour-decided pairs: %s", s.Option)
				}
			}
		}
		if !found["chart-openings"] || !found["chart-time-move"] {
			t.Errorf("charts drawn: %v", found)
		}
	}
}
