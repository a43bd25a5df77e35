package rules

import "slices"

// SquareLetters are the letters of a position written one character a
// square, square 1 first, as the Hub and DXP protocols and the report's
// game viewer write it; each writes its own letters.
type SquareLetters struct {
	Empty, WhiteMan, BlackMan, WhiteKing, BlackKing byte
}

// AppendSquares appends p's squares to b, one letter a square from l,
// square 1 first (not the side to move). It runs before every move an
// engine is sent: one table lookup per square, from the bits of the three
// sets, and no allocation when b has room.
func (p Position) AppendSquares(b []byte, l SquareLetters) []byte {
	// The letter of a square indexed by white | black<<1 | king<<2: a
	// king bit on an empty square is no piece, and white wins over black
	// (neither can happen in a position).
	table := [8]byte{l.Empty, l.WhiteMan, l.BlackMan, l.WhiteMan, l.Empty, l.WhiteKing, l.BlackKing, l.WhiteKing}
	n := p.Variant().Squares()
	white, black, kings := p.Pieces(White), p.Pieces(Black), p.Kings()
	b = slices.Grow(b, n)
	out := b[len(b) : len(b)+n]
	for w := range white { // a Set is two words of 64 squares
		chunk := out[min(64*w, n):min(64*w+64, n)]
		wv, bv, kv := white[w], black[w], kings[w]
		for i := range chunk {
			chunk[i] = table[(wv&1|bv&1<<1|kv&1<<2)&7]
			wv, bv, kv = wv>>1, bv>>1, kv>>1
		}
	}
	return b[:len(b)+n]
}
