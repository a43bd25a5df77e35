package swiss

import (
	"fmt"
	"math/bits"
	"sort"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// Pair pairs the next round (len(History)+1) by the FIDE (Dutch) system,
// C.04.3 as applied from 1 July 2025, with the general rules of C.04.1 and,
// when opt.Baku is set, the Baku acceleration of C.04.5.1. With
// opt.System Burstein, the rounds after the seeding rounds are paired by
// the Burstein system instead (C.04.4.2, burstein.go).
//
// Players with Absent set are left out. The result lists the boards in the
// order of C.04.2 (the order the reference program bbpPairings prints) and
// the player given the pairing-allocated bye, if the number of players to
// pair is odd. Pair returns ErrNoPairing when no pairing satisfies the
// absolute criteria (C.1 no rematch, C.2 no second PAB, C.3 no two players
// with the same absolute colour preference), and a plain error for an
// inconsistent history.
//
// Method: the brackets are paired from the top score down; each bracket's
// pairing is a maximum-weight matching over all the players still to pair,
// whose edge weights encode, in lexicographic order, the completion
// requirement (C.4: the rest of the round must stay pairable), the PAB
// eligibility, and the quality criteria C.5-C.21 (pairs and scores in this
// bracket and the next, the bye assignee's unplayed games, the colour
// criteria, the floaters of the previous two rounds and their scores).
// Among the pairings of equal quality, the choice of the rule's text (the
// moved-down players to pair first, the fewest and smallest exchanges, then
// the first transposition) is made by fixing one decision at a time with a
// small bonus and solving again, as bbpPairings does. The matching is
// incremental (each decision changes a few weights and repairs the
// previous optimum), so a 1,000-player round takes seconds. Side by side
// with bbpPairings 6 on the same files (arbiter pair -p and bbpPairings -p,
// round 5 of generated events, same pairings, on a 2-core machine at load
// 30, 2026-12-04): 100 players 0.03 s user against 0.04 s, 500 players
// 1.4 s against 5.0 s, 1,000 players 12.1 s against 44.7 s; peak memory
// 37, 63 and 146 MB against 4, 24 and 87 MB.
//
// Checked against bbpPairings' 2025 Dutch engine on its published tests
// and on 404 rounds of generated events (match/schedule/swiss/testdata/reference):
// the same boards, colours, board order and bye. When no player eligible
// for the PAB can be left over (C.04.1 (2025) art. 4), no pairing meets
// C.2 and Pair returns ErrNoPairing, as bbpPairings 6 does (exit status 1).
// A field larger than MaxPlayers is refused (the solver's memory grows
// with the square of the field).
func Pair(players []tally.Player, opt Options) (Round, error) {
	present := 0
	for i := range players {
		if !players[i].Absent {
			present++
		}
	}
	if present > MaxPlayers {
		return Round{}, fmt.Errorf("swiss: %d players to pair, more than the %d Pair handles", present, MaxPlayers)
	}
	ev, err := newEvent(players, opt)
	if err != nil {
		return Round{}, err
	}
	if opt.System == Burstein && ev.played+1 > SeedingRounds(opt.Rounds) {
		return pairBurstein(ev)
	}
	d := &dutch{ev: ev}
	for _, s := range ev.all {
		if !s.p.Absent {
			d.sorted = append(d.sorted, s)
		}
	}
	sort.SliceStable(d.sorted, func(i, j int) bool { return higher(d.sorted[i], d.sorted[j]) })
	if len(d.sorted) == 0 {
		return Round{}, nil
	}
	if len(d.sorted) == 1 {
		if !d.sorted[0].byeOK {
			return Round{}, ErrNoPairing
		}
		return Round{Bye: d.sorted[0].p.Number}, nil
	}
	mate, err := d.run()
	if err != nil {
		return Round{}, err
	}
	var r Round
	for v, u := range mate {
		a := d.sorted[v]
		if u < 0 {
			if r.Bye != 0 || !a.byeOK {
				return Round{}, ErrNoPairing
			}
			r.Bye = a.p.Number
			continue
		}
		if u < v {
			continue
		}
		b := d.sorted[u]
		r.Boards = append(r.Boards, seat(ev.colourOf(a, b), a, b))
	}
	ev.boardOrder(r.Boards)
	return r, nil
}

// MaxPlayers is the largest number of players Pair pairs in one round.
const MaxPlayers = 2000

type dutch struct {
	ev     *event
	sorted []*pstate
	lay    layout
	m      *matcher

	byeScore   int
	single     bool // C.9 applies: the bye assignee is the bracket's single downfloater
	unplayRank map[int]uint64
	maxEdge    []uint64

	mate      []int  // the current matching (solve)
	matched   []bool // vertices whose partner is decided
	matchedTo []int  // the decided partners (-1: none yet)
}

// layout places the criteria in the edge weight, most significant first.
type layout struct {
	r, g                           int // bits of a count; bits of a per-score-group field
	shift                          map[int]int
	comp, curPairs, curScores      int
	nextPairs, nextScores, byeUnpl int
	col                            [4]int
	down, up, downS, upS           [3]int
	flag                           int // the "not an exchange" bit of the remainder phase
	low                            int // the first bit above the solver's guide
	total, k                       int
}

func bitLen(x int) int { return bits.Len(uint(x)) }

// guide is the solver's hint for a pair d places apart where the natural
// pairing is half apart: n for the natural partner, less further off.
func guide(d, half, n int) uint64 {
	x := d - half
	if x < 0 {
		x = -x
	}
	if x > n {
		x = n
	}
	return uint64(n - x)
}

func (d *dutch) makeLayout() {
	n := len(d.sorted)
	L := layout{r: bitLen(n) + 1, shift: map[int]int{}}
	// Score-group sub-fields, the lowest score at the bottom.
	for i := len(d.sorted) - 1; i >= 0; {
		j := i
		for j >= 0 && d.sorted[j].score == d.sorted[i].score {
			j--
		}
		L.shift[d.sorted[i].score] = L.g
		L.g += bitLen(i-j) + 1
		i = j
	}
	pos := 0
	take := func(w int) int { p := pos; pos += w; return p }
	// The lowest bits guide the solver among pairings that the rule
	// ranks equal (towards the natural S1-S2 order, so that most of the
	// decisions below find the matching already right); their sum over a
	// pairing stays below one unit of everything above, so they decide
	// nothing.
	take(bitLen(n*n) + 1)
	L.low = pos
	take(1 + 3*L.r) // tie-break room (transpositions, exchanges)
	L.flag = L.low + 1 + 2*L.r
	pr := d.ev.played
	for back := 2; back >= 1; back-- {
		if pr >= back {
			L.upS[back] = take(L.g)
			L.downS[back] = take(L.g)
		}
	}
	for back := 2; back >= 1; back-- {
		if pr >= back {
			L.up[back] = take(L.r)
			L.down[back] = take(L.r)
		}
	}
	for i := 3; i >= 0; i-- {
		L.col[i] = take(L.r)
	}
	L.byeUnpl = take(L.r + 1)
	L.nextScores = take(L.g)
	L.nextPairs = take(L.r)
	L.curScores = take(L.g)
	L.curPairs = take(L.r)
	L.comp = take(L.r + 2)
	L.total = pos
	L.k = (pos + 3 + 63) / 64
	d.lay = L
	d.maxEdge = make([]uint64, L.k)
	for i := 0; i < pos; i++ {
		d.maxEdge[i/64] |= 1 << uint(i%64)
	}
}

func (d *dutch) byeCand(s *pstate) bool { return s.byeOK && s.score <= d.byeScore }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// edgeWeight writes into w the weight of pairing hi (the higher-ranked)
// with lo, lo being a resident of the current bracket (cur) or of the next
// one (next), or neither (only completion counts).
func (d *dutch) edgeWeight(w []uint64, hi, lo *pstate, cur, next bool) {
	wClear(w)
	ev := d.ev
	if !ev.compatible(hi, lo) {
		return
	}
	L := &d.lay
	// C.4 completion and the PAB eligibility: every pair counts, and a
	// pair of non-candidates counts more, so that a candidate is left over.
	wAddAt(w, L.comp, 1+b2u(!d.byeCand(hi))+b2u(!d.byeCand(lo)))
	if cur {
		// C.5 maximise the pairs of the bracket, C.6 minimise the scores
		// of its downfloaters (maximise the scores paired).
		wAddAt(w, L.curPairs, 1)
		wAddAt(w, L.curScores+L.shift[hi.score], 1)
	}
	if next {
		// C.7 the choice of downfloaters lets the next bracket pair as
		// many and as high as it can.
		wAddAt(w, L.nextPairs, 1)
		wAddAt(w, L.nextScores+L.shift[hi.score], 1)
	}
	if d.single {
		// C.9 minimise the unplayed games of the PAB assignee.
		if hi.score == d.byeScore {
			wAddAt(w, L.byeUnpl, d.unplayRank[hi.played])
		}
		if lo.score == d.byeScore {
			wAddAt(w, L.byeUnpl, d.unplayRank[lo.played])
		}
	}
	if !cur {
		return
	}
	// C.10 topscorers' colour difference beyond 2.
	wAddAt(w, L.col[0], b2u(!hi.hasAbsoluteImbalance() || !lo.hasAbsoluteImbalance() || hi.pref != lo.pref))
	// C.11 topscorers' same colour three times in a row.
	wAddAt(w, L.col[1], b2u(noThirdInARow(lo, hi)))
	// C.12 colour preferences, C.13 strong colour preferences.
	wAddAt(w, L.col[2], b2u(prefsCompatible(lo.pref, hi.pref)))
	wAddAt(w, L.col[3], b2u((!lo.strong && !lo.absolute) || (!hi.strong && !hi.absolute) ||
		(lo.absolute && hi.absolute) || lo.pref != hi.pref))
	for back := 1; back <= 2 && back <= ev.played; back++ {
		// C.14/C.16 repeated downfloaters, C.15/C.17 repeated upfloaters.
		wAddAt(w, L.down[back], b2u(lo.float[back] == floatDown)+b2u(hi.score <= lo.score && hi.float[back] == floatDown))
		wAddAt(w, L.up[back], b2u(!(hi.score > lo.score && lo.float[back] == floatUp)))
	}
	for back := 1; back <= 2 && back <= ev.played; back++ {
		// C.18/C.20 scores of repeated downfloaters, C.19/C.21 scores of
		// the opponents of repeated upfloaters.
		if lo.float[back] == floatDown {
			wAddAt(w, L.downS[back]+L.shift[lo.score], 1)
		}
		if hi.float[back] == floatDown {
			wAddAt(w, L.downS[back]+L.shift[hi.score], 1)
		}
		if !(lo.float[back] == floatUp && hi.score > lo.score) {
			wAddAt(w, L.upS[back]+L.shift[hi.score], 1)
		}
	}
}

// noThirdInARow is false when the two have the same absolute preference
// and the one who cannot get it would play its colour a third time.
func noThirdInARow(a, b *pstate) bool {
	if !a.absolute || !b.absolute || a.pref != b.pref {
		return true
	}
	if a.imbalance == b.imbalance {
		return a.repeated == tally.NoColor || a.repeated != b.repeated
	}
	loser := a
	if a.imbalance > b.imbalance {
		loser = b
	}
	return loser.repeated != other(a.pref)
}

// mateOf is v's partner in the current matching, v itself when unmatched
// (paired with the dummy vertex that stands for the PAB).
func (d *dutch) mateOf(mate []int, v int) int {
	if mate[v] < 0 || mate[v] >= len(d.sorted) {
		return v
	}
	return mate[v]
}

// verifyHook, set by tests only, checks each solve.
var verifyHook func(*matcher, []int)

// solve re-solves the matching after weight changes.
func (d *dutch) solve() ([]int, error) {
	mate := d.m.solve()
	if mate == nil {
		return nil, ErrNoPairing
	}
	if verifyHook != nil {
		verifyHook(d.m, mate)
	}
	return mate, nil
}

func (d *dutch) finalize(a, b int) {
	zero := make([]uint64, d.lay.k)
	for u := 0; u < d.m.n; u++ {
		if u != a && u != b {
			d.m.set(a, u, zero)
			d.m.set(b, u, zero)
		}
	}
	d.m.set(a, b, d.maxEdge)
}

// run pairs the round: the initial matching (does a pairing exist, and
// the PAB assignee's score), then each bracket from the top score down
// (pairBracket), then a check that the pairing is symmetric. The result
// is each vertex's partner (-1 for the PAB).
func (d *dutch) run() ([]int, error) {
	n := len(d.sorted)
	d.makeLayout()
	if err := d.initialMatching(); err != nil {
		return nil, err
	}
	if n%2 == 1 {
		d.prepareBye()
	}
	d.matchedTo = make([]int, n)
	for i := range d.matchedTo {
		d.matchedTo[i] = -1
	}
	d.matched = make([]bool, n)
	b := &bracket{d: d, tmp: make([]uint64, d.lay.k)}
	// P: the vertices of the current bracket (moved-down players first,
	// then the residents) followed by those of the next score group.
	for b.next < n && d.sorted[b.next].score >= d.sorted[0].score {
		b.P = append(b.P, b.next)
		b.next++
	}
	for len(b.P) > 1 || b.next < n {
		if err := b.pair(); err != nil {
			return nil, err
		}
	}
	for v, u := range d.matchedTo {
		if u >= 0 && d.matchedTo[u] != v {
			return nil, fmt.Errorf("swiss: internal error: pairing of %d is not symmetric", d.sorted[v].p.Number)
		}
	}
	return d.matchedTo, nil
}

// initialMatching solves the round as one matching that decides whether a
// pairing exists at all and, for an odd number, the score of the PAB
// assignee: the lowest score that a bye candidate left over can have.
func (d *dutch) initialMatching() error {
	n := len(d.sorted)
	L := &d.lay
	levels := map[int]int{}
	lv := 0
	for i := n - 1; i >= 0; i-- {
		if _, ok := levels[d.sorted[i].score]; !ok {
			levels[d.sorted[i].score] = lv
			lv++
		}
	}
	if need := bitLen(2*n*lv) + 6; (need+63)/64 > L.k {
		L.k = (need + 63) / 64
		mx := make([]uint64, L.k)
		copy(mx, d.maxEdge)
		d.maxEdge = mx
	}
	// A perfect matching with a dummy vertex for the PAB when the number
	// is odd: every pairing then has one dummy edge of the same weight.
	nv := n + n%2
	d.m = newMatcher(nv, L.k)
	w := make([]uint64, L.k)
	if nv > n {
		wClear(w)
		w[0] = 1
		for i := 0; i < n; i++ {
			d.m.set(n, i, w)
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			a, b := d.sorted[j], d.sorted[i]
			wClear(w)
			if n%2 == 1 {
				if d.ev.compatible(a, b) {
					lb := bitLen(2*n*lv) + 1
					wAddAt(w, lb, 1+b2u(!a.byeOK)+b2u(!b.byeOK))
					wAddAt(w, 0, uint64(levels[a.score]+levels[b.score]))
				}
			} else {
				d.edgeWeight(w, a, b, false, false)
			}
			d.m.set(i, j, w)
		}
	}
	var err error
	d.mate, err = d.solve()
	return err
}

// prepareBye, for an odd number of players, takes the PAB assignee's
// score from the initial matching, sets every edge to its completion
// weight, decides whether C.9 applies from the top bracket on (the
// assignee is the top bracket's single downfloater) and ranks the
// bye-score players by unplayed games.
func (d *dutch) prepareBye() {
	n := len(d.sorted)
	w := make([]uint64, d.lay.k)
	d.byeScore = d.sorted[d.mate[n]].score
	top := d.sorted[0].score
	d.single = false
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			d.edgeWeight(w, d.sorted[j], d.sorted[i], false, false)
			d.m.set(i, j, w)
		}
	}
	if d.byeScore >= top {
		d.single = true
		for v := 0; v < n && d.sorted[v].score >= top; v++ {
			if d.sorted[d.mateOf(d.mate, v)].score < top {
				d.single = false
				break
			}
		}
	}
	// C.9: fewer unplayed games make a better bye assignee, so more
	// unplayed games weigh more for being paired.
	var counts []int
	for _, s := range d.sorted {
		if s.score == d.byeScore {
			counts = append(counts, s.played)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(counts)))
	d.unplayRank = map[int]uint64{}
	for i, c := range counts {
		d.unplayRank[c] = uint64(i)
	}
}

