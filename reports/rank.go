package reports

import (
	"cmp"
	"slices"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// RankKey is what the ranking of an event reads of an engine.
type RankKey struct {
	Points, SonnebornBerger float64
	Wins, Games             int
}

// score is the points a game played (0 for none).
func (k RankKey) score() float64 {
	if k.Games == 0 {
		return 0
	}
	return k.Points / float64(k.Games)
}

// Rank is the one ranking of engines, for the report and the live
// standings alike: best first by score (points a game played: the same
// order as points when every engine played as many games, as in a whole
// round-robin; the fair one when they did not, as in a gauntlet, where the
// first engine plays everyone, or an event stopped midway), then points,
// then Sonneborn-Berger, then wins; engines equal in all four keep their
// given (seeding) order. order[r] is the index in keys of the engine in
// place r, rank[r] its 1-based rank, shared by engines equal in score,
// points and Sonneborn-Berger.
func Rank(keys []RankKey) (order, rank []int) {
	order = make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		a, b := keys[x], keys[y]
		if c := cmp.Compare(b.score(), a.score()); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Points, a.Points); c != 0 {
			return c
		}
		if c := cmp.Compare(b.SonnebornBerger, a.SonnebornBerger); c != 0 {
			return c
		}
		return cmp.Compare(b.Wins, a.Wins)
	})
	rank = make([]int, len(keys))
	for r, i := range order {
		rank[r] = r + 1
		if r > 0 {
			p := keys[order[r-1]]
			if p.score() == keys[i].score() && p.Points == keys[i].Points && p.SonnebornBerger == keys[i].SonnebornBerger {
				rank[r] = rank[r-1]
			}
		}
	}
	return order, rank
}

// SonnebornBerger is, for each engine i, Σ (points of i against j × the
// points of j), from the results between each pair (cells[i][j]: i's
// games against j) and every engine's points.
func SonnebornBerger(cells [][]stats.WDL, points []float64) []float64 {
	sb := make([]float64, len(cells))
	for i := range cells {
		for j, c := range cells[i] {
			sb[i] += c.Points() * points[j]
		}
	}
	return sb
}
