package stats

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Rating is an engine's rating fitted to every game of the event at once
// (a Bradley-Terry model on the logistic Elo scale, draws as half a point,
// the method of Ordo and BayesElo), so that in a round-robin the figures of
// all engines are consistent with each other, unlike each engine's
// performance against its own field. Ratings are relative to the mean of
// the engines that played, which is 0.
type Rating struct {
	Elo float64
	// Error is the half-width of the 95% interval. It is the sandwich
	// (robust) estimate: the model's Fisher information around the games'
	// observed score variance, so that draws, which vary a score less than
	// wins and losses, narrow it as they narrow a match's own interval.
	Error float64
}

// maxFitIterations bounds the Newton steps of JointRatings' fit; ordinary
// events take 5 to 15.
const maxFitIterations = 100

// ErrNotConverged reports an iteration that did not converge: the figure it
// was to give is not computed (NaN), and the error says how far it got.
var ErrNotConverged = errors.New("did not converge")

// priorDraws is the weight of the prior, BayesElo-style: every engine is
// taken to have drawn this many games against an opponent of mean
// strength. It keeps a perfect (or zero) score finite and is negligible
// against real numbers of games.
const priorDraws = 1.0

// JointRatings fits ratings to the crosstable cells (cells[i][j] is engine
// i's record against j). Engines without games get NaN. When the fit does
// not converge every rating is NaN and the error (wrapping ErrNotConverged)
// says how far it got.
func JointRatings(cells [][]WDL) ([]Rating, error) {
	n := len(cells)
	out := make([]Rating, n)
	// The engines that played, indexed 0..m-1.
	var who []int
	for i := range n {
		games := 0
		for j := range n {
			games += cells[i][j].Games()
		}
		if games > 0 {
			who = append(who, i)
		} else {
			out[i] = Rating{math.NaN(), math.NaN()}
		}
	}
	m := len(who)
	if m == 0 {
		return out, nil
	}
	games := make([][]float64, m)
	points := make([]float64, m)
	for a, i := range who {
		games[a] = make([]float64, m)
		for b, j := range who {
			games[a][b] = float64(cells[i][j].Games())
			points[a] += cells[i][j].Points()
		}
	}
	// spread(a, b, p) is the sum over a's games against b of (s - p)^2,
	// s its score in each and p the model's expectation.
	spread := func(a, b int, p float64) float64 {
		w := cells[who[a]][who[b]]
		return float64(w.W)*(1-p)*(1-p) + float64(w.D)*(0.5-p)*(0.5-p) + float64(w.L)*p*p
	}
	gamma, err := fitStrengths(games, points, maxFitIterations)
	if err != nil {
		for _, i := range who {
			out[i] = Rating{math.NaN(), math.NaN()}
		}
		return out, err
	}
	elo := make([]float64, m)
	mean := 0.0
	for a := range m {
		elo[a] = 400 * math.Log10(gamma[a])
		mean += elo[a] / float64(m)
	}
	// On the Elo scale (c = ln 10 / 400) every game between a and b adds
	// c^2 p (1-p) to the Fisher information H and c^2 (s-p)^2 to the
	// observed variance J of the likelihood's gradient; the covariance is
	// H^-1 J H^-1. The prior games tie each engine to the fixed opponent,
	// which makes H invertible.
	c := math.Ln10 / 400
	info := mat.NewSymDense(m, nil)
	vary := mat.NewSymDense(m, nil)
	for a := range m {
		p0 := gamma[a] / (gamma[a] + 1)
		diag := priorDraws * c * c * p0 * (1 - p0)
		vdiag := priorDraws * c * c * (0.5 - p0) * (0.5 - p0)
		for b := range m {
			if b == a || games[a][b] == 0 {
				continue
			}
			p := gamma[a] / (gamma[a] + gamma[b])
			w := games[a][b] * c * c * p * (1 - p)
			v := c * c * spread(a, b, p)
			diag += w
			vdiag += v
			if b > a {
				info.SetSym(a, b, -w)
				vary.SetSym(a, b, -v)
			}
		}
		info.SetSym(a, a, diag)
		vary.SetSym(a, a, vdiag)
	}
	var inv, cov mat.Dense
	if err := inv.Inverse(info); err != nil {
		for a, i := range who {
			out[i] = Rating{elo[a] - mean, math.NaN()}
		}
		return out, nil
	}
	cov.Product(&inv, vary, &inv)
	// The variance of each rating relative to the mean of all: the level
	// of the whole field (tied to the prior's opponent by a single game)
	// is uncertain, the differences are not.
	row := make([]float64, m)
	total := 0.0
	for a := range m {
		for b := range m {
			row[a] += cov.At(a, b)
		}
		total += row[a]
	}
	fm := float64(m)
	for a, i := range who {
		v := cov.At(a, a) - 2*row[a]/fm + total/(fm*fm)
		out[i] = Rating{Elo: elo[a] - mean, Error: 1.96 * math.Sqrt(math.Max(v, 0))}
	}
	return out, nil
}

