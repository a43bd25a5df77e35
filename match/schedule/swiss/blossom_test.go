package swiss

import (
	"math/rand/v2"
	"testing"
)

// brutePerfect is the weight of the best perfect matching by exhaustive
// search, and whether there is one.
func brutePerfect(n int, w [][]uint64) (uint64, bool) {
	var best uint64
	found := false
	used := make([]bool, n)
	var rec func(i int, sum uint64)
	rec = func(i int, sum uint64) {
		for i < n && used[i] {
			i++
		}
		if i == n {
			if !found || sum > best {
				best, found = sum, true
			}
			return
		}
		used[i] = true
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
	return best, found
}

// TestMatcherAgainstBruteForce solves random graphs, then changes the
// weights around one or two vertices at a time and solves again from the
// previous solution, as the pairing does; every answer must be a perfect
// matching of the best weight.
func TestMatcherAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 600; iter++ {
		n := 2 + 2*r.IntN(5)
		k := 1 + r.IntN(2)
		density := r.Float64()
		maxw := uint64(1 + r.IntN(20))
		if iter%3 == 0 {
			maxw = 1 << uint(10+r.IntN(30))
		}
		w := make([][]uint64, n)
		for i := range w {
			w[i] = make([]uint64, n)
		}
		m := newMatcher(n, k)
		v := make([]uint64, k)
		setw := func(i, j int, x uint64) {
			w[i][j], w[j][i] = x, x
			wClear(v)
			if k == 2 {
				wAddAt(v, 50, x) // spans both words
			} else {
				v[0] = x
			}
			m.set(i, j, v)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				if r.Float64() < density || (j%2 == 0 && i == j+1) {
					setw(i, j, 1+r.Uint64N(maxw))
				}
			}
		}
		for step := 0; step < 6; step++ {
			mate := m.solve()
			if err := m.checkDuals(); err != nil && mate != nil {
				t.Fatalf("iter %d step %d: %v", iter, step, err)
			}
			want, ok := brutePerfect(n, w)
			if !ok {
				if mate != nil {
					t.Fatalf("iter %d step %d: a perfect matching where there is none", iter, step)
				}
				break
			}
			if mate == nil {
				t.Fatalf("iter %d step %d: no perfect matching found, best is %d", iter, step, want)
			}
			var sum uint64
			for i, j := range mate {
				if j < 0 || mate[j] != i || w[i][j] == 0 {
					t.Fatalf("iter %d step %d: not a perfect matching: %v", iter, step, mate)
				}
				if i < j {
					sum += w[i][j]
				}
			}
			if sum != want {
				t.Fatalf("iter %d step %d (n=%d): weight %d, best %d", iter, step, n, sum, want)
			}
			// Change the edges of one or two vertices, keeping a perfect
			// matching possible most of the time.
			for c := 0; c < 1+r.IntN(2); c++ {
				a := r.IntN(n)
				for b := 0; b < n; b++ {
					if b == a || r.IntN(2) == 0 {
						continue
					}
					if r.IntN(4) == 0 && !(a/2 == b/2) {
						setw(a, b, 0)
					} else {
						setw(a, b, 1+r.Uint64N(maxw))
					}
				}
			}
		}
	}
}
