package reports

import (
	"fmt"
	"math"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// EloWords says in a sentence why an Elo estimate shows no finite figure or
// no interval, for the person reading the console's or the report's match
// summary: "+Inf +/- NaN" after a match won in every game, or "+/- NaN"
// after one game pair, reads as a crash, and what it means (and what gives a
// figure) is not in the numbers. name is the engine the estimate is of, w
// its results and pairs how many game pairs the estimate was made from (0:
// from single games). It is "" when the estimate has both a finite Elo and
// an interval.
func EloWords(name string, e stats.Estimate, w stats.WDL, pairs int) string {
	n := w.Games()
	what := fmt.Sprintf("every game (%d of %d)", n, n)
	if w.W != n && w.L != n {
		// The estimate is from the pairs, and a game outside them differs.
		what = fmt.Sprintf("every game pair (%d of %d)", pairs, pairs)
	}
	switch {
	case n == 0:
		// An event stopped before its first result: the NaNs of the
		// cutechess line are no figure, not an error.
		return "No game finished yet: no score, Elo or LOS until one is."
	case math.IsNaN(e.Elo) && e.Score >= 1:
		return fmt.Sprintf("No finite Elo yet: %s won %s; more games, or a stronger opponent, give one.", name, what)
	case math.IsNaN(e.Elo) && e.Score <= 0:
		return fmt.Sprintf("No finite Elo yet: %s lost %s; more games, or a weaker opponent, give one.", name, what)
	case math.IsNaN(e.Error):
		return fmt.Sprintf("No Elo interval yet: too few games (%s) to estimate how far the Elo may be off; more games give one.", sampleCount(n, pairs))
	}
	return ""
}

// sampleCount names what an estimate was made from: "1 game pair",
// "3 game pairs" or "5 games".
func sampleCount(games, pairs int) string {
	switch {
	case pairs == 1:
		return "1 game pair"
	case pairs > 1:
		return fmt.Sprintf("%d game pairs", pairs)
	case games == 1:
		return "1 game"
	}
	return fmt.Sprintf("%d games", games)
}

// eloText is an Elo estimate as a table cell shows it: the figure, and
// "± error" beside it, or in a few words why one of them does not exist (the
// sentence is EloWords'), so that a cell never reads "n/a ± n/a" when the
// games were played. games is how many the estimate was made from.
func eloText(e stats.Estimate, games int) (fig, pm string) {
	switch {
	case games == 0:
		return "n/a", ""
	case math.IsNaN(e.Elo) && e.Score >= 1:
		return "+∞", "every game won"
	case math.IsNaN(e.Elo) && e.Score <= 0:
		return "−∞", "every game lost"
	case math.IsNaN(e.Error):
		return fmtSigned(e.Elo), "too few games"
	}
	return fmtSigned(e.Elo), "± " + fmtElo(e.Error)
}
