package swiss

import "github.com/draughts-arbiter/arbiter/rules/tally"

// Pairer pairs the next round of a Swiss event from the players' histories,
// as Pair does; the engines' runner and the director take one so that a
// test (or another pairing program) can stand in for Pair.
type Pairer func(players []tally.Player, opt Options) (Round, error)

var _ Pairer = Pair
