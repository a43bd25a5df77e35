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

// ReadSquares reads squares written one letter a square with l, square 1
// first (AppendSquares' inverse): the sets of white pieces, black pieces and
// kings. bad is the first square (1-based) whose letter is none of l's, 0
// when every letter is one; s's length is the caller's to check.
func ReadSquares(s string, l SquareLetters) (white, black, kings Set, bad int) {
	for i := 0; i < len(s); i++ {
		sq := Square(i + 1)
		switch s[i] {
		case l.Empty:
		case l.WhiteMan:
			white = white.With(sq)
		case l.BlackMan:
			black = black.With(sq)
		case l.WhiteKing:
			white, kings = white.With(sq), kings.With(sq)
		case l.BlackKing:
			black, kings = black.With(sq), kings.With(sq)
		default:
			return white, black, kings, i + 1
		}
	}
	return white, black, kings, 0
}
