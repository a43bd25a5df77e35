package arbiter

import (
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

// MoveRecord is one move of the game as the referee accepted it.
type MoveRecord struct {
	Color rules.Color
	Move  rules.Move
	// Text is the move in PDN (Position.MoveText in the position before it).
	Text string
	// Used is the time the side took, from StartThinking to Submit (for a
	// move after a WCDF warning, from the first StartThinking of the turn).
	Used time.Duration
	// Clock is the side's remaining time after the move (increment and new
	// periods included); 0 when untimed.
	Clock time.Duration
	// Illegal marks an illegal move that the opponent let stand
	// (opponent-decides policy).
	Illegal bool
}

// Warning is an illegal move that did not lose: a WCDF warning, or an
// illegal move corrected at the opponent's choice (or stood, see Decision).
type Warning struct {
	Ply   int // number of moves played before it (index into Record.Moves)
	Color rules.Color
	Text  string // what was sent ("32-29", "garbage", ...)
	Why   string // why it is illegal (Explanation.Cited; for an engine's move also the position)
	// Explanation is why it is illegal, as a message code and arguments
	// (Explain; CodeUnreadable for text that is no move).
	Explanation Explanation
	// Decision is "" under wcdf, or "corrected" / "stands" under
	// opponent-decides.
	Decision string
}

// ClaimRecord is one draw claim, accepted or refused.
type ClaimRecord struct {
	Ply   int // number of moves played when it was made (with Move: before it)
	Color rules.Color
	Kind  Termination
	// Move is the PDN text of the move the claim was made with (a claim
	// before the move that repeats the position), "" otherwise.
	Move     string
	Auto     bool // made by the referee on the player's behalf (AutoClaim)
	Accepted bool
	Reason   string // why it was refused, or what made it valid, with the rule's article (Evidence.Cited)
	// Evidence is what the claim was judged on: where the position
	// occurred, or the N-move window.
	Evidence Evidence
}

// Record is the full record of a game.
type Record struct {
	Variant     *rules.Variant
	Start       rules.Position
	TimeControl [2]TimeControl
	Policy      Policy
	Moves       []MoveRecord
	Warnings    []Warning
	Claims      []ClaimRecord
	Decisions   []Decision // the arbiter's decisions (pause, add-time, result, ...)
	Result      Result
}
