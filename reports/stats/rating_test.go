package stats

import (
	"math"
	"testing"
)

func cellsOf(n int, rec map[[2]int]WDL) [][]WDL {
	cells := make([][]WDL, n)
	for i := range cells {
		cells[i] = make([]WDL, n)
	}
	for k, w := range rec {
		cells[k[0]][k[1]] = cells[k[0]][k[1]].Add(w)
		cells[k[1]][k[0]] = cells[k[1]][k[0]].Add(w.Flip())
	}
	return cells
}

// Two engines: the joint ratings are the match's Elo difference (the
// prior's pull is a fraction of an Elo point at a thousand games), split
// around 0, with the match's own interval.
func TestJointRatingsOfAMatch(t *testing.T) {
	w := WDL{W: 400, D: 300, L: 300}
	r := mustJoint(t, cellsOf(2, map[[2]int]WDL{{0, 1}: w}))
	diff := r[0].Elo - r[1].Elo
	want := EloWDL(w)
	if math.Abs(diff-want.Elo) > 0.5 || math.Abs(r[0].Elo+r[1].Elo) > 1e-9 {
		t.Errorf("ratings %+v: difference %.2f, want %.2f, mean 0", r, diff, want.Elo)
	}
	// Each rating is half the difference from the mean, so its interval is
	// half the match's: the sandwich estimate uses the games' own score
	// variance (30% draws here), as the match's interval does.
	if got := 2 * r[0].Error; math.Abs(got-want.Error) > 0.03*want.Error || math.Abs(r[1].Error-r[0].Error) > 1e-6 {
		t.Errorf("intervals %.1f / %.1f; twice should be about the match's %.1f", r[0].Error, r[1].Error, want.Error)
	}
}

// A round-robin of three with a clear order: ratings follow it, sum to 0,
// and an engine that lost every game still has a finite rating.
func TestJointRatingsRoundRobin(t *testing.T) {
	r := mustJoint(t, cellsOf(4, map[[2]int]WDL{
		{0, 1}: {W: 60, D: 20, L: 20},
		{0, 2}: {W: 80, D: 15, L: 5},
		{1, 2}: {W: 55, D: 30, L: 15},
		{0, 3}: {W: 100},
		{1, 3}: {W: 100},
		{2, 3}: {W: 100},
	}))
	sum := 0.0
	for i, x := range r {
		sum += x.Elo
		if math.IsNaN(x.Elo) || math.IsInf(x.Elo, 0) || !(x.Error > 0) {
			t.Errorf("engine %d: %+v", i, x)
		}
	}
	if !(r[0].Elo > r[1].Elo && r[1].Elo > r[2].Elo && r[2].Elo > r[3].Elo) || math.Abs(sum) > 1e-9 {
		t.Errorf("ratings %+v", r)
	}
	// Engines 0 and 1 met 100 times: their difference is near their
	// match's, corrected by the common opponents.
	if d := r[0].Elo - r[1].Elo; d < 40 || d > 200 {
		t.Errorf("0 - 1 = %.1f", d)
	}
}

// An engine without games has no rating.
func TestJointRatingsWithoutGames(t *testing.T) {
	r := mustJoint(t, cellsOf(3, map[[2]int]WDL{{0, 1}: {W: 3, L: 2}}))
	if !math.IsNaN(r[2].Elo) || math.IsNaN(r[0].Elo) {
		t.Errorf("ratings %+v", r)
	}
}

// The fitted ratings reproduce every engine's points: Σ over its games of
// the expected score equals what it scored (the maximum-likelihood
// equations; the prior moves each by at most half a point).
func TestJointRatingsReproducePoints(t *testing.T) {
	cells := cellsOf(4, map[[2]int]WDL{
		{0, 1}: {W: 300, D: 400, L: 300},
		{0, 2}: {W: 450, D: 350, L: 200},
		{1, 2}: {W: 350, D: 400, L: 250},
		{0, 3}: {W: 600, D: 300, L: 100},
		{1, 3}: {W: 500, D: 300, L: 200},
		{2, 3}: {W: 420, D: 380, L: 200},
	})
	r := mustJoint(t, cells)
	for i := range cells {
		expected, actual := 0.0, 0.0
		for j := range cells {
			if n := cells[i][j].Games(); n > 0 {
				expected += float64(n) * eloToScore(r[i].Elo-r[j].Elo)
				actual += cells[i][j].Points()
			}
		}
		if math.Abs(expected-actual) > 0.5 {
			t.Errorf("engine %d: expected %.2f points, scored %.1f (ratings %+v)", i, expected, actual, r)
		}
	}
}

// Draws narrow the interval, as they do a match's: the same 50% score from
// 40% draws is known more precisely than from wins and losses alone (the
// score variance is 0.15 instead of 0.25 per game, an interval sqrt(0.6)
// as wide).
func TestJointRatingsDrawsNarrowTheInterval(t *testing.T) {
	decisive := mustJoint(t, cellsOf(2, map[[2]int]WDL{{0, 1}: {W: 500, L: 500}}))
	drawish := mustJoint(t, cellsOf(2, map[[2]int]WDL{{0, 1}: {W: 300, D: 400, L: 300}}))
	ratio := drawish[0].Error / decisive[0].Error
	if math.Abs(ratio-math.Sqrt(0.6)) > 0.02 {
		t.Errorf("interval with draws %.2f, without %.2f: ratio %.3f, want about %.3f", drawish[0].Error, decisive[0].Error, ratio, math.Sqrt(0.6))
	}
}

func mustJoint(t *testing.T, cells [][]WDL) []Rating {
	t.Helper()
	r, err := JointRatings(cells)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
