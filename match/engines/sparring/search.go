// Package sparring is the arbiter's own engine: a real engine process that
// speaks Hub on standard input/output and DXP over TCP, plays every preset
// at a chosen strength (random, greedy, or alpha-beta to a fixed depth), and
// misbehaves on purpose when asked (crash, hang, illegal move, garbage,
// slowness) so that the arbiter can be tested against real processes.
//
// Imported by cmd/arbiter (the engine command); it imports the protocols it
// speaks and the rules.
package sparring

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Level is the playing strength: Depth < 0 random, 0 greedy (best immediate
// material gain), N > 0 alpha-beta search N plies deep on material.
type Level struct{ Depth int }

// Random and Greedy are the two levels without search.
var (
	Random = Level{Depth: -1}
	Greedy = Level{Depth: 0}
)

// ParseLevel reads "random", "greedy" or a depth 1..20.
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "random", "":
		return Random, nil
	case "greedy":
		return Greedy, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 20 {
		return Level{}, fmt.Errorf("sparring: level %q is not random, greedy or a depth from 1 to 20", s)
	}
	return Level{Depth: n}, nil
}

func (l Level) String() string {
	switch {
	case l.Depth < 0:
		return "random"
	case l.Depth == 0:
		return "greedy"
	}
	return strconv.Itoa(l.Depth)
}

// Piece values of the material evaluation.
const (
	manValue  = 100
	kingValue = 300
	winScore  = 1_000_000
)

// Score is what the engine reports of its move m in p (Hub "info score",
// in hundredths of a man): the material after the move from the mover's
// side. It is a static count, not the search's value, so that every level
// reports one (an arbiter adjudicating by evaluation sees a losing side
// say so).
func Score(p rules.Position, m rules.Move) int { return -evaluate(p.Play(m)) }

// evaluate scores p for the side to move: material, negated in losing
// variants (where having fewer pieces is good).
func evaluate(p rules.Position) int {
	us, them := p.Pieces(p.Turn()), p.Pieces(p.Turn().Opponent())
	k := p.Kings()
	score := manValue*(us.Len()-them.Len()) + (kingValue-manValue)*(us.Intersect(k).Len()-them.Intersect(k).Len())
	if p.Variant().Losing() {
		return -score
	}
	return score
}

// Choose picks a move in p (which must have one) at level l; ties are
// broken with rng so that games vary with the seed.
func Choose(p rules.Position, l Level, rng *rand.Rand) rules.Move {
	m, _ := choose(p, l, rng, nil)
	return m
}

// choose is Choose whose search asks stop (nil: never) every
// checkInterval nodes whether to end now, and says the depth it finished.
// It deepens two plies at a time up to the level's depth (2, 4, 6 or 1, 3,
// 5: 4-13 % more nodes than the level's depth alone, where one ply at a
// time cost 40 %; a side's own moves are counted alike at every depth),
// each depth searching first the best moves of the one before. A search
// the clock or a stop cuts short then plays the best move of the deepest
// search it finished, or of the moves the cut one finished (the earlier
// best first among them), as a shallower level would: a deep level cut
// short in its one search to the full depth chose among the few moves it
// had finished, and lost to level 8 at a minute a game. Ties are broken
// with rng among the moves in their legal order, so that a search that
// finishes plays as the plain search to the level's depth did.
func choose(p rules.Position, l Level, rng *rand.Rand, stop func() bool) (m rules.Move, depth int) {
	moves := p.LegalMoves()
	if len(moves) == 1 || l.Depth < 0 {
		return moves[rng.IntN(len(moves))], 0
	}
	s := searcher{stop: stop}
	best, depth := s.deepen(p, moves, l.Depth)
	if len(best) == 0 {
		return moves[rng.IntN(len(moves))], 0
	}
	slices.Sort(best)
	return moves[best[rng.IntN(len(best))]], depth
}

// checkInterval is how many nodes the search visits between two looks at
// its input (a system call that finds nothing, about a microsecond): a
// few hundred microseconds, so a ping or a stop is answered at once.
const checkInterval = 1024