// bracket is the pairing of one bracket: its vertices P (the moved-down
// players first, then the residents, then the next score group, whose
// edges the bracket's choice of downfloaters weighs), and the base edge
// weights among them.
type bracket struct {
	d          *dutch
	P          []int // vertices (indices into d.sorted)
	next       int   // the first vertex not yet in P
	moved      int   // moved-down players at the head of P
	groupBegin int   // first resident vertex of the bracket
	groupEnd   int   // one past the last resident vertex
	groupStart int   // the first vertex of the next score group
	nextBegin  int   // P index of the first player of the next score group
	np         int   // len(P)
	half       int   // the natural S1 size of the bracket, for the guide
	base       []uint64
	tmp        []uint64
	rem        []int // the remainder, as P indices
	pairs      int   // the remainder's S1 size
	exchanges  int   // S1 players of the remainder not leading, before the exchanges
	remIdx     map[int]int
}

// baseAt is the base weight of the edge between P indices hi < lo.
func (b *bracket) baseAt(lo, hi int) []uint64 {
	k := b.d.lay.k
	o := (lo*(lo-1)/2 + hi) * k
	return b.base[o : o+k]
}

// guided adds the solver's guide to an edge inside the bracket.
func (b *bracket) guided(dst []uint64, hi, lo int) {
	if lo < b.nextBegin && !wZero(dst) {
		wAddAt(dst, 0, guide(lo-hi, b.half, len(b.d.sorted)))
	}
}

