package swiss

// A maximum-weight perfect matching on a general graph (Edmonds' blossom
// algorithm in its primal-dual form, O(n^3)): the Dutch pairing of a bracket
// is the matching of greatest weight where the weights encode the criteria
// of C.04.3 in order, so one exact solver replaces the enumeration of
// transpositions and exchanges of the rule's text. Weights are multiword
// integers (wide.go); an edge of weight zero is no edge.
//
// The pairing changes a few weights and solves again hundreds of times per
// round, so the solver is incremental: it keeps its matching and vertex
// duals between solves, repairs dual feasibility on the changed edges,
// drops the matched edges that are no longer tight, and augments only
// those. Vertex duals may go negative (perfect matching), held in two's
// complement in the same words.
//
// The solver is written from the textbook description of the algorithm
// (Galil, "Efficient algorithms for finding maximum matching in graphs",
// 1986): stages of alternating-tree growth with S/T labels, blossom
// shrinking and expansion, and the four kinds of dual adjustment.

type edge struct{ a, b int }

var noEdge = edge{-1, -1}

type matcher struct {
	n, k int
	w    []uint64 // doubled edge weights, lower triangle, k words each
	nz   []bool   // n*n: the edge exists (nonzero weight)

	mate      []int
	label     []int8 // per vertex or blossom: 0 free, 1 S, 2 T (+4 while scanning)
	labelEdge []edge
	inBlossom []int
	parent    []int
	childs    [][]int
	bedges    [][]edge
	base      []int
	bestEdge  []edge
	bestEdges [][]edge
	hasBest   []bool // bestEdges[b] is set
	// bestSlack[x] caches the slack of bestEdge[x], valid while
	// bestEpoch[x] == epoch: slacks change only when the duals do (a dual
	// adjustment or a new stage), and the scans compare against the best
	// edge far more often than they replace it.
	bestSlack []uint64
	bestEpoch []int32
	epoch     int32
	// addBlossom's least-slack edge to each other S-blossom, indexed by
	// that blossom, valid where btStamp == btCur.
	btStamp    []int32
	btEdge     []edge
	btSlack    []uint64
	btCur      int32
	dual       []uint64 // 2n duals, k words each
	unused     []int
	allowStamp []int32
	stage      int32
	queue      []int
	t1, t2, t3 []uint64

	started bool   // a previous solution exists to start from
	changed []edge // edges set since the last solve
}

func newMatcher(n, k int) *matcher {
	m := &matcher{n: n, k: k}
	m.w = make([]uint64, n*(n-1)/2*k+k)
	m.nz = make([]bool, n*n)
	m.t1, m.t2, m.t3 = make([]uint64, k), make([]uint64, k), make([]uint64, k)
	return m
}

func (m *matcher) wi(i, j int) []uint64 {
	if i < j {
		i, j = j, i
	}
	o := (i*(i-1)/2 + j) * m.k
	return m.w[o : o+m.k]
}

// set gives edge i-j the weight v (zero removes the edge).
func (m *matcher) set(i, j int, v []uint64) {
	d := m.wi(i, j)
	wShl1(d, v)
	z := wZero(v)
	m.nz[i*m.n+j], m.nz[j*m.n+i] = !z, !z
	if m.started {
		m.changed = append(m.changed, edge{i, j})
	}
}

// get copies the (undoubled) weight of i-j into d.
func (m *matcher) get(d []uint64, i, j int) { wShr1(d, m.wi(i, j)) }

func (m *matcher) dv(x int) []uint64 { return m.dual[x*m.k : (x+1)*m.k] }

// slack puts dual[i] + dual[j] - 2w(i,j) into d and reports whether it
// is zero (the edge is tight).
func (m *matcher) slack(d []uint64, i, j int) bool {
	return wSlack(d, m.dv(i), m.dv(j), m.wi(i, j))
}

// tight reports whether edge i-j has zero slack.
func (m *matcher) tight(i, j int) bool { return wSumIs(m.dv(i), m.dv(j), m.wi(i, j)) }

