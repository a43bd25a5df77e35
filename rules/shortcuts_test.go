package rules_test

import (
	"math/rand/v2"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// randomPositions plays random games in v and returns every position met,
// kings and captures included.
func randomPositions(v *rules.Variant, rng *rand.Rand, games, plies int) []rules.Position {
	var out []rules.Position
	for range games {
		p := rules.NewPosition(v)
		for range plies {
			out = append(out, p)
			legal := p.LegalMoves()
			if len(legal) == 0 {
				break
			}
			p = p.Play(legal[rng.IntN(len(legal))])
		}
	}
	return out
}

// TestPerMoveShortcutsAgreeWithGeneration checks the shortcuts the per-move
// path takes against the full move generation, on every variant: HasMoves
// and Find (which answer without generating when no capture exists; Find
// for every from/to pair then), and MoveTextAmong against MoveText.
func TestPerMoveShortcutsAgreeWithGeneration(t *testing.T) {
	// CPU-bound and apart from every other test (its own generator, table
	// and variants): it runs beside the other long ones of the package.
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, name := range rules.Presets() {
		v := rules.MustLookup(name)
		n := v.Squares()
		positions := randomPositions(v, rng, 4, 150)
		for _, p := range positions {
			legal := p.LegalMoves()
			if p.HasMoves() != (len(legal) > 0) {
				t.Fatalf("%s %s: HasMoves = %v with %d legal moves", name, p.FEN(), p.HasMoves(), len(legal))
			}
			// The legal move for each (from, to, captured), looked up once:
			// every pair of squares is asked below.
			byKey := make(map[moveKey]rules.Move, len(legal))
			for _, m := range legal {
				k := moveKey{m.From, m.To, m.Captured}
				if _, dup := byKey[k]; !dup {
					byKey[k] = m
				}
			}
			find := func(from, to rules.Square, c rules.Set) {
				want, wantOK := byKey[moveKey{from, to, c}]
				got, ok := p.Find(from, to, c)
				if ok != wantOK || ok && (!got.Same(want) || got.Promotes != want.Promotes || !equalPath(got.Path, want.Path)) {
					t.Fatalf("%s %s: Find(%d, %d, %v) = %v %v, want %v %v", name, p.FEN(), from, to, c, got, ok, want, wantOK)
				}
			}
			captures := false
			for _, m := range legal {
				captures = captures || m.IsCapture()
				find(m.From, m.To, m.Captured)
				if got := p.MoveTextAmong(m, legal); got != p.MoveText(m) {
					t.Fatalf("%s %s: MoveTextAmong(%v) = %q, MoveText %q", name, p.FEN(), m, got, p.MoveText(m))
				}
			}
			if captures {
				// Find generates the moves here: a sample of wrong ones.
				for range 20 {
					find(rules.Square(rng.IntN(n+2)), rules.Square(rng.IntN(n+2)), rules.SetOf(rules.Square(1+rng.IntN(n))))
				}
				continue
			}
			if v.Layout() != rules.DarkSquares || !rules.HasBitboards(v) {
				// The generic generator and the reference one (boards too
				// big for bitboards) have no shortcut: Find generates every
				// legal move, as checked above; a sample.
				for range 40 {
					find(rules.Square(rng.IntN(n+2)), rules.Square(rng.IntN(n+2)), rules.Set{})
				}
				continue
			}
			// No capture: Find answers without generating; every pair.
			for from := 0; from <= n+1; from++ {
				for to := 0; to <= n+1; to++ {
					find(rules.Square(from), rules.Square(to), rules.Set{})
				}
			}
			if len(legal) > 0 {
				find(legal[0].From, legal[0].To, rules.SetOf(rules.Square(1+rng.IntN(n))))
			}
		}
	}
}

// moveKey is what Find is asked: a move's squares and captured pieces.
type moveKey struct {
	from, to rules.Square
	captured rules.Set
}

func equalPath(a, b []rules.Square) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
