package rules

import (
	"math/bits"
	"sync"
)

// This file is the generic move generator: the rules as data (a geometry of
// points and lines, direction sets for men's and kings' moves and captures,
// a few parameters) walked over the geometry's line table. It plays every
// variant whose rules the diagonal generators do not know (RULES.md section
// 8: Turkish, Frisian, Dameo, Gothic, Alquerque, ...); the diagonal presets
// keep their bitboard generator. Boards have at most 64 points, so a side's
// pieces are one uint64 (bit sq-1 for square sq). The search allocates
// nothing once its buffers have grown: perft reuses them ply by ply.

// gridDirs are a variant's direction masks (bit dirN...) by colour.
type gridDirs struct {
	menMove, menCap, menLater, kingMove, kingCap [2]uint8
}

// newGridDirs resolves p's relative direction sets for each colour's way.
func newGridDirs(p *Params, up [2]bool) gridDirs {
	menMove, menCap, menLater, kingMove, kingCap := p.MenMoves, p.MenCaptures, p.MenLaterCaptures, p.KingMoves, p.KingCaptures
	if p.Layout == DarkSquares {
		// the diagonal variants' rule where a set is not given
		if menMove == 0 {
			menMove = DirForwardDiagonal
		}
		if menCap == 0 {
			menCap = DirForwardDiagonal
			if p.MenCaptureBackward {
				menCap = Diagonals
			}
		}
		if kingMove == 0 {
			kingMove = Diagonals
		}
		if kingCap == 0 {
			kingCap = Diagonals
		}
	}
	if menLater == 0 {
		menLater = menCap
	}
	var d gridDirs
	for c := range up {
		d.menMove[c] = menMove.abs(up[c])
		d.menCap[c] = menCap.abs(up[c])
		d.menLater[c] = menLater.abs(up[c])
		d.kingMove[c] = kingMove.abs(up[c])
		d.kingCap[c] = kingCap.abs(up[c])
	}
	return d
}

// gmove is a move as the generic generator keeps it; path indexes the
// landing squares in gridGen.paths (API mode only).
type gmove struct {
	from, to Square
	promote  bool
	cap      uint64
	pathAt   int32
	pathLen  int32
}

// gridGen is one search of the generic generator.
type gridGen struct {
	v    *Variant
	g    *geometry
	keep bool // every path counts, not every identity
	api  bool // record paths

	// the node being searched
	own, opp, kings uint64
	color           Color
	from            Square
	byKing          bool
	capd            uint64 // captured so far in the current sequence
	nMen, nKings    int
	path            [64]Square
	ms              []gmove
	paths           []Square
	best            uint64
	stack           [][]gmove
}

func bit(sq Square) uint64 { return 1 << (uint(sq) - 1) }

// empty reports whether sq is free to pass or land on: no piece (pieces
// removed at once are gone from opp), or the moving piece's own origin.
func (s *gridGen) empty(sq Square) bool {
	return sq == s.from || (s.own|s.opp)&bit(sq) == 0
}

// setNode loads position p into the search.
func (s *gridGen) setNode(p *Position) {
	w, b := p.white[0], p.black[0]
	s.own, s.opp, s.color = w, b, p.turn
	if p.turn == Black {
		s.own, s.opp = b, w
	}
	s.kings = p.kings[0]
}

// gen generates the legal moves of the node (setNode) into ms, for
// position p (its state beyond the board).
func (s *gridGen) gen(ms []gmove, p *Position) []gmove {
	s.ms = ms[:0]
	s.paths = s.paths[:0]
	s.best = 0
	c := s.color
	if v := s.v; v.p.OpeningRemovals {
		if ms, ok := s.removals(); ok {
			return ms
		}
	}
	para := p.para[0]
	for t := s.own; t != 0; t &= t - 1 {
		sq := Square(bits.TrailingZeros64(t) + 1)
		s.from = sq
		s.byKing = s.kings&bit(sq) != 0
		s.capd, s.nMen, s.nKings = 0, 0, 0
		if para&bit(sq) != 0 {
			s.paraJump(sq)
			continue
		}
		s.jump(sq, s.byKing, 0, -1, -1)
	}
	if len(s.ms) > 0 {
		if !s.keep {
			s.dedupe()
		}
		return s.ms
	}
	// plain moves
	v := s.v
	line := &s.g.line
	st := p.st[c]
	hasMen := s.own&^s.kings != 0
	occ := s.own | s.opp
	for t := s.own &^ para; t != 0; t &= t - 1 {
		sq := Square(bits.TrailingZeros64(t) + 1)
		if s.kings&bit(sq) != 0 {
			if v.p.KingMoveLimit > 0 && hasMen && st.n >= v.p.KingMoveLimit && st.sq == sq {
				continue
			}
			for dm := v.gd.kingMove[c]; dm != 0; dm &= dm - 1 {
				d := bits.TrailingZeros8(dm)
				for to := line[sq][d]; to != 0 && occ&bit(to) == 0; to = line[to][d] {
					if !(v.p.NoReturn && st.sq == sq && st.from == to) {
						s.ms = append(s.ms, gmove{from: sq, to: to})
					}
					if v.p.Kings == ShortKings {
						break
					}
				}
			}
			continue
		}
		for dm := v.gd.menMove[c]; dm != 0; dm &= dm - 1 {
			d := bits.TrailingZeros8(dm)
			to := line[sq][d]
			if v.p.LinearMoves {
				// a line of own men: the rear one goes to the square in front
				for to != 0 && s.own&^s.kings&bit(to) != 0 {
					to = line[to][d]
				}
			}
			if to == 0 || occ&bit(to) != 0 || v.p.NoReturn && st.sq == sq && st.from == to {
				continue
			}
			s.ms = append(s.ms, gmove{from: sq, to: to, promote: v.promotes(c, to)})
		}
	}
	return s.ms
}

