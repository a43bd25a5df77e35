package rules

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The bitboard generator is checked against the reference generator: move
// sets (identity, representative path, promotion) in both views, and perft
// (which uses a different, parallel capture counter) a few plies deep.

// randomPosition fills a board at random: mostly men off their own crowning
// row, some kings, and a random side to move.
func randomPosition(v *Variant, r *rand.Rand, density float64, kingShare float64) Position {
	var white, black, kings Set
	for i := 1; i <= v.Squares(); i++ {
		sq := Square(i)
		if r.Float64() >= density {
			continue
		}
		c := Color(r.IntN(2))
		// a man on its own crowning row cannot arise in play (ParseFEN
		// refuses it), but Setup can build one: keep a few to check that
		// both generators agree there too
		king := r.Float64() < kingShare || v.promotes(c, sq) && r.IntN(4) != 0
		if c == White {
			white = white.With(sq)
		} else {
			black = black.With(sq)
		}
		if king {
			kings = kings.With(sq)
		}
	}
	return Setup(v, Color(r.IntN(2)), white, black, kings)
}

// checkPosition compares the two generators on p.
func checkPosition(t *testing.T, p Position) bool {
	t.Helper()
	ok := true
	for _, keep := range []bool{false, true} {
		var fast []Move
		if keep {
			fast = p.LegalPaths()
		} else {
			fast = p.LegalMoves()
		}
		ref := p.referenceMoves(keep)
		if !sameMoves(fast, ref) {
			t.Errorf("%s %s keep=%v:\n bitboard  %d %s\n reference %d %s", p.v.Name(), p.FEN(), keep,
				len(fast), movesString(&p, fast), len(ref), movesString(&p, ref))
			ok = false
		}
	}
	return ok
}

// checkPerft compares perft of both generators on p, both count modes.
func checkPerft(t *testing.T, p Position, depth int) bool {
	t.Helper()
	for _, keep := range []bool{false, true} {
		fast, ref := Perft(p, depth, keep), referencePerft(p, depth, keep)
		if fast != ref {
			t.Errorf("%s %s perft(%d, keep=%v): bitboard %d, reference %d", p.v.Name(), p.FEN(), depth, keep, fast, ref)
			return false
		}
	}
	return true
}

// customVariants are rule combinations no preset has, on every supported
// board shape, so that each parameter is exercised in many combinations.
func customVariants(r *rand.Rand, n int) []*Variant {
	boards := []Board{{8, 8, false}, {8, 8, true}, {10, 10, false}, {10, 10, true}, {6, 6, false}, {10, 8, false}, {12, 10, false}, {8, 10, true}}
	var out []*Variant
	for i := 0; i < n; i++ {
		b := boards[i%len(boards)]
		p := Params{
			Name: fmt.Sprintf("custom%d", i), Board: b, RowsOfMen: (b.Height - 2) / 2,
			FirstPlayer:        Color(r.IntN(2)),
			MenCaptureBackward: r.IntN(2) == 0,
			Kings:              KingRange(r.IntN(3)),
			Precedence:         Precedence(r.IntN(5)),
			Promotion:          PromotionRule(r.IntN(3)),
			MenCaptureKings:    r.IntN(3) != 0,
		}
		// RULES.md section 8's parameters on the dark-square generators:
		// Killer's stop behind a king, Corner's promotion squares.
		p.KillerKings = r.IntN(3) == 0
		if r.IntN(3) == 0 {
			n := b.Squares()
			for c := range p.PromotionSquares {
				for range 1 + r.IntN(3) {
					p.PromotionSquares[c] = p.PromotionSquares[c].With(Square(1 + r.IntN(n)))
				}
			}
		}
		v, err := NewVariant(p)
		if err != nil {
			panic(err)
		}
		out = append(out, v)
	}
	return out
}

// diagonalPresets are the presets of the diagonal generators (bitboard and
// reference), which the differential tests compare; the generic
// generator's presets (grid.go) have their own tests.
func diagonalPresets() []*Variant {
	var vs []*Variant
	for _, v := range allPresets() {
		if !v.grid {
			vs = append(vs, v)
		}
	}
	return vs
}

func allPresets() []*Variant {
	var vs []*Variant
	for _, name := range Presets() {
		vs = append(vs, MustLookup(name))
	}
	return vs
}

