// Package swiss pairs the rounds of a Swiss event by the Dutch system of the
// FIDE Handbook (C.04.1 general rules, C.04.3 the Dutch system, C.04.5.1 Baku
// acceleration, or any C.04.5 acceleration written out per player; prohibited
// pairs), or by the Burstein system (C.04.4.2). It knows nothing about engines, people, clocks or storage:
// the state of an event is its players and what each did in every round, and
// Pair gives the next round from it. The same state gives the same pairing,
// as in the reference programs (JaVaFo, bbpPairings).
//
// The state it reads is the event's vocabulary (rules/tally: players, their
// histories, results, scoring), which the tie-breaks, the sheets, the TRF16
// format (match/schedule/swiss/trf), the director's events and the engine
// runner share. Both wings may import it: the engine runner's Swiss
// (match/engines/tournament) and the director's events (match/people/director).
package swiss

import (
	"errors"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// Options are the event's settings that the pairing needs.
type Options struct {
	// Rounds is the number of rounds of the event (the last round relaxes
	// some criteria for the topscorers, C.04.3 A.7).
	Rounds  int
	Scoring tally.Scoring // zero value: DefaultScoring
	// Baku applies the Baku acceleration (C.04.5.1) to the first rounds.
	Baku bool
	// Acceleration, when not nil, gives the virtual points (in the units
	// of Scoring) each player, by pairing number, adds to the pairing score
	// in each round (index 0 for round 1), as a TRF's XXA or 250 records
	// give them: any acceleration method of C.04.5 written out. It
	// replaces Baku; a player or round it does not list adds nothing.
	Acceleration map[int][]int
	// Forbidden lists groups of players, by pairing number, of whom no two
	// may be paired in this round (a TRF's XXP or 260 records: players of
	// one family or club). Pair treats them as C.1 treats a rematch.
	Forbidden [][]int
	// FirstColor is the colour the first player in the initial order gets
	// when neither player has a preference (C.04.3 E.5, drawn by lot before
	// round 1); NoColor: inferred from the history as bbpPairings does
	// (InferFirstColor), White when no round has a colour yet.
	FirstColor tally.Color
	// System is the pairing system: Dutch (the zero value) or Burstein
	// (C.04.4.2: Dutch seeding rounds, then Burstein; see SeedingRounds).
	System System
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
