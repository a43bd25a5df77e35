package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Square is a playable square in the PDN numbering of its board: 1 is the first
// dark square of the top row (Black's side), numbers run left to right, row by
// row. Zero means "no square".
type Square uint8

// Direction indexes the four diagonal directions. "Up" is towards row 0, the
// top of the diagram, where White promotes.
type Direction uint8

// The diagonal directions, in the order used by neighbour tables.
const (
	UpLeft Direction = iota
	UpRight
	DownLeft
	DownRight
	numDirs
)

// maxSquares bounds the playable squares of any supported board (a Set holds 128).
const maxSquares = 128

// Board is the geometry of a diagonal draughts board: Width x Height squares of
// which only the dark half is used. Mirrored boards (Italian, Spanish,
// Portuguese) have the dark squares on the other colour: the top row's dark
// squares start in the first column instead of the second. The numbering still
// runs left to right from the top.
type Board struct {
	Width, Height int
	Mirrored      bool
}

// geometry holds the tables derived from a Board, computed once per variant.
type geometry struct {
	board    Board
	n        int                             // playable squares
	row, col [maxSquares + 1]int8            // by Square; row 0 is the top
	next     [maxSquares + 1][numDirs]Square // neighbour of a square in a direction, 0 if off board
	at       map[[2]int]Square               // (row, col) -> square
}

func newGeometry(b Board) (*geometry, error) {
	// Each side is bounded first: Width*Height of huge sides would overflow
	// and pass the square count.
	if b.Width < 4 || b.Height < 4 || b.Width > maxSquares || b.Height > maxSquares ||
		b.Width%2 != 0 || b.Width*b.Height/2 > maxSquares {
		return nil, fmt.Errorf("rules: unsupported board %dx%d (width must be even, at least 4x4, at most %d dark squares)", b.Width, b.Height, maxSquares)
	}
	g := &geometry{board: b, n: b.Width * b.Height / 2, at: make(map[[2]int]Square)}
	half := b.Width / 2
	for i := 0; i < g.n; i++ {
		sq := Square(i + 1)
		r, k := i/half, i%half
		c := 2*k + 1 - r%2
		if b.Mirrored {
			c = 2*k + r%2
		}
		g.row[sq], g.col[sq] = int8(r), int8(c)
		g.at[[2]int{r, c}] = sq
	}
	deltas := [numDirs][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
	for i := 1; i <= g.n; i++ {
		sq := Square(i)
		for d, dl := range deltas {
			g.next[sq][d] = g.at[[2]int{int(g.row[sq]) + dl[0], int(g.col[sq]) + dl[1]}]
		}
	}
	return g, nil
}

// Squares is the number of playable squares.
func (b Board) Squares() int { return b.Width * b.Height / 2 }

// Algebraic returns the algebraic name of sq (a1 is the bottom-left corner).
func (g *geometry) algebraic(sq Square) string {
	return fmt.Sprintf("%c%d", 'a'+rune(g.col[sq]), g.board.Height-int(g.row[sq]))
}

// parseSquare reads a square as a number ("32") or an algebraic name ("c3").
func (g *geometry) parseSquare(s string) (Square, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("%w: empty square", ErrSyntax)
	}
	if c := s[0] | 0x20; c >= 'a' && c <= 'z' {
		rank, err := strconv.Atoi(s[1:])
		if err != nil || !allDigits(s[1:]) {
			return 0, fmt.Errorf("%w: bad square %q", ErrSyntax, s)
		}
		sq, ok := g.at[[2]int{g.board.Height - rank, int(c - 'a')}]
		if !ok {
			return 0, fmt.Errorf("%w: %q is not a playable square", ErrSyntax, s)
		}
		return sq, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || !allDigits(s) {
		return 0, fmt.Errorf("%w: bad square %q", ErrSyntax, s)
	}
	if n < 1 || n > g.n {
		return 0, fmt.Errorf("%w: square %d is off the board (1-%d)", ErrSyntax, n, g.n)
	}
	return Square(n), nil
}

// allDigits reports whether s is a plain decimal number (Atoi also takes signs).
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
