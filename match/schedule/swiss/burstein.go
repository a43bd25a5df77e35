package swiss

import (
	"fmt"
	"sort"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// The Burstein system, FIDE Handbook C.04.4.2 (the text approved on
// 13/04/2024 and applied from 2025-2026; the handbook page itself could be
// read only as far as its preface, the articles below from the quotations
// of the 2026 text in a public implementation, py4swiss). What it takes
// from the rest of this package: the players' state (scores with any
// acceleration, colour preferences C.04.4.2 1.5 = C.04.3 1.6-1.7, the PAB
// eligibility of C.04.1 art. 4), the solver, the colour rules 5.2.2-5.2.4
// (the same words as the Dutch E.1-E.4) and the board order.
//
//   - 1.6 seeding rounds: the first min(rounds/2, 4) rounds are paired by
//     the Dutch system (Pair).
//   - 1.7.1 the Index: 1. Buchholz, the sum of the current scores of the
//     opponents the player met; 2. Sonneborn-Berger, the sum of the
//     points earned against each opponent times that opponent's current
//     score. For a round without a game this code counts the player's own
//     score as the opponent's (the dummy opponent of C.07 (2024) 16.4);
//     no article of C.04.4.2 on unplayed rounds was available to read.
//   - 1.8 ranking order in a bracket after the seeding rounds: the Index
//     (Buchholz, then Sonneborn-Berger), then TPN ascending.
//   - 2.1 absolute criteria: [C1] no rematch, [C2] no second PAB (or a PAB
//     after a win's points without playing), [C3] no two players with the
//     same absolute colour preference (no topscorer exception here).
//   - 2.2 [C4] the pairing of a bracket lets the rest of the round be
//     paired.
//   - 2.3 quality: [C5] maximise the pairs; [C6] minimise the scores,
//     taken in descending order, of the outgoing floaters; [C7] choose the
//     floaters so that the next bracket complies best with [C1]-[C6];
//     [C8] minimise the players who do not get their colour preference.
//   - 3.1 the PAB goes to the player who: has had no PAB nor a win without
//     playing; lets the rest be paired; has the lowest score; has played
//     the most games; ranks lowest (1.8).
//   - 3.2 and 4: of the pairings that satisfy the criteria best, the first
//     in this order: BSN 1's opponent has the larger BSN (a floater's
//     "opponent" has BSN 0), then BSN 2's, and so on.
//   - 5.2 colours: 5.2.1 two players who have not played get, the higher
//     (more points, then smaller TPN) the initial colour when its TPN is
//     odd; 5.2.2 both preferences; 5.2.3 the stronger one; 5.2.4 alternate
//     from the most recent round they had different colours; 5.2.5 the
//     preference of the higher-ranked player (1.8).

// System is the pairing system of a Swiss event.
type System int

// The pairing systems. The zero value is the Dutch system.
const (
	// Dutch is the FIDE (Dutch) system, C.04.3.
	Dutch System = iota
	// Burstein is the Burstein system, C.04.4.2: Dutch seeding rounds,
	// then top against bottom of each score group ranked by the Index.
	Burstein
)

// String is the system's name as the CLI and the director's pages write it.
func (s System) String() string {
	if s == Burstein {
		return "burstein"
	}
	return "dutch"
}

// ParseSystem reads a system's name ("dutch", "burstein"; "" is Dutch).
func ParseSystem(name string) (System, bool) {
	switch name {
	case "", "dutch":
		return Dutch, true
	case "burstein":
		return Burstein, true
	}
	return Dutch, false
}

// SeedingRounds is the number of rounds the Burstein system pairs by the
// Dutch system (C.04.4.2 1.6.2: half the rounds, rounded down, at most
// four). An event of unknown length (rounds <= 0) has one: round 1 is
// always paired on the initial order.
func SeedingRounds(rounds int) int {
	if rounds <= 0 {
		return 1
	}
	return min(rounds/2, 4)
}

// index is a player's Opposition Evaluation Index (C.04.4.2 1.7.1), in
// Scoring's units (Sonneborn-Berger in units squared).
type index struct{ bh, sb int }

// indexOf computes the Index of s from the current scores.
func (ev *event) indexOf(s *pstate) index {
	var x index
	for _, e := range s.p.History {
		opp := s.raw
		if e.Played() {
			opp = ev.byNumber[e.Opponent].raw
		}
		x.bh += opp
		x.sb += opp * ev.sc.Points(e.Result)
	}
	return x
}

type burstein struct {
	ev     *event
	sorted []*pstate // score, then 1.8 ranking
	idx    map[*pstate]index
	pos    map[*pstate]int // place in sorted
}

// ranksAbove is 1.8: the Index (Buchholz, then Sonneborn-Berger), then TPN.
func (b *burstein) ranksAbove(x, y *pstate) bool {
	ix, iy := b.idx[x], b.idx[y]
	if ix.bh != iy.bh {
		return ix.bh > iy.bh
	}
	if ix.sb != iy.sb {
		return ix.sb > iy.sb
	}
	return x.rank < y.rank
}

// pairBurstein pairs a round after the seeding rounds.
func pairBurstein(ev *event) (Round, error) {
	b := &burstein{ev: ev, idx: map[*pstate]index{}, pos: map[*pstate]int{}}
	for _, s := range ev.all {
		if !s.p.Absent {
			b.sorted = append(b.sorted, s)
			b.idx[s] = ev.indexOf(s)
		}
	}
	sort.SliceStable(b.sorted, func(i, j int) bool {
		x, y := b.sorted[i], b.sorted[j]
		if x.score != y.score {
			return x.score > y.score
		}
		return b.ranksAbove(x, y)
	})
	for i, s := range b.sorted {
		b.pos[s] = i
	}
	var r Round
	rest := b.sorted
	if len(rest)%2 == 1 {
		bye, err := b.chooseBye()
		if err != nil {
			return Round{}, err
		}
		r.Bye = bye.p.Number
		rest = without(rest, bye)
	}
	pairs, err := b.pairBrackets(rest)
	if err != nil {
		return Round{}, err
	}
	for _, pr := range pairs {
		x, y := pr[0], pr[1]
		r.Boards = append(r.Boards, seat(b.colourOf(x, y), x, y))
	}
	ev.boardOrder(r.Boards)
	return r, nil
}

func without(ss []*pstate, x *pstate) []*pstate {
	out := make([]*pstate, 0, len(ss))
	for _, s := range ss {
		if s != x {
			out = append(out, s)
		}
	}
	return out
}

// pairable reports whether ss (an even number) can all be paired under
// [C1]-[C3] ([C4] for the PAB of 3.1.2).
func (b *burstein) pairable(ss []*pstate) bool {
	n := len(ss)
	if n == 0 {
		return true
	}
	m := newMatcher(n, 1)
	w := []uint64{1}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if b.ev.compatible(ss[i], ss[j]) {
				m.set(i, j, w)
			}
		}
	}
	return m.solve() != nil
}

