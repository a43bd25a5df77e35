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

// Layout is what a board is made of: which of its squares are played and
// which lines join them.
type Layout uint8

// Layouts.
const (
	// DarkSquares: the dark half of the squares, joined along diagonals
	// (every diagonal variant); straight lines (Frisian's captures) join a
	// square to the one two rows up or down, or two columns aside.
	DarkSquares Layout = iota
	// AllSquares: every square, joined along ranks, files and diagonals
	// (Turkish, Dameo, Gothic).
	AllSquares
	// AlquerqueGrid: a grid of points joined by every rank and file, and by
	// diagonals through the points whose file+rank is even (a1, c1, b2, ...).
	AlquerqueGrid
)

// The eight absolute directions of the generic generator (grid.go), N
// towards row 0. Opposite directions differ by 4.
const (
	dirN = iota
	dirNE
	dirE
	dirSE
	dirS
	dirSW
	dirW
	dirNW
	numAbsDirs
)

// geometry holds the tables derived from a Board, computed once per variant.
type geometry struct {
	board    Board
	layout   Layout
	n        int                             // playable squares
	row, col [maxSquares + 1]int8            // by Square; row 0 is the top
	next     [maxSquares + 1][numDirs]Square // neighbour of a square in a direction, 0 if off board
	at       map[[2]int]Square               // (row, col) -> square
	// line is the neighbour along each absolute direction (dirN...): the
	// generic generator's table. On dark squares a straight neighbour is
	// two rows or two columns away.
	line [maxSquares + 1][numAbsDirs]Square
}

// absDeltas are the (row, col) steps of the absolute directions on a board
// of every square; dark squares double the straight ones.
var absDeltas = [numAbsDirs][2]int{{-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}}

// newLayoutGeometry builds the tables of a board of layout l.
func newLayoutGeometry(b Board, l Layout) (*geometry, error) {
	if l == DarkSquares {
		g, err := newGeometry(b)
		if err != nil {
			return nil, err
		}
		for sq := Square(1); int(sq) <= g.n; sq++ {
			for d, dl := range absDeltas {
				if dl[0] == 0 || dl[1] == 0 {
					dl = [2]int{2 * dl[0], 2 * dl[1]}
				}
				g.line[sq][d] = g.at[[2]int{int(g.row[sq]) + dl[0], int(g.col[sq]) + dl[1]}]
			}
		}
		return g, nil
	}
	if l > AlquerqueGrid {
		return nil, fmt.Errorf("rules: layout %d out of range", l)
	}
	if b.Width < 3 || b.Height < 3 || b.Width > 26 || b.Height > 26 || b.Width*b.Height > 64 || b.Mirrored {
		return nil, fmt.Errorf("rules: unsupported board %dx%d of all squares (at least 3x3, at most 64 squares, not mirrored)", b.Width, b.Height)
	}
	g := &geometry{board: b, layout: l, n: b.Width * b.Height, at: make(map[[2]int]Square)}
	for i := 0; i < g.n; i++ {
		sq := Square(i + 1)
		r, c := i/b.Width, i%b.Width
		g.row[sq], g.col[sq] = int8(r), int8(c)
		g.at[[2]int{r, c}] = sq
	}
	for i := 1; i <= g.n; i++ {
		sq := Square(i)
		r, c := int(g.row[sq]), int(g.col[sq])
		// file+rank even (a1 = 1+1): the points on Alquerque's diagonals
		onDiagonals := l == AllSquares || (c+1+b.Height-r)%2 == 0
		for d, dl := range absDeltas {
			if dl[0] != 0 && dl[1] != 0 && !onDiagonals {
				continue
			}
			g.line[sq][d] = g.at[[2]int{r + dl[0], c + dl[1]}]
		}
		g.next[sq] = [numDirs]Square{g.line[sq][dirNW], g.line[sq][dirNE], g.line[sq][dirSW], g.line[sq][dirSE]}
	}
	return g, nil
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

// Squares is the number of dark squares (the playable ones of a
// DarkSquares layout; Variant.Squares counts any layout's).
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
