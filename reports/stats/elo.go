package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence is the two-sided confidence level of every interval in the
// package (95%, as cutechess and fastchess print).
const Confidence = 0.95

// neloPerT converts a t-value (score excess over its standard deviation) to
// normalized Elo: 800/ln(10), as in fishtest's LLRcalc.py.
var neloPerT = 800 / math.Ln10

// zScore is the normal quantile of the two-sided interval (1.959963...).
var zScore = distuv.UnitNormal.Quantile(1 - (1-Confidence)/2)

// WDL counts wins, draws and losses from one engine's point of view.
type WDL struct {
	W int `json:"w"`
	D int `json:"d"`
	L int `json:"l"`
}

// Games is the number of games counted.
func (c WDL) Games() int { return c.W + c.D + c.L }

// Points is wins plus half the draws.
func (c WDL) Points() float64 { return float64(c.W) + float64(c.D)/2 }

// Score is the fraction of the points won, 0..1 (0 without games).
func (c WDL) Score() float64 {
	if c.Games() == 0 {
		return 0
	}
	return c.Points() / float64(c.Games())
}

// DrawRatio is the fraction of games drawn (0 without games).
func (c WDL) DrawRatio() float64 {
	if c.Games() == 0 {
		return 0
	}
	return float64(c.D) / float64(c.Games())
}

// Flip returns the counts from the opponent's point of view.
func (c WDL) Flip() WDL { return WDL{W: c.L, D: c.D, L: c.W} }

// Add returns the sum of two counts.
func (c WDL) Add(o WDL) WDL { return WDL{W: c.W + o.W, D: c.D + o.D, L: c.L + o.L} }

// Penta counts game pairs (the two colour-reversed games of one opening) by
// the points an engine scored in the pair: index 0 = 0 points (LL), 1 = ½
// (LD), 2 = 1 (WL or DD), 3 = 1½ (WD), 4 = 2 (WW). This is the
// "Ptnml(0-2)" line of fastchess and fishtest.
type Penta [5]int

// Pairs is the number of pairs counted.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Flip returns the counts from the opponent's point of view.
func (p Penta) Flip() Penta { return Penta{p[4], p[3], p[2], p[1], p[0]} }

// Add returns the sum of two counts.
func (p Penta) Add(o Penta) Penta {
	var r Penta
	for i := range p {
		r[i] = p[i] + o[i]
	}
	return r
}

// Estimate is an Elo estimate with its 95% interval. Values that do not
// exist (a 100% score has no finite Elo; an interval reaching a 0% or 100%
// score is unbounded on that side; samples that all scored the same, as a
// single game or pair does, show no spread to make an interval from) are
// NaN, written as null in JSON.
type Estimate struct {
	Score float64 `json:"score"` // mean score per game, 0..1
	Elo   float64 `json:"elo"`   // logistic Elo difference
	Lower float64 `json:"lower"` // lower end of the 95% interval
	Upper float64 `json:"upper"` // upper end of the 95% interval
	// Error is half the width of the interval, the "+/-" figure printed by
	// cutechess and fastchess.
	Error float64 `json:"error"`
	// NElo is the normalized Elo (fishtest), with its own "+/-".
	NElo      float64 `json:"nelo"`
	NEloError float64 `json:"nelo_error"`
	// LOS is the likelihood of superiority, 0..1, in the score-based form
	// Φ((μ-½)/(σ/√N)) with σ the spread observed around μ. It is not
	// written to JSON: the reports print one LOS, cutechess's win/loss
	// form (see LOSWinLoss), whose spread is the one under the hypothesis
	// tested (equal strength, μ = ½). The observed spread shrinks as a
	// score moves away from ½ (to nothing at 100%), so this form claims
	// more certainty than the games give: 3 wins of 3 games is LOS 100%
	// here, 95.8% in the win/loss form.
	LOS float64 `json:"-"`
}

