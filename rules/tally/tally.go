// Package tally is the vocabulary of an event's scores, one definition that
// every part of an event reads: what one round gave one player (the TRF16
// result codes of FIDE C.04 Annex 2), the colour they had, a player's
// history of rounds, the scoring systems (FMJD's 2-1-0, English checkers'
// 1-½-0 counted in half points) and how a score is written.
//
// It sits low in the flow, beside the rules: the Swiss pairing
// (match/schedule/swiss), the tie-breaks (reports/tiebreak), the sheets
// (reports/sheets), the reports, the director's events and the engine
// runner all import it; it imports nothing of the project.
package tally

import "strconv"

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

// FormatUnits writes a score in units of a Scoring the way the event's
// federation prints it: as the number itself on a whole-point scale (FMJD's
// 2-1-0: "7"), or halved with a ½ sign when the units are half points
// (English checkers' 1-½-0 kept as 2-1-0 units: "3½", "½"). Every page,
// sheet, audit line and report writes scores through this one function.
func FormatUnits(units int, halves bool) string {
	if !halves {
		return strconv.Itoa(units)
	}
	neg := units < 0
	if neg {
		units = -units
	}
	s := strconv.Itoa(units / 2)
	if units%2 == 1 {
		if units/2 == 0 {
			s = "½"
		} else {
			s += "½"
		}
	}
	if neg {
		s = "−" + s
	}
	return s
}
