package stats

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// SPRTModel names the Elo scale the SPRT hypotheses are stated in.
type SPRTModel string

// Elo models for SPRT bounds.
const (
	// Normalized Elo (the default): the hypotheses are t-values (score
	// excess over its standard deviation), fishtest's LLR_normalized and
	// fastchess's default "normalized" model. Its bounds mean the same
	// thing whatever the draw rate, which suits draughts (very drawish).
	Normalized SPRTModel = "normalized"
	// Logistic Elo: the hypotheses are expected scores 1/(1+10^(-elo/400))
	// (fishtest's LLR_logistic, fastchess's "logistic" model).
	Logistic SPRTModel = "logistic"
)

// SPRTConfig states a sequential probability ratio test of H0: elo = Elo0
// against H1: elo = Elo1, from the first engine's point of view.
type SPRTConfig struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"` // probability of accepting H1 when H0 holds
	Beta  float64 `json:"beta"`  // probability of accepting H0 when H1 holds
	// Model is the Elo scale of Elo0 and Elo1; empty means Normalized.
	Model SPRTModel `json:"model,omitempty"`
	// Trinomial tests on W/D/L game counts instead of pentanomial pair
	// counts. Pairs are the better default: the two games of one opening
	// are correlated, which the trinomial form ignores.
	Trinomial bool `json:"trinomial,omitempty"`
}

// Validate checks the parameters.
func (c SPRTConfig) Validate() error {
	switch {
	case !(c.Elo0 < c.Elo1):
		return fmt.Errorf("sprt: elo0 (%g) must be less than elo1 (%g)", c.Elo0, c.Elo1)
	case !(c.Alpha > 0 && c.Alpha < 1):
		return fmt.Errorf("sprt: alpha %g must be between 0 and 1", c.Alpha)
	case !(c.Beta > 0 && c.Beta < 1):
		return fmt.Errorf("sprt: beta %g must be between 0 and 1", c.Beta)
	case c.Alpha+c.Beta >= 1:
		return fmt.Errorf("sprt: alpha+beta (%g) must be less than 1", c.Alpha+c.Beta)
	case c.Model != "" && c.Model != Logistic && c.Model != Normalized:
		return fmt.Errorf("sprt: unknown model %q (want logistic or normalized)", c.Model)
	}
	return nil
}

// Bounds returns the LLR thresholds: H0 is accepted at or below lower, H1
// at or above upper (Wald's approximations log(β/(1-α)), log((1-β)/α)).
func (c SPRTConfig) Bounds() (lower, upper float64) {
	return math.Log(c.Beta / (1 - c.Alpha)), math.Log((1 - c.Beta) / c.Alpha)
}

// Decision is the state of an SPRT.
type Decision string

// SPRT decisions.
const (
	Continue Decision = "continue"
	AcceptH0 Decision = "H0" // elo0 holds: the first engine is not better by elo1
	AcceptH1 Decision = "H1" // elo1 holds
)

// SPRTResult is the outcome of an SPRT on given counts.
type SPRTResult struct {
	Config   SPRTConfig `json:"config"`
	LLR      float64    `json:"llr"`
	Lower    float64    `json:"lower"`
	Upper    float64    `json:"upper"`
	Decision Decision   `json:"decision"`
	Games    int        `json:"games"`
	Pairs    int        `json:"pairs"`
	// Failure, when not empty, says why the LLR could not be computed (a
	// maximum-likelihood fit that did not converge); LLR is then NaN (null
	// in JSON) and the decision Continue.
	Failure string `json:"failure,omitempty"`
}

// MarshalJSON writes an LLR that could not be computed as null.
func (r SPRTResult) MarshalJSON() ([]byte, error) {
	type plain SPRTResult
	return json.Marshal(struct {
		plain
		LLR jsonFloat `json:"llr"`
	}{plain(r), jsonFloat(r.LLR)})
}