// jump extends the capture sequence of the piece now on sq (a king if
// king) after n jumps, the last along lastDir, not looking along skip (a
// flying king's further landings on one line: see the bitboard
// generator's extend). It reports whether a jump was possible from sq.
func (s *gridGen) jump(sq Square, king bool, n int, lastDir, skip int) bool {
	v, c := s.v, s.color
	line := &s.g.line
	var dirs uint8
	switch {
	case v.p.OptionalJumps && n > 0:
		dirs = 1 << lastDir // only straight on
	case king:
		dirs = v.gd.kingCap[c]
	case n == 0:
		dirs = v.gd.menCap[c]
	default:
		dirs = v.gd.menLater[c]
	}
	flying := king && v.p.Kings != ShortKings
	found := false
	for dm := dirs; dm != 0; dm &= dm - 1 {
		d := bits.TrailingZeros8(dm)
		if d == skip || v.p.NoTurnBack && n > 0 && d == (lastDir+4)&7 {
			continue
		}
		t := line[sq][d]
		if flying {
			for t != 0 && s.empty(t) {
				t = line[t][d]
			}
		}
		if t == 0 || s.opp&bit(t) == 0 || s.capd&bit(t) != 0 {
			continue
		}
		l := line[t][d]
		if l == 0 || !s.empty(l) {
			continue
		}
		found = true
		vb := bit(t)
		victimKing := s.kings&vb != 0
		s.capd |= vb
		if victimKing {
			s.nKings++
		} else {
			s.nMen++
		}
		if v.p.RemoveAtOnce {
			s.opp &^= vb
		}
		if !flying || v.p.Kings == FlyingLandBehind {
			// one landing square
			k2, stop := king, false
			if !king && v.promotes(c, l) {
				switch v.p.Promotion {
				case PromoteStop:
					stop = true
				case PromoteContinue:
					k2 = true
				}
			}
			s.path[n] = l
			if v.p.OptionalJumps {
				// every jump may end the move; going on is a longer one
				s.emit(l, n+1, k2 || stop)
				if !stop {
					s.jump(l, k2, n+1, d, -1)
				}
			} else if stop || !s.jump(l, k2, n+1, d, -1) {
				s.emit(l, n+1, k2 || stop)
			}
		} else {
			// a flying king lands where it can go on capturing; only when
			// no landing square continues is every one of them an end
			cont := false
			sk := -1
			for x := l; x != 0 && s.empty(x); x = line[x][d] {
				s.path[n] = x
				if s.jump(x, true, n+1, d, sk) {
					cont = true
				}
				sk = d
			}
			if !cont {
				for x := l; x != 0 && s.empty(x); x = line[x][d] {
					s.path[n] = x
					s.emit(x, n+1, true)
				}
			}
		}
		if v.p.RemoveAtOnce {
			s.opp |= vb
		}
		if victimKing {
			s.nKings--
		} else {
			s.nMen--
		}
		s.capd &^= vb
	}
	return found
}

// removals generates Hawaii's opening moves, when the board is in its
// opening: full (the first player removes a piece of its own from a corner
// or a centre square), or full but one square (the second player removes a
// piece of its own orthogonally next to that hole). A removal is the move
// (sq, sq) capturing nothing.
func (s *gridGen) removals() ([]gmove, bool) {
	g := s.g
	occ := s.own | s.opp
	free := g.n - bits.OnesCount64(occ)
	var cand uint64
	switch free {
	case 0:
		w, h := g.board.Width, g.board.Height
		for _, rc := range [][2]int{{0, 0}, {0, w - 1}, {h - 1, 0}, {h - 1, w - 1},
			{h/2 - 1, w/2 - 1}, {h/2 - 1, w / 2}, {h / 2, w/2 - 1}, {h / 2, w / 2}} {
			if sq := g.at[rc]; sq != 0 {
				cand |= bit(sq)
			}
		}
	case 1:
		hole := Square(bits.TrailingZeros64(^occ&(1<<uint(g.n)-1)) + 1)
		for _, d := range []int{dirN, dirE, dirS, dirW} {
			if t := g.line[hole][d]; t != 0 {
				cand |= bit(t)
			}
		}
	default:
		return nil, false
	}
	for t := cand & s.own; t != 0; t &= t - 1 {
		sq := Square(bits.TrailingZeros64(t) + 1)
		s.ms = append(s.ms, gmove{from: sq, to: sq})
	}
	return s.ms, true
}