type ratingJSON struct {
	Elo   jsonFloat `json:"elo"`
	Error jsonFloat `json:"error"`
}

// MarshalJSON writes undefined (NaN) values as null.
func (r Rating) MarshalJSON() ([]byte, error) {
	return json.Marshal(ratingJSON{jsonFloat(r.Elo), jsonFloat(r.Error)})
}

// UnmarshalJSON reads null as NaN.
func (r *Rating) UnmarshalJSON(b []byte) error {
	var j ratingJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Rating{float64(j.Elo), float64(j.Error)}
	return nil
}

// fitStrengths fits gamma = 10^(elo/400), the Bradley-Terry strengths that
// maximize the likelihood of the engines' points (draws as half a point),
// every engine tied to the prior's opponent at gamma 1 by priorDraws draws.
// games[a][b] counts the games between a and b, points[a] a's points in all
// of them (the likelihood depends on nothing else). Newton's method on
// r = ln gamma, halving a step until the likelihood rises: the prior makes
// the likelihood strictly concave, so this takes a handful of steps where
// minorization-maximization (Hunter 2004) needed hundreds of thousands on a
// match of a thousand games, its level tied to the prior by one draw. It
// fails after maxIter steps.
func fitStrengths(games [][]float64, points []float64, maxIter int) ([]float64, error) {
	m := len(points)
	r := make([]float64, m)
	try := make([]float64, m)
	grad := mat.NewVecDense(m, nil)
	info := mat.NewSymDense(m, nil)
	var step mat.VecDense
	var chol mat.Cholesky
	// logSum is ln(e^x + e^y) without overflow.
	logSum := func(x, y float64) float64 { return math.Max(x, y) + math.Log1p(math.Exp(-math.Abs(x-y))) }
	loglik := func(r []float64) float64 {
		l := 0.0
		for a := range m {
			l += (points[a]+priorDraws/2)*r[a] - priorDraws*logSum(r[a], 0)
			for b := a + 1; b < m; b++ {
				if games[a][b] > 0 {
					l -= games[a][b] * logSum(r[a], r[b])
				}
			}
		}
		return l
	}
	size := math.Inf(1)
	for range maxIter {
		for a := range m {
			p0 := 1 / (1 + math.Exp(-r[a]))
			g := points[a] + priorDraws/2 - priorDraws*p0
			d := priorDraws * p0 * (1 - p0)
			for b := range m {
				if b == a || games[a][b] == 0 {
					continue
				}
				p := 1 / (1 + math.Exp(r[b]-r[a]))
				g -= games[a][b] * p
				d += games[a][b] * p * (1 - p)
				if b > a {
					info.SetSym(a, b, -games[a][b]*p*(1-p))
				}
			}
			grad.SetVec(a, g)
			info.SetSym(a, a, d)
		}
		if !chol.Factorize(info) {
			return nil, fmt.Errorf("joint ratings: %w: the information matrix is singular", ErrNotConverged)
		}
		if err := chol.SolveVecTo(&step, grad); err != nil {
			return nil, fmt.Errorf("joint ratings: %w: %v", ErrNotConverged, err)
		}
		// Ratings are reported relative to their mean, so only the steps'
		// differences must vanish. The level of the whole field, tied to
		// the prior by a draw per engine, is the least determined direction
		// and, against a billion games, the noisiest.
		mean := 0.0
		for a := range m {
			mean += step.AtVec(a) / float64(m)
		}
		size = 0
		for a := range m {
			size = math.Max(size, math.Abs(step.AtVec(a)-mean))
		}
		if size < 1e-9 {
			for a := range m {
				r[a] += step.AtVec(a)
			}
			gamma := make([]float64, m)
			for a := range m {
				gamma[a] = math.Exp(r[a])
			}
			return gamma, nil
		}
		// Near the maximum the likelihood changes by less than its
		// rounding error: a step that loses no more than that is taken.
		base := loglik(r)
		slack := 1e-12 * (1 + math.Abs(base))
		t := 1.0
		for {
			for a := range m {
				try[a] = r[a] + t*step.AtVec(a)
			}
			if loglik(try) >= base-slack {
				break
			}
			if t /= 2; t < 1e-12 {
				return nil, fmt.Errorf("joint ratings: %w: no step along the gradient raises the likelihood (step %.2g Elo)",
					ErrNotConverged, size*400/math.Ln10)
			}
		}
		copy(r, try)
	}
	return nil, fmt.Errorf("joint ratings: %w after %d Newton steps (the last moved a rating by %.2g Elo)",
		ErrNotConverged, maxIter, size*400/math.Ln10)
}
