package check

import (
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// The default positions are the start and positions with a single and a
// multiple capture, in every preset that reaches them.
func TestPositions(t *testing.T) {
	for _, name := range []string{"english", "international"} {
		v := rules.MustLookup(name)
		ps := Positions(v)
		if len(ps) != 3 || ps[0] != rules.NewPosition(v) {
			t.Fatalf("%s: %d positions", name, len(ps))
		}
		for i, p := range ps[1:] {
			moves := p.LegalMoves()
			if len(moves) == 0 || !moves[0].IsCapture() {
				t.Errorf("%s: position %d (%s) has no capture", name, i+2, p.FEN())
			}
		}
		most := 0
		for _, m := range ps[2].LegalMoves() {
			most = max(most, m.Captured.Len())
		}
		if most < 2 {
			t.Errorf("%s: position 3 (%s) has no multiple capture", name, ps[2].FEN())
		}
	}
}