// paraJump generates the one kind of move of a parachutist on sq: a short
// jump backwards (towards its own side) over an enemy piece on the next row;
// it lands right behind as a man and the move ends (RULES.md section 8,
// project's reading).
func (s *gridGen) paraJump(sq Square) {
	line := &s.g.line
	for dm := DirBackDiagonal.abs(s.v.up[s.color]); dm != 0; dm &= dm - 1 {
		d := bits.TrailingZeros8(dm)
		t := line[sq][d]
		if t == 0 || s.opp&bit(t) == 0 {
			continue
		}
		l := line[t][d]
		if l == 0 || !s.empty(l) {
			continue
		}
		vb := bit(t)
		s.capd = vb
		if s.kings&vb != 0 {
			s.nKings = 1
		} else {
			s.nMen = 1
		}
		s.path[0] = l
		s.emit(l, 1, false)
		s.capd, s.nMen, s.nKings = 0, 0, 0
	}
}

// emit records the capture sequence now ending on to after n jumps, as a
// king if king, subject to precedence.
func (s *gridGen) emit(to Square, n int, king bool) {
	var key uint64
	switch s.v.p.Precedence {
	case Majority:
		key = uint64(n)
	case MajorityThenKings:
		key = uint64(n)<<8 | uint64(s.nKings)
	case KingsFirst:
		if s.byKing {
			key = 1
		}
	case HighestValue:
		// n kings are worth more than 2n-1 men and less than 2n men
		key = uint64(32*s.nMen+63*s.nKings) << 1
		if s.byKing {
			key |= 1
		}
	}
	if len(s.ms) == 0 {
		s.best = key
	} else if key != s.best {
		if key < s.best {
			return
		}
		s.best = key
		s.ms = s.ms[:0]
		s.paths = s.paths[:0]
	}
	m := gmove{from: s.from, to: to, cap: s.capd}
	m.promote = !s.byKing && (king || s.v.promotes(s.color, to))
	if s.api {
		m.pathAt, m.pathLen = int32(len(s.paths)), int32(n)
		s.paths = append(s.paths, s.path[:n]...)
	}
	s.ms = append(s.ms, m)
}

// dedupe keeps one move per identity (from, to, captured set), the first.
func (s *gridGen) dedupe() {
	out := s.ms[:0]
	for _, m := range s.ms {
		dup := false
		for _, o := range s.ms[:len(out)] {
			if o.from == m.from && o.to == m.to && o.cap == m.cap {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, m)
		}
	}
	s.ms = out
}

var gridGenPool = sync.Pool{New: func() any { return &gridGen{} }}

// gridMoves is LegalMoves (or LegalPaths, keep) for a generic variant.
func (p *Position) gridMoves(keep bool) []Move {
	s := gridGenPool.Get().(*gridGen)
	defer gridGenPool.Put(s)
	s.v, s.g, s.keep, s.api = p.v, p.v.geo, keep, true
	s.setNode(p)
	ms := s.gen(s.ms, p)
	out := make([]Move, len(ms))
	for i, m := range ms {
		out[i] = Move{From: m.from, To: m.to, Captured: Set{m.cap, 0}, Promotes: m.promote}
		if m.cap != 0 {
			out[i].Path = append([]Square(nil), s.paths[m.pathAt:m.pathAt+m.pathLen]...)
		}
	}
	s.ms = ms[:0]
	return out
}

// gridPerft is Perft for a generic variant.
func gridPerft(p Position, depth int, keep bool) uint64 {
	if depth == 0 {
		return 1
	}
	s := &gridGen{v: p.v, g: p.v.geo, keep: keep}
	s.stack = make([][]gmove, depth)
	for i := range s.stack {
		s.stack[i] = make([]gmove, 0, 64)
	}
	return s.perft(&p, depth, 0)
}

func (s *gridGen) perft(p *Position, depth, ply int) uint64 {
	if p.finished() {
		return 0
	}
	s.setNode(p)
	ms := s.gen(s.stack[ply], p)
	s.stack[ply] = ms
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for i := range ms {
		m := &ms[i]
		q := p.Play(Move{From: m.from, To: m.to, Captured: Set{m.cap, 0}, Promotes: m.promote})
		n = addCount(n, s.perft(&q, depth-1, ply+1))
	}
	return n
}
