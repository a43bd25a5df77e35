package rules

import (
	"math/rand/v2"
	"testing"
)

// TestQuietMoveCount: on random positions of a few pieces (English: short
// kings; international, Russian, Brazilian: flying kings, men capturing
// backwards), whenever QuietMoveCount answers, LegalMoves has exactly that
// many moves (none: no move at all), none a capture or a crowning; and it
// answers for every position whose moves are all plain and none crowns, so
// that it does not hide behind "ask LegalMoves".
func TestQuietMoveCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 5))
	for _, name := range []string{"english", "international", "russian", "brazilian"} {
		v := MustLookup(name)
		answered, quiet := 0, 0
		for range 20000 {
			var white, black, kings Set
			for i := 0; i < 2+rng.IntN(5); i++ {
				sq := Square(1 + rng.IntN(v.Squares()))
				if white.Union(black).Has(sq) {
					continue
				}
				if rng.IntN(2) == 0 {
					white = white.With(sq)
				} else {
					black = black.With(sq)
				}
				if rng.IntN(2) == 0 || v.Crowns(White, sq) || v.Crowns(Black, sq) {
					kings = kings.With(sq)
				}
			}
			if white.Empty() || black.Empty() {
				continue
			}
			turn := White
			if rng.IntN(2) == 0 {
				turn = Black
			}
			p := Setup(v, turn, white, black, kings)
			moves := p.LegalMoves()
			allQuiet := true
			for _, m := range moves {
				if m.IsCapture() || m.Promotes {
					allQuiet = false
				}
			}
			if allQuiet {
				quiet++
			}
			n, ok := p.QuietMoveCount()
			if !ok {
				if allQuiet {
					t.Fatalf("%s %s: every move is plain, but QuietMoveCount does not answer", name, p.FEN())
				}
				continue
			}
			answered++
			if !allQuiet || n != len(moves) {
				t.Fatalf("%s %s: QuietMoveCount = %d, but the legal moves are %v", name, p.FEN(), n, moves)
			}
		}
		if answered == 0 || answered != quiet {
			t.Fatalf("%s: answered %d of %d positions with plain moves only", name, answered, quiet)
		}
	}
}
