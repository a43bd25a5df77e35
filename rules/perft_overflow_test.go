package rules

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// bigPerft is perft in unbounded integers over the reference generator,
// memoised by position and depth: the oracle of the overflow test.
func bigPerft(p Position, depth int, memo map[string]*big.Int) *big.Int {
	if depth == 0 {
		return big.NewInt(1)
	}
	key := p.FEN() + "/" + strconv.Itoa(depth)
	if n, ok := memo[key]; ok {
		return n
	}
	n := new(big.Int)
	for _, m := range p.referenceMoves(false) {
		n.Add(n, bigPerft(p.Play(m), depth-1, memo))
	}
	memo[key] = n
	return n
}

// Two English kings have more than 2^64 leaves from depth 40 on: PerftWith
// must give the exact count up to there and an error naming the depth after,
// never a count wrapped around 2^64. The table makes depth 45 instant.
func TestPerftOverflow(t *testing.T) {
	p, err := ParseFEN(MustLookup("english"), "W:WK29:BK1")
	if err != nil {
		t.Fatal(err)
	}
	memo := map[string]*big.Int{}
	limit := new(big.Int).SetUint64(math.MaxUint64)
	overflowed := 0
	for depth := 30; depth <= 45; depth++ {
		want := bigPerft(p, depth, memo)
		for _, o := range []PerftOptions{{HashBytes: 1 << 20, Workers: 1}, {HashBytes: 1 << 20, Workers: 3}} {
			got, err := PerftWith(p, depth, false, o)
			if want.Cmp(limit) < 0 {
				if err != nil || got != want.Uint64() {
					t.Errorf("depth %d %+v: %d, %v; want %s", depth, o, got, err, want)
				}
				continue
			}
			if !errors.Is(err, ErrPerftOverflow) || got != 0 {
				t.Errorf("depth %d %+v (%s leaves): %d, %v; want ErrPerftOverflow", depth, o, want, got, err)
			} else if !strings.Contains(err.Error(), "perft depth "+strconv.Itoa(depth)+":") {
				t.Errorf("depth %d: error %q does not name the depth", depth, err)
			}
			overflowed++
		}
	}
	if overflowed == 0 {
		t.Fatal("no depth overflowed: the test tests nothing")
	}
}

// Sums saturate wherever they are made: in the recursion and in the
// workers' shares.
func TestPerftCountsSaturate(t *testing.T) {
	for _, tc := range []struct{ a, b, want uint64 }{
		{1, 2, 3},
		{math.MaxUint64 - 1, 1, math.MaxUint64},
		{math.MaxUint64 - 1, 2, math.MaxUint64},
		{1 << 63, 1 << 63, math.MaxUint64},
		{math.MaxUint64, 0, math.MaxUint64},
	} {
		if got := addCount(tc.a, tc.b); got != tc.want {
			t.Errorf("addCount(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	for _, workers := range []int{1, 2, 5} {
		got := share(6, workers, func() func(int) uint64 {
			return func(int) uint64 { return 1 << 62 }
		})
		if got != math.MaxUint64 {
			t.Errorf("share of 6 x 2^62 on %d workers = %d, want saturated", workers, got)
		}
	}
	if n, err := perftResult(math.MaxUint64, 7); !errors.Is(err, ErrPerftOverflow) || n != 0 {
		t.Errorf("perftResult(max) = %d, %v", n, err)
	}
}
