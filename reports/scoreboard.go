package reports

import (
	"github.com/draughts-arbiter/arbiter/reports/stats"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Scoreboard is the one count of an event's games between its engines, from
// which the standings are ranked: each engine's results against each other
// one, and its games without a score. The runner adds results one at a
// time for its live table; Compute adds an event's whole record.
type Scoreboard struct {
	// Cells[i][j] are engine i's results against engine j.
	Cells [][]stats.WDL
	// Unfinished[i] counts engine i's games without a score ("*", "0-0").
	Unfinished []int
}

// NewScoreboard is the tally of n engines before any game.
func NewScoreboard(n int) *Scoreboard {
	t := &Scoreboard{Cells: make([][]stats.WDL, n), Unfinished: make([]int, n)}
	for i := range t.Cells {
		t.Cells[i] = make([]stats.WDL, n)
	}
	return t
}

// Add counts a game of white against black (engine indices) that ended in
// o; a game without a score counts as unfinished for both.
func (t *Scoreboard) Add(white, black int, o rules.Outcome) {
	if !o.Scored() {
		t.Unfinished[white]++
		t.Unfinished[black]++
		return
	}
	r := wdlOf(o)
	t.Cells[white][black] = t.Cells[white][black].Add(r)
	t.Cells[black][white] = t.Cells[black][white].Add(r.Flip())
}

// WDL is engine i's results against everyone.
func (t *Scoreboard) WDL(i int) stats.WDL {
	var sum stats.WDL
	for _, c := range t.Cells[i] {
		sum = sum.Add(c)
	}
	return sum
}

// Rank ranks the engines as Rank does: order[r] is the engine in place r
// and rank[r] its rank; sb[i] is engine i's Sonneborn-Berger.
func (t *Scoreboard) Rank() (order, rank []int, sb []float64) {
	n := len(t.Cells)
	points := make([]float64, n)
	wins, games := make([]int, n), make([]int, n)
	for i := range n {
		w := t.WDL(i)
		points[i], wins[i], games[i] = w.Points(), w.W, w.Games()
	}
	sb = SonnebornBerger(t.Cells, points)
	keys := make([]RankKey, n)
	for i := range keys {
		keys[i] = RankKey{Points: points[i], SonnebornBerger: sb[i], Wins: wins[i], Games: games[i]}
	}
	order, rank = Rank(keys)
	return order, rank, sb
}