// chooseBye is 3.1: among the eligible players who let the rest be
// paired, the lowest score, then the most games played, then the lowest
// ranking (1.8).
func (b *burstein) chooseBye() (*pstate, error) {
	var cands []*pstate
	for _, s := range b.sorted {
		if s.byeOK {
			cands = append(cands, s)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		x, y := cands[i], cands[j]
		if x.score != y.score {
			return x.score < y.score
		}
		if x.played != y.played {
			return x.played > y.played
		}
		return b.ranksAbove(y, x)
	})
	for _, c := range cands {
		if b.pairable(without(b.sorted, c)) {
			return c, nil
		}
	}
	return nil, ErrNoPairing
}

// blayout places the criteria in an edge weight, the least significant
// first: the order of Art. 4 (tie), [C8] colours, [C7] the next bracket's
// scores and pairs, [C6] this bracket's scores, [C5] its pairs, and one
// bit that makes every allowed edge an edge.
type blayout struct {
	r         int         // bits of a count
	shift     map[int]int // per-score sub-field of a scores field
	g         int         // bits of a scores field
	tie, col  int
	nextS     int
	nextP     int
	curS      int
	curP      int
	exists, k int
}

func (b *burstein) layout(ss []*pstate) blayout {
	n := len(ss)
	L := blayout{r: bitLen(n) + 1, shift: map[int]int{}}
	for i := len(ss) - 1; i >= 0; i-- {
		if _, ok := L.shift[ss[i].score]; !ok {
			L.shift[ss[i].score] = L.g
			L.g += L.r
		}
	}
	pos := 0
	take := func(w int) int { p := pos; pos += w; return p }
	L.tie = take(L.r)
	L.col = take(L.r)
	L.nextS = take(L.g)
	L.nextP = take(L.r)
	L.curS = take(L.g)
	L.curP = take(L.r)
	L.exists = take(1)
	L.k = (pos + 3 + 63) / 64
	return L
}

