package sparring

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// middlegames are English positions of seeded random games, every eighth
// ply of the first forty.
func middlegames(t *testing.T) []rules.Position {
	t.Helper()
	v := rules.MustLookup("english")
	rng := rand.New(rand.NewPCG(1, 2))
	var ps []rules.Position
	for g := 0; g < 30; g++ {
		p := rules.NewPosition(v)
		for ply := 0; ply < 40 && p.HasMoves(); ply++ {
			ms := p.LegalMoves()
			p = p.Play(ms[rng.IntN(len(ms))])
			if ply%8 == 7 && p.HasMoves() {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// allOrder is the moves' legal order.
func allOrder(n int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	return order
}

// A deep level whose search is cut short (the clock, a stop) plays the
// best move of the deepest search it finished, not one of the few moves
// its one search to the full depth had finished (or any move, when it had
// finished none): level 20 stopped after about 8,000 nodes plays a move
// that a whole search to the depth it reached, or two plies deeper (the
// cut search's own moves), finds best, and says that depth.
func TestCutSearchPlaysAsAShallowerOne(t *testing.T) {
	skipUnderShort(t)
	checked := 0
	for i, p := range middlegames(t) {
		moves := p.LegalMoves()
		if len(moves) < 3 {
			continue
		}
		calls := 0
		stop := func() bool { calls++; return calls > 8 }
		m, reached := choose(p, Level{20}, rand.New(rand.NewPCG(3, 4)), stop)
		if reached < 2 {
			t.Errorf("position %d (%s): the cut search says depth %d", i, p.FEN(), reached)
			continue
		}
		var whole []string
		for _, d := range []int{reached, reached + 2} {
			s := searcher{}
			for _, j := range s.root(p, moves, allOrder(len(moves)), d) {
				whole = append(whole, rules.HubMove(moves[j]))
			}
		}
		if !slices.Contains(whole, rules.HubMove(m)) {
			t.Errorf("position %d (%s): the cut search (depth %d) played %s, not among the best of a whole search to that depth or two deeper: %v", i, p.FEN(), reached, rules.HubMove(m), whole)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// Deepening two plies at a time costs little over a search to the depth
// alone (nodes counted, not timed): a level under no clock plays as fast
// as before, to within 15 %.
func TestDeepeningCost(t *testing.T) {
	skipUnderShort(t)
	var direct, deep uint64
	for _, p := range middlegames(t) {
		moves := p.LegalMoves()
		s := searcher{}
		s.root(p, moves, allOrder(len(moves)), 6)
		direct += uint64(s.nodes)
		d := searcher{}
		d.deepen(p, moves, 6)
		deep += uint64(d.nodes)
	}
	if r := float64(deep) / float64(direct); r > 1.15 {
		t.Errorf("deepening to 6 visits %d nodes, the search to 6 alone %d: %.2fx", deep, direct, r)
	}
}

// skipUnderShort skips a search test under -short: the race run (make
// test) uses it, and a search without goroutines has nothing to show the
// detector but its time (a minute under -race); the plain run has it.
func skipUnderShort(t *testing.T) {
	if testing.Short() {
		t.Skip("a search without goroutines: run without -short")
	}
}