// TestBitboardCoverage checks which boards take the bitboard path: all
// presets but the 12x12 Canadian board, and any custom board whose padded
// layout fits in 64 bits.
func TestBitboardCoverage(t *testing.T) {
	for _, v := range diagonalPresets() {
		p := NewPosition(v)
		_, ok := p.fastMoves(false)
		if want := v.Board().Width <= 10; ok != want {
			t.Errorf("%s (%dx%d): bitboard used = %v, want %v", v.Name(), v.Board().Width, v.Board().Height, ok, want)
		}
	}
	for _, c := range []struct {
		b    Board
		want bool
	}{
		{Board{6, 6, false}, true}, {Board{6, 6, true}, true}, {Board{10, 8, false}, true},
		{Board{8, 10, true}, true}, {Board{10, 10, true}, true}, {Board{12, 10, false}, true},
		{Board{12, 12, false}, false}, {Board{14, 14, false}, false},
	} {
		v, err := NewVariant(Params{Name: "custom", Board: c.b, RowsOfMen: 2, Kings: FlyingKings, MenCaptureKings: true})
		if err != nil {
			t.Fatal(err)
		}
		p := NewPosition(v)
		if _, ok := p.fastMoves(false); ok != c.want {
			t.Errorf("board %+v: bitboard used = %v, want %v", c.b, ok, c.want)
		}
	}
}

// TestDifferentialPlayouts plays random games in every preset and compares
// the generators at every position, and perft to depth 2 now and then.
func TestDifferentialPlayouts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	games := 30
	if testing.Short() {
		games = 6
	}
	for _, v := range diagonalPresets() {
		t.Run(v.Name(), func(t *testing.T) {
			bad := 0
			for g := 0; g < games && bad < 3; g++ {
				p := NewPosition(v)
				for ply := 0; ply < 300; ply++ {
					if !checkPosition(t, p) {
						bad++
						break
					}
					if ply%3 == 0 && v.Board().Width <= 10 && !checkPerft(t, p, 2) {
						bad++
						break
					}
					moves := p.LegalMoves()
					if len(moves) == 0 {
						break
					}
					p = p.Play(moves[r.IntN(len(moves))])
				}
			}
		})
	}
}

// TestDifferentialRandomPositions compares the generators on random dense
// positions with many kings, where long king captures, promotions during a
// capture and precedence ties are common, for the presets and for random
// custom rule sets.
func TestDifferentialRandomPositions(t *testing.T) {
	// CPU-bound and apart from every other test (its own generator, table
	// and variants): it runs beside the other long ones of the package.
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	variants := append(diagonalPresets(), customVariants(r, 48)...)
	n := 1500
	if testing.Short() {
		n = 300
	}
	for _, v := range variants {
		if v.Board().Width > 10 {
			continue // reference only: nothing to compare
		}
		t.Run(v.Name(), func(t *testing.T) {
			bad := 0
			for i := 0; i < n && bad < 3; i++ {
				p := randomPosition(v, r, 0.2+0.5*r.Float64(), 0.4*r.Float64())
				if !checkPosition(t, p) {
					bad++
					continue
				}
				// depth 3 lets a piece crowned at the root move as a king
				depth := 1 + i%3
				if !checkPerft(t, p, depth) {
					bad++
				}
			}
		})
	}
}

// TestPerftCrossCheck compares perft from the start of the presets that have
// no published counts in perft.tsv, and of custom rule sets.
func TestPerftCrossCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cases := []struct {
		v     *Variant
		depth int
	}{
		{MustLookup("thai"), 6}, {MustLookup("antidraughts"), 4}, {MustLookup("giveaway"), 6},
		{MustLookup("portuguese"), 6}, {MustLookup("czech"), 6},
	}
	for _, v := range customVariants(r, 12) {
		cases = append(cases, struct {
			v     *Variant
			depth int
		}{v, 4})
	}
	for _, c := range cases {
		p := NewPosition(c.v)
		checkPerft(t, p, c.depth)
	}
	// Canadian has no bitboard layout: Perft falls back to the reference. With
	// two empty rows between the armies the first two plies cannot interact:
	// 11 moves a side (six men on the front row, the edge man has one move).
	p := NewPosition(MustLookup("canadian"))
	if _, ok := p.fastMoves(false); ok {
		t.Errorf("canadian unexpectedly has a bitboard layout")
	}
	for d, want := range map[int]uint64{1: 11, 2: 121} {
		for _, keep := range []bool{false, true} {
			if got := Perft(p, d, keep); got != want {
				t.Errorf("canadian perft(%d, keep=%v) = %d, want %d", d, keep, got, want)
			}
		}
	}
	if u, k := Perft(p, 4, false), Perft(p, 4, true); k < u || u <= 121*11 {
		t.Errorf("canadian perft(4): unique %d, keep %d", u, k)
	}
}

