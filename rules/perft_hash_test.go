package rules

import (
	"math/rand/v2"
	"testing"
)

// mustPerftWith is PerftWith failing t on an error.
func mustPerftWith(t testing.TB, p Position, depth int, keep bool, o PerftOptions) uint64 {
	t.Helper()
	n, err := PerftWith(p, depth, keep, o)
	if err != nil {
		t.Fatalf("%s depth %d keep=%v: %v", p.FEN(), depth, keep, err)
	}
	return n
}

// PerftWith must count exactly what Perft counts, with or without a table,
// with a table so small that entries are replaced all the time, and with
// several workers sharing one table (run under -race in make test).
func TestPerftWithEqualsPerft(t *testing.T) {
	opts := []PerftOptions{
		{Workers: 1},
		{HashBytes: 1 << 20, Workers: 1},
		{HashBytes: 4 << 10, Workers: 4}, // 64 entries: constant replacement and contention
		{HashBytes: 8 << 20, Workers: 3},
		{Workers: 1 << 30}, // bounded: the split must not fill memory
	}
	r := rand.New(rand.NewPCG(7, 11))
	for _, v := range allPresets() {
		positions := []Position{NewPosition(v)}
		for range 3 {
			positions = append(positions, randomPosition(v, r, 0.35, 0.3))
		}
		for _, p := range positions {
			for _, keep := range []bool{false, true} {
				depth := 6
				switch {
				case v.grid:
					depth = 3 // the generic generator: no table, wide trees (Dameo, Gothic)
				case v.Squares() > 32:
					depth = 5
				}
				want := Perft(p, depth, keep)
				for _, o := range opts {
					if got := mustPerftWith(t, p, depth, keep, o); got != want {
						t.Errorf("%s %s keep=%v depth %d %+v: %d, Perft %d", v.Name(), p.FEN(), keep, depth, o, got, want)
					}
				}
			}
		}
	}
}

// The table must pay where it should: English from the start to depth 12
// is far more transpositions than positions. The count is the published one
// (testdata/perft-deep.tsv).
func TestPerftWithDeepEnglish(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	p := NewPosition(MustLookup("english"))
	if got, want := mustPerftWith(t, p, 12, false, PerftOptions{HashBytes: 16 << 20}), uint64(388_617_999); got != want {
		t.Errorf("english depth 12: %d, want %d", got, want)
	}
	if got, want := mustPerftWith(t, p, 12, true, PerftOptions{HashBytes: 16 << 20}), uint64(388_623_673); got != want {
		t.Errorf("english keep depth 12: %d, want %d", got, want)
	}
}

func TestPerftWithEdges(t *testing.T) {
	v := MustLookup("english")
	p, err := ParseFEN(v, "W:W18:B14")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []int{-1, 0, 1, 2, 3, 7, 1 << 20} {
		if got, want := mustPerftWith(t, p, d, false, PerftOptions{HashBytes: 1 << 16}), Perft(p, d, false); got != want {
			t.Errorf("depth %d: %d, Perft %d", d, got, want)
		}
	}
	// 12x12 has no bitboards: the reference generator answers, its root
	// moves shared among the workers.
	c := NewPosition(MustLookup("canadian"))
	for _, keep := range []bool{false, true} {
		if got, want := mustPerftWith(t, c, 5, keep, PerftOptions{HashBytes: 1 << 16, Workers: 3}), Perft(c, 5, keep); got != want {
			t.Errorf("canadian depth 5 keep=%v: %d, Perft %d", keep, got, want)
		}
	}
}
