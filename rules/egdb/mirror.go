package egdb

import (
	"context"
	"fmt"

	"github.com/draughts-arbiter/arbiter/rules"
)

// The colours' symmetry halves a build: a position and the one seen from
// the other side of the board (the board turned half a turn, the colours
// exchanged, the other side to move) have the same value, so the table of
// a material whose colours are exchanged (1m2k-1m1k and 1m1k-1m2k) is read
// off the other's instead of solved. Every table of an odd number of
// pieces has such a twin, so the five-piece tables cost half.

// Swap is m with the colours exchanged.
func (m Material) Swap() Material {
	return Material{m.BlackMen, m.BlackKings, m.WhiteMen, m.WhiteKings}
}

// halfTurn is the square each square goes to when the board turns half a
// turn (square s to squares+1-s), or nil when that is not a symmetry of
// the variant: the squares' neighbours must turn with them and each
// side's crowning row must become the other's.
func halfTurn(v *rules.Variant) []rules.Square {
	n := v.Squares()
	rot := make([]rules.Square, n+1)
	for s := 1; s <= n; s++ {
		rot[s] = rules.Square(n + 1 - s)
	}
	opposite := [4]rules.Direction{rules.DownRight, rules.DownLeft, rules.UpRight, rules.UpLeft}
	for s := rules.Square(1); int(s) <= n; s++ {
		if v.Crowns(rules.White, s) != v.Crowns(rules.Black, rot[s]) {
			return nil
		}
		for d, o := range opposite {
			a, b := v.Next(s, rules.Direction(d)), v.Next(rot[s], o)
			if (a == 0) != (b == 0) || (a != 0 && rot[a] != b) {
				return nil
			}
		}
	}
	if v.Forward(rules.White) == v.Forward(rules.Black) {
		return nil
	}
	return rot
}

// turned is p seen from the other side: the board turned by rot, the
// colours exchanged, the other side to move.
func turned(v *rules.Variant, rot []rules.Square, p rules.Position) rules.Position {
	return rules.Setup(v, p.Turn().Opponent(), turnSet(rot, p.Pieces(rules.Black)), turnSet(rot, p.Pieces(rules.White)), turnSet(rot, p.Kings()))
}

func turnSet(rot []rules.Square, s rules.Set) rules.Set {
	var out rules.Set
	for sq := range s.All() {
		out = out.With(rot[sq])
	}
	return out
}

// mirror fills the table of m from twin, the solved table of m.Swap().
// The kinds of pieces change places (White's men become Black's, ...), and
// each kind's rank goes to the rank of its squares turned round, which is
// listed once per kind: an index of m is then four lookups away from its
// twin's. A hole goes to a hole, whose two bits are zero (Unknown).
func mirror(ctx context.Context, v *rules.Variant, rot []rules.Square, m Material, twin *stored, progress func(uint64)) (*table, []byte, error) {
	if twin.t.m.Swap() != m {
		return nil, nil, fmt.Errorf("egdb: %s is not the twin of %s", twin.t.m, m)
	}
	t, err := newTable(v, m)
	if err != nil {
		return nil, nil, err
	}
	other := [4]int{1, 0, 3, 2} // kinds(): white men, black men, white kings, black kings
	var to [4][]uint64          // to[k][r]: the twin's index step for rank r of kind k
	for k := range to {
		to[k] = make([]uint64, t.n[k])
		for r := range to[k] {
			ok := other[k]
			rr, good := twin.t.rank(ok, turnSet(rot, t.unrank(k, uint64(r))))
			if !good {
				return nil, nil, fmt.Errorf("egdb: %s: a set of kind %d turned round is not one of %s", m, k, twin.t.m)
			}
			to[k][r] = rr * twin.t.stride[ok]
		}
	}
	n := 2 * t.size
	data := make([]byte, (n+3)/4)
	i := uint64(0)
	for side := range uint64(2) {
		base := (1 - side) * t.size // White to move in m is Black to move in the twin
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		for _, a := range to[0] {
			for _, b := range to[1] {
				for _, c := range to[2] {
					ab := base + a + b + c
					for _, d := range to[3] {
						data[i/4] |= uint8(twin.value(ab+d)) << (2 * (i % 4))
						i++
					}
				}
			}
			if progress != nil {
				progress(t.n[1] * t.n[2] * t.n[3])
			}
		}
	}
	return t, data, nil
}
