package rules

import (
	"math/bits"
	"sync"
)

// This file is the bitboard move generator. It covers every board whose
// dark squares fit a padded layout in one uint64 (8x8 and 10x10, smaller
// boards, up to 12x10; not Canadian 12x12, which the reference generator
// serves): square i (0-based) sits on bit i + (i+off)/Width, where off is 0
// on ordinary boards and Width/2 on mirrored ones. The spare "ghost" bit
// after every second row makes the four diagonal neighbours a fixed shift
// away: -(half+1) and -half upwards, +half and +(half+1) downwards, and
// shifting off an edge lands on a ghost bit or off the word, which the mask
// of real squares removes.
//
// The generator follows the reference generator's rules exactly (it is
// tested against it move for move) and searches in the same order (origins
// in increasing square order, directions UpLeft, UpRight, DownLeft,
// DownRight, nearest landing first), so the representative path of a move
// in LegalMoves is the one the reference would pick.

// bbGeo holds the padded-bitboard tables of one board geometry.
type bbGeo struct {
	h, h1 uint   // shifts to a diagonal neighbour: half and half+1
	mask  uint64 // bits of real squares
	bitOf [maxSquares + 1]uint8
	sqOf  [64]Square
	// runs[k] are the squares (Set bits) whose padded bit is k higher:
	// the padding adds a ghost bit per board width, so a square set
	// converts a run at a time (toBits, toSet) instead of a square at a
	// time.
	runs  [64]uint64
	nRuns int
	promo [2]uint64 // by Color: the row where that colour's men are crowned
	nbr   [64][numDirs]uint64
	jmp   [64][numDirs]uint64 // the square two steps away
	ray   [64][numDirs]uint64 // every square from (not including) a square to the edge
}

var bbGeoCache sync.Map // Board -> *bbGeo, nil when the board does not fit

func bbGeoFor(v *Variant) *bbGeo {
	if v == nil || v.geo == nil || v.noBitboards {
		return nil
	}
	if g, ok := bbGeoCache.Load(v.p.Board); ok {
		return g.(*bbGeo)
	}
	g := newBBGeo(v.geo)
	bbGeoCache.Store(v.p.Board, g)
	return g
}

// newBBGeo builds the tables and checks them against the neighbour tables of
// geo; it returns nil when the padded layout does not work for the board.
func newBBGeo(geo *geometry) *bbGeo {
	b := geo.board
	half := b.Width / 2
	off := 0
	if b.Mirrored {
		off = half
	}
	g := &bbGeo{h: uint(half), h1: uint(half + 1)}
	for i := 0; i < geo.n; i++ {
		idx := i + (i+off)/b.Width
		if idx >= 64 {
			return nil
		}
		sq := Square(i + 1)
		g.bitOf[sq] = uint8(idx)
		g.sqOf[idx] = sq
		k := idx - i
		g.runs[k] |= 1 << uint(i)
		g.nRuns = max(g.nRuns, k+1)
		g.mask |= 1 << uint(idx)
		switch int(geo.row[sq]) {
		case 0:
			g.promo[White] |= 1 << uint(idx)
		case b.Height - 1:
			g.promo[Black] |= 1 << uint(idx)
		}
	}
	deltas := [numDirs]int{-(half + 1), -half, half, half + 1}
	for i := 1; i <= geo.n; i++ {
		sq := Square(i)
		s := int(g.bitOf[sq])
		for d := Direction(0); d < numDirs; d++ {
			t := s + deltas[d]
			nx := geo.next[sq][d]
			if nx != 0 {
				if t != int(g.bitOf[nx]) {
					return nil
				}
				g.nbr[s][d] = 1 << uint(t)
			} else if t >= 0 && t < 64 && g.mask>>uint(t)&1 != 0 {
				return nil // shifting off the edge would wrap onto a real square
			}
			for nx := geo.next[sq][d]; nx != 0; nx = geo.next[nx][d] {
				g.ray[s][d] |= 1 << g.bitOf[nx]
			}
			if nx != 0 {
				if nn := geo.next[nx][d]; nn != 0 {
					g.jmp[s][d] = 1 << g.bitOf[nn]
				}
			}
		}
	}
	return g
}

// toBits converts a square set to padded bits (the squares of a padded
// board are the first 64: s[1] is empty).
func (g *bbGeo) toBits(s Set) uint64 {
	var b uint64
	for k, run := range g.runs[:g.nRuns] {
		b |= (s[0] & run) << uint(k)
	}
	return b
}

// toSet converts padded bits to a square set.
func (g *bbGeo) toSet(b uint64) Set {
	var s Set
	for k, run := range g.runs[:g.nRuns] {
		s[0] |= b >> uint(k) & run
	}
	return s
}

// bmove is a move as the bitboard generator applies it: the mover's bits
// flip by ft (from^to), the captured bits leave the opponent and the kings,
// and the kings then flip by kd (ft for a king, to for a promotion).
type bmove struct {
	ft, cap, kd uint64
}