func (b *bracket) isResident(v int) bool { return v >= b.groupBegin && v < b.groupEnd }

// remainderWeight is a remainder edge's weight with the exchange terms: a
// pair led by an S1 player is not an exchange, and a higher leader is a
// smaller BSN difference.
func (b *bracket) remainderWeight(dst []uint64, hi, lo, hiRem, loRem int) {
	L := &b.d.lay
	copy(dst, b.baseAt(lo, hi))
	if wZero(dst) {
		return
	}
	if hiRem < b.pairs {
		wAddAt(dst, L.flag, 1)
	}
	wSubAt(dst, L.low+1, uint64(hiRem))
	wAddAt(dst, 0, guide(loRem-hiRem, b.pairs, len(b.d.sorted)))
}

// favour sets the edges of the moved-down player at P index i to the
// residents with a bonus at the tie-break bit. Without step: add on every
// edge (the residents in order). With step: add, add+1, ... from the
// lowest resident not yet matched up, so that the highest compatible one
// is favoured most; it returns that one's vertex (-1 for none).
func (b *bracket) favour(i int, add uint64, step bool) int {
	d := b.d
	set := func(o int) bool {
		copy(b.tmp, b.baseAt(o, i))
		if wZero(b.tmp) {
			return false
		}
		wAddAt(b.tmp, d.lay.low, add)
		b.guided(b.tmp, i, o)
		d.m.set(b.P[i], b.P[o], b.tmp)
		return true
	}
	if !step {
		for o := b.moved; o < b.nextBegin; o++ {
			set(o)
		}
		return -1
	}
	best := -1
	for o := b.nextBegin - 1; o >= b.moved; o-- {
		if !d.matched[b.P[o]] && set(o) {
			add++
			best = b.P[o]
		}
	}
	return best
}

