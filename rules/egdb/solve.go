package egdb

import (
	"context"
	"fmt"

	"github.com/draughts-arbiter/arbiter/rules"
)

// hole marks an index that stands for no position while a table is solved.
const hole = 4

// solve computes the value of every position of t by retrograde analysis.
// known gives the value of a position of another material (a capture or a
// promotion leads there), already solved. progress, if not nil, is told how
// many indices have been read, now and then.
//
// The first pass generates every position's moves: a position with a move
// into a lost position (of any table) is won; a capture position, whose
// moves all leave the table, is decided then; every other position keeps
// the count of its moves within the table that are not yet known to lose.
// The second pass walks back from each decided position through the quiet
// moves that lead to it (un-moves): a predecessor of a lost position is
// won, and a position whose last undecided successor turns out won is lost.
// What is still undecided at the end is drawn: neither side can force
// anything from there.
func solve(ctx context.Context, t *table, known func(rules.Position) (Value, error), progress func(uint64)) ([]uint8, error) {
	n := 2 * t.size
	val := make([]uint8, n)
	cnt := make([]uint8, n)
	var queue []uint64
	for i := uint64(0); i < n; i++ {
		if i&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if progress != nil && i > 0 {
				progress(0x10000)
			}
		}
		p, ok := t.position(i)
		if !ok {
			val[i] = hole
			continue
		}
		v, c, err := t.first(p, known)
		if err != nil {
			return nil, err
		}
		val[i], cnt[i] = uint8(v), c
		if v == Win || v == Loss {
			queue = append(queue, i)
		}
	}
	if progress != nil {
		progress(n & 0xffff)
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		q, _ := t.position(i)
		won := Value(val[i]) == Win
		t.unmoves(q, i, func(j uint64) {
			if val[j] != uint8(Unknown) {
				return
			}
			if !won {
				val[j] = uint8(Win)
				queue = append(queue, j)
				return
			}
			if cnt[j]--; cnt[j] == 0 {
				val[j] = uint8(Loss)
				queue = append(queue, j)
			}
		})
	}
	for i, v := range val {
		if v == uint8(Unknown) {
			val[i] = uint8(Draw)
		}
	}
	return val, nil
}

// first is the first pass's verdict on p: its value if its moves already
// decide it (Unknown otherwise), and the number of its moves that stay in
// the table, plus one if a move out of the table draws (so that it can
// never be counted down to a loss).
func (t *table) first(p rules.Position, known func(rules.Position) (Value, error)) (Value, uint8, error) {
	turn := p.Turn()
	moves := p.LegalMoves()
	if len(moves) == 0 {
		return valueOf(p.Outcome(), turn), 0, nil
	}
	inside, draw := 0, false
	for _, m := range moves {
		if !m.IsCapture() && !m.Promotes {
			inside++ // a quiet move stays in the table: counted, not played
			continue
		}
		q := p.Play(m)
		v, err := known(q)
		if err != nil {
			return 0, 0, err
		}
		switch v {
		case Loss:
			return Win, 0, nil
		case Draw:
			draw = true
		case Unknown:
			return 0, 0, fmt.Errorf("egdb: %s: no value for %s after %s", t.m, q.FEN(), p.FEN())
		}
	}
	if draw {
		inside++
	}
	if inside > 255 {
		return 0, 0, fmt.Errorf("egdb: %s: %s has more than 255 moves", t.m, p.FEN())
	}
	switch {
	case inside == 0:
		return Loss, 0, nil // every move leaves the table into a won position
	case moves[0].IsCapture() && !draw:
		return Loss, 0, nil
	case moves[0].IsCapture():
		return Draw, 0, nil
	}
	return Unknown, uint8(inside), nil
}

// unmoves calls fn with the index of every position of the table from
// which a quiet move (not a capture, not a promotion) leads to q, the
// position at index qi: the side that is not to move in q takes back one
// move of a man or a king. Only the moved piece's kind changes its rank, so
// each predecessor's index is q's with that one rank replaced.
func (t *table) unmoves(q rules.Position, qi uint64, fn func(uint64)) {
	v := t.v
	mover := q.Turn().Opponent()
	occ := q.Occupied()
	ks := kinds(q)
	// The predecessors have the mover to move: the other half of the table.
	base := qi
	if qi >= t.size {
		base -= t.size
	} else {
		base += t.size
	}
	man, king := 0, 2 // kinds(): white men, black men, white kings, black kings
	back := [2]rules.Direction{rules.DownLeft, rules.DownRight}
	if mover == rules.Black {
		man, king = 1, 3
	}
	if v.Forward(mover) == rules.TowardBottom {
		back = [2]rules.Direction{rules.UpLeft, rules.UpRight}
	}
	stride := func(k int) uint64 {
		s := uint64(1)
		for j := k + 1; j < 4; j++ {
			s *= t.n[j]
		}
		return s
	}
	put := func(k int, from, to rules.Square) {
		old, _ := t.rank(k, ks[k])
		r, ok := t.rank(k, ks[k].Without(from).With(to))
		if !ok {
			return
		}
		st := stride(k)
		fn(base - old*st + r*st)
	}
	for s := range ks[man].All() {
		for _, d := range back {
			if to := v.Next(s, d); to != 0 && !occ.Has(to) {
				put(man, s, to)
			}
		}
	}
	for s := range ks[king].All() {
		for d := rules.UpLeft; d <= rules.DownRight; d++ {
			for to := v.Next(s, d); to != 0 && !occ.Has(to); to = v.Next(to, d) {
				put(king, s, to)
				if v.Kings() == rules.ShortKings {
					break
				}
			}
		}
	}
}
