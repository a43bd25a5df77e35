package rules

// This file is the reference move generator: a direct transcription of the
// rules over neighbour tables. It works on every board geometry and is the
// oracle the bitboard generator is tested against.

// LegalMoves returns the legal moves of the side to move, one per identity
// (from, to, captured set), each with one representative capture path.
func (p Position) LegalMoves() []Move {
	if p.finished() {
		return nil
	}
	if fast, ok := p.fastMoves(false); ok {
		return fast
	}
	return p.referenceMoves(false)
}

// AppendLegalMoves appends LegalMoves to dst and returns it, reusing dst's
// memory: for the loops over millions of positions (an endgame database's
// build), where a new slice per position is most of the garbage.
func (p Position) AppendLegalMoves(dst []Move) []Move {
	if p.finished() {
		return dst
	}
	if fastMovesHook != nil {
		if ms, ok := bbAppendLegal(&p, false, dst); ok {
			return ms
		}
	}
	return append(dst, p.LegalMoves()...)
}

// LegalPaths returns every distinct legal capture path (or plain move): two
// paths over the same pieces to the same square are both listed. This is the
// `--count keep` view and what PDN long notation is written from.
func (p Position) LegalPaths() []Move {
	if p.finished() {
		return nil
	}
	if fast, ok := p.fastMoves(true); ok {
		return fast
	}
	return p.referenceMoves(true)
}

// referenceMoves generates moves with the reference generator.
func (p Position) referenceMoves(keepPaths bool) []Move {
	if p.finished() {
		return nil
	}
	if p.v.grid {
		return p.gridMoves(keepPaths)
	}
	s := refSearch{p: &p, v: p.v, g: p.v.geo, color: p.turn}
	s.own, s.opp = p.white, p.black
	if p.turn == Black {
		s.own, s.opp = s.opp, s.own
	}
	for from := range s.own.All() {
		s.from, s.byKing = from, p.kings.Has(from)
		s.captures(from, s.byKing, numDirs)
	}
	if len(s.out) == 0 {
		return p.referenceQuietMoves()
	}
	s.applyPrecedence()
	moves := make([]Move, 0, len(s.out))
	for _, c := range s.out {
		if !keepPaths && containsSame(moves, c.m) {
			continue
		}
		moves = append(moves, c.m)
	}
	return moves
}

// finished reports a Breakthrough position that a crowning has ended: it
// has no legal move (RULES.md section 8: the side that crowned has won).
func (p *Position) finished() bool { return p.v.p.BackRowWins && !p.kings.Empty() }

func containsSame(ms []Move, m Move) bool {
	for _, o := range ms {
		if o.Same(m) {
			return true
		}
	}
	return false
}

// forward returns the two forward directions of a man of colour c.
func (v *Variant) forward(c Color) [2]Direction {
	if v.up[c] {
		return [2]Direction{UpLeft, UpRight}
	}
	return [2]Direction{DownLeft, DownRight}
}

func (p Position) referenceQuietMoves() []Move {
	v, g := p.v, p.v.geo
	occ := p.Occupied()
	var moves []Move
	for from := range p.Pieces(p.turn).All() {
		if p.kings.Has(from) {
			for d := Direction(0); d < numDirs; d++ {
				for to := g.next[from][d]; to != 0 && !occ.Has(to); to = g.next[to][d] {
					moves = append(moves, Move{From: from, To: to})
					if v.p.Kings == ShortKings {
						break
					}
				}
			}
			continue
		}
		for _, d := range v.forward(p.turn) {
			if to := g.next[from][d]; to != 0 && !occ.Has(to) {
				moves = append(moves, Move{From: from, To: to, Promotes: v.promotes(p.turn, to)})
			}
		}
	}
	return moves
}

// candidate is a complete capture path with the facts precedence rules rank by.
type candidate struct {
	m         Move
	kings     int    // kings captured
	byKing    bool   // the capturing piece started as a king
	kingOrder uint64 // bit 63-i set when the i-th piece captured was a king
}

type refSearch struct {
	p        *Position
	v        *Variant
	g        *geometry
	color    Color
	own, opp Set
	from     Square
	byKing   bool
	path     []Square
	order    []Square // captured squares in capture order
	captured Set
	out      []candidate
}

// empty reports whether sq is free to pass or land on: no piece, or the mover's own origin.
func (s *refSearch) empty(sq Square) bool {
	return sq == s.from || !(s.own.Has(sq) || s.opp.Has(sq))
}

// jumps lists the captures available to a piece on sq, except those in
// direction skip (numDirs skips none): for each, the captured square and its
// landing squares.
func (s *refSearch) jumps(sq Square, king bool, skip Direction, visit func(d Direction, victim Square, landings []Square)) {
	g, v := s.g, s.v
	dirs := []Direction{UpLeft, UpRight, DownLeft, DownRight}
	if !king && !v.p.MenCaptureBackward {
		f := v.forward(s.color)
		dirs = f[:]
	}
	var buf [16]Square
	for _, d := range dirs {
		if d == skip {
			continue
		}
		t := g.next[sq][d]
		if king && v.p.Kings != ShortKings {
			for t != 0 && s.empty(t) {
				t = g.next[t][d]
			}
		}
		if t == 0 || !s.opp.Has(t) || s.captured.Has(t) {
			continue
		}
		if !king && !v.p.MenCaptureKings && s.p.kings.Has(t) {
			continue
		}
		landings := buf[:0]
		for l := g.next[t][d]; l != 0 && s.empty(l); l = g.next[l][d] {
			landings = append(landings, l)
			if !king || v.p.Kings != FlyingKings {
				break
			}
		}
		if len(landings) > 0 {
			visit(d, t, landings)
		}
	}
}

