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
	turn := func(s rules.Set) rules.Set {
		var out rules.Set
		for sq := range s.All() {
			out = out.With(rot[sq])
		}
		return out
	}
	return rules.Setup(v, p.Turn().Opponent(), turn(p.Pieces(rules.Black)), turn(p.Pieces(rules.White)), turn(p.Kings()))
}

// mirror fills the table of twin.t.m.Swap() from twin, its solved twin.
func mirror(ctx context.Context, v *rules.Variant, rot []rules.Square, m Material, twin *stored, progress func(uint64)) (*table, []byte, error) {
	if twin.t.m.Swap() != m {
		return nil, nil, fmt.Errorf("egdb: %s is not the twin of %s", twin.t.m, m)
	}
	t, err := newTable(v, m)
	if err != nil {
		return nil, nil, err
	}
	t.expand()
	defer func() { t.subs = [4][]rules.Set{} }()
	n := 2 * t.size
	data := make([]byte, (n+3)/4)
	for i := uint64(0); i < n; i++ {
		if i&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			if progress != nil && i > 0 {
				progress(0x10000)
			}
		}
		p, ok := t.position(i)
		if !ok {
			continue
		}
		j, ok := twin.t.index(turned(v, rot, p))
		if !ok {
			return nil, nil, fmt.Errorf("egdb: %s: %s turned round is not in %s", m, p.FEN(), twin.t.m)
		}
		data[i/4] |= uint8(twin.value(j)) << (2 * (i % 4))
	}
	if progress != nil {
		progress(n & 0xffff)
	}
	return t, data, nil
}