// bestSlackOf is the slack of bestEdge[x] (which must be set).
func (m *matcher) bestSlackOf(x int) []uint64 {
	s := m.bestSlack[x*m.k : (x+1)*m.k]
	if m.bestEpoch[x] != m.epoch {
		e := m.bestEdge[x]
		m.slack(s, e.a, e.b)
		m.bestEpoch[x] = m.epoch
	}
	return s
}

// setBest makes e, of slack s, the best edge of x.
func (m *matcher) setBest(x int, e edge, s []uint64) {
	m.bestEdge[x] = e
	copy(m.bestSlack[x*m.k:(x+1)*m.k], s)
	m.bestEpoch[x] = m.epoch
}

// offerBest makes e, of slack s, the best edge of x if it has none or a
// greater slack.
func (m *matcher) offerBest(x int, e edge, s []uint64) {
	if m.bestEdge[x] == noEdge || wCmp(s, m.bestSlackOf(x)) < 0 {
		m.setBest(x, e, s)
	}
}

func (m *matcher) allowed(i, j int) bool { return m.allowStamp[i*m.n+j] == m.stage }
func (m *matcher) allow(i, j int) {
	m.allowStamp[i*m.n+j] = m.stage
	m.allowStamp[j*m.n+i] = m.stage
}

func (m *matcher) leaves(b int, f func(v int)) {
	if b < m.n {
		f(b)
		return
	}
	for _, c := range m.childs[b] {
		m.leaves(c, f)
	}
}

// init allocates the solver state: no blossoms, vertex duals at the
// largest incident weight (every edge feasible), and a greedy matching of
// the tight edges.
func (m *matcher) init() {
	n, k := m.n, m.k
	nb := 2 * n
	m.mate = fill(make([]int, n), -1)
	m.label = make([]int8, nb)
	m.labelEdge = make([]edge, nb)
	m.inBlossom = make([]int, n)
	m.parent = fill(make([]int, nb), -1)
	m.childs = make([][]int, nb)
	m.bedges = make([][]edge, nb)
	m.base = fill(make([]int, nb), -1)
	m.bestEdge = make([]edge, nb)
	m.bestEdges = make([][]edge, nb)
	m.hasBest = make([]bool, nb)
	m.bestSlack = make([]uint64, nb*k)
	m.bestEpoch = make([]int32, nb)
	m.epoch = 1
	m.btStamp = make([]int32, nb)
	m.btEdge = make([]edge, nb)
	m.btSlack = make([]uint64, nb*k)
	m.dual = make([]uint64, nb*k)
	m.allowStamp = make([]int32, n*n)
	m.unused = m.unused[:0]
	for b := nb - 1; b >= n; b-- {
		m.unused = append(m.unused, b)
	}
	for i := 0; i < n; i++ {
		m.inBlossom[i] = i
		m.base[i] = i
		y := m.dv(i)
		for j := 0; j < n; j++ {
			if m.nz[i*n+j] {
				if x := m.wi(i, j); wCmp(x, y) > 0 {
					copy(y, x)
				}
			}
		}
		wShr1(y, y)
	}
	for i := 0; i < n; i++ {
		if m.mate[i] >= 0 {
			continue
		}
		for j := i + 1; j < n; j++ {
			if m.mate[j] < 0 && m.nz[i*n+j] {
				if m.tight(i, j) {
					m.mate[i], m.mate[j] = j, i
					break
				}
			}
		}
	}
	m.started = true
	m.changed = m.changed[:0]
}

func neg(a []uint64) bool { return a[len(a)-1]>>63 != 0 }

// sCmp compares two's complement multiword integers.
func sCmp(a, b []uint64) int {
	na, nb := neg(a), neg(b)
	if na != nb {
		if na {
			return -1
		}
		return 1
	}
	return wCmp(a, b)
}