// TestMoveProperties checks, over random playouts in every preset (Canadian
// through the reference generator): every move stays on dark squares along
// diagonals, each capture jumps exactly its captured pieces, Play keeps the
// piece counts consistent, and keep-paths perft is at least unique perft.
func TestMoveProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, v := range diagonalPresets() {
		t.Run(v.Name(), func(t *testing.T) {
			games := 6
			if v.Board().Width > 10 {
				games = 2
			}
			for g := 0; g < games; g++ {
				p := NewPosition(v)
				for ply := 0; ply < 250; ply++ {
					paths := p.LegalPaths()
					for _, m := range paths {
						checkMoveGeometry(t, &p, m)
						checkPlay(t, &p, m)
					}
					if ply%25 == 0 && v.Board().Width <= 10 {
						u, k := Perft(p, 3, false), Perft(p, 3, true)
						if k < u {
							t.Fatalf("%s: perft(3) keep %d < unique %d", p.FEN(), k, u)
						}
					}
					if len(paths) == 0 {
						if p.Outcome() == Ongoing {
							t.Fatalf("%s: no moves but the game is ongoing", p.FEN())
						}
						break
					}
					p = p.Play(paths[r.IntN(len(paths))])
				}
			}
		})
	}
}

// dark reports whether sq is a playable (dark) square of v's board.
func dark(v *Variant, sq Square) bool {
	if sq < 1 || int(sq) > v.Squares() {
		return false
	}
	row, col := v.RowCol(sq)
	parity := 1
	if v.Board().Mirrored {
		parity = 0
	}
	return row >= 0 && row < v.Board().Height && col >= 0 && col < v.Board().Width && (row+col)%2 == parity
}

func checkMoveGeometry(t *testing.T, p *Position, m Move) {
	t.Helper()
	v := p.Variant()
	fail := func(why string) { t.Fatalf("%s %s: move %s: %s", v.Name(), p.FEN(), p.LongMoveText(m), why) }
	if !dark(v, m.From) || !dark(v, m.To) {
		fail("off the dark squares")
	}
	if c, _, ok := p.Piece(m.From); !ok || c != p.Turn() {
		fail("does not start on a piece of the side to move")
	}
	if !m.IsCapture() {
		if m.Path != nil {
			fail("plain move with a path")
		}
		return
	}
	if len(m.Path) != m.Captured.Len() || m.Path[len(m.Path)-1] != m.To {
		fail("path does not have one landing per captured piece ending on To")
	}
	jumped := Set{}
	at := m.From
	for _, l := range m.Path {
		if !dark(v, l) {
			fail(fmt.Sprintf("lands on light square %d", l))
		}
		r0, c0 := v.RowCol(at)
		r1, c1 := v.RowCol(l)
		dr, dc := r1-r0, c1-c0
		if dr == 0 || dr != dc && dr != -dc {
			fail(fmt.Sprintf("step %d-%d is not diagonal", at, l))
		}
		if l != m.From && p.Occupied().Has(l) {
			fail(fmt.Sprintf("lands on occupied square %d", l))
		}
		// exactly one opponent piece strictly between at and l
		sr, sc := sign(dr), sign(dc)
		var between []Square
		for rr, cc := r0+sr, c0+sc; rr != r1; rr, cc = rr+sr, cc+sc {
			sq := squareAt(v, rr, cc)
			if p.Occupied().Has(sq) && sq != m.From {
				between = append(between, sq)
			}
		}
		if len(between) != 1 || !p.Pieces(p.Turn().Opponent()).Has(between[0]) || jumped.Has(between[0]) {
			fail(fmt.Sprintf("step %d-%d does not jump exactly one new opponent piece (%v)", at, l, between))
		}
		jumped = jumped.With(between[0])
		at = l
	}
	if jumped != m.Captured {
		fail(fmt.Sprintf("jumped %v, captured set %v", jumped.Squares(), m.Captured.Squares()))
	}
}

