// Package trf reads and writes the FIDE Tournament Report File, TRF16
// (FIDE Handbook C.04 Annex 2) and TRF-2026 (its records 142, 152, 162,
// 192, 240, 250 and 260; see Version), for a whole event: the tournament header
// (012 to 132), one 001 line per player with the history of every round, and
// the extensions the pairing programs read (JaVaFo's and bbpPairings' XXR,
// XXC, XXA, XXS and XXP). Rating offices read the file for rating; pairing programs
// read it to pair the next round, which is why the columns are fixed and
// exactly those of the specification.
//
// Columns here are 1-based and count characters (UTF-8 runes), as the
// specification and the pairing programs do.
//
// Imported by the director (match/people/director) and the pairing tests; it
// imports only the event vocabulary (rules/tally).
package trf

import (
	"fmt"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// Event is one tournament as a TRF16 file holds it.
type Event struct {
	Name         string   // 012
	City         string   // 022
	Federation   string   // 032
	StartDate    string   // 042, as written (the specification asks YYYY/MM/DD)
	EndDate      string   // 052
	NumPlayers   int      // 062; 0 when the file has none
	RatedPlayers int      // 072; 0 when the file has none
	Type         string   // 092, e.g. "Individual: Swiss-System Dutch"
	Arbiter      string   // 102, the chief arbiter
	Deputies     []string // 112, one line each
	TimeControl  string   // 122
	// RoundDates (132) has one date per round, as written (YY/MM/DD); ""
	// for a round without one.
	RoundDates []string

	// Rounds is the number of rounds of the event (XXR), which a pairing
	// program needs before the last round is paired; 0 for none.
	Rounds int
	// FirstColor (XXC white1 or black1) is the colour the top player had,
	// or is to have, in round 1; NoColor when the file does not say.
	FirstColor tally.Color
	// PointSystem (XXS) is the points of each result when the file gives
	// them; nil means FIDE's 1 - 1/2 - 0.
	PointSystem *PointSystem

	Players []Player

	// Version is the format read (TRF26 when the file has any record of
	// TRF-2026: 142, 152, 162, 192, 240, 250, 260), and the one Write
	// writes.
	Version Version
	// System is the encoded type of tournament (TRF-2026 record 192), e.g.
	// FIDE_DUTCH_2025 or FIDE_DUTCH_2025_BAKU; "" when not given.
	System string
	// Forbidden are the prohibited pairings: TRF-2026 260 records (with
	// their rounds) and JaVaFo's XXP lines (every round).
	Forbidden []Forbidden

	// Extra holds the lines this package does not interpret (comments
	// "###", the bbpPairings BB* scoring lines, XXP, DAT, team lines...),
	// as read, in order; Write writes them after the players.
	Extra []string

	// HeaderLines gives the line of each header and extension line read
	// (by code: "012", "XXR"...), so that a caller can name it in an error.
	HeaderLines map[string]int
}

// Version is a TRF format version.
type Version int

const (
	// TRF16 is the 2016 format with JaVaFo's and bbpPairings' extensions
	// (XXR, XXC, XXS, XXA, XXP).
	TRF16 Version = iota
	// TRF26 is the 2026 format (FIDE, applied from 1 September 2025): the
	// same 001 lines, and records 142 (rounds), 152 (initial colour), 162
	// (point system), 192 (type), 240 (byes), 250 (accelerations) and 260
	// (prohibited pairings) for what the extensions said.
	TRF26
)

// Forbidden is a group of players of whom no two may be paired in rounds
// First to Last (1-based, inclusive); First 0 means every round (XXP).
type Forbidden struct {
	First, Last int
	Players     []int
}

// In reports whether f applies to round r (1-based).
func (f Forbidden) In(r int) bool { return f.First == 0 || (r >= f.First && r <= f.Last) }

// Baku reports whether the file asks for the Baku acceleration by its
// type (192 ..._BAKU) and gives no accelerations of its own (XXA or 250),
// which take precedence (TRF-2026, 250 records).
func (e *Event) Baku() bool {
	for _, p := range e.Players {
		if len(p.Acceleration) > 0 {
			return false
		}
	}
	return strings.HasSuffix(e.System, "_BAKU")
}

// Player is one 001 line: the pairing state (tally.Player: Number is the
// start rank, Rating the FIDE rating, History one entry per round) and the
// identity and standing the rating office reads. Absent is not part of the
// file: PairingState sets it.
type Player struct {
	tally.Player
	Sex        string // "m" or "w" (or "f"), one character; "" for none
	Title      string // GM, IM, WGM, FM, WIM, CM, WFM, WCM: at most 3 characters
	Name       string // "Lastname, Firstname", at most 33 characters
	Federation string // 3 characters
	FIDEID     string // at most 11 characters, as written
	Birth      string // YYYY/MM/DD, at most 10 characters
	// Points is the player's score in tenths of a point, as the file
	// writes it (4.5 is 45), including any acceleration the program added.
	Points int
	Rank   int // the place in the standings; 0 for none
	// Acceleration (XXA) is the virtual points the player gets in each
	// round, in tenths, for accelerated pairings; nil for none.
	Acceleration []int
	// Line is the line of the 001 line in the file read (0 when the
	// player was not read from a file), for a caller's errors.
	Line int
}

// RoundColumn is the column where round r (1-based) starts on a 001 line.
func RoundColumn(r int) int { return roundColumn(r) }

// PointSystem is the score of each result, in tenths of a point (1.0 is 10),
// as the XXS line writes it.
type PointSystem struct {
	Win, Draw, Loss         int
	ForfeitWin, ForfeitLoss int
	PairingBye              int // PAB, the pairing-allocated bye
	FullBye, HalfBye        int // FPB, HPB: requested byes
	ZeroBye                 int // ZPB: a requested zero-point bye, or absent
}

// FIDEPoints is FIDE's point system: 1 - 1/2 - 0, a forfeit win and every
// full-point bye 1, a half-point bye 1/2.
var FIDEPoints = PointSystem{Win: 10, Draw: 5, Loss: 0, ForfeitWin: 10, ForfeitLoss: 0, PairingBye: 10, FullBye: 10, HalfBye: 5, ZeroBye: 0}

// Scoring is p as a tally.Scoring, in the largest unit that counts every
// value exactly: FIDE's 1 - 1/2 - 0 becomes 2-1-0.
func (p PointSystem) Scoring() tally.Scoring {
	s, _ := p.ScoringWith()
	return s
}

// ScoringWith is Scoring in a unit that also counts the extra values
// (accelerations, in tenths) exactly, and that unit in tenths: an
// acceleration a is a/unit in the scoring's units.
func (p PointSystem) ScoringWith(extra ...int) (tally.Scoring, int) {
	vals := append([]int{p.Win, p.Draw, p.Loss, p.ForfeitWin, p.PairingBye, p.FullBye, p.HalfBye, p.ZeroBye}, extra...)
	g := 0
	for _, v := range vals {
		g = gcd(g, v)
	}
	if g == 0 {
		g = 1
	}
	return tally.Scoring{
		Win: p.Win / g, Draw: p.Draw / g, Loss: p.Loss / g,
		ForfeitWin: p.ForfeitWin / g, PairingBye: p.PairingBye / g,
		FullBye: p.FullBye / g, HalfBye: p.HalfBye / g, ZeroBye: p.ZeroBye / g,
	}, g
}

// PointSystemOf writes the scoring s in tenths of a point, each unit of s
// being tenths tenths: 5 for a scoring in half points (2-1-0 written as
// 1 - 1/2 - 0), 10 when the file is to show 2-1-0 as is.
func PointSystemOf(s tally.Scoring, tenths int) PointSystem {
	return PointSystem{
		Win: s.Win * tenths, Draw: s.Draw * tenths, Loss: s.Loss * tenths,
		ForfeitWin: s.ForfeitWin * tenths, ForfeitLoss: s.Loss * tenths,
		PairingBye: s.PairingBye * tenths, FullBye: s.FullBye * tenths,
		HalfBye: s.HalfBye * tenths, ZeroBye: s.ZeroBye * tenths,
	}
}

func gcd(a, b int) int {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// PairingState gives the players as swiss.Pair needs them to pair the next
// round. A pairing program's TRF may already hold, in the column of the
// round to pair, the requested byes and absences of that round (0000 - H,
// F or Z) while the other players have nothing there yet: those players
// are Absent and that entry is left out of their History (the caller
// records it once the round is paired). Players whose line stops earlier
// (late entries) are padded with zero-point byes. When every player has
// the last column, it is a finished round like the others.
func (e *Event) PairingState() ([]tally.Player, error) {
	last := 0
	for i := range e.Players {
		last = max(last, len(e.Players[i].History))
	}
	complete := true
	for i := range e.Players {
		if len(e.Players[i].History) != last {
			complete = false
		}
	}
	played := last
	if !complete {
		played = last - 1
	}
	out := make([]tally.Player, len(e.Players))
	for i := range e.Players {
		p := e.Players[i].Player
		h := p.History
		if len(h) > played {
			ahead := h[played]
			switch ahead.Result {
			case tally.FullBye, tally.HalfBye, tally.ZeroBye:
			default:
				return nil, fmt.Errorf("trf: round %d is not finished (player %d has no entry) but player %d has %q in it, which is not a requested bye",
					last, firstShort(e.Players, last), p.Number, ahead.Result)
			}
			h = h[:played]
			p.Absent = true
		}
		hist := make([]tally.Entry, played)
		copy(hist, h)
		for r := len(h); r < played; r++ {
			hist[r] = tally.Entry{Result: tally.ZeroBye}
		}
		p.History = hist
		out[i] = p
	}
	return out, nil
}

func firstShort(ps []Player, n int) int {
	for i := range ps {
		if len(ps[i].History) < n {
			return ps[i].Number
		}
	}
	return 0
}