// bbGen is one search: the variant's rules, the capture-search state and
// per-ply move buffers. It is not safe for concurrent use; each Perft call
// and each LegalMoves call uses its own.
type bbGen struct {
	*bbGeo
	// promo is by Color the squares where that colour's men are crowned:
	// bbGeo's far rows, or the variant's PromotionSquares (it shadows
	// bbGeo.promo).
	promo        [2]uint64
	killer       bool // Killer: a king's capture that ends on a king stops right behind it
	breakthrough bool // Breakthrough: a position with a king has no move
	flying       bool // flying kings (either landing rule)
	landAll      bool // flying kings land on any free square behind the victim
	menBack      bool
	menCapKings  bool
	promotion    PromotionRule
	prec         Precedence
	keep         bool // count every path rather than every identity
	checkers     bool // English checkers rules: see countCheckers
	draughts     bool // international draughts rules: see countDraughts

	// capture search state of the current node
	opp, kings, emptyp uint64
	from               int
	byKing             bool
	white              bool
	promoRow           uint64
	ms                 []bmove
	best               [2]uint64
	pieceStart         int
	cnt                int  // captures accepted so far
	counting           bool // bulk counting: store only what deduplication needs

	// API mode: record paths and Moves alongside ms
	paths bool
	path  [64]uint8
	api   []Move

	stack [][]bmove // per-ply move buffers, reused

	tt *PerftTable // PerftWith's table, shared by its workers; nil elsewhere
}

// reset prepares g for a search under v on geometry geo.
func (g *bbGen) reset(v *Variant, geo *bbGeo, keep bool) {
	g.bbGeo = geo
	g.flying = v.p.Kings != ShortKings
	g.landAll = v.p.Kings == FlyingKings
	g.menBack = v.p.MenCaptureBackward
	g.menCapKings = v.p.MenCaptureKings
	g.promotion = v.p.Promotion
	g.prec = v.p.Precedence
	g.promo = promoBits(v, geo)
	g.killer = v.p.KillerKings
	g.breakthrough = v.p.BackRowWins
	g.keep = keep
	g.checkers = !g.flying && !g.menBack && g.menCapKings && g.prec == FreeChoice && g.promotion == PromoteStop
	g.draughts = g.landAll && g.menBack && g.menCapKings && g.prec == Majority && g.promotion == PromoteOnlyIfEnding
	g.paths = false
	g.counting = false
	g.ms = nil
	g.api = g.api[:0]
}

// promoBits is the promotion squares of v's men by colour, in padded bits.
func promoBits(v *Variant, geo *bbGeo) [2]uint64 {
	pr := geo.promo
	for c, s := range v.p.PromotionSquares {
		if !s.Empty() {
			pr[c] = geo.toBits(s)
		}
	}
	return pr
}

// buf returns the (emptied) move buffer of ply.
func (g *bbGen) buf(ply int) []bmove {
	for len(g.stack) <= ply {
		g.stack = append(g.stack, make([]bmove, 0, 128))
	}
	return g.stack[ply][:0]
}

// firstBit returns the blocker nearest to the origin of a ray in direction d.
func firstBit(b uint64, d Direction) int {
	if d < DownLeft {
		return 63 - bits.LeadingZeros64(b)
	}
	return bits.TrailingZeros64(b)
}

// capturers returns the pieces of own that have a capture available (every
// king, with flying kings, as a cheap over-approximation).
func (g *bbGen) capturers(own, opp, kings uint64, white bool) uint64 {
	h, h1 := g.h&63, g.h1&63
	empty := g.mask &^ (own | opp)
	men := own &^ kings
	k := own & kings
	tgt := opp
	if !g.menCapKings {
		tgt = opp &^ kings
	}
	// squares whose neighbour in a direction is a target with an empty
	// square beyond: ul holds those that can capture up-left, and so on
	ul := ((empty << h1 & tgt) << h1)
	ur := ((empty << h & tgt) << h)
	dl := ((empty >> h & tgt) >> h)
	dr := ((empty >> h1 & tgt) >> h1)
	var c uint64
	switch {
	case g.menBack:
		c = men & (ul | ur | dl | dr)
	case white:
		c = men & (ul | ur)
	default:
		c = men & (dl | dr)
	}
	if k != 0 {
		if g.flying {
			c |= k
		} else {
			if !g.menCapKings {
				ul = ((empty << h1 & opp) << h1)
				ur = ((empty << h & opp) << h)
				dl = ((empty >> h & opp) >> h)
				dr = ((empty >> h1 & opp) >> h1)
			}
			c |= k & (ul | ur | dl | dr)
		}
	}
	return c
}