// resolve re-solves the matching.
func (b *bracket) resolve() error {
	var err error
	b.d.mate, err = b.d.solve()
	return err
}

// pair pairs the bracket and moves on to the next one.
func (b *bracket) pair() error {
	if err := b.open(); err != nil {
		return err
	}
	if err := b.chooseMovedDown(); err != nil {
		return err
	}
	if err := b.pairMovedDown(); err != nil {
		return err
	}
	if err := b.remainder(); err != nil {
		return err
	}
	if err := b.exchangeS1(); err != nil {
		return err
	}
	if err := b.exchangeS2(); err != nil {
		return err
	}
	if err := b.transpose(); err != nil {
		return err
	}
	b.advance()
	return nil
}

// open adds the next score group to P and sets the base weights of every
// edge of the bracket and to the next group.
func (b *bracket) open() error {
	d := b.d
	n := len(d.sorted)
	b.nextBegin = len(b.P)
	b.groupEnd = b.groupBegin + (b.nextBegin - b.moved)
	b.groupStart = b.next
	for b.next < n && d.sorted[b.next].score >= d.sorted[b.groupStart].score {
		b.P = append(b.P, b.next)
		b.next++
	}
	b.np = len(b.P)
	k := d.lay.k
	b.base = make([]uint64, b.np*(b.np-1)/2*k+k)
	b.half = (b.nextBegin - b.moved + 1) / 2
	for lo := b.moved; lo < b.np; lo++ {
		for hi := 0; hi < lo; hi++ {
			bw := b.baseAt(lo, hi)
			d.edgeWeight(bw, d.sorted[b.P[hi]], d.sorted[b.P[lo]], lo < b.nextBegin, lo >= b.nextBegin)
			copy(b.tmp, bw)
			b.guided(b.tmp, hi, lo)
			d.m.set(b.P[hi], b.P[lo], b.tmp)
		}
	}
	return b.resolve()
}

