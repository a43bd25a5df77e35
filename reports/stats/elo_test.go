package stats

import (
	"math"
	"strconv"
	"testing"
)

// round rounds x to the given number of decimals exactly as C's printf
// does (on the binary value: 10.85 is 10.8499... and prints 10.8).
func round(x float64, decimals int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', decimals, 64), 64)
	return v
}

// TestEloWDLCutechess reproduces "Elo difference: X +/- Y, LOS: Z %,
// DrawRatio: D %" lines printed by cutechess-cli (elo.cpp) for the given
// "Score of A vs B: W - L - D" lines. Source: the published match logs in
// GediminasMasaitis/Chess-Challenge-Submission, SUBMISSION-CHANGELOG.md.
func TestEloWDLCutechess(t *testing.T) {
	tests := []struct {
		w, l, d         int
		elo, err        float64 // printed with one decimal
		los, drawRatio  float64 // percent, one decimal
		pointRatioThree float64 // "[0.079]"
	}{
		{w: 2, l: 4211, d: 787, elo: -426.4, err: 12.1, los: 0.0, drawRatio: 15.7, pointRatioThree: 0.079},
		{w: 1783, l: 0, d: 217, elo: 496.6, err: 23.2, los: 100.0, drawRatio: 10.8, pointRatioThree: 0.946},
		{w: 1667, l: 0, d: 333, elo: 416.7, err: 18.6, los: 100.0, drawRatio: 16.7, pointRatioThree: 0.917},
		{w: 338, l: 81, d: 1581, elo: 44.9, err: 6.8, los: 100.0, drawRatio: 79.0, pointRatioThree: 0.564},
	}
	for _, tc := range tests {
		c := WDL{W: tc.w, D: tc.d, L: tc.l}
		e := EloWDL(c)
		if got := round(e.Elo, 1); got != tc.elo {
			t.Errorf("%+v: Elo %.1f, cutechess printed %.1f", c, e.Elo, tc.elo)
		}
		if got := round(e.Error, 1); got != tc.err {
			t.Errorf("%+v: error %.2f, cutechess printed %.1f", c, e.Error, tc.err)
		}
		if got := round(LOSWinLoss(c)*100, 1); got != tc.los {
			t.Errorf("%+v: LOS %.1f%%, cutechess printed %.1f%%", c, LOSWinLoss(c)*100, tc.los)
		}
		if got := round(c.DrawRatio()*100, 1); got != tc.drawRatio {
			t.Errorf("%+v: draw ratio %.1f%%, cutechess printed %.1f%%", c, c.DrawRatio()*100, tc.drawRatio)
		}
		if got := round(c.Score(), 3); got != tc.pointRatioThree {
			t.Errorf("%+v: score %.3f, cutechess printed %.3f", c, c.Score(), tc.pointRatioThree)
		}
		if !(e.Lower < e.Elo && e.Elo < e.Upper) {
			t.Errorf("%+v: interval [%g, %g] does not contain %g", c, e.Lower, e.Upper, e.Elo)
		}
	}
}

// TestEloPentaFastchess reproduces fastchess's summary lines
// ("Elo: X +/- Y, nElo: N +/- M", "LOS: Z %") for the printed
// "Ptnml(0-2): [...]" counts. Sources: fastchess output published in
// t-veor/hardfiskur elo_history.md and WGCodings/Pea README; the formulas
// are fastchess app/src/matchmaking/elo/elo_pentanomial.cpp.
func TestEloPentaFastchess(t *testing.T) {
	tests := []struct {
		p                   Penta
		elo, err, nelo, nEr float64 // two decimals
		los                 float64 // percent, two decimals
		games, w, l, d      int
	}{
		{Penta{4, 4, 58, 51, 198}, 294.93, 33.71, 371.80, 27.13, 100.00, 630, 505, 70, 55},
		{Penta{1, 5, 45, 54, 252}, 355.96, 35.36, 482.39, 25.48, 100.00, 714, 598, 47, 69},
		{Penta{6, 23, 91, 81, 99}, 149.96, 24.60, 191.81, 27.80, 100.00, 600, 352, 108, 140},
		{Penta{77, 117, 293, 151, 156}, 42.21, 14.79, 49.29, 17.09, 100.00, 1588, 710, 518, 360},
		{Penta{212, 310, 754, 380, 274}, 17.48, 9.05, 21.22, 10.96, 99.99, 3860, 1558, 1364, 938},
		{Penta{261, 844, 1263, 897, 292}, 5.62, 6.02, 7.54, 8.07, 96.64, 7114, 2053, 1938, 3123},
		{Penta{585, 735, 1655, 814, 486}, -4.84, 6.08, -5.86, 7.36, 5.95, 8550, 3213, 3332, 2005},
		{Penta{71, 1382, 8067, 1385, 60}, -0.30, 1.78, -0.78, 4.60, 37.02, 21930, 1619, 1638, 18673},
		{Penta{764, 1591, 3006, 1630, 708}, -1.65, 4.22, -2.14, 5.49, 22.22, 15398, 5231, 5304, 4863},
	}
	for _, tc := range tests {
		e := EloPenta(tc.p)
		check := func(what string, got, want float64) {
			t.Helper()
			if round(got, 2) != want {
				t.Errorf("%v: %s %.4f, fastchess printed %.2f", tc.p, what, got, want)
			}
		}
		check("Elo", e.Elo, tc.elo)
		check("error", e.Error, tc.err)
		check("nElo", e.NElo, tc.nelo)
		check("nElo error", e.NEloError, tc.nEr)
		check("LOS", e.LOS*100, tc.los)
		if 2*tc.p.Pairs() != tc.games {
			t.Errorf("%v: %d pairs, fastchess printed %d games", tc.p, tc.p.Pairs(), tc.games)
		}
		// The pair score equals the game score: the pentanomial Elo centre
		// must equal the trinomial one for the same games.
		tri := EloWDL(WDL{W: tc.w, D: tc.d, L: tc.l})
		if math.Abs(tri.Elo-e.Elo) > 1e-9 {
			t.Errorf("%v: pair Elo %.6f != game Elo %.6f", tc.p, e.Elo, tri.Elo)
		}
	}
}