// quiet appends the non-capturing moves.
func (g *bbGen) quiet(ms []bmove, own, opp, kings uint64, white bool) []bmove {
	h, h1 := g.h&63, g.h1&63
	empty := g.mask &^ (own | opp)
	men := own &^ kings
	k := own & kings
	if white {
		pr := g.promo[White]
		for t := men >> h1 & empty; t != 0; t &= t - 1 {
			to := t & -t
			ms = append(ms, bmove{ft: to | to<<h1, kd: to & pr})
		}
		for t := men >> h & empty; t != 0; t &= t - 1 {
			to := t & -t
			ms = append(ms, bmove{ft: to | to<<h, kd: to & pr})
		}
	} else {
		pr := g.promo[Black]
		for t := men << h & empty; t != 0; t &= t - 1 {
			to := t & -t
			ms = append(ms, bmove{ft: to | to>>h, kd: to & pr})
		}
		for t := men << h1 & empty; t != 0; t &= t - 1 {
			to := t & -t
			ms = append(ms, bmove{ft: to | to>>h1, kd: to & pr})
		}
	}
	if k == 0 {
		return ms
	}
	if !g.flying {
		for t := k >> h1 & empty; t != 0; t &= t - 1 {
			to := t & -t
			ft := to | to<<h1
			ms = append(ms, bmove{ft: ft, kd: ft})
		}
		for t := k >> h & empty; t != 0; t &= t - 1 {
			to := t & -t
			ft := to | to<<h
			ms = append(ms, bmove{ft: ft, kd: ft})
		}
		for t := k << h & empty; t != 0; t &= t - 1 {
			to := t & -t
			ft := to | to>>h
			ms = append(ms, bmove{ft: ft, kd: ft})
		}
		for t := k << h1 & empty; t != 0; t &= t - 1 {
			to := t & -t
			ft := to | to>>h1
			ms = append(ms, bmove{ft: ft, kd: ft})
		}
		return ms
	}
	occ := own | opp
	for ; k != 0; k &= k - 1 {
		s := bits.TrailingZeros64(k)
		from := uint64(1) << uint(s)
		for d := Direction(0); d < numDirs; d++ {
			for t := g.kingReach(s, d, occ) & empty; t != 0; t &= t - 1 {
				ft := from | t&-t
				ms = append(ms, bmove{ft: ft, kd: ft})
			}
		}
	}
	return ms
}

// kingReach returns the squares of the ray from s in direction d up to and
// including the first occupied one.
func (g *bbGen) kingReach(s int, d Direction, occ uint64) uint64 {
	r := g.ray[s][d]
	bl := r & occ
	if bl == 0 {
		return r
	}
	return r &^ g.ray[firstBit(bl, d)][d]
}

// countQuiet counts the non-capturing moves without generating them.
func (g *bbGen) countQuiet(own, opp, kings uint64, white bool) uint64 {
	h, h1 := g.h&63, g.h1&63
	empty := g.mask &^ (own | opp)
	k := own & kings
	var n int
	if g.flying {
		men := own &^ kings
		if white {
			n = bits.OnesCount64(men>>h1&empty) + bits.OnesCount64(men>>h&empty)
		} else {
			n = bits.OnesCount64(men<<h1&empty) + bits.OnesCount64(men<<h&empty)
		}
		occ := own | opp
		for ; k != 0; k &= k - 1 {
			s := bits.TrailingZeros64(k)
			n += bits.OnesCount64(g.kingReach(s, UpLeft, occ)&empty) +
				bits.OnesCount64(g.kingReach(s, UpRight, occ)&empty) +
				bits.OnesCount64(g.kingReach(s, DownLeft, occ)&empty) +
				bits.OnesCount64(g.kingReach(s, DownRight, occ)&empty)
		}
		return uint64(n)
	}
	// short kings: every piece steps forward, kings also backward
	if white {
		n = bits.OnesCount64(own>>h1&empty) + bits.OnesCount64(own>>h&empty) +
			bits.OnesCount64(k<<h1&empty) + bits.OnesCount64(k<<h&empty)
	} else {
		n = bits.OnesCount64(own<<h1&empty) + bits.OnesCount64(own<<h&empty) +
			bits.OnesCount64(k>>h1&empty) + bits.OnesCount64(k>>h&empty)
	}
	return uint64(n)
}

// captures generates the legal captures (after precedence) into ms and
// returns them with their number; ms stays empty when there is none. When
// g.counting, only the number is exact: ms holds just the moves that
// deduplication needs.
func (g *bbGen) captures(ms []bmove, own, opp, kings uint64, white bool) ([]bmove, int) {
	c := g.capturers(own, opp, kings, white)
	if c == 0 {
		return ms, 0
	}
	g.ms = ms
	g.cnt = 0
	g.opp, g.kings, g.white = opp, kings, white
	if white {
		g.promoRow = g.promo[White]
	} else {
		g.promoRow = g.promo[Black]
	}
	g.best = [2]uint64{}
	empty := g.mask &^ (own | opp)
	for ; c != 0; c &= c - 1 {
		s := bits.TrailingZeros64(c)
		g.from = s
		g.byKing = kings>>uint(s)&1 != 0
		g.emptyp = empty | 1<<uint(s)
		g.pieceStart = len(g.ms)
		g.extend(s, g.byKing, 0, 0, 0, numDirs)
	}
	ms = g.ms
	g.ms = nil
	return ms, g.cnt
}

