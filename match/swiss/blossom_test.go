package swiss

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching is the weight of the best matching by exhaustive search.
func bruteMatching(n int, w [][]uint64) uint64 {
	var best uint64
	used := make([]bool, n)
	var rec func(i int, sum uint64)
	rec = func(i int, sum uint64) {
		for i < n && used[i] {
			i++
		}
		if i == n {
			if sum > best {
				best = sum
			}
			return
		}
		used[i] = true
		rec(i+1, sum) // i stays unmatched
		for j := i + 1; j < n; j++ {
			if !used[j] && w[i][j] > 0 {
				used[j] = true
				rec(i+1, sum+w[i][j])
				used[j] = false
			}
		}
		used[i] = false
	}
	rec(0, 0)
	return best
}

func TestMatcherAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 3000; iter++ {
		n := 1 + r.IntN(10)
		k := 1 + r.IntN(2)
		density := r.Float64()
		maxw := uint64(1 + r.IntN(20))
		if iter%3 == 0 {
			maxw = 1 << uint(r.IntN(40))
		}
		w := make([][]uint64, n)
		for i := range w {
			w[i] = make([]uint64, n)
		}
		m := newMatcher(n, k)
		v := make([]uint64, k)
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				if r.Float64() < density {
					x := 1 + r.Uint64N(maxw)
					w[i][j], w[j][i] = x, x
					wClear(v)
					if k == 2 {
						wAddAt(v, 50, x) // spans both words
					} else {
						v[0] = x
					}
					m.set(i, j, v)
				}
			}
		}
		mate := m.solve()
		var sum uint64
		for i, j := range mate {
			if j >= 0 {
				if mate[j] != i {
					t.Fatalf("iter %d: mate not symmetric", iter)
				}
				if w[i][j] == 0 {
					t.Fatalf("iter %d: matched a non-edge %d-%d", iter, i, j)
				}
				if i < j {
					sum += w[i][j]
				}
			}
		}
		if want := bruteMatching(n, w); sum != want {
			t.Fatalf("iter %d (n=%d): weight %d, best %d", iter, n, sum, want)
		}
	}
}