// UnmarshalJSON reads a null LLR as NaN.
func (r *SPRTResult) UnmarshalJSON(b []byte) error {
	type plain SPRTResult
	var j struct {
		plain
		LLR jsonFloat `json:"llr"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = SPRTResult(j.plain)
	r.LLR = float64(j.LLR)
	return nil
}

// Evaluate computes the generalized log-likelihood ratio (GSPRT, as in
// fishtest's LLRcalc.py and fastchess's sprt.cpp) for the counts, from the
// first engine's point of view, and the decision it implies. Pentanomial
// counts are used unless c.Trinomial is set; wdl is used for the
// trinomial form and for the game count.
//
// The error is for an invalid configuration only. When the computation
// itself fails (a fit that does not converge) the result says so in
// Failure, so that a report shows the failure where the LLR would be and a
// runner goes on playing.
func (c SPRTConfig) Evaluate(p Penta, wdl WDL) (SPRTResult, error) {
	if err := c.Validate(); err != nil {
		return SPRTResult{}, err
	}
	lo, hi := c.Bounds()
	r := SPRTResult{Config: c, Lower: lo, Upper: hi, Games: wdl.Games(), Pairs: p.Pairs()}
	var counts []int
	if c.Trinomial {
		counts = []int{wdl.L, wdl.D, wdl.W}
	} else {
		counts = p[:]
	}
	llr, err := gsprtLLR(counts, c.Elo0, c.Elo1, c.Model)
	if err != nil {
		r.LLR, r.Decision, r.Failure = math.NaN(), Continue, err.Error()
		return r, nil
	}
	r.LLR = llr
	switch {
	case llr >= hi:
		r.Decision = AcceptH1
	case llr <= lo:
		r.Decision = AcceptH0
	default:
		r.Decision = Continue
	}
	return r, nil
}

// regularized returns counts with zero entries replaced by a small prior
// (1e-3), as fishtest and fastchess do, so that no outcome is impossible.
func regularized(counts []int) []float64 {
	out := make([]float64, len(counts))
	for i, c := range counts {
		if c == 0 {
			out[i] = 1e-3
		} else {
			out[i] = float64(c)
		}
	}
	return out
}

// gsprtLLR is the generalized LLR for counts over equally spaced scores
// 0..1 (3 for L/D/W, 5 for pairs, lowest score first).
func gsprtLLR(counts []int, elo0, elo1 float64, model SPRTModel) (float64, error) {
	total := 0
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0, nil
	}
	reg := regularized(counts)
	n := 0.0
	for _, c := range reg {
		n += c
	}
	k := len(counts)
	scores := make([]float64, k)
	phat := make([]float64, k)
	for i := range reg {
		scores[i] = float64(i) / float64(k-1)
		phat[i] = reg[i] / n
	}
	var p0, p1 []float64
	var err error
	switch model {
	case Normalized, "":
		t0, t1 := elo0/neloPerT, elo1/neloPerT
		if k == 5 {
			// A pair's spread is √2 times a game's.
			t0, t1 = t0*math.Sqrt2, t1*math.Sqrt2
		}
		if p0, err = mleTValue(scores, phat, 0.5, t0, maxMLEIterations); err != nil {
			return 0, err
		}
		if p1, err = mleTValue(scores, phat, 0.5, t1, maxMLEIterations); err != nil {
			return 0, err
		}
	default:
		if p0, err = mleExpected(scores, phat, eloToScore(elo0)); err != nil {
			return 0, err
		}
		if p1, err = mleExpected(scores, phat, eloToScore(elo1)); err != nil {
			return 0, err
		}
	}
	llr := 0.0
	for i := range phat {
		llr += phat[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return n * llr, nil
}

// mleExpected is the maximum-likelihood distribution on the given scores
// with expectation s, given the empirical distribution phat (Van den
// Bergh, "Comments on normalized Elo", proposition 1.1): p_i = phat_i/(1 +
// θ(a_i - s)) with θ the root of the secular equation
// Σ phat_i (a_i - s)/(1 + θ(a_i - s)) = 0.
func mleExpected(scores, phat []float64, s float64) ([]float64, error) {
	x := make([]float64, len(scores))
	for i, a := range scores {
		x[i] = a - s
	}
	theta, err := secular(x, phat)
	if err != nil {
		return nil, err
	}
	p := make([]float64, len(scores))
	for i := range scores {
		p[i] = phat[i] / (1 + theta*x[i])
	}
	return p, nil
}

// maxMLEIterations bounds the fixed-point iteration of mleTValue; it
// usually takes 5 to 20 steps, a little over 100 on very drawish pairs.
const maxMLEIterations = 1000

// mleTValue is the maximum-likelihood distribution with t-value
// (μ-ref)/σ = t, given phat (same paper, section 4.1): a fixed-point
// iteration, each step solving a secular equation. It stops when no
// probability moves by more than 1e-10 (their rounding noise is ~1e-12) and
// fails after maxIter steps.
func mleTValue(scores, phat []float64, ref, t float64, maxIter int) ([]float64, error) {
	k := len(scores)
	p := make([]float64, k)
	for i := range p {
		p[i] = 1 / float64(k)
	}
	x := make([]float64, k)
	diff := math.Inf(1)
	for range maxIter {
		mu, v := meanVar(scores, p)
		sigma := math.Sqrt(v)
		for i, a := range scores {
			d := (a - mu) / sigma
			x[i] = a - ref - t*sigma*(1+d*d)/2
		}
		theta, err := secular(x, phat)
		if err != nil {
			return nil, err
		}
		diff = 0.0
		for i := range p {
			np := phat[i] / (1 + theta*x[i])
			diff = math.Max(diff, math.Abs(np-p[i]))
			p[i] = np
		}
		if diff < 1e-10 {
			return p, nil
		}
	}
	return nil, fmt.Errorf("sprt: the maximum-likelihood fit for t = %.4g %w after %d iterations (probabilities still moving by %.2g)",
		t, ErrNotConverged, maxIter, diff)
}

func meanVar(x, p []float64) (mu, v float64) {
	for i := range x {
		mu += p[i] * x[i]
	}
	for i := range x {
		v += p[i] * (x[i] - mu) * (x[i] - mu)
	}
	return mu, v
}

var errNoRoot = errors.New("sprt: secular equation has no root (all results on one side of the hypothesis)")

// secular solves Σ p_i x_i/(1 + θ x_i) = 0 for θ in the interval where
// every 1 + θ x_i > 0. The function is strictly decreasing there, from +∞
// to -∞, so bisection always converges; it needs some x_i on each side of
// zero.
func secular(x, p []float64) (float64, error) {
	minX, maxX := math.Inf(1), math.Inf(-1)
	for _, v := range x {
		minX, maxX = math.Min(minX, v), math.Max(maxX, v)
	}
	if !(minX < 0 && maxX > 0) {
		return 0, errNoRoot
	}
	lo, hi := -1/maxX, -1/minX
	f := func(t float64) float64 {
		s := 0.0
		for i := range x {
			s += p[i] * x[i] / (1 + t*x[i])
		}
		return s
	}
	// Bisection to machine precision: at most ~1100 halvings even for
	// denormal-wide brackets, typically ~60.
	for i := 0; i < 2000; i++ {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2, nil
}