// extend continues a capture sequence of the piece now on s (a king if
// king) that has captured cap (n pieces; order marks which of them were
// kings, first capture in the top bit). It reports whether any capture was
// possible from s; when none is, the caller ends the sequence on s. A
// flying king does not look in direction skip (numDirs: it looks everywhere):
// see the landing loop below.
func (g *bbGen) extend(s int, king bool, cap uint64, n int, order uint64, skip Direction) bool {
	found := false
	if king && g.flying {
		for d := Direction(0); d < numDirs; d++ {
			if d == skip {
				continue
			}
			bl := g.ray[s][d] &^ g.emptyp
			if bl == 0 {
				continue
			}
			v := firstBit(bl, d)
			vb := uint64(1) << uint(v)
			if vb&g.opp&^cap == 0 {
				continue
			}
			var land uint64
			if g.landAll {
				land = g.ray[v][d]
				if bl2 := land &^ g.emptyp; bl2 != 0 {
					land &^= g.ray[firstBit(bl2, d)][d] | 1<<uint(firstBit(bl2, d))
				}
			} else {
				land = g.nbr[v][d] & g.emptyp
			}
			if land == 0 {
				continue
			}
			found = true
			cap2 := cap | vb
			order2 := order
			if vb&g.kings != 0 {
				order2 |= 1 << uint(63-n)
			}
			if land&(land-1) == 0 {
				l := bits.TrailingZeros64(land)
				g.path[n] = uint8(l)
				if !g.extend(l, true, cap2, n+1, order2, numDirs) {
					g.emit(l, cap2, n+1, order2, true)
				}
				continue
			}
			// A king must land where it can go on capturing; only when no
			// landing square continues is every one of them an end. Going on
			// along d takes the same next piece from every landing square,
			// so only the nearest looks that way: stopping elsewhere on the
			// line before that piece is the same move and, by RULES.md
			// section 1, the same path (a flying king's path is the order of
			// the pieces it takes). When d goes on, the nearest sets cont.
			cont := false
			skip := Direction(numDirs)
			for t := land; t != 0; {
				l := firstBit(t, d)
				t &^= 1 << uint(l)
				g.path[n] = uint8(l)
				if g.extend(l, true, cap2, n+1, order2, skip) {
					cont = true
				}
				skip = d
			}
			if !cont {
				if g.killer && vb&g.kings != 0 {
					// Killer: the capture ends on a king, so the king
					// stops right behind it.
					l := firstBit(land, d)
					g.path[n] = uint8(l)
					g.emit(l, cap2, n+1, order2, true)
					continue
				}
				for t := land; t != 0; {
					l := firstBit(t, d)
					t &^= 1 << uint(l)
					g.path[n] = uint8(l)
					g.emit(l, cap2, n+1, order2, true)
				}
			}
		}
		return found
	}
	d0, d1 := UpLeft, DownRight
	if !king && !g.menBack {
		if g.white {
			d1 = UpRight
		} else {
			d0 = DownLeft
		}
	}
	tgt := g.opp &^ cap
	if !king && !g.menCapKings {
		tgt &^= g.kings
	}
	for d := d0; d <= d1; d++ {
		// the cheap test inline; step repeats it, but only for real jumps
		if g.nbr[s][d]&tgt != 0 && g.jmp[s][d]&g.emptyp != 0 {
			g.step(s, d, king, tgt, cap, n, order)
			found = true
		}
	}
	return found
}

// step tries the short jump (a man's, or a short king's) from s in direction
// d over a piece of tgt, and follows the sequence on; it reports whether the
// jump was possible.
func (g *bbGen) step(s int, d Direction, king bool, tgt, cap uint64, n int, order uint64) bool {
	vb := g.nbr[s][d]
	if vb&tgt == 0 {
		return false
	}
	lb := g.jmp[s][d]
	if lb&g.emptyp == 0 {
		return false
	}
	l := bits.TrailingZeros64(lb)
	cap2 := cap | vb
	order2 := order
	if vb&g.kings != 0 {
		order2 |= 1 << uint(63-n)
	}
	k2, stop := king, false
	if !king && lb&g.promoRow != 0 {
		switch g.promotion {
		case PromoteStop:
			stop = true
		case PromoteContinue:
			k2 = true
		}
	}
	g.path[n] = uint8(l)
	if stop || !g.extend(l, k2, cap2, n+1, order2, numDirs) {
		g.emit(l, cap2, n+1, order2, k2)
	}
	return true
}

