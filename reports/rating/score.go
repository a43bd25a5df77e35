package rating

import "github.com/draughts-arbiter/arbiter/rules/tally"

// GameScore is a game's score for the rating (FIDE B.02 art. 8.3.2: 1,
// 0.5 or 0); ok is false for a result that is not rated: a forfeit or a
// bye (art. 5.1: only games played are rated).
func GameScore(r tally.Result) (score float64, ok bool) {
	switch r {
	case tally.Win:
		return 1, true
	case tally.Draw:
		return 0.5, true
	case tally.Loss:
		return 0, true
	}
	return 0, false
}
