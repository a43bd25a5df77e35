package reports

import (
	"cmp"
	"slices"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// RankKey is what the ranking of an event reads of an engine.
type RankKey struct {
	Points, SonnebornBerger float64
	Wins                    int
}

// Rank is the one ranking of engines, for the report and the live
// standings alike: best first by points, then Sonneborn-Berger, then wins;
// engines equal in all three keep their given (seeding) order. order[r] is
// the index in keys of the engine in place r, rank[r] its 1-based rank,
// shared by engines equal in points and Sonneborn-Berger.
func Rank(keys []RankKey) (order, rank []int) {
	order = make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		a, b := keys[x], keys[y]
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
			if p.Points == keys[i].Points && p.SonnebornBerger == keys[i].SonnebornBerger {
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