// fastCaptures generates (or, when g.counting, counts) the captures of the
// side to move under free choice or majority capture, for perft, where the
// order of moves does not matter. Single jumps by men that cannot go on are
// found for all men at once, direction by direction; only the men whose jump
// continues (or crowns them as a king that might continue) and the kings are
// searched one by one. It returns ms and the number of captures.
func (g *bbGen) fastCaptures(ms []bmove, own, opp, kings uint64, white bool) ([]bmove, int) {
	h, h1 := g.h&63, g.h1&63
	h2, h12 := (2*g.h)&63, (2*g.h1)&63
	empty := g.mask &^ (own | opp)
	men := own &^ kings
	tgt := opp
	if !g.menCapKings {
		tgt &^= kings
	}
	// squares from which a man could capture in each direction (only the
	// directions men capture in)
	var cUL, cUR, cDL, cDR uint64
	if g.menBack || white {
		cUL = (empty << h1 & tgt) << h1
		cUR = (empty << h & tgt) << h
	}
	if g.menBack || !white {
		cDL = (empty >> h & tgt) >> h
		cDR = (empty >> h1 & tgt) >> h1
	}
	k := own & kings
	if men&(cUL|cUR|cDL|cDR) == 0 {
		// the common case: no man can capture; and no king either?
		if k == 0 {
			return ms, 0
		}
		if !g.flying && k&g.capturers(own, opp, kings, white) == 0 {
			return ms, 0
		}
	}
	promoRow := g.promo[Black]
	if white {
		promoRow = g.promo[White]
	}
	var stopRow, kingRow uint64
	switch g.promotion {
	case PromoteStop:
		stopRow = promoRow
	case PromoteContinue:
		kingRow = promoRow
	}
	// From a landing square the sequence may go on in every direction but
	// back over the piece just taken (a man that can only capture forwards
	// never looks back anyway).
	var single, slow [numDirs]uint64 // landings of single jumps; origins needing a search
	if g.menBack || white {
		fwd := cUL | cUR
		if o := men & cUL; o != 0 {
			l := o >> h12
			nb := fwd
			if g.menBack {
				nb |= cDL
			}
			c := l&nb&^stopRow | l&kingRow
			single[UpLeft], slow[UpLeft] = l&^c, c<<h12
		}
		if o := men & cUR; o != 0 {
			l := o >> h2
			nb := fwd
			if g.menBack {
				nb |= cDR
			}
			c := l&nb&^stopRow | l&kingRow
			single[UpRight], slow[UpRight] = l&^c, c<<h2
		}
	}
	if g.menBack || !white {
		fwd := cDL | cDR
		if o := men & cDL; o != 0 {
			l := o << h2
			nb := fwd
			if g.menBack {
				nb |= cUL
			}
			c := l&nb&^stopRow | l&kingRow
			single[DownLeft], slow[DownLeft] = l&^c, c>>h2
		}
		if o := men & cDR; o != 0 {
			l := o << h12
			nb := fwd
			if g.menBack {
				nb |= cUR
			}
			c := l&nb&^stopRow | l&kingRow
			single[DownRight], slow[DownRight] = l&^c, c>>h12
		}
	}
	g.ms, g.cnt = ms, 0
	todo := slow[0] | slow[1] | slow[2] | slow[3]
	if k != 0 {
		if g.flying {
			todo |= k
		} else {
			todo |= k & g.capturers(own, opp, kings, white)
		}
	}
	if todo != 0 {
		g.opp, g.kings, g.white, g.promoRow = opp, kings, white, promoRow
		g.searchPieces(todo, empty, kings, tgt, &slow)
	}
	ms, n := g.ms, g.cnt
	g.ms = nil
	if g.prec == Majority && n > 0 && g.best[0] > 1 {
		return ms, n // longer captures found: the single jumps are not allowed
	}
	return g.appendSingles(ms, n, single, promoRow)
}

// emit records a finished capture sequence ending on to, subject to the
// precedence rule and, when counting identities, to duplicates.
func (g *bbGen) emit(to int, cap uint64, n int, order uint64, king bool) {
	if g.prec != FreeChoice {
		var key [2]uint64
		switch g.prec {
		case Majority:
			key[0] = uint64(n)
		case MajorityThenKings:
			key[0] = uint64(n)<<8 | uint64(bits.OnesCount64(cap&g.kings))
		case ItalianOrder:
			key[0] = uint64(n)<<16 | uint64(bits.OnesCount64(cap&g.kings))
			if g.byKing {
				key[0] |= 1 << 8
			}
			key[1] = order
		case KingsFirst:
			if g.byKing {
				key[0] = 1
			}
		}
		if g.cnt == 0 {
			g.best = key
		} else if key != g.best {
			if key[0] < g.best[0] || key[0] == g.best[0] && key[1] < g.best[1] {
				return
			}
			g.best = key
			g.cnt = 0
			g.ms = g.ms[:0]
			g.api = g.api[:0]
			g.pieceStart = 0
		}
	}
	toBit := uint64(1) << uint(to)
	ft := uint64(1)<<uint(g.from) ^ toBit
	dedupe := !g.keep && n >= 2
	if dedupe {
		for i := g.pieceStart; i < len(g.ms); i++ {
			if g.ms[i].ft == ft && g.ms[i].cap == cap {
				return
			}
		}
	}
	g.cnt++
	if g.counting && !dedupe {
		return
	}
	mv := bmove{ft: ft, cap: cap}
	if g.byKing {
		mv.kd = ft
	} else if king || toBit&g.promoRow != 0 {
		mv.kd = toBit
	}
	g.ms = append(g.ms, mv)
	if g.paths {
		path := make([]Square, n)
		for i := range path {
			path[i] = g.sqOf[g.path[i]]
		}
		g.api = append(g.api, Move{
			From: g.sqOf[g.from], To: g.sqOf[to], Captured: g.toSet(cap),
			Path: path, Promotes: !g.byKing && mv.kd != 0,
		})
	}
}