// pairBrackets pairs ss (an even number, sorted) bracket by bracket from
// the top score down (3.2); each bracket's choice is a maximum-weight
// perfect matching over all the players still to pair, so that [C4]
// holds, with the criteria in the weights, and the order of Art. 4 is
// fixed one player at a time.
func (b *burstein) pairBrackets(ss []*pstate) ([][2]*pstate, error) {
	n := len(ss)
	if n == 0 {
		return nil, nil
	}
	L := b.layout(ss)
	m := newMatcher(n, L.k)
	partner := make([]int, n) // the partner fixed in an earlier bracket, -1: none
	for i := range partner {
		partner[i] = -1
	}
	var out [][2]*pstate
	w := make([]uint64, L.k)
	wasIn := make([]bool, n) // in the previous bracket or the one after it
	first := true
	var floaters []int // incoming floaters of the current bracket
	next := 0          // first player of the next score group not yet in a bracket
	for next < n || len(floaters) > 0 {
		// The bracket: the incoming floaters and the next scoregroup
		// (1.2.2); the following scoregroup is the one [C7] looks at.
		inB := make([]bool, n)
		var B []int
		for _, v := range floaters {
			inB[v] = true
			B = append(B, v)
		}
		if next < n {
			sc := ss[next].score
			for next < n && ss[next].score == sc {
				inB[next] = true
				B = append(B, next)
				next++
			}
		}
		inN := make([]bool, n)
		if next < n {
			sc := ss[next].score
			for v := next; v < n && ss[v].score == sc; v++ {
				inN[v] = true
			}
		}
		// 1.8 ranking inside the bracket, for the BSNs of Art. 4.
		sort.SliceStable(B, func(i, j int) bool { return b.ranksAbove(ss[B[i]], ss[B[j]]) })
		bsn := make([]int, n)
		for i, v := range B {
			bsn[v] = i + 1
		}
		base := func(u, v int) []uint64 {
			wClear(w)
			x, y := ss[u], ss[v]
			if partner[u] >= 0 || partner[v] >= 0 {
				if partner[u] == v {
					wAddAt(w, L.exists, 1)
				}
				return w
			}
			if !b.ev.compatible(x, y) {
				return w
			}
			wAddAt(w, L.exists, 1)
			switch {
			case inB[u] && inB[v]:
				wAddAt(w, L.curP, 1)
				wAddAt(w, L.curS+L.shift[x.score], 1)
				wAddAt(w, L.curS+L.shift[y.score], 1)
				wAddAt(w, L.col, b2u(prefsCompatible(x.pref, y.pref)))
			case (inB[u] || inN[u]) && (inB[v] || inN[v]):
				wAddAt(w, L.nextP, 1)
				wAddAt(w, L.nextS+L.shift[x.score], 1)
				wAddAt(w, L.nextS+L.shift[y.score], 1)
			}
			return w
		}
		// Only the edges of players whose part changed (in this bracket or
		// the next one, now or in the previous bracket) change weight:
		// every other edge weighs "exists" alone.
		touched := make([]bool, n)
		for v := 0; v < n; v++ {
			touched[v] = first || inB[v] || inN[v] || wasIn[v]
			wasIn[v] = inB[v] || inN[v]
		}
		first = false
		for u := 0; u < n; u++ {
			for v := 0; v < u; v++ {
				if touched[u] || touched[v] {
					m.set(u, v, base(u, v))
				}
			}
		}
		if m.solve() == nil {
			return nil, ErrNoPairing
		}
		// Art. 4: BSN 1 takes the opponent of largest BSN that an
		// optimal pairing allows, then BSN 2, and so on; a player no
		// optimal pairing keeps in the bracket floats.
		taken := map[int]bool{}
		floaters = floaters[:0:0]
		for _, u := range B {
			if taken[u] {
				continue
			}
			for _, v := range B {
				if v != u && !taken[v] {
					bw := base(u, v)
					if !wZero(bw) {
						wAddAt(bw, L.tie, uint64(bsn[v]))
					}
					m.set(u, v, bw)
				}
			}
			mate := m.solve()
			if mate == nil {
				return nil, ErrNoPairing
			}
			v := mate[u]
			taken[u] = true
			if v >= 0 && inB[v] {
				taken[v] = true
				out = append(out, [2]*pstate{ss[u], ss[v]})
				partner[u], partner[v] = v, u
				for x := 0; x < n; x++ {
					if x != u && x != v {
						m.set(u, x, base(u, x))
						m.set(v, x, base(v, x))
					}
				}
				m.set(u, v, base(u, v))
				continue
			}
			// u floats: no edge to the rest of the bracket.
			wClear(w)
			for _, x := range B {
				if x != u && !taken[x] {
					m.set(u, x, w)
				}
			}
			floaters = append(floaters, u)
		}
		if next >= n && len(floaters) > 0 {
			// The last bracket is everyone left, and the matching is
			// perfect: nobody can float out of it.
			return nil, fmt.Errorf("swiss: internal error: %d players float out of the last bracket", len(floaters))
		}
	}
	return out, nil
}

// colourOf is the colour x gets against y (C.04.4.2 5.2).
func (b *burstein) colourOf(x, y *pstate) tally.Color {
	if x.pref == tally.NoColor && y.pref == tally.NoColor {
		// 5.2.1: the higher has more points or, equal, the smaller TPN.
		initial := b.ev.opt.FirstColor
		if initial == tally.NoColor {
			initial = tally.White
		}
		h := x
		if y.raw > x.raw || (y.raw == x.raw && y.rank < x.rank) {
			h = y
		}
		c := initial
		if h.rank%2 == 1 { // an even TPN
			c = other(initial)
		}
		if h == x {
			return c
		}
		return other(c)
	}
	// 5.2.2-5.2.4, the same words as C.04.3 E.1-E.4.
	if c := neutralColour(x, y); c != tally.NoColor {
		return c
	}
	// 5.2.5: the higher-ranked player's preference (1.8).
	if b.ranksAbove(y, x) {
		return other(y.pref)
	}
	return x.pref
}