// greedy lowers the dual of every free vertex to the least feasible value,
// which makes at least one of its edges tight, and matches it along such an
// edge when the other end is free too: a bulk change of weights frees many
// vertices, and this pairs most of them again in O(n^2) instead of one
// augmentation stage each.
func (m *matcher) greedy() {
	n, k := m.n, m.k
	best := make([]uint64, k)
	t := make([]uint64, k)
	for v := 0; v < n; v++ {
		if m.mate[v] >= 0 {
			continue
		}
		row := m.nz[v*n : (v+1)*n]
		found := false
		for u := 0; u < n; u++ {
			if !row[u] || u == v {
				continue
			}
			wSub(t, m.wi(v, u), m.dv(u))
			if !found || sCmp(t, best) > 0 {
				copy(best, t)
				found = true
			}
		}
		if !found {
			continue
		}
		copy(m.dv(v), best)
		for u := 0; u < n; u++ {
			if row[u] && u != v && m.mate[u] < 0 {
				wSub(t, m.wi(v, u), m.dv(u))
				if wCmp(t, best) == 0 {
					m.mate[v], m.mate[u] = u, v
					break
				}
			}
		}
	}
}

// repair makes the previous solution a valid start again: blossoms are
// dissolved into their vertices' duals (a blossom's dual counts twice in
// the slack of the edges inside it, once for each endpoint, so each vertex
// takes the whole of every enclosing blossom's dual: the edges inside keep
// their slack and the others gain), the changed edges are made feasible by
// raising one endpoint's dual, and matched edges that are no longer tight
// are dropped.
func (m *matcher) repair() {
	n := m.n
	for v := 0; v < n; v++ {
		for t := m.parent[v]; t >= 0; t = m.parent[t] {
			wAdd(m.dv(v), m.dv(v), m.dv(t))
		}
	}
	for b := n; b < 2*n; b++ {
		if m.base[b] >= 0 {
			m.base[b] = -1
			m.childs[b], m.bedges[b] = nil, nil
			wClear(m.dv(b))
		}
	}
	m.unused = m.unused[:0]
	for b := 2*n - 1; b >= n; b-- {
		m.unused = append(m.unused, b)
		m.parent[b] = -1
	}
	for v := 0; v < n; v++ {
		m.inBlossom[v] = v
		m.parent[v] = -1
	}
	// The first endpoint of a changed edge takes the raise: the pairing
	// sets its bonuses on the higher-ranked player's edges, so a bonus
	// that is the same on all of a player's edges keeps its matched edge
	// tight.
	s := m.t1
	for _, e := range m.changed {
		if !m.nz[e.a*n+e.b] {
			continue
		}
		m.slack(s, e.a, e.b)
		if neg(s) {
			wSub(m.dv(e.a), m.dv(e.a), s)
		}
	}
	m.changed = m.changed[:0]
	for v := 0; v < n; v++ {
		u := m.mate[v]
		if u < 0 {
			continue
		}
		if !m.nz[v*n+u] {
			m.mate[v], m.mate[u] = -1, -1
			continue
		}
		if !m.tight(v, u) {
			m.mate[v], m.mate[u] = -1, -1
		}
	}
}