// capturesAny picks the capture generator: the parallel one where it
// applies (perft under free choice or majority), else the ordered search.
func (g *bbGen) capturesAny(ms []bmove, own, opp, kings uint64, white bool) ([]bmove, int) {
	if !g.paths && (g.prec == FreeChoice || g.prec == Majority) {
		return g.fastCaptures(ms, own, opp, kings, white)
	}
	return g.captures(ms, own, opp, kings, white)
}

// gen generates the legal moves of the side to move into the buffer of ply.
func (g *bbGen) gen(ply int, own, opp, kings uint64, white bool) []bmove {
	ms, n := g.capturesAny(g.buf(ply), own, opp, kings, white)
	if n == 0 {
		ms = g.quiet(ms, own, opp, kings, white)
	}
	g.stack[ply] = ms
	return ms
}

// perft counts leaves depth plies below the position; at the last ply it
// counts moves without playing them.
func (g *bbGen) perft(own, opp, kings uint64, white bool, depth, ply int) uint64 {
	if depth == 1 {
		return g.count(own, opp, kings, white, ply)
	}
	ms := g.gen(ply, own, opp, kings, white)
	var n uint64
	if depth == 2 {
		for i := range ms {
			m := &ms[i]
			n += g.count(opp&^m.cap, own^m.ft, (kings&^m.cap)^m.kd, !white, ply+1)
		}
		return n
	}
	for i := range ms {
		m := &ms[i]
		n = addCount(n, g.perft(opp&^m.cap, own^m.ft, (kings&^m.cap)^m.kd, !white, depth-1, ply+1))
	}
	return n
}

// perftBT is perft under Breakthrough: a position holding a king (a man
// crowned on the last move) is over, with no move.
func (g *bbGen) perftBT(own, opp, kings uint64, white bool, depth, ply int) uint64 {
	if kings != 0 {
		return 0
	}
	if depth == 1 {
		return g.count(own, opp, kings, white, ply)
	}
	ms := g.gen(ply, own, opp, kings, white)
	var n uint64
	for i := range ms {
		m := &ms[i]
		n = addCount(n, g.perftBT(opp&^m.cap, own^m.ft, (kings&^m.cap)^m.kd, !white, depth-1, ply+1))
	}
	return n
}

// count is perft of depth 1: the number of legal moves, counted in bulk.
func (g *bbGen) count(own, opp, kings uint64, white bool, ply int) uint64 {
	if g.checkers {
		return g.countCheckers(own, opp, kings, white, ply)
	}
	if g.draughts && own&kings == 0 {
		return g.countDraughts(own, opp, kings, white, ply)
	}
	g.counting = true
	var n int
	g.stack[ply], n = g.capturesAny(g.buf(ply), own, opp, kings, white)
	g.counting = false
	if n > 0 {
		return uint64(n)
	}
	return g.countQuiet(own, opp, kings, white)
}

// countCheckers is count for the rules of English checkers (men move and
// capture forwards, short kings, free choice, crowning ends the move), the
// hottest loop of all, with every rule parameter folded in.
func (g *bbGen) countCheckers(own, opp, kings uint64, white bool, ply int) uint64 {
	h, h1 := g.h&63, g.h1&63
	h2, h12 := (2*g.h)&63, (2*g.h1)&63
	empty := g.mask &^ (own | opp)
	k := own & kings
	men := own &^ kings
	var cUL, cUR, cDL, cDR uint64 // squares a man or king could capture from, by direction
	var slow [numDirs]uint64
	n := 0
	if white {
		cUL = (empty << h1 & opp) << h1
		cUR = (empty << h & opp) << h
		ks := uint64(0)
		if k != 0 {
			cDL = (empty >> h & opp) >> h
			cDR = (empty >> h1 & opp) >> h1
			ks = k & (cUL | cUR | cDL | cDR)
		}
		if men&(cUL|cUR)|ks == 0 {
			return uint64(bits.OnesCount64(own>>h1&empty) + bits.OnesCount64(own>>h&empty) +
				bits.OnesCount64(k<<h1&empty) + bits.OnesCount64(k<<h&empty))
		}
		cont := (cUL | cUR) &^ g.promo[White]
		l := (men & cUL) >> h12
		n += bits.OnesCount64(l &^ cont)
		slow[UpLeft] = (l & cont) << h12
		l = (men & cUR) >> h2
		n += bits.OnesCount64(l &^ cont)
		slow[UpRight] = (l & cont) << h2
		if ks == 0 && slow[UpLeft]|slow[UpRight] == 0 {
			return uint64(n)
		}
		return uint64(n) + g.countCheckersSlow(own, opp, kings, true, ks, slow, ply)
	}
	cDL = (empty >> h & opp) >> h
	cDR = (empty >> h1 & opp) >> h1
	ks := uint64(0)
	if k != 0 {
		cUL = (empty << h1 & opp) << h1
		cUR = (empty << h & opp) << h
		ks = k & (cUL | cUR | cDL | cDR)
	}
	if men&(cDL|cDR)|ks == 0 {
		return uint64(bits.OnesCount64(own<<h1&empty) + bits.OnesCount64(own<<h&empty) +
			bits.OnesCount64(k>>h1&empty) + bits.OnesCount64(k>>h&empty))
	}
	cont := (cDL | cDR) &^ g.promo[Black]
	l := (men & cDL) << h2
	n += bits.OnesCount64(l &^ cont)
	slow[DownLeft] = (l & cont) >> h2
	l = (men & cDR) << h12
	n += bits.OnesCount64(l &^ cont)
	slow[DownRight] = (l & cont) >> h12
	if ks == 0 && slow[DownLeft]|slow[DownRight] == 0 {
		return uint64(n)
	}
	return uint64(n) + g.countCheckersSlow(own, opp, kings, false, ks, slow, ply)
}

