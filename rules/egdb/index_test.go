package egdb

import (
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// TestIndexRoundTrip: every index of a few tables is a hole or a position
// whose index is itself, and every position of the table has an index.
func TestIndexRoundTrip(t *testing.T) {
	for _, c := range []struct {
		variant string
		m       Material
	}{
		{"english", Material{1, 0, 1, 0}},
		{"english", Material{1, 1, 0, 1}},
		{"english", Material{2, 0, 0, 1}},
		{"international", Material{0, 1, 1, 0}},
		{"international", Material{1, 1, 0, 1}},
	} {
		v := rules.MustLookup(c.variant)
		tb, err := newTable(v, c.m)
		if err != nil {
			t.Fatal(err)
		}
		valid := 0
		for i := uint64(0); i < 2*tb.size; i++ {
			p, ok := tb.position(i)
			if !ok {
				continue
			}
			valid++
			if MaterialOf(p) != c.m {
				t.Fatalf("%s %s: index %d is %s, material %s", c.variant, c.m, i, p.FEN(), MaterialOf(p))
			}
			j, ok := tb.index(p)
			if !ok || j != i {
				t.Fatalf("%s %s: index %d -> %s -> %d (%v)", c.variant, c.m, i, p.FEN(), j, ok)
			}
		}
		if valid == 0 {
			t.Fatalf("%s %s: no position", c.variant, c.m)
		}
	}
}
