// Package egdb is an endgame database: the game-theoretic value (win, draw
// or loss for the side to move, with perfect play) of every position of a
// variant with few pieces, computed by retrograde analysis from the rules
// themselves, stored compactly and probed in microseconds.
//
// A database is a directory with a table per material (Material): each
// position's value in two bits, indexed by the combinatorial rank of each
// kind of piece (men of each colour, kings of each colour). Build solves the
// tables from the fewest pieces up, so that the captures and promotions of
// a table lead into tables already solved; a table is written whole or not
// at all, so an interrupted build resumes at the table it was solving.
//
// What a database can encode: the rules of play (compulsory captures, the
// majority and king-preference rules, promotion, the end of the game when a
// side has no move). What it cannot: the rules that depend on the history
// of a game rather than its position (threefold repetition, the N-move
// rules, FMJD's 16- and 5-move rules for kings' endings, WCDF's 40-move
// rule): a position it calls won may be drawn under them if the win takes
// too long. Adjudication uses the values as the truth of the position.
//
// It knows nothing of engines, files other than its own, or clocks; it may
// be imported by anything that needs the value of a position (the
// adjudication of engine games, the web referee's arbiter, the command
// line). It imports only the rules.
package egdb

import "github.com/draughts-arbiter/arbiter/rules"

// Reason starts the reason of every game result an endgame database
// decides ("adjudicated by endgame database: White wins (4 pieces)"), so
// that records and reports can tell such games apart.
const Reason = "adjudicated by endgame database"

// Termination is how the reports count such games.
const Termination = "adjudication by endgame database"

// Value is a position's value for the side to move.
type Value uint8

// Values. Unknown is a position the database does not hold.
const (
	Unknown Value = iota
	Win
	Loss
	Draw
)

func (v Value) String() string {
	switch v {
	case Win:
		return "win"
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	}
	return "unknown"
}

// Outcome is v, the value for side to move, as the game's result.
func (v Value) Outcome(turn rules.Color) rules.Outcome {
	switch v {
	case Win:
		return rules.WinFor(turn)
	case Loss:
		return rules.WinFor(turn.Opponent())
	case Draw:
		return rules.Draw
	}
	return rules.Ongoing
}

// valueOf is a finished position's outcome as a value for turn.
func valueOf(o rules.Outcome, turn rules.Color) Value {
	switch o {
	case rules.Draw:
		return Draw
	case rules.WinFor(turn):
		return Win
	case rules.WinFor(turn.Opponent()):
		return Loss
	}
	return Unknown
}