// countDraughts is count for the rules of international draughts (men
// capture backwards too, majority capture, crowned only where a capture
// ends) when the side to move has no king, with those rules folded in.
func (g *bbGen) countDraughts(own, opp, kings uint64, white bool, ply int) uint64 {
	h, h1 := g.h&63, g.h1&63
	h2, h12 := (2*g.h)&63, (2*g.h1)&63
	empty := g.mask &^ (own | opp)
	cUL := (empty << h1 & opp) << h1
	cUR := (empty << h & opp) << h
	cDL := (empty >> h & opp) >> h
	cDR := (empty >> h1 & opp) >> h1
	if own&(cUL|cUR|cDL|cDR) == 0 {
		if white {
			return uint64(bits.OnesCount64(own>>h1&empty) + bits.OnesCount64(own>>h&empty))
		}
		return uint64(bits.OnesCount64(own<<h1&empty) + bits.OnesCount64(own<<h&empty))
	}
	// single jumps that cannot go on (in any direction but back), and the
	// origins of those that can
	var slow [numDirs]uint64
	l := (own & cUL) >> h12
	c := l & (cUL | cUR | cDL)
	n := bits.OnesCount64(l &^ c)
	slow[UpLeft] = c << h12
	l = (own & cUR) >> h2
	c = l & (cUL | cUR | cDR)
	n += bits.OnesCount64(l &^ c)
	slow[UpRight] = c << h2
	l = (own & cDL) << h2
	c = l & (cUL | cDL | cDR)
	n += bits.OnesCount64(l &^ c)
	slow[DownLeft] = c >> h2
	l = (own & cDR) << h12
	c = l & (cUR | cDL | cDR)
	n += bits.OnesCount64(l &^ c)
	slow[DownRight] = c >> h12
	if slow[0]|slow[1]|slow[2]|slow[3] == 0 {
		return uint64(n)
	}
	// A jump that goes on captures at least two: the single jumps are out.
	return g.countCheckersSlow(own, opp, kings, white, 0, slow, ply)
}

// countCheckersSlow counts the captures that countCheckers (or
// countDraughts) could not count at once: those of the kings ks and the
// men's jumps in slow that go on.
func (g *bbGen) countCheckersSlow(own, opp, kings uint64, white bool, ks uint64, slow [numDirs]uint64, ply int) uint64 {
	g.counting = true
	var n int
	g.stack[ply], n = g.searchSome(g.buf(ply), own, opp, kings, white, ks, slow)
	g.counting = false
	return uint64(n)
}

// searchSome runs the capture search for the kings ks and for the men's
// first jumps in slow (origins by direction), appending to ms, or only
// counting when g.counting. Men must be allowed to capture kings.
func (g *bbGen) searchSome(ms []bmove, own, opp, kings uint64, white bool, ks uint64, slow [numDirs]uint64) ([]bmove, int) {
	g.ms, g.cnt = ms, 0
	g.opp, g.kings, g.white = opp, kings, white
	g.promoRow = g.promo[Black]
	if white {
		g.promoRow = g.promo[White]
	}
	empty := g.mask &^ (own | opp)
	g.searchPieces(ks|slow[0]|slow[1]|slow[2]|slow[3], empty, kings, opp, &slow)
	ms = g.ms
	g.ms = nil
	return ms, g.cnt
}

// searchPieces runs the capture search from every square of todo: a king
// searches every direction, a man only the directions slow marks for it
// (its first jumps that may continue); tgt is what a man may take.
func (g *bbGen) searchPieces(todo, empty, kings, tgt uint64, slow *[numDirs]uint64) {
	for ; todo != 0; todo &= todo - 1 {
		s := bits.TrailingZeros64(todo)
		g.from = s
		g.emptyp = empty | 1<<uint(s)
		g.pieceStart = len(g.ms)
		g.byKing = kings>>uint(s)&1 != 0
		if g.byKing {
			g.extend(s, true, 0, 0, 0, numDirs)
			continue
		}
		for d := UpLeft; d < numDirs; d++ {
			if slow[d]>>uint(s)&1 != 0 {
				g.step(s, d, false, tgt, 0, 0, 0)
			}
		}
	}
}