// solve computes a maximum-weight perfect matching, starting from the
// previous one, and returns mate (nil when there is no perfect matching).
func (m *matcher) solve() []int {
	n := m.n
	nb := 2 * n
	if !m.started {
		m.init()
	} else {
		m.repair()
	}
	m.greedy()
	// Every vertex of an alternating tree has the parity of its root (the
	// doubled weights are even), so when all the free vertices have even
	// duals the slack between two S-vertices is even and its half, the
	// type-3 dual move, is exact. Raising a free vertex's dual keeps
	// every edge feasible.
	for v := 0; v < n; v++ {
		if m.mate[v] < 0 && m.dv(v)[0]&1 != 0 {
			wAddAt(m.dv(v), 0, 1)
		}
	}
	k := m.k
	delta := make([]uint64, k)
	ds := make([]uint64, k)
	for {
		// A stage: grow alternating trees from every free vertex.
		free := false
		for v := 0; v < n; v++ {
			if m.mate[v] < 0 {
				free = true
				break
			}
		}
		if !free {
			break
		}
		m.stage++
		m.epoch++
		for i := range m.label {
			m.label[i] = 0
			m.bestEdge[i] = noEdge
			m.bestEdges[i] = nil
			m.hasBest[i] = false
			m.labelEdge[i] = noEdge
		}
		m.queue = m.queue[:0]
		for v := 0; v < n; v++ {
			if m.mate[v] < 0 && m.label[m.inBlossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				row := m.nz[v*n : (v+1)*n]
				for w := 0; w < n; w++ {
					if !row[w] || w == v {
						continue
					}
					bv, bw := m.inBlossom[v], m.inBlossom[w]
					if bv == bw {
						continue
					}
					kslack := m.t1
					tight := m.allowed(v, w)
					// Only the tightness of an edge to a T-vertex matters.
					needSlack := m.label[bw] == 1 || m.label[w] == 0
					if !tight {
						if needSlack {
							tight = m.slack(kslack, v, w)
						} else {
							tight = m.tight(v, w)
						}
						if tight {
							m.allow(v, w)
						}
					}
					if tight {
						switch {
						case m.label[bw] == 0:
							m.assignLabel(w, 2, v)
						case m.label[bw] == 1:
							if b := m.scanBlossom(v, w); b >= 0 {
								m.addBlossom(b, v, w)
							} else {
								m.augment(v, w)
								augmented = true
							}
						case m.label[w] == 0:
							m.label[w] = 2
							m.labelEdge[w] = edge{v, w}
						}
						if augmented {
							break
						}
					} else if m.label[bw] == 1 {
						m.offerBest(bv, edge{v, w}, kslack)
					} else if m.label[w] == 0 {
						m.offerBest(w, edge{v, w}, kslack)
					}
				}
			}
			if augmented {
				break
			}
			// Dual adjustment (perfect matching: no vertex dual bound).
			dtype := 0
			var dedge edge
			dblossom := -1
			for v := 0; v < n; v++ {
				if m.label[m.inBlossom[v]] == 0 && m.bestEdge[v] != noEdge {
					e := m.bestEdge[v]
					ds := m.bestSlackOf(v)
					if dtype == 0 || wCmp(ds, delta) < 0 {
						copy(delta, ds)
						dtype, dedge = 2, e
					}
				}
			}
			for b := 0; b < nb; b++ {
				if m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == 1 && m.bestEdge[b] != noEdge {
					e := m.bestEdge[b]
					wShr1(ds, m.bestSlackOf(b))
					if dtype == 0 || wCmp(ds, delta) < 0 {
						copy(delta, ds)
						dtype, dedge = 3, e
					}
				}
			}
			for b := n; b < nb; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == 2 && (dtype == 0 || wCmp(m.dv(b), delta) < 0) {
					copy(delta, m.dv(b))
					dtype, dblossom = 4, b
				}
			}
			for v := 0; v < n; v++ {
				switch m.label[m.inBlossom[v]] {
				case 1:
					wSub(m.dv(v), m.dv(v), delta)
				case 2:
					wAdd(m.dv(v), m.dv(v), delta)
				}
			}
			for b := n; b < nb; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 {
					switch m.label[b] {
					case 1:
						wAdd(m.dv(b), m.dv(b), delta)
					case 2:
						wSub(m.dv(b), m.dv(b), delta)
					}
				}
			}
			m.epoch++
			if dtype == 0 {
				return nil // no augmenting path and no dual move: not perfect
			}
			switch dtype {
			case 2:
				v, w := dedge.a, dedge.b
				if m.label[m.inBlossom[v]] != 1 {
					v, w = w, v
				}
				m.allow(v, w)
				m.queue = append(m.queue, v)
			case 3:
				m.allow(dedge.a, dedge.b)
				m.queue = append(m.queue, dedge.a)
			case 4:
				m.expand(dblossom, false)
			}
		}
		for b := n; b < nb; b++ {
			if m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == 1 && wZero(m.dv(b)) {
				m.expand(b, true)
			}
		}
	}
	return append([]int(nil), m.mate...)
}

func fill(s []int, v int) []int {
	for i := range s {
		s[i] = v
	}
	return s
}