// chooseMovedDown decides which moved-down players are paired in this
// bracket (C.6, and the rule's preference for the higher ones within a
// score): within each score, from the top, a player the matching leaves
// out is offered a bonus, and kept when the best pairing allows it.
func (b *bracket) chooseMovedDown() error {
	d := b.d
	var mdScore, left, leftMatched int
	for i := 0; i < b.moved; i++ {
		v := b.P[i]
		if i == 0 || d.sorted[v].score < mdScore {
			mdScore = d.sorted[v].score
			left, leftMatched = 0, 0
			for j := i; j < b.moved && d.sorted[b.P[j]].score >= mdScore; j++ {
				left++
				if b.isResident(d.mateOf(d.mate, b.P[j])) {
					leftMatched++
				}
			}
		}
		if leftMatched == 0 {
			continue
		}
		if left <= leftMatched {
			d.matched[v] = true
			continue
		}
		left--
		if !b.isResident(d.mateOf(d.mate, v)) {
			b.favour(i, 1, false)
			if err := b.resolve(); err != nil {
				return err
			}
		}
		if b.isResident(d.mateOf(d.mate, v)) {
			d.matched[v] = true
			leftMatched--
			b.favour(i, uint64(b.nextBegin-b.moved)+1, false)
		}
	}
	return nil
}