// appendSingles adds the men's single jumps that end the move (landing
// squares by direction; crowned on promoRow) to ms and their number to n;
// when g.counting it only counts them.
func (g *bbGen) appendSingles(ms []bmove, n int, single [numDirs]uint64, promoRow uint64) ([]bmove, int) {
	if g.counting {
		return ms, n + bits.OnesCount64(single[0]) + bits.OnesCount64(single[1]) +
			bits.OnesCount64(single[2]) + bits.OnesCount64(single[3])
	}
	h, h1 := g.h&63, g.h1&63
	h2, h12 := (2*g.h)&63, (2*g.h1)&63
	for t := single[UpLeft]; t != 0; t &= t - 1 {
		l := t & -t
		ms = append(ms, bmove{ft: l | l<<h12, cap: l << h1, kd: l & promoRow})
		n++
	}
	for t := single[UpRight]; t != 0; t &= t - 1 {
		l := t & -t
		ms = append(ms, bmove{ft: l | l<<h2, cap: l << h, kd: l & promoRow})
		n++
	}
	for t := single[DownLeft]; t != 0; t &= t - 1 {
		l := t & -t
		ms = append(ms, bmove{ft: l | l>>h2, cap: l >> h, kd: l & promoRow})
		n++
	}
	for t := single[DownRight]; t != 0; t &= t - 1 {
		l := t & -t
		ms = append(ms, bmove{ft: l | l>>h12, cap: l >> h1, kd: l & promoRow})
		n++
	}
	return ms, n
}

// sides returns the padded bitboards of a position: mover, opponent, kings.
func (g *bbGeo) sides(p *Position) (own, opp, kings uint64) {
	own, opp = g.toBits(p.white), g.toBits(p.black)
	if p.turn == Black {
		own, opp = opp, own
	}
	return own, opp, g.toBits(p.kings)
}

var bbGenPool sync.Pool

// bbLegal is the fastMovesHook: the legal moves with paths, or false when
// the board has no bitboard layout.
func bbLegal(p *Position, keep bool) ([]Move, bool) { return bbAppendLegal(p, keep, nil) }

// bbAppendLegal is bbLegal appending to out (AppendLegalMoves).
func bbAppendLegal(p *Position, keep bool, out []Move) ([]Move, bool) {
	geo := geoOf(p.v)
	if geo == nil {
		return nil, false
	}
	g, _ := bbGenPool.Get().(*bbGen)
	if g == nil {
		g = &bbGen{}
	}
	g.reset(p.v, geo, keep)
	g.paths = true
	own, opp, kings := geo.sides(p)
	white := p.turn == White
	ms := g.gen(0, own, opp, kings, white)
	if len(g.api) > 0 {
		out = append(out, g.api...)
	} else {
		if out == nil {
			out = make([]Move, 0, len(ms))
		}
		for _, m := range ms {
			from := m.ft & own
			to := m.ft &^ own
			out = append(out, Move{
				From: geo.sqOf[bits.TrailingZeros64(from)], To: geo.sqOf[bits.TrailingZeros64(to)],
				Promotes: from&kings == 0 && m.kd != 0,
			})
		}
	}
	clear(g.api)
	g.api = g.api[:0]
	bbGenPool.Put(g)
	return out, true
}

// bbPerft is the fastPerftHook.
func bbPerft(p *Position, depth int, keep bool) (uint64, bool) {
	geo := bbGeoFor(p.v)
	if geo == nil {
		return 0, false
	}
	if depth <= 0 {
		if depth == 0 {
			return 1, true
		}
		return 0, true
	}
	if depth > maxFastPerftDepth {
		// Its move stack would be sized by the depth; such a search cannot
		// finish anyway unless the tree ends early, which the reference finds.
		return 0, false
	}
	g := &bbGen{}
	g.reset(p.v, geo, keep)
	// one backing array for every ply's moves: the search itself does not
	// allocate (a ply that outgrows its share reallocates only itself)
	const perPly = 128
	backing := make([]bmove, (depth+1)*perPly)
	g.stack = make([][]bmove, depth+1)
	for i := range g.stack {
		g.stack[i] = backing[i*perPly : i*perPly : (i+1)*perPly]
	}
	own, opp, kings := geo.sides(p)
	if g.breakthrough {
		return g.perftBT(own, opp, kings, p.turn == White, depth, 0), true
	}
	return g.perft(own, opp, kings, p.turn == White, depth, 0), true
}

// maxFastPerftDepth bounds the depths the bitboard perft preallocates for.
const maxFastPerftDepth = 512

func init() {
	fastMovesHook = bbLegal
	fastPerftHook = bbPerft
}