func (m *matcher) assignLabel(w, t int, v int) {
	b := m.inBlossom[w]
	m.label[w], m.label[b] = int8(t), int8(t)
	if v >= 0 {
		m.labelEdge[w], m.labelEdge[b] = edge{v, w}, edge{v, w}
	} else {
		m.labelEdge[w], m.labelEdge[b] = noEdge, noEdge
	}
	m.bestEdge[w], m.bestEdge[b] = noEdge, noEdge
	if t == 1 {
		m.leaves(b, func(x int) { m.queue = append(m.queue, x) })
	} else {
		bs := m.base[b]
		m.assignLabel(m.mate[bs], 1, bs)
	}
}

// scanBlossom traces from v and w to the roots: the base of a new blossom,
// or -1 when the path joins two trees (an augmenting path).
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	res := -1
	for v >= 0 {
		b := m.inBlossom[v]
		if m.label[b]&4 != 0 {
			res = m.base[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelEdge[b] == noEdge {
			v = -1
		} else {
			v = m.labelEdge[b].a
			b = m.inBlossom[v]
			v = m.labelEdge[b].a
		}
		if w >= 0 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return res
}

func (m *matcher) addBlossom(bs, v, w int) {
	bb := m.inBlossom[bs]
	bv, bw := m.inBlossom[v], m.inBlossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.base[b] = bs
	m.parent[b] = -1
	m.parent[bb] = b
	path := []int{}
	edges := []edge{{v, w}}
	for bv != bb {
		m.parent[bv] = b
		path = append(path, bv)
		edges = append(edges, m.labelEdge[bv])
		v = m.labelEdge[bv].a
		bv = m.inBlossom[v]
	}
	path = append(path, bb)
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	for i, j := 0, len(edges)-1; i < j; i, j = i+1, j-1 {
		edges[i], edges[j] = edges[j], edges[i]
	}
	for bw != bb {
		m.parent[bw] = b
		path = append(path, bw)
		le := m.labelEdge[bw]
		edges = append(edges, edge{le.b, le.a})
		w = le.a
		bw = m.inBlossom[w]
	}
	m.childs[b], m.bedges[b] = path, edges
	m.label[b] = 1
	m.labelEdge[b] = m.labelEdge[bb]
	wClear(m.dv(b))
	m.leaves(b, func(x int) {
		if m.label[m.inBlossom[x]] == 2 {
			m.queue = append(m.queue, x)
		}
		m.inBlossom[x] = b
	})
	// The least-slack edges from the new blossom to each other S-blossom.
	m.btCur++
	cur := m.btCur
	var order []int
	k := m.k
	s := m.t3
	consider := func(i, j int) {
		if m.inBlossom[j] == b {
			i, j = j, i
		}
		bj := m.inBlossom[j]
		if bj == b || m.label[bj] != 1 {
			return
		}
		m.slack(s, i, j)
		bs := m.btSlack[bj*k : (bj+1)*k]
		if m.btStamp[bj] != cur {
			m.btStamp[bj] = cur
			order = append(order, bj)
		} else if wCmp(s, bs) >= 0 {
			return
		}
		m.btEdge[bj] = edge{i, j}
		copy(bs, s)
	}
	for _, c := range path {
		if c >= m.n && m.hasBest[c] {
			for _, e := range m.bestEdges[c] {
				consider(e.a, e.b)
			}
			m.bestEdges[c], m.hasBest[c] = nil, false
		} else {
			m.leaves(c, func(x int) {
				row := m.nz[x*m.n : (x+1)*m.n]
				for y := 0; y < m.n; y++ {
					if row[y] && y != x {
						consider(x, y)
					}
				}
			})
		}
		m.bestEdge[c] = noEdge
	}
	list := make([]edge, 0, len(order))
	m.bestEdge[b] = noEdge
	for _, bj := range order {
		e := m.btEdge[bj]
		list = append(list, e)
		m.offerBest(b, e, m.btSlack[bj*k:(bj+1)*k])
	}
	m.bestEdges[b], m.hasBest[b] = list, true
}

func idx(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

func wrap(j, l int) int {
	if j < 0 {
		return j + l
	}
	return j
}

func (m *matcher) expand(b int, endStage bool) {
	for _, s := range m.childs[b] {
		m.parent[s] = -1
		if s < m.n {
			m.inBlossom[s] = s
		} else if endStage && wZero(m.dv(s)) {
			m.expand(s, endStage)
		} else {
			m.leaves(s, func(x int) { m.inBlossom[x] = s })
		}
	}
	if !endStage && m.label[b] == 2 {
		ch, ed := m.childs[b], m.bedges[b]
		l := len(ch)
		entry := m.inBlossom[m.labelEdge[b].b]
		j := idx(ch, entry)
		var step int
		if j&1 != 0 {
			j -= l
			step = 1
		} else {
			step = -1
		}
		v, w := m.labelEdge[b].a, m.labelEdge[b].b
		for j != 0 {
			var p, q int
			if step == 1 {
				p, q = ed[wrap(j, l)].a, ed[wrap(j, l)].b
			} else {
				q, p = ed[wrap(j-1, l)].a, ed[wrap(j-1, l)].b
			}
			m.label[w], m.label[q] = 0, 0
			m.assignLabel(w, 2, v)
			m.allow(p, q)
			j += step
			if step == 1 {
				v, w = ed[wrap(j, l)].a, ed[wrap(j, l)].b
			} else {
				w, v = ed[wrap(j-1, l)].a, ed[wrap(j-1, l)].b
			}
			m.allow(v, w)
			j += step
		}
		bw := ch[wrap(j, l)]
		m.label[w], m.label[bw] = 2, 2
		m.labelEdge[w], m.labelEdge[bw] = edge{v, w}, edge{v, w}
		m.bestEdge[bw] = noEdge
		j += step
		for ch[wrap(j, l)] != entry {
			bv := ch[wrap(j, l)]
			if m.label[bv] == 1 {
				j += step
				continue
			}
			found := -1
			m.leaves(bv, func(x int) {
				if found < 0 && m.label[x] != 0 {
					found = x
				}
			})
			if found >= 0 {
				m.label[found] = 0
				m.label[m.mate[m.base[bv]]] = 0
				m.assignLabel(found, 2, m.labelEdge[found].a)
			}
			j += step
		}
	}
	m.label[b] = 0
	m.labelEdge[b] = noEdge
	m.bestEdge[b] = noEdge
	m.bestEdges[b], m.hasBest[b] = nil, false
	m.parent[b] = -1
	m.base[b] = -1
	m.childs[b], m.bedges[b] = nil, nil
	wClear(m.dv(b))
	m.unused = append(m.unused, b)
}

// augmentBlossom swaps the matched and unmatched edges of the path from v
// to the base of blossom b, making v the new base.
func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.parent[t] != b {
		t = m.parent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	ch, ed := m.childs[b], m.bedges[b]
	l := len(ch)
	i := idx(ch, t)
	j := i
	var step int
	if i&1 != 0 {
		j -= l
		step = 1
	} else {
		step = -1
	}
	for j != 0 {
		j += step
		t = ch[wrap(j, l)]
		var w, x int
		if step == 1 {
			w, x = ed[wrap(j, l)].a, ed[wrap(j, l)].b
		} else {
			x, w = ed[wrap(j-1, l)].a, ed[wrap(j-1, l)].b
		}
		if t >= m.n {
			m.augmentBlossom(t, w)
		}
		j += step
		t = ch[wrap(j, l)]
		if t >= m.n {
			m.augmentBlossom(t, x)
		}
		m.mate[w], m.mate[x] = x, w
	}
	m.childs[b] = append(append([]int{}, ch[i:]...), ch[:i]...)
	m.bedges[b] = append(append([]edge{}, ed[i:]...), ed[:i]...)
	m.base[b] = m.base[m.childs[b][0]]
}

func (m *matcher) augment(v, w int) {
	for _, se := range [2]edge{{v, w}, {w, v}} {
		s, j := se.a, se.b
		for {
			bs := m.inBlossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = j
			if m.labelEdge[bs] == noEdge {
				break
			}
			t := m.labelEdge[bs].a
			bt := m.inBlossom[t]
			s, j = m.labelEdge[bt].a, m.labelEdge[bt].b
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = s
		}
	}
}
