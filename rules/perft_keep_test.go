package rules

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// A keep path is the order in which the pieces are taken (RULES.md section
// 1): a flying king that stops on one square or another of a line before it
// takes the next piece along that line makes one path, not one per square.
// Each case lists the paths in long notation; the nearest stop stands for
// the others.
func TestKeepPathsOfFlyingKings(t *testing.T) {
	for _, tc := range []struct {
		variant, fen string
		unique       int
		paths        []string
	}{
		// the example: 37 then 19 on one line, stopping on 32, 28 or
		// 23 in between; 3 moves, 3 paths (it was 9)
		{"international", "W:WK46:B37,19", 3, []string{"46x32x14", "46x32x10", "46x32x5"}},
		// a stop that turns off the line is a path of its own
		{"international", "W:WK46:B37,19,22", 6, []string{"46x32x14", "46x32x10", "46x32x5", "46x28x17", "46x28x11", "46x28x6"}},
		// four men around a square, taken either way round: two paths, one move
		{"international", "W:WK38:B18,19,32,33", 5, []string{"38x27x13x24x38", "38x27x13x24x42", "38x27x13x24x47",
			"38x24x13x27x38", "38x24x13x27x43", "38x24x13x27x49"}},
		// Russian: crowned on f8 in the capture, the new king takes e7 and
		// b4 on one line (stopping on d6 or c5), or turns at c5 for e3
		{"russian", "W:Wh6:Bg7,e7,b4", 1, []string{"h6:f8:d6:a3"}},
		{"russian", "W:Wh6:Bg7,e7,b4,e3", 3, []string{"h6:f8:d6:a3", "h6:f8:c5:f2", "h6:f8:c5:g1"}},
		// Thai kings land right behind the piece: nothing to merge, and the
		// turn after the second piece stays
		{"thai", "W:WK29:B25,18,9", 1, []string{"29x22x15"}},
		{"thai", "W:WK29:B25,18,10", 1, []string{"29x22x15x6"}},
		// short kings: the squares landed on make the path, as before
		{"english", "W:WK27:B23,24,15,16", 1, []string{"27x18x11x20x27", "27x20x11x18x27"}},
	} {
		t.Run(tc.variant+" "+tc.fen, func(t *testing.T) {
			p, err := ParseFEN(MustLookup(tc.variant), tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			for name, ms := range map[string][]Move{"bitboard": p.LegalPaths(), "reference": p.referenceMoves(true)} {
				var got []string
				for _, m := range ms {
					got = append(got, p.LongMoveText(m))
				}
				if !slices.Equal(got, tc.paths) {
					t.Errorf("%s paths %v, want %v", name, got, tc.paths)
				}
			}
			if n := len(p.LegalMoves()); n != tc.unique {
				t.Errorf("%d moves, want %d", n, tc.unique)
			}
			for _, keep := range []bool{false, true} {
				want := uint64(tc.unique)
				if keep {
					want = uint64(len(tc.paths))
				}
				if got := Perft(p, 1, keep); got != want {
					t.Errorf("perft(1) keep=%v: %d, want %d", keep, got, want)
				}
				if got := referencePerft(p, 1, keep); got != want {
					t.Errorf("reference perft(1) keep=%v: %d, want %d", keep, got, want)
				}
			}
		})
	}
}

// A long notation naming any stop of the merged line still reads as the
// move; a square the king passed after the next piece, or the piece itself,
// does not.
func TestMatchMovesSameLineStops(t *testing.T) {
	p, err := ParseFEN(MustLookup("international"), "W:WK46:B37,19,22")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		n    int
	}{
		{"46x32x5", 1}, {"46x28x5", 1}, {"46x23x5", 1}, {"46x5", 1}, {"46x28x17", 1},
		{"46x19x5", 0}, {"46x37x5", 0}, {"46x14x5", 0}, {"46x10x5", 0}, {"46x23x17", 0}, {"46x32x17", 0},
	} {
		ms, err := p.MatchMoves(tc.text)
		if err != nil || len(ms) != tc.n {
			t.Errorf("%q: %d moves, %v; want %d", tc.text, len(ms), err, tc.n)
		}
	}
	r, err := ParseFEN(MustLookup("russian"), "W:Wh6:Bg7,e7,b4")
	if err != nil {
		t.Fatal(err)
	}
	for text, n := range map[string]int{"h6:f8:c5:a3": 1, "h6:f8:d6:a3": 1, "h6:c5:a3": 1, "h6:g7:a3": 0, "h6:f8:b4:a3": 0} {
		if ms, err := r.MatchMoves(text); err != nil || len(ms) != n {
			t.Errorf("russian %q: %d moves, %v; want %d", text, len(ms), err, n)
		}
	}
}

// captureOrder returns the squares m captures, in the order taken, read off
// its path: on each leg the one captured square between two landings.
func captureOrder(t *testing.T, p Position, m Move) []Square {
	t.Helper()
	g := p.v.geo
	var order []Square
	at := m.From
	for _, l := range m.Path {
		d, ok := g.lineDir(at, l)
		if !ok {
			t.Fatalf("%s: %s and %s share no diagonal", p.FEN(), p.v.SquareName(at), p.v.SquareName(l))
		}
		for sq := g.next[at][d]; sq != l; sq = g.next[sq][d] {
			if m.Captured.Has(sq) && !slices.Contains(order, sq) {
				order = append(order, sq)
			}
		}
		at = l
	}
	return order
}

// On scattered positions with many kings, in every preset: no two keep
// paths take the same pieces in the same order to the same square, and the
// paths cover exactly the moves.
func TestKeepPathsAreCaptureOrders(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, v := range diagonalPresets() {
		for range 300 {
			p := randomPosition(v, r, 0.3, 0.5)
			paths := p.LegalPaths()
			seen := map[string]bool{}
			for _, m := range paths {
				if !m.IsCapture() {
					continue
				}
				order := captureOrder(t, p, m)
				if len(order) != m.Captured.Len() {
					t.Fatalf("%s %s: path %s takes %d pieces, captures %d", v.Name(), p.FEN(), p.LongMoveText(m), len(order), m.Captured.Len())
				}
				var b strings.Builder
				b.WriteString(p.v.SquareName(m.From) + ">" + p.v.SquareName(m.To))
				for _, sq := range order {
					b.WriteString("," + p.v.SquareName(sq))
				}
				if seen[b.String()] {
					t.Errorf("%s %s: two paths take %s", v.Name(), p.FEN(), b.String())
				}
				seen[b.String()] = true
			}
			for _, m := range p.LegalMoves() {
				if !slices.ContainsFunc(paths, m.Same) {
					t.Errorf("%s %s: move %s has no path", v.Name(), p.FEN(), p.MoveText(m))
				}
			}
		}
	}
}