// searcher is one search's node count and stop.
type searcher struct {
	stop    func() bool
	nodes   uint32
	stopped bool
}

// deepen searches moves to depth 0 (greedy: their material at once), or
// two plies deeper at a time up to depth, and returns the indexes of the
// best moves of the deepest search that finished at least one move, and
// the depth it finished whole.
func (s *searcher) deepen(p rules.Position, moves []rules.Move, depth int) (best []int, reached int) {
	order := make([]int, len(moves))
	for i := range order {
		order[i] = i
	}
	if depth == 0 {
		return s.root(p, moves, order, 0), 0
	}
	for d := 2 - depth%2; d <= depth && !s.stopped; d += 2 {
		found := s.root(p, moves, order, d)
		if len(found) == 0 {
			break // stopped before its first move: the depth before stands
		}
		best, reached = found, d
		if s.stopped {
			reached = max(d-2, 0) // only some of this depth's moves finished
		}
		order = bestFirst(order, best)
	}
	return best, reached
}

// root searches the moves in order to depth and returns the indexes of
// those scoring best; cut short by a stop, of those it finished.
func (s *searcher) root(p rules.Position, moves []rules.Move, order []int, depth int) []int {
	var best []int
	bestScore := -2 * winScore
	for _, i := range order {
		var v int
		if depth == 0 {
			v = -evaluate(p.Play(moves[i]))
		} else {
			v = -s.alphaBeta(p.Play(moves[i]), depth-1, -2*winScore, -bestScore+1)
		}
		if s.stopped {
			break // v is of a search cut short
		}
		switch {
		case v > bestScore:
			best, bestScore = append(best[:0], i), v
		case v == bestScore:
			best = append(best, i)
		}
	}
	return best
}

// bestFirst is order with best's moves first, the others after them in
// the order they had.
func bestFirst(order, best []int) []int {
	next := append(make([]int, 0, len(order)), best...)
	for _, i := range order {
		if !slices.Contains(best, i) {
			next = append(next, i)
		}
	}
	return next
}

// alphaBeta is a plain negamax alpha-beta search on material.
func (s *searcher) alphaBeta(p rules.Position, depth, alpha, beta int) int {
	if s.nodes++; s.nodes%checkInterval == 0 && s.stop != nil && s.stop() {
		s.stopped = true
	}
	if s.stopped {
		return 0
	}
	moves := p.LegalMoves()
	if len(moves) == 0 {
		if p.Variant().NoMoveOutcome(p.Turn()) == rules.WinFor(p.Turn()) {
			return winScore
		}
		return -winScore
	}
	if depth <= 0 {
		return evaluate(p)
	}
	for _, m := range moves {
		v := -s.alphaBeta(p.Play(m), depth-1, -beta, -alpha)
		if v > alpha {
			alpha = v
			if alpha >= beta {
				break
			}
		}
	}
	return alpha
}

// IllegalMove returns a move that looks legal but is not: a piece stepping
// to a neighbouring empty square when that is not among the legal moves
// (a plain move while a capture is compulsory, or a man stepping backwards),
// else a step from an empty square. ok is false only on a full board.
func IllegalMove(p rules.Position) (rules.Move, bool) {
	v := p.Variant()
	occ := p.Occupied()
	legal := p.LegalMoves()
	isLegal := func(from, to rules.Square) bool {
		for _, m := range legal {
			if m.From == from && m.To == to && !m.IsCapture() {
				return true
			}
		}
		return false
	}
	for from := range p.Pieces(p.Turn()).All() {
		for d := rules.Direction(0); d < 4; d++ {
			to := v.Next(from, d)
			if to != 0 && !occ.Has(to) && !isLegal(from, to) {
				return rules.Move{From: from, To: to}, true
			}
		}
	}
	for sq := rules.Square(1); int(sq) <= v.Squares(); sq++ {
		if occ.Has(sq) {
			continue
		}
		for d := rules.Direction(0); d < 4; d++ {
			if to := v.Next(sq, d); to != 0 && !occ.Has(to) {
				return rules.Move{From: sq, To: to}, true
			}
		}
	}
	return rules.Move{}, false
}