// pairMovedDown gives each chosen moved-down player, in order, the
// highest resident that keeps the best pairing.
func (b *bracket) pairMovedDown() error {
	d := b.d
	for i := 0; i < b.moved; i++ {
		v := b.P[i]
		if !d.matched[v] {
			continue
		}
		best := b.favour(i, uint64(b.np), true)
		// The bonus only changes v's edges, and most on the edge to
		// best: when the matching already pairs v with best it stays
		// optimal and needs no new solve.
		if d.mateOf(d.mate, v) != best {
			if err := b.resolve(); err != nil {
				return err
			}
		}
		u := d.mateOf(d.mate, v)
		d.matched[u] = true
		d.finalize(v, u)
	}
	return nil
}

// remainder collects the residents not paired with a moved-down player
// (S1 is its first `pairs` players) and sets their exchange weights.
func (b *bracket) remainder() error {
	d := b.d
	b.rem, b.pairs = b.rem[:0], 0
	for o := b.moved; o < b.nextBegin; o++ {
		v := b.P[o]
		if d.mateOf(d.mate, v) < b.groupBegin {
			continue
		}
		b.rem = append(b.rem, o)
		if d.mateOf(d.mate, v) < v {
			b.pairs++
		}
	}
	for j := range b.rem {
		for a := 0; a < j; a++ {
			b.remainderWeight(b.tmp, b.rem[a], b.rem[j], a, j)
			d.m.set(b.P[b.rem[a]], b.P[b.rem[j]], b.tmp)
		}
	}
	if err := b.resolve(); err != nil {
		return err
	}
	b.exchanges = b.countExchanges()
	return nil
}

// leads reports whether P index o leads (is the higher of) a pair in the
// bracket.
func (b *bracket) leads(o int) bool {
	v := b.P[o]
	u := b.d.mateOf(b.d.mate, v)
	return u > v && u < b.groupEnd
}

// countExchanges is the number of S1 players of the remainder who do not
// lead: the exchanges the best pairing needs.
func (b *bracket) countExchanges() int {
	x := 0
	for a := 0; a < b.pairs && a < len(b.rem); a++ {
		if !b.leads(b.rem[a]) {
			x++
		}
	}
	return x
}

// exchangeS1 exchanges the lowest S1 players possible.
func (b *bracket) exchangeS1() error {
	d := b.d
	rem := b.rem
	left := b.exchanges
	for a := b.pairs - 1; a >= 0 && left > 0; a-- {
		o := rem[a]
		if b.leads(o) {
			for j := a + 1; j < len(rem); j++ {
				b.remainderWeight(b.tmp, o, rem[j], a, j)
				if !wZero(b.tmp) {
					wSubAt(b.tmp, d.lay.low, 1)
					d.m.set(b.P[o], b.P[rem[j]], b.tmp)
				}
			}
			if err := b.resolve(); err != nil {
				return err
			}
		}
		ex := !b.leads(o)
		if ex {
			left--
		}
		for j := a + 1; j < len(rem); j++ {
			if ex {
				wClear(b.baseAt(rem[j], o))
			}
			b.remainderWeight(b.tmp, o, rem[j], a, j)
			d.m.set(b.P[o], b.P[rem[j]], b.tmp)
		}
	}
	return nil
}

