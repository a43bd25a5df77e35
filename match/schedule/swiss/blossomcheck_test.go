package swiss

import "fmt"

// checkDuals: every edge's slack (with twice the enclosing blossoms' duals) >= 0,
// matched edges tight.
func (m *matcher) checkDuals() error {
	n := m.n
	s := make([]uint64, m.k)
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if !m.nz[i*n+j] {
				continue
			}
			m.slack(s, i, j)
			// add z of common blossoms
			anc := map[int]bool{}
			for t := m.parent[i]; t >= 0; t = m.parent[t] {
				anc[t] = true
			}
			for t := m.parent[j]; t >= 0; t = m.parent[t] {
				if anc[t] {
					wAdd(s, s, m.dv(t))
					wAdd(s, s, m.dv(t))
				}
			}
			if neg(s) {
				return fmt.Errorf("edge %d-%d slack negative", i, j)
			}
			if m.mate[i] == j && !wZero(s) {
				return fmt.Errorf("matched edge %d-%d not tight", i, j)
			}
		}
	}
	return nil
}

func (m *matcher) dump() string {
	s := ""
	for v := 0; v < m.n; v++ {
		s += fmt.Sprintf("v%d y=%d par=%d mate=%d\n", v, int64(m.dv(v)[0]), m.parent[v], m.mate[v])
	}
	for b := m.n; b < 2*m.n; b++ {
		if m.base[b] >= 0 {
			s += fmt.Sprintf("b%d z=%d par=%d childs=%v\n", b, int64(m.dv(b)[0]), m.parent[b], m.childs[b])
		}
	}
	for i := 0; i < m.n; i++ {
		for j := 0; j < i; j++ {
			if m.nz[i*m.n+j] {
				s += fmt.Sprintf("w%d-%d=%d ", i, j, m.wi(i, j)[0])
			}
		}
	}
	return s
}

// total is the weight of matching mate.
func (m *matcher) total(mate []int) []uint64 {
	s := make([]uint64, m.k)
	for i, j := range mate {
		if j > i {
			wAdd(s, s, m.wi(i, j))
		}
	}
	return s
}

// fresh solves the same weights from scratch.
func (m *matcher) fresh() []int {
	f := newMatcher(m.n, m.k)
	copy(f.w, m.w)
	copy(f.nz, m.nz)
	return f.solve()
}
