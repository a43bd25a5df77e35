package match

import (
	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/rules"
)

// LevelFor is the search level PlayGame gives side c (to move in ref,
// whose game started from start) under tc: what other drivers of a
// referee (match/people/online's engine opponent) ask an engine with.
func LevelFor(ref *arbiter.Referee, start rules.Position, c rules.Color, tc arbiter.TimeControl) Level {
	return levelFor(ref, c, tc, ownMoves(start, c, len(ref.Moves())))
}