func checkPlay(t *testing.T, p *Position, m Move) {
	t.Helper()
	q := p.Play(m)
	me, opp := p.Turn(), p.Turn().Opponent()
	wasKing := p.Kings().Has(m.From)
	switch {
	case q.Turn() != opp:
		t.Fatalf("%s %s: side to move did not change", p.FEN(), p.LongMoveText(m))
	case q.Pieces(me).Len() != p.Pieces(me).Len():
		t.Fatalf("%s %s: mover has %d pieces, had %d", p.FEN(), p.LongMoveText(m), q.Pieces(me).Len(), p.Pieces(me).Len())
	case q.Pieces(opp).Len() != p.Pieces(opp).Len()-m.Captured.Len():
		t.Fatalf("%s %s: opponent lost %d pieces, captured %d", p.FEN(), p.LongMoveText(m), p.Pieces(opp).Len()-q.Pieces(opp).Len(), m.Captured.Len())
	case !q.Pieces(me).Has(m.To) || q.Kings().Has(m.To) != (wasKing || m.Promotes):
		t.Fatalf("%s %s: wrong piece on the destination", p.FEN(), p.LongMoveText(m))
	case !q.Pieces(me).Intersect(q.Pieces(opp)).Empty():
		t.Fatalf("%s %s: square held by both sides", p.FEN(), p.LongMoveText(m))
	}
	kings := p.Kings().Minus(m.Captured).Len()
	if !wasKing && m.Promotes {
		kings++
	}
	if q.Kings().Len() != kings {
		t.Fatalf("%s %s: %d kings after the move, want %d", p.FEN(), p.LongMoveText(m), q.Kings().Len(), kings)
	}
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func squareAt(v *Variant, row, col int) Square {
	for i := 1; i <= v.Squares(); i++ {
		if r, c := v.RowCol(Square(i)); r == row && c == col {
			return Square(i)
		}
	}
	return 0
}

// TestPerftAllocations checks that the perft loop does not allocate: the
// allocations of a search (its buffers) do not grow with the tree.
func TestPerftAllocations(t *testing.T) {
	for _, name := range []string{"english", "international", "russian", "italian"} {
		p := NewPosition(MustLookup(name))
		shallow := testing.AllocsPerRun(3, func() { Perft(p, 3, false) })
		deep := testing.AllocsPerRun(3, func() { Perft(p, 6, true) })
		if deep > shallow+4 {
			t.Errorf("%s: perft(6) makes %.0f allocations, perft(3) %.0f: the loop allocates", name, deep, shallow)
		}
	}
}

// TestConcurrentUse runs the generators from several goroutines at once (the
// match runner does); run under -race it checks the shared tables and pools.
func TestConcurrentUse(t *testing.T) {
	done := make(chan error)
	for i := 0; i < 4; i++ {
		go func(seed uint64) {
			r := rand.New(rand.NewPCG(seed, 9))
			v := allPresets()[int(seed)%len(allPresets())]
			p := NewPosition(v)
			for ply := 0; ply < 60; ply++ {
				moves := p.LegalMoves()
				if len(moves) == 0 {
					break
				}
				if len(p.LegalPaths()) < len(moves) {
					done <- fmt.Errorf("%s: fewer paths than moves", p.FEN())
					return
				}
				Perft(p, 2, false)
				p = p.Play(moves[r.IntN(len(moves))])
			}
			done <- nil
		}(uint64(i))
	}
	for i := 0; i < 4; i++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// toBits and toSet move a run of squares at a time: checked against the
// square-by-square mapping (bitOf, sqOf) on every board with bitboards,
// mirrored or not, for random sets.
func TestBitboardSetConversion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, b := range []Board{{4, 4, false}, {6, 6, false}, {6, 6, true}, {8, 8, false}, {8, 8, true},
		{10, 8, false}, {8, 10, true}, {10, 10, false}, {10, 10, true}, {12, 10, false}} {
		v, err := NewVariant(Params{Name: "custom", Board: b, RowsOfMen: 1, Kings: FlyingKings, MenCaptureKings: true})
		if err != nil {
			t.Fatal(err)
		}
		g := bbGeoFor(v)
		if g == nil {
			t.Fatalf("%v: no bitboards", b)
		}
		for range 200 {
			var s Set
			var want uint64
			for sq := Square(1); int(sq) <= v.Squares(); sq++ {
				if rng.IntN(3) == 0 {
					s = s.With(sq)
					want |= 1 << g.bitOf[sq]
				}
			}
			if got := g.toBits(s); got != want {
				t.Fatalf("%v: toBits(%v) = %#x, want %#x", b, s, got, want)
			}
			if got := g.toSet(want); got != s {
				t.Fatalf("%v: toSet(%#x) = %v, want %v", b, want, got, s)
			}
		}
	}
}
