package rules

import (
	"errors"
	"fmt"
	"math"
)

// ErrPerftOverflow marks a perft count that does not fit in 64 bits
// (English kings W:WK29:BK1 at depth 45 have more than 2^64 leaves).
var ErrPerftOverflow = errors.New("the count overflows 64 bits")

// Perft counts the leaf nodes at exactly depth plies below p. With keepPaths
// every distinct capture path counts as a move; otherwise moves are counted
// by identity (from, to, captured set). Perft of depth 0 is 1 and of a
// negative depth 0. A count that does not fit in 64 bits comes out as
// math.MaxUint64; PerftWith reports it as an error.
func Perft(p Position, depth int, keepPaths bool) uint64 {
	if depth < 0 {
		return 0 // the reference recursion would otherwise never reach depth 0
	}
	if p.v.grid {
		return gridPerft(p, depth, keepPaths)
	}
	if fastPerftHook != nil {
		if n, ok := fastPerftHook(&p, depth, keepPaths); ok {
			return n
		}
	}
	return referencePerft(p, depth, keepPaths)
}

// fastPerftHook is set by the bitboard generator.
var fastPerftHook func(p *Position, depth int, keepPaths bool) (uint64, bool)

func referencePerft(p Position, depth int, keepPaths bool) uint64 {
	if depth == 0 {
		return 1
	}
	if p.v.grid {
		return gridPerft(p, depth, keepPaths)
	}
	moves := p.referenceMoves(keepPaths)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n = addCount(n, referencePerft(p.Play(m), depth-1, keepPaths))
	}
	return n
}

// addCount is a + b, or math.MaxUint64 when the sum does not fit: counts
// saturate, and a saturated subtree saturates every count above it, so a
// perft that overflowed anywhere ends on math.MaxUint64 and says so
// (perftResult). The compare costs nothing beside the move generation of
// the subtree it adds; sums of leaf counts two plies above the leaves (a
// few hundred moves squared) need no check.
func addCount(a, b uint64) uint64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxUint64
}

// perftResult turns a saturated count into ErrPerftOverflow. (A tree of
// exactly 2^64-1 leaves is reported as overflowing too: one count in 2^64.)
func perftResult(n uint64, depth int) (uint64, error) {
	if n == math.MaxUint64 {
		return 0, fmt.Errorf("rules: perft depth %d: %w (2^64 leaves or more)", depth, ErrPerftOverflow)
	}
	return n, nil
}
