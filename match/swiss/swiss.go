// Package swiss pairs the rounds of a Swiss event by the Dutch system of the
// FIDE Handbook (C.04.1 general rules, C.04.3 the Dutch system, C.04.5.1 Baku
// acceleration). It knows nothing about engines, people, clocks or storage:
// the state of an event is its players and what each did in every round, and
// Pair gives the next round from it. The same state gives the same pairing,
// as in the reference programs (JaVaFo, bbpPairings).
//
// The types here are also the event state that the tie-breaks
// (reports/tiebreak), the TRF16 format (match/swiss/trf), the director's
// events (match/director) and the engine runner's Swiss (match/tournament)
// share: one definition of a player's history.
package swiss

import "errors"

// Color is the colour a player had in one round.
type Color int8

// Colours. NoColor is a round without a game over the board (a bye, a
// forfeit, an absence).
const (
	NoColor Color = iota
	White
	Black
)

// Result is what one round gave one player, written with the TRF16 codes
// (FIDE C.04 Annex 2), so that a history reads and writes as a TRF does.
type Result byte

// Results. A game is "played" (over the board) for 1 = 0 and W D L; the
// others are unplayed rounds, which the pairing and tie-break rules treat
// differently (C.04.1, C.07).
const (
	Win         Result = '1'
	Draw        Result = '='
	Loss        Result = '0'
	UnratedWin  Result = 'W' // played, not rated
	UnratedDraw Result = 'D'
	UnratedLoss Result = 'L'
	ForfeitWin  Result = '+' // the opponent did not appear
	ForfeitLoss Result = '-' // this player did not appear
	PairingBye  Result = 'U' // the pairing-allocated bye (PAB)
	FullBye     Result = 'F' // a requested full-point bye
	HalfBye     Result = 'H' // a requested half-point bye
	ZeroBye     Result = 'Z' // a requested zero-point bye, or absent
)

// Entry is one round of a player's history.
type Entry struct {
	Opponent int // the opponent's pairing number; 0 for none (byes, absence)
	Color    Color
	Result   Result
}

// Played reports whether the round was a game over the board.
func (e Entry) Played() bool {
	switch e.Result {
	case Win, Draw, Loss, UnratedWin, UnratedDraw, UnratedLoss:
		return e.Opponent != 0
	}
	return false
}

// Player is one entrant and the rounds played so far.
type Player struct {
	// Number is the pairing number, 1-based: the order of the initial
	// ranking (rating, then title, then name, as the director decided).
	Number int
	Rating int
	// History has one entry per round already paired and finished, in
	// round order.
	History []Entry
	// Absent players are not paired in the coming round (withdrawn, or a
	// requested bye that the caller records in History afterwards).
	Absent bool
}

// Scoring gives the points of each result, in integer units: FMJD's 2-1-0
// (the default) is 1-1/2-0 counted in half points, so English checkers
// scores the same and prints half of it.
type Scoring struct {
	Win, Draw, Loss int
	// ForfeitWin, PairingBye, FullBye, HalfBye, ZeroBye: the points of the
	// unplayed rounds; FIDE's defaults are Win, Win, Win, Draw and Loss.
	ForfeitWin, PairingBye, FullBye, HalfBye, ZeroBye int
}

// DefaultScoring is 2-1-0 with FIDE's values for the unplayed rounds.
var DefaultScoring = Scoring{Win: 2, Draw: 1, Loss: 0, ForfeitWin: 2, PairingBye: 2, FullBye: 2, HalfBye: 1, ZeroBye: 0}

// Points is what r gives under s.
func (s Scoring) Points(r Result) int {
	switch r {
	case Win, UnratedWin:
		return s.Win
	case Draw, UnratedDraw:
		return s.Draw
	case Loss, UnratedLoss, ForfeitLoss:
		return s.Loss
	case ForfeitWin:
		return s.ForfeitWin
	case PairingBye:
		return s.PairingBye
	case FullBye:
		return s.FullBye
	case HalfBye:
		return s.HalfBye
	}
	return s.ZeroBye
}

// Score is the player's total under s.
func (p *Player) Score(s Scoring) int {
	t := 0
	for _, e := range p.History {
		t += s.Points(e.Result)
	}
	return t
}

// Options are the event's settings that the pairing needs.
type Options struct {
	// Rounds is the number of rounds of the event (the last round relaxes
	// some criteria for the topscorers, C.04.3 A.7).
	Rounds  int
	Scoring Scoring // zero value: DefaultScoring
	// Baku applies the Baku acceleration (C.04.5.1) to the first rounds.
	Baku bool
	// FirstColor is the colour the first player in the initial order gets
	// when neither player has a preference (C.04.3 E.5, drawn by lot before
	// round 1); NoColor means White.
	FirstColor Color
}

// Board is one pairing of a round: pairing numbers of White and Black.
type Board struct{ White, Black int }

// Round is a round's pairing in board order, and the player given the
// pairing-allocated bye (0 for none).
type Round struct {
	Boards []Board
	Bye    int
}

// ErrNoPairing is Pair's error when no pairing satisfies the absolute
// criteria (C.04.3 C.1-C.3): the director must pair the round by hand.
var ErrNoPairing = errors.New("swiss: no pairing satisfies the absolute criteria")
