package rules

import "testing"

// TestAppendSquares: one letter a square, square 1 first, for a board of
// more than 64 squares too (the second word of the sets), read back square
// by square with Piece.
func TestAppendSquares(t *testing.T) {
	l := SquareLetters{Empty: '.', WhiteMan: 'w', BlackMan: 'b', WhiteKing: 'W', BlackKing: 'B'}
	for _, name := range []string{"english", "international", "canadian"} {
		v, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		n := v.Squares()
		white := SetOf(1, Square(n))
		black := SetOf(2, Square(n-1))
		if n > 64 {
			white, black = white.With(65), black.With(64)
		}
		p := Setup(v, White, white, black, SetOf(2, Square(n)))
		got := string(p.AppendSquares([]byte("x"), l))
		if w, b, k, bad := ReadSquares(got[1:], l); bad != 0 || w != p.Pieces(White) || b != p.Pieces(Black) || k != p.Kings() {
			t.Fatalf("%s: ReadSquares(%q) does not read back the position (bad square %d)", name, got[1:], bad)
		}
		if _, _, _, bad := ReadSquares("..x", l); bad != 3 {
			t.Fatalf("an unknown letter at square 3 reported at %d", bad)
		}
		if len(got) != n+1 || got[0] != 'x' {
			t.Fatalf("%s: %q", name, got)
		}
		for sq := 1; sq <= n; sq++ {
			want := byte('.')
			if c, k, ok := p.Piece(Square(sq)); ok {
				want = map[[2]bool]byte{{true, false}: 'w', {true, true}: 'W', {false, false}: 'b', {false, true}: 'B'}[[2]bool{c == White, k == King}]
			}
			if got[sq] != want {
				t.Fatalf("%s: square %d is %q, want %q (%q)", name, sq, got[sq], want, got)
			}
		}
	}
}