// exchangeS2 exchanges the highest S2 players possible.
func (b *bracket) exchangeS2() error {
	d := b.d
	rem := b.rem
	left := b.exchanges
	for a := b.pairs; a < len(rem) && left > 1; a++ {
		o := rem[a]
		already := b.leads(o)
		if !already {
			for j := a + 1; j < len(rem); j++ {
				b.remainderWeight(b.tmp, o, rem[j], a, j)
				if !wZero(b.tmp) {
					wAddAt(b.tmp, d.lay.low, 1)
					d.m.set(b.P[o], b.P[rem[j]], b.tmp)
				}
			}
			if err := b.resolve(); err != nil {
				return err
			}
		}
		if b.leads(o) {
			left--
			for j := 0; j < a; j++ {
				wClear(b.baseAt(o, rem[j]))
				d.m.set(b.P[o], b.P[rem[j]], b.baseAt(o, rem[j]))
			}
			for q := b.nextBegin; q < b.np; q++ {
				wClear(b.baseAt(q, o))
				d.m.set(b.P[o], b.P[q], b.baseAt(q, o))
			}
		}
		if !already {
			for j := a + 1; j < len(rem); j++ {
				b.remainderWeight(b.tmp, o, rem[j], a, j)
				d.m.set(b.P[o], b.P[rem[j]], b.tmp)
			}
		}
	}
	return nil
}

// transpose fixes who leads (the new S1) and who follows, then has each
// leader in order take the first follower that keeps the best pairing
// (the first transposition).
func (b *bracket) transpose() error {
	d := b.d
	rem := b.rem
	// The edges kept keep their exchange terms: those are the same on
	// all of a leader's edges, so they change no choice below, and
	// leaving them spares the solver a bulk change.
	for a := range rem {
		for j := a + 1; j < len(rem); j++ {
			if !b.leads(rem[a]) || b.leads(rem[j]) {
				wClear(b.baseAt(rem[j], rem[a]))
				d.m.set(b.P[rem[a]], b.P[rem[j]], b.baseAt(rem[j], rem[a]))
			}
		}
	}
	if b.remIdx == nil {
		b.remIdx = map[int]int{}
	}
	clear(b.remIdx)
	for a, o := range rem {
		b.remIdx[o] = a
	}
	for _, o := range rem {
		if !b.leads(o) {
			continue
		}
		v := b.P[o]
		add := uint64(0)
		best := -1
		for j := len(rem) - 1; j >= 0; j-- {
			q := rem[j]
			if q <= o || d.matched[b.P[q]] {
				continue
			}
			b.remainderWeight(b.tmp, o, q, b.remIdx[o], j)
			if !wZero(b.tmp) {
				wAddAt(b.tmp, d.lay.low, add)
				d.m.set(v, b.P[q], b.tmp)
				best = b.P[q]
			}
			add++
		}
		// As for the moved-down players: no solve when the matching
		// already takes the most favoured follower.
		if d.mateOf(d.mate, v) != best {
			if err := b.resolve(); err != nil {
				return err
			}
		}
		u := d.mateOf(d.mate, v)
		d.matched[v], d.matched[u] = true, true
		d.finalize(v, u)
	}
	return nil
}

// advance records the bracket's pairs and makes the next bracket: the
// unpaired players of this one, moved down, and the next score group.
func (b *bracket) advance() {
	d := b.d
	n := len(d.sorted)
	var nP []int
	b.moved = 0
	d.single = n%2 == 1 && b.groupStart < n && d.byeScore == d.sorted[b.groupStart].score
	for o, v := range b.P {
		if o < b.nextBegin && d.matched[v] {
			u := d.mateOf(d.mate, v)
			d.matchedTo[v], d.matchedTo[u] = u, v
			continue
		}
		nP = append(nP, v)
		if o < b.nextBegin {
			b.moved++
		}
		if d.sorted[d.mateOf(d.mate, v)].score < d.byeScore {
			d.single = false
		}
	}
	b.P = nP
	b.groupBegin = b.groupEnd
}
