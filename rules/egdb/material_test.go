package egdb

import (
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// TestReachMissesNoMove: every capture and promotion from a sample of the
// positions of every table up to four pieces (English: short kings, men
// capture forward; international: flying kings, men capture backward,
// promotion only at the end of a capture) leads into a material reach
// lists, since a build keeps only those tables in memory.
func TestReachMissesNoMove(t *testing.T) {
	for _, name := range []string{"english", "international"} {
		v := rules.MustLookup(name)
		for _, m := range Materials(4) {
			tb, err := newTable(v, m)
			if err != nil {
				t.Fatal(err)
			}
			r := map[Material]bool{}
			for _, x := range reach(m) {
				r[x] = true
			}
			var moves []rules.Move
			for i := uint64(0); i < 2*tb.size; i += 37 {
				p, ok := tb.position(i)
				if !ok {
					continue
				}
				moves = p.AppendLegalMoves(moves[:0])
				for _, mv := range moves {
					if !mv.IsCapture() && !mv.Promotes {
						continue
					}
					q := MaterialOf(p.Play(mv))
					if q.WhiteMen+q.WhiteKings > 0 && q.BlackMen+q.BlackKings > 0 && !r[q] {
						t.Fatalf("%s %s: %s after %v is %s, not in reach %v", name, m, p.FEN(), mv, q, reach(m))
					}
				}
			}
		}
	}
}