// canCapture reports whether a piece on sq could capture again.
func (s *refSearch) canCapture(sq Square, king bool) bool {
	found := false
	s.jumps(sq, king, numDirs, func(Direction, Square, []Square) { found = true })
	return found
}

// captures extends the current capture sequence from sq, but not in
// direction skip; it reports whether any capture was possible (so the
// sequence could not stop on sq).
func (s *refSearch) captures(sq Square, king bool, skip Direction) bool {
	found := false
	s.jumps(sq, king, skip, func(d Direction, victim Square, landings []Square) {
		found = true
		s.captured = s.captured.With(victim)
		s.order = append(s.order, victim)
		// A piece that can go on capturing from some landing square must land on one
		// of those; only when none can go on is every landing square an end.
		type next struct {
			sq      Square
			king    bool
			stop    bool // promotion ends the move here
			promote bool
		}
		var cont, ends []next
		for _, l := range landings {
			n := next{sq: l, king: king}
			if !king && s.v.promotes(s.color, l) {
				switch s.v.p.Promotion {
				case PromoteStop:
					n.stop, n.promote = true, true
				case PromoteContinue:
					n.king, n.promote = true, true
				case PromoteOnlyIfEnding:
					n.promote = true // only if it ends here, decided below
				}
			}
			if !n.stop && s.canCapture(l, n.king) {
				cont = append(cont, n)
			} else {
				ends = append(ends, n)
			}
		}
		if len(cont) > 0 {
			// Going on along d takes the same next piece from every landing
			// square of this line: only the first looks that way, as stopping
			// elsewhere before that piece is the same path (RULES.md section
			// 1: a flying king's path is the order of the pieces it takes).
			skip := Direction(numDirs)
			for _, n := range cont {
				s.path = append(s.path, n.sq)
				s.captures(n.sq, n.king, skip)
				s.path = s.path[:len(s.path)-1]
				skip = d
			}
		} else {
			if king && s.v.p.KillerKings && s.p.kings.Has(victim) {
				// Killer: the king that took a king last stops right
				// behind it (the nearest landing square).
				ends = ends[:1]
			}
			for _, n := range ends {
				s.emit(n.sq, n.promote && !king)
			}
		}
		s.order = s.order[:len(s.order)-1]
		s.captured = s.captured.Without(victim)
	})
	return found
}

// emit records the current sequence ending on to.
func (s *refSearch) emit(to Square, promote bool) {
	path := make([]Square, len(s.path)+1)
	copy(path, s.path)
	path[len(s.path)] = to
	// A man promoted earlier in the path (PromoteContinue) ends as a king.
	if !s.byKing && !promote && s.v.p.Promotion == PromoteContinue {
		for _, l := range s.path {
			if s.v.promotes(s.color, l) {
				promote = true
			}
		}
	}
	c := candidate{m: Move{From: s.from, To: to, Captured: s.captured, Path: path, Promotes: promote}, byKing: s.byKing}
	for i, sq := range s.order {
		if s.p.kings.Has(sq) {
			c.kings++
			c.kingOrder |= 1 << (63 - uint(i))
		}
	}
	s.out = append(s.out, c)
}

// better compares two candidates under the variant's precedence: >0 when a
// must be preferred to b, 0 when the player may choose either.
func better(pr Precedence, a, b *candidate) int {
	cmp := func(x, y int) int { return x - y }
	b2i := func(t bool) int {
		if t {
			return 1
		}
		return 0
	}
	switch pr {
	case Majority:
		return cmp(a.m.Captured.Len(), b.m.Captured.Len())
	case MajorityThenKings:
		if c := cmp(a.m.Captured.Len(), b.m.Captured.Len()); c != 0 {
			return c
		}
		return cmp(a.kings, b.kings)
	case ItalianOrder:
		if c := cmp(a.m.Captured.Len(), b.m.Captured.Len()); c != 0 {
			return c
		}
		if c := cmp(b2i(a.byKing), b2i(b.byKing)); c != 0 {
			return c
		}
		if c := cmp(a.kings, b.kings); c != 0 {
			return c
		}
		switch {
		case a.kingOrder > b.kingOrder:
			return 1
		case a.kingOrder < b.kingOrder:
			return -1
		}
		return 0
	case KingsFirst:
		return cmp(b2i(a.byKing), b2i(b.byKing))
	}
	return 0
}

// applyPrecedence keeps only the captures the precedence rule allows.
func (s *refSearch) applyPrecedence() {
	if s.v.p.Precedence == FreeChoice {
		return
	}
	best := 0
	for i := 1; i < len(s.out); i++ {
		if better(s.v.p.Precedence, &s.out[i], &s.out[best]) > 0 {
			best = i
		}
	}
	top := s.out[best]
	kept := s.out[:0]
	for i := range s.out {
		if better(s.v.p.Precedence, &s.out[i], &top) >= 0 {
			kept = append(kept, s.out[i])
		}
	}
	s.out = kept
}

// fastMoves is replaced by the bitboard generator where the board allows.
var fastMovesHook func(p *Position, keepPaths bool) ([]Move, bool)

func (p Position) fastMoves(keepPaths bool) ([]Move, bool) {
	if fastMovesHook == nil {
		return nil, false
	}
	return fastMovesHook(&p, keepPaths)
}
