package reports

import (
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// TestEloWords: the sentence under the Elo line says why a figure is
// missing, and nothing when both exist.
func TestEloWords(t *testing.T) {
	for _, c := range []struct {
		name  string
		w     stats.WDL
		penta stats.Penta
		want  string // a part of the sentence; "" for none
	}{
		{"no game", stats.WDL{}, stats.Penta{}, "No game finished yet"},
		{"every game won", stats.WDL{W: 4}, stats.Penta{0, 0, 0, 0, 2}, "won every game (4 of 4)"},
		{"every game lost", stats.WDL{L: 4}, stats.Penta{2, 0, 0, 0, 0}, "lost every game (4 of 4)"},
		{"one pair", stats.WDL{W: 1, L: 1}, stats.Penta{0, 0, 1, 0, 0}, "too few games (1 game pair)"},
		{"enough games", stats.WDL{W: 5, D: 6, L: 3}, stats.Penta{0, 1, 3, 2, 1}, ""},
	} {
		e := stats.EloWDL(c.w)
		if c.penta.Pairs() > 0 {
			e = stats.EloPenta(c.penta)
		}
		got := EloWords("A", e, c.w, c.penta.Pairs())
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want it to say %q", c.name, got, c.want)
		}
	}
}
