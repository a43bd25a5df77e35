package egdb

import (
	"fmt"

	"github.com/draughts-arbiter/arbiter/rules"
)

// binom[n][k] is n choose k for the boards and piece counts a database
// holds (up to 128 squares, up to maxPieces of a kind).
var binom = func() (t [129][maxPieces + 1]uint64) {
	for n := range t {
		t[n][0] = 1
		for k := 1; k <= maxPieces && k <= n; k++ {
			t[n][k] = t[n-1][k-1] + t[n-1][k]
		}
	}
	return t
}()

// maxPieces bounds the pieces of a database: past it the tables are too
// large for this machine anyway.
const maxPieces = MaxPieces

// MaxPieces is the most pieces a database can be built for.
const MaxPieces = 8

// table is the index of one material's positions: each side's men, then
// each side's kings, as subsets of the squares they may stand on, ranked
// by the combinatorial number system. Men never stand where they would be
// crowned. Indices whose pieces overlap are holes: they stand for no
// position and hold no value.
type table struct {
	v      *rules.Variant
	m      Material
	sets   [4][]rules.Square // white men, black men, white kings, black kings
	at     [4][]int16        // square -> place in sets[i], or -1
	n      [4]uint64         // subsets of each kind
	size   uint64            // positions with one side to move
	stride [4]uint64         // index step of a rank of kind k
	// subs[k][r] is the subset of kind k with rank r, listed by expand for
	// the walks over a whole table (solve, Verify) so that decoding an
	// index is four lookups; nil in the tables only probed.
	subs [4][]rules.Set
}

// expand lists every subset of each kind, in rank order. The largest list
// (four kings on 50 squares) has 230,300 sets, 3.7 MB.
func (t *table) expand() {
	for k := range t.subs {
		subs := make([]rules.Set, t.n[k])
		for r := range subs {
			subs[r] = t.unrank(k, uint64(r))
		}
		t.subs[k] = subs
	}
}

func newTable(v *rules.Variant, m Material) (*table, error) {
	t := &table{v: v, m: m}
	var menW, menB, all []rules.Square
	for sq := rules.Square(1); int(sq) <= v.Squares(); sq++ {
		all = append(all, sq)
		if !v.Crowns(rules.White, sq) {
			menW = append(menW, sq)
		}
		if !v.Crowns(rules.Black, sq) {
			menB = append(menB, sq)
		}
	}
	t.sets = [4][]rules.Square{menW, menB, all, all}
	counts := [4]int{m.WhiteMen, m.BlackMen, m.WhiteKings, m.BlackKings}
	t.size = 1
	for i, s := range t.sets {
		if counts[i] > maxPieces {
			return nil, fmt.Errorf("egdb: %s: more than %d pieces of a kind", m, maxPieces)
		}
		t.at[i] = make([]int16, v.Squares()+1)
		for j := range t.at[i] {
			t.at[i][j] = -1
		}
		for j, sq := range s {
			t.at[i][sq] = int16(j)
		}
		t.n[i] = binom[len(s)][counts[i]]
		t.size *= t.n[i]
	}
	for k := range t.stride {
		t.stride[k] = 1
		for j := k + 1; j < 4; j++ {
			t.stride[k] *= t.n[j]
		}
	}
	return t, nil
}

// kinds splits a position's pieces as the table's sets are ordered.
func kinds(p rules.Position) [4]rules.Set {
	k := p.Kings()
	w, b := p.Pieces(rules.White), p.Pieces(rules.Black)
	return [4]rules.Set{w.Minus(k), b.Minus(k), w.Intersect(k), b.Intersect(k)}
}

// index is p's place in the table, both sides to move counted: White to
// move first. ok is false when p is not of the table's material or has a
// man where it would have been crowned.
func (t *table) index(p rules.Position) (i uint64, ok bool) {
	ks := kinds(p)
	for k := range ks {
		r, ok := t.rank(k, ks[k])
		if !ok {
			return 0, false
		}
		i = i*t.n[k] + r
	}
	if p.Turn() == rules.Black {
		i += t.size
	}
	return i, true
}

// rank is the combinatorial rank of set s among the subsets of kind k.
func (t *table) rank(k int, s rules.Set) (uint64, bool) {
	var r uint64
	j := 0
	for sq := range s.All() {
		c := t.at[k][sq]
		if c < 0 {
			return 0, false
		}
		j++
		r += binom[c][j]
	}
	if j != t.count(k) {
		return 0, false
	}
	return r, true
}

func (t *table) count(k int) int {
	switch k {
	case 0:
		return t.m.WhiteMen
	case 1:
		return t.m.BlackMen
	case 2:
		return t.m.WhiteKings
	}
	return t.m.BlackKings
}

// position is the position at index i, ok false for a hole.
func (t *table) position(i uint64) (rules.Position, bool) {
	turn := rules.White
	if i >= t.size {
		turn, i = rules.Black, i-t.size
	}
	var ks [4]rules.Set
	for k := 3; k >= 0; k-- {
		r := i % t.n[k]
		i /= t.n[k]
		if t.subs[k] != nil {
			ks[k] = t.subs[k][r]
		} else {
			ks[k] = t.unrank(k, r)
		}
	}
	var occ rules.Set
	for _, s := range ks {
		if !occ.Intersect(s).Empty() {
			return rules.Position{}, false
		}
		occ = occ.Union(s)
	}
	white, black := ks[0].Union(ks[2]), ks[1].Union(ks[3])
	return rules.Setup(t.v, turn, white, black, ks[2].Union(ks[3])), true
}

// unrank is the subset of kind k with rank r.
func (t *table) unrank(k int, r uint64) rules.Set {
	var s rules.Set
	c := len(t.sets[k])
	for j := t.count(k); j > 0; j-- {
		c--
		for binom[c][j] > r {
			c--
		}
		r -= binom[c][j]
		s = s.With(t.sets[k][c])
	}
	return s
}
