package rules

import (
	"fmt"
	"strings"
)

// Outcome is how a game ended, from neither side's point of view. It is the
// one result vocabulary of the program: the referee decides one, the store
// and the reports read one back, and PDN results are written and parsed
// here (PDN and ParseResult). The zero Outcome is a game not over.
type Outcome uint8

// Outcomes.
const (
	Ongoing Outcome = iota // "*": not over, or the result is unknown
	WhiteWins
	BlackWins
	Draw
	// DoubleForfeit is "0-0", the double forfeit of the PDN 3.0 reading
	// grammar (both sides lose). The referee never decides one; it is read
	// from records, scores nothing for either side and is not rated.
	DoubleForfeit
)

// WinFor returns the outcome in which c wins.
func WinFor(c Color) Outcome {
	if c == White {
		return WhiteWins
	}
	return BlackWins
}

// NoMoveOutcome is the outcome when side, to move, has no legal move: it
// loses, or wins in a losing variant. This is the one place that rule lives.
func (v *Variant) NoMoveOutcome(side Color) Outcome {
	if v.p.Losing {
		return WinFor(side)
	}
	return WinFor(side.Opponent())
}

// EndReason is the outcome of p and why, for a result: Ongoing and ""
// while the side to move has a legal move; otherwise "White has no pieces
// left" or "White has no legal move" (blocked: a loss), "... and wins
// (losing variant)", or in Breakthrough, whose game a crowned man ends,
// "Black reached the back row (d1) and wins". The side is named as the
// referee's own reasons name it (Color.Name). It is Position.Outcome with the reason, and costs as much.
func (p Position) EndReason() (Outcome, string) {
	if p.HasMoves() {
		return Ongoing, ""
	}
	if c, sq, ok := p.backRowWinner(); ok {
		return WinFor(c), fmt.Sprintf("%s reached the back row (%s) and wins", c.Name(), p.v.SquareName(sq))
	}
	side := p.turn
	o := p.v.NoMoveOutcome(side)
	if o == WinFor(side) {
		return o, fmt.Sprintf("%s %s and wins (losing variant)", side.Name(), p.NoMoveWhy())
	}
	return o, fmt.Sprintf("%s %s", side.Name(), p.NoMoveWhy())
}

// OutOfPieces reports whether the side to move has no pieces left (all
// taken), as against blocked: both cannot move (FMJD art. 7, WCDF).
func (p Position) OutOfPieces() bool { return p.Pieces(p.turn).Empty() }

// NoMoveWhy says why the side to move, having no legal move, cannot move:
// "has no pieces left" or "has no legal move" (blocked). The one wording
// for a result's reason.
func (p Position) NoMoveWhy() string {
	if p.OutOfPieces() {
		return "has no pieces left"
	}
	return "has no legal move"
}

// backRowWinner is, in a finished Breakthrough position, the side whose
// man was crowned and its square.
func (p Position) backRowWinner() (Color, Square, bool) {
	if !p.finished() {
		return White, 0, false
	}
	// The side that just moved first: only a FEN could crown both.
	for _, c := range [2]Color{p.turn.Opponent(), p.turn} {
		for sq := range p.Pieces(c).Intersect(p.kings).All() {
			return c, sq, true
		}
	}
	return White, 0, false
}

// Scored reports whether the game shares a point between the sides: a win
// or a draw. Ongoing games and double forfeits are not rated.
func (o Outcome) Scored() bool { return o == WhiteWins || o == BlackWins || o == Draw }

// Points is c's score in the game: 1 for a win, 0.5 for a draw, else 0.
func (o Outcome) Points(c Color) float64 {
	switch o {
	case Draw:
		return 0.5
	case WinFor(c):
		return 1
	}
	return 0
}

// String returns "ongoing", "white wins", "black wins", "draw" or
// "double forfeit".
func (o Outcome) String() string {
	switch o {
	case Ongoing:
		return "ongoing"
	case WhiteWins:
		return "white wins"
	case BlackWins:
		return "black wins"
	case Draw:
		return "draw"
	case DoubleForfeit:
		return "double forfeit"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// PDN writes o as a PDN result: "1-0", "0-1", "1/2-1/2", or with wide
// (variants scored out of two: Variant.WideResults) "2-0", "0-2", "1-1";
// "0-0" for a double forfeit and "*" for a game not over.
func (o Outcome) PDN(wide bool) string {
	switch o {
	case WhiteWins:
		if wide {
			return "2-0"
		}
		return "1-0"
	case BlackWins:
		if wide {
			return "0-2"
		}
		return "0-1"
	case Draw:
		if wide {
			return "1-1"
		}
		return "1/2-1/2"
	case DoubleForfeit:
		return "0-0"
	}
	return "*"
}

// ParseResult reads a PDN result, the inverse of PDN: the narrow forms
// "1-0", "0-1", "1/2-1/2" (also "½-½"), the wide forms "2-0", "0-2", "1-1",
// "0-0" (a double forfeit), and "*" or "" (no result) for a game not over.
// wide says which form the text used.
func ParseResult(s string) (o Outcome, wide bool, err error) {
	switch strings.TrimSpace(s) {
	case "1-0":
		return WhiteWins, false, nil
	case "0-1":
		return BlackWins, false, nil
	case "1/2-1/2", "½-½":
		return Draw, false, nil
	case "2-0":
		return WhiteWins, true, nil
	case "0-2":
		return BlackWins, true, nil
	case "1-1":
		return Draw, true, nil
	case "0-0":
		return DoubleForfeit, true, nil
	case "*", "":
		return Ongoing, false, nil
	}
	return Ongoing, false, fmt.Errorf("unknown result %q (want 1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1, 0-0 or *)", s)
}
