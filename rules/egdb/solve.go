package egdb

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/draughts-arbiter/arbiter/rules"
)

// A table being solved keeps one byte of state an index: the value once it
// is decided, else the number of its moves not yet known to lose (at most
// maxInside, which no position of a database's size comes near).
const (
	sWin      = 252
	sLoss     = 253
	sDraw     = 254
	hole      = 255 // an index that stands for no position
	maxInside = 251
)

// solve computes the value of every position of t by retrograde analysis
// and returns them, one byte an index (sWin, sLoss, sDraw or hole). known
// gives the value of a position of another material (a capture or a
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
//
// Memory: the state (a byte an index) and the positions decided but not yet
// walked back from, as a bit an index: the order of the walk does not
// matter to the values, so a bitmap swept until it is empty replaces a
// queue that would hold eight bytes for every decided position.
func solve(ctx context.Context, t *table, known func(rules.Position) (Value, error), progress func(uint64)) ([]uint8, error) {
	t.expand()
	defer func() { t.subs = [4][]rules.Set{} }()
	n := 2 * t.size
	st := make([]uint8, n)
	todo := make([]uint64, (n+63)/64)
	var moves []rules.Move
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
			st[i] = hole
			continue
		}
		v, c, err := t.first(p, known, &moves)
		if err != nil {
			return nil, err
		}
		switch v {
		case Win:
			st[i] = sWin
			todo[i/64] |= 1 << (i % 64)
		case Loss:
			st[i] = sLoss
			todo[i/64] |= 1 << (i % 64)
		case Draw:
			st[i] = sDraw
		default:
			st[i] = c
		}
	}
	if progress != nil {
		progress(n & 0xffff)
	}
	var pred []uint64
	for sweep := true; sweep; {
		sweep = false
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for w := range todo {
			for todo[w] != 0 {
				b := bits.TrailingZeros64(todo[w])
				todo[w] &^= 1 << b
				sweep = true
				i := uint64(w)*64 + uint64(b)
				q, _ := t.position(i)
				won := st[i] == sWin
				pred = t.unmoves(q, i, pred[:0])
				for _, j := range pred {
					if st[j] >= sWin {
						continue // decided already
					}
					if !won {
						st[j] = sWin
						todo[j/64] |= 1 << (j % 64)
						continue
					}
					if st[j]--; st[j] == 0 {
						st[j] = sLoss
						todo[j/64] |= 1 << (j % 64)
					}
				}
			}
		}
	}
	for i, v := range st {
		if v < sWin {
			st[i] = sDraw
		}
	}
	return st, nil
}

// stateValue is the value a solved state stands for.
func stateValue(s uint8) Value {
	switch s {
	case sWin:
		return Win
	case sLoss:
		return Loss
	case sDraw:
		return Draw
	}
	return Unknown
}

// first is the first pass's verdict on p: its value if its moves already
// decide it (Unknown otherwise), and the number of its moves that stay in
// the table, plus one if a move out of the table draws (so that it can
// never be counted down to a loss).
func (t *table) first(p rules.Position, known func(rules.Position) (Value, error), buf *[]rules.Move) (Value, uint8, error) {
	if n, ok := p.QuietMoveCount(); ok && n > 0 && n <= maxInside {
		return Unknown, uint8(n), nil // plain moves only, all inside the table
	}
	turn := p.Turn()
	*buf = p.AppendLegalMoves((*buf)[:0])
	moves := *buf
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
	if inside > maxInside {
		return 0, 0, fmt.Errorf("egdb: %s: %s has more than %d moves", t.m, p.FEN(), maxInside)
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

// unmoves appends to out the index of every position of the table from
// which a quiet move (not a capture, not a promotion) leads to q, the
// position at index qi: the side that is not to move in q takes back one
// move of a man or a king. Only the moved piece's kind changes its rank, so
// each predecessor's index is q's with that one rank replaced.
func (t *table) unmoves(q rules.Position, qi uint64, out []uint64) []uint64 {
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
	short := v.Kings() == rules.ShortKings
	for _, k := range [2]int{man, king} {
		if ks[k].Empty() {
			continue
		}
		old, _ := t.rank(k, ks[k])
		base := base - old*t.stride[k]
		for s := range ks[k].All() {
			dirs := back[:]
			if k == king {
				dirs = allDirections[:]
			}
			for _, d := range dirs {
				for to := v.Next(s, d); to != 0 && !occ.Has(to); to = v.Next(to, d) {
					if r, ok := t.rank(k, ks[k].Without(s).With(to)); ok {
						out = append(out, base+r*t.stride[k])
					}
					if k == man || short {
						break
					}
				}
			}
		}
	}
	return out
}

var allDirections = [4]rules.Direction{rules.UpLeft, rules.UpRight, rules.DownLeft, rules.DownRight}