// TestEloClosedForm checks the estimates against values computed by hand
// from the definitions, including the degenerate cases.
func TestEloClosedForm(t *testing.T) {
	// 3 wins, 1 draw, 0 losses of 4: μ = 7/8, σ² = ¾(1/8)² + ¼(3/8)² = 3/64.
	e := EloWDL(WDL{W: 3, D: 1})
	mu := 7.0 / 8
	sd := math.Sqrt(3.0/64) / 2
	if want := -400 * math.Log10(1/mu-1); math.Abs(e.Elo-want) > 1e-9 {
		t.Errorf("Elo %g, want %g", e.Elo, want)
	}
	if hi := mu + 1.959963984540054*sd; hi < 1 || !math.IsNaN(e.Upper) {
		t.Errorf("upper score bound %g >= 1 must give an unbounded (NaN) upper Elo, got %g", hi, e.Upper)
	}
	if want := -400 * math.Log10(1/(mu-1.959963984540054*sd)-1); math.Abs(e.Lower-want) > 1e-6 {
		t.Errorf("lower %g, want %g", e.Lower, want)
	}

	// All draws: no spread, Elo 0, LOS undecided.
	e = EloWDL(WDL{D: 10})
	// No spread seen, so no interval: it was 0 +/- 0, a certainty ten
	// draws do not give.
	if !math.IsNaN(e.Error) || !math.IsNaN(e.Lower) || !math.IsNaN(e.Upper) {
		t.Errorf("10 draws: interval [%g, %g] +/- %g, want none (NaN)", e.Lower, e.Upper, e.Error)
	}
	if e.Elo != 0 || e.LOS != 0.5 || !math.IsNaN(e.NElo) {
		t.Errorf("all draws: %+v", e)
	}
	// All wins: Elo undefined, superiority certain.
	e = EloWDL(WDL{W: 5})
	if !math.IsNaN(e.Elo) || e.LOS != 1 {
		t.Errorf("all wins: %+v", e)
	}
	// No games at all.
	e = EloWDL(WDL{})
	if !math.IsNaN(e.Elo) || !math.IsNaN(e.LOS) {
		t.Errorf("no games: %+v", e)
	}
	e = EloPenta(Penta{})
	if !math.IsNaN(e.Elo) {
		t.Errorf("no pairs: %+v", e)
	}
	// Symmetry: flipping the counts negates Elo and mirrors LOS.
	for _, p := range []Penta{{3, 10, 20, 12, 5}, {0, 1, 7, 4, 0}} {
		a, b := EloPenta(p), EloPenta(p.Flip())
		if math.Abs(a.Elo+b.Elo) > 1e-9 || math.Abs(a.LOS+b.LOS-1) > 1e-12 || math.Abs(a.Error-b.Error) > 1e-9 {
			t.Errorf("%v: not symmetric: %+v vs %+v", p, a, b)
		}
	}
	// cutechess LOS closed form: W=10, L=4 → Φ(6/√14).
	if got, want := LOSWinLoss(WDL{W: 10, D: 3, L: 4}), 0.5+0.5*math.Erf(6/math.Sqrt(28)); math.Abs(got-want) > 1e-12 {
		t.Errorf("LOS %g, want %g", got, want)
	}
	if LOSWinLoss(WDL{D: 4}) != 0.5 {
		t.Errorf("LOS without decisive games must be 0.5")
	}
}
