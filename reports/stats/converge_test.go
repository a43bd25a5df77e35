package stats

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// pairDistribution is the regularized empirical distribution of pair counts.
func pairDistribution(p Penta) (scores, phat []float64) {
	reg := regularized(p[:])
	n := 0.0
	for _, c := range reg {
		n += c
	}
	for i := range reg {
		scores = append(scores, float64(i)/4)
		phat = append(phat, reg[i]/n)
	}
	return scores, phat
}

// The fit behind the normalized SPRT reports a fit that has not converged
// instead of handing back its last iterate: this drawish sample needs about
// 100 steps, so 20 are too few.
func TestMLETValueConvergence(t *testing.T) {
	scores, phat := pairDistribution(Penta{3, 20, 1000, 20, 3})
	tv := 100 / neloPerT * math.Sqrt2
	if _, err := mleTValue(scores, phat, 0.5, tv, 20); !errors.Is(err, ErrNotConverged) || !strings.Contains(err.Error(), "after 20 iterations") {
		t.Errorf("20 steps: error %v, want ErrNotConverged after 20 iterations", err)
	}
	p, err := mleTValue(scores, phat, 0.5, tv, maxMLEIterations)
	if err != nil {
		t.Fatal(err)
	}
	mu, v := meanVar(scores, p)
	if got := (mu - 0.5) / math.Sqrt(v); math.Abs(got-tv) > 1e-6 {
		t.Errorf("fitted t-value %g, want %g", got, tv)
	}
	// All draws: the probabilities settle to within their rounding noise
	// (2e-12), which the old 1e-12 tolerance never accepted.
	scores, phat = pairDistribution(Penta{0, 0, 1000, 0, 0})
	if _, err := mleTValue(scores, phat, 0.5, tv, maxMLEIterations); err != nil {
		t.Errorf("all draws: %v", err)
	}
}

// An SPRT whose LLR cannot be computed says so in the result, which stays
// usable (decision continue, LLR NaN, null in JSON); a normal one has no
// failure.
func TestSPRTFailure(t *testing.T) {
	cfg := SPRTConfig{Elo0: 0, Elo1: 1000, Alpha: 0.05, Beta: 0.05}
	r, err := cfg.Evaluate(Penta{0, 0, 1000, 0, 0}, WDL{D: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Failure == "" || !math.IsNaN(r.LLR) || r.Decision != Continue || r.Games != 2000 || r.Pairs != 1000 {
		t.Fatalf("result %+v, want a failure, NaN LLR, continue", r)
	}
	b, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(b), `"llr":null`) || !strings.Contains(string(b), `"failure":"sprt: `) {
		t.Fatalf("JSON %s, %v", b, err)
	}
	var back SPRTResult
	if err := json.Unmarshal(b, &back); err != nil || !math.IsNaN(back.LLR) || back.Failure != r.Failure || back.Games != 2000 {
		t.Errorf("round trip %+v, %v", back, err)
	}
	ok, err := SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}.Evaluate(Penta{10, 30, 100, 40, 20}, WDL{})
	if err != nil || ok.Failure != "" || math.IsNaN(ok.LLR) {
		t.Errorf("normal SPRT %+v, %v", ok, err)
	}
	b, _ = json.Marshal(ok)
	if strings.Contains(string(b), "failure") {
		t.Errorf("a normal SPRT writes a failure: %s", b)
	}
}

// The joint fit reports a failure instead of returning unconverged ratings.
func TestJointRatingsConvergence(t *testing.T) {
	// A match won 10^15 to 0: the ratings are ~5,000 Elo apart and the
	// information of the match (10^15 games times p(1-p)) is lost in
	// rounding against the prior's.
	cells := cellsOf(3, map[[2]int]WDL{{0, 1}: {W: 1_000_000_000_000_000}})
	r, err := JointRatings(cells)
	if !errors.Is(err, ErrNotConverged) || !strings.Contains(err.Error(), "joint ratings") {
		t.Fatalf("error %v, want ErrNotConverged", err)
	}
	for i, x := range r {
		if !math.IsNaN(x.Elo) || !math.IsNaN(x.Error) {
			t.Errorf("engine %d: %+v after a failed fit, want NaN", i, x)
		}
	}
	// Too few steps for an ordinary match.
	games := [][]float64{{0, 1000}, {1000, 0}}
	if _, err := fitStrengths(games, []float64{600, 400}, 2); !errors.Is(err, ErrNotConverged) || !strings.Contains(err.Error(), "after 2 Newton steps") {
		t.Errorf("2 steps: %v", err)
	}
	// Matches of a thousand games to a billion converge (minorization-
	// maximization did not, in 20,000 iterations, from 600-400 up).
	for _, n := range []float64{1000, 1e6, 1e9} {
		for _, share := range []float64{0.5, 0.6, 0.999, 1} {
			g, err := fitStrengths([][]float64{{0, n}, {n, 0}}, []float64{n * share, n * (1 - share)}, maxFitIterations)
			if err != nil {
				t.Errorf("%g games, %g scored: %v", n, share, err)
				continue
			}
			if share < 1 {
				// The prior's pull is a draw per engine against the mean.
				want := (n*share + 0.5) / (n*(1-share) + 0.5)
				if got := g[0] / g[1]; math.Abs(math.Log(got/want)) > 0.05 {
					t.Errorf("%g games, %g scored: strength ratio %g, want about %g", n, share, got, want)
				}
			}
		}
	}
}