// scoreToElo is the logistic Elo difference for a mean score, NaN outside
// (0,1).
func scoreToElo(s float64) float64 {
	if !(s > 0 && s < 1) {
		return math.NaN()
	}
	return -400 * math.Log10(1/s-1)
}

// eloToScore is the expected score of a logistic Elo difference.
func eloToScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// estimate fills an Estimate from a mean score, the variance of one sample
// (a game or a pair) and the number of samples. perGameScale is 1 for games
// and √2 for pairs: normalized Elo is defined per game.
func estimate(score, variance, n, perGameScale float64) Estimate {
	e := Estimate{Score: score, Elo: scoreToElo(score)}
	nan := math.NaN()
	if n == 0 {
		e.Elo, e.Lower, e.Upper, e.Error, e.NElo, e.NEloError, e.LOS = nan, nan, nan, nan, nan, nan, nan
		return e
	}
	if variance > 0 {
		sd := math.Sqrt(variance / n)
		lo, hi := score-zScore*sd, score+zScore*sd
		e.Lower, e.Upper = scoreToElo(lo), scoreToElo(hi)
		e.Error = (e.Upper - e.Lower) / 2
		sdGame := math.Sqrt(variance) * perGameScale
		e.NElo = (score - 0.5) / sdGame * neloPerT
		e.NEloError = zScore * sd / sdGame * neloPerT
		e.LOS = distuv.UnitNormal.CDF((score - 0.5) / sd)
	} else {
		// Every sample scored the same (always so for a single game or
		// pair): no spread was seen, and an interval of width 0 would claim
		// a certainty the games do not give ("0.0 +/- 0.0" after one pair),
		// so there is no interval and no normalized Elo yet; superiority is
		// certain one way or the other (or undecided at 50%).
		e.Lower, e.Upper, e.Error, e.NElo, e.NEloError = nan, nan, nan, nan, nan
		switch {
		case score > 0.5:
			e.LOS = 1
		case score < 0.5:
			e.LOS = 0
		default:
			e.LOS = 0.5
		}
	}
	return e
}

// EloWDL estimates the Elo difference from game results alone, treating
// games as independent (the trinomial model of cutechess's elo.cpp and
// fastchess's elo_wdl.cpp): score μ = (W + D/2)/N, per-game variance
// σ² = Σ p·(x-μ)², interval Elo(μ ± 1.96·σ/√N).
//
// LOS here is the score-based form of fastchess (Φ((μ-½)/(σ/√N))); for
// cutechess's win/loss form see LOSWinLoss.
func EloWDL(c WDL) Estimate {
	n := float64(c.Games())
	if n == 0 {
		return estimate(0, 0, 0, 1)
	}
	w, d, l := float64(c.W)/n, float64(c.D)/n, float64(c.L)/n
	mu := w + d/2
	v := w*(1-mu)*(1-mu) + d*(0.5-mu)*(0.5-mu) + l*mu*mu
	return estimate(mu, v, n, 1)
}

// EloPenta estimates the Elo difference from pair counts (fastchess's
// elo_pentanomial.cpp): the pair is the sample, which accounts for the
// correlation between the two games of one opening. Score is per game.
func EloPenta(p Penta) Estimate {
	n := float64(p.Pairs())
	if n == 0 {
		return estimate(0, 0, 0, math.Sqrt2)
	}
	mu := 0.0
	for i, c := range p {
		mu += float64(c) / n * float64(i) / 4
	}
	v := 0.0
	for i, c := range p {
		d := float64(i)/4 - mu
		v += float64(c) / n * d * d
	}
	return estimate(mu, v, n, math.Sqrt2)
}

// LOSWinLoss is cutechess's likelihood of superiority from wins and losses
// only (draws carry no information): Φ((W-L)/√(W+L)). It is 0.5 when there
// are no decisive games.
func LOSWinLoss(c WDL) float64 {
	if c.W+c.L == 0 {
		return 0.5
	}
	return distuv.UnitNormal.CDF(float64(c.W-c.L) / math.Sqrt(float64(c.W+c.L)))
}
