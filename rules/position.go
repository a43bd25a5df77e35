package rules

import "sync/atomic"

// Kind is the kind of a piece.
type Kind uint8

// Piece kinds.
const (
	Man Kind = iota
	King
)

// Position is a board position with the side to move. It is an immutable value:
// Play returns a new Position. Positions of the same variant compare with ==
// exactly when their placement, side to move and state beyond the board
// (Frisian's king-move count, Alquerque's no-return point, Parachute's
// parachutists) agree, which is the identity that repetition rules use.
type Position struct {
	v            *Variant
	white, black Set
	kings        Set
	turn         Color
	// st is, by colour, the state beyond the board that the rules keep
	// (Frisian's king moves, Alquerque's no-return); zero elsewhere.
	st [2]sideState
	// para holds the parachutists (Parachute), a third kind of piece
	// among the men of white and black.
	para Set
}

// HasHiddenState reports whether p holds state beyond the board (Frisian's
// king-move count, Alquerque's no-return point): a text of the board alone
// (a Hub position string) does not give p, the moves that led to it do.
func (p Position) HasHiddenState() bool { return p.st != [2]sideState{} || !p.para.Empty() }

// WithStartState returns the variant's start position when p has its
// board and side to move and the start holds state beyond the board
// (Parachute's parachutists), else p: a text of the board alone (Hub, DXP)
// means the start there.
func (p Position) WithStartState() Position {
	st := p.v.start
	if st.HasHiddenState() && !p.HasHiddenState() && p.white == st.white && p.black == st.black && p.kings == st.kings && p.turn == st.turn {
		return st
	}
	return p
}

// Parachutists returns the squares holding parachutists (Parachute's third
// kind of piece, counted among the men).
func (p Position) Parachutists() Set { return p.para }

// sideState is a side's state beyond the board. Under KingMoveLimit: the
// king on sq has made n plain moves in a row (n == 0: none). Under
// NoReturn: the piece on sq came from from on the side's last move.
type sideState struct {
	sq, from Square
	n        uint8
}

// NewPosition returns the starting position of v.
func NewPosition(v *Variant) Position {
	v.mustBeReady()
	return v.start
}

// defaultStart is RowsOfMen rows of men each, the first player to move.
func (v *Variant) defaultStart() Position {
	p := Position{v: v, turn: v.p.FirstPlayer}
	n := v.p.RowsOfMen * v.geo.n / v.p.Board.Height
	for i := 1; i <= n; i++ {
		p.black = p.black.With(Square(i))
		p.white = p.white.With(Square(v.geo.n + 1 - i))
	}
	return p
}

// Setup builds a position from piece sets. It does not check that the sets
// are disjoint; FEN parsing does.
func Setup(v *Variant, turn Color, white, black, kings Set) Position {
	return Position{v: v, white: white, black: black, kings: kings.Intersect(white.Union(black)), turn: turn}
}

// Variant returns the rules the position is played under.
func (p Position) Variant() *Variant { return p.v }

// Turn returns the side to move.
func (p Position) Turn() Color { return p.turn }

// Pieces returns the squares holding pieces of colour c.
func (p Position) Pieces(c Color) Set {
	if c == White {
		return p.white
	}
	return p.black
}

// Kings returns the squares holding kings of either colour.
func (p Position) Kings() Set { return p.kings }

// Occupied returns all squares holding a piece.
func (p Position) Occupied() Set { return p.white.Union(p.black) }

// Piece returns the piece on sq, if any.
func (p Position) Piece(sq Square) (c Color, k Kind, ok bool) {
	switch {
	case p.white.Has(sq):
		c = White
	case p.black.Has(sq):
		c = Black
	default:
		return 0, 0, false
	}
	if p.kings.Has(sq) {
		k = King
	}
	return c, k, true
}

// WithTurn returns the same placement with another side to move.
func (p Position) WithTurn(c Color) Position { p.turn = c; return p }

// Play returns the position after m. It trusts m to come from LegalMoves (or
// a decoder that matched it against them): it does not check legality.
func (p Position) Play(m Move) Position {
	own, opp := &p.white, &p.black
	if p.turn == Black {
		own, opp = opp, own
	}
	king := p.kings.Has(m.From)
	if m.From == m.To && m.Captured.Empty() && p.v.p.OpeningRemovals {
		// Hawaii's opening: the piece leaves the board
		*own = own.Without(m.From)
		p.turn = p.turn.Opponent()
		return p
	}
	*own = own.Without(m.From).With(m.To)
	*opp = opp.Minus(m.Captured)
	p.kings = p.kings.Without(m.From).Minus(m.Captured)
	if king || m.Promotes {
		p.kings = p.kings.With(m.To)
	}
	if p.v.grid {
		// A parachutist that jumps lands as a man.
		p.para = p.para.Without(m.From).Minus(m.Captured)
		p.playState(m, king)
	}
	p.turn = p.turn.Opponent()
	return p
}

// playState updates the state beyond the board for m, played by the side
// to move (king: the piece moved is a king).
func (p *Position) playState(m Move, king bool) {
	c := p.turn
	switch {
	case p.v.p.KingMoveLimit > 0:
		st := &p.st[c]
		if king && !m.IsCapture() {
			if st.n > 0 && st.sq == m.From {
				// The count stops at the limit (a side of kings only
				// moves on): past it nothing changes.
				st.n = min(st.n+1, p.v.p.KingMoveLimit)
			} else {
				st.n = 1
			}
			st.sq = m.To
		} else {
			*st = sideState{}
		}
		// A king of the opponent's count that was taken counts no more.
		if o := &p.st[c.Opponent()]; o.n > 0 && m.Captured.Has(o.sq) {
			*o = sideState{}
		}
	case p.v.p.NoReturn:
		p.st[c] = sideState{sq: m.To, from: m.From}
		// The opponent's piece that was taken, or whose point was taken,
		// has no way back to forbid.
		if o := &p.st[c.Opponent()]; o.sq != 0 && (m.Captured.Has(o.sq) || o.from == m.To) {
			*o = sideState{}
		}
	}
}

// Move is a move: From, To and the set of captured squares identify it. Path
// is one capture path (the landing squares after From, ending with To); a
// plain move has Path == nil. Promotes says the moving man is crowned.
type Move struct {
	From, To Square
	Captured Set
	Path     []Square
	Promotes bool
}

// BoardMove is the move squares describe on the board, legal or not (the
// squares of a move's text, rules.MoveSquares): from the first to the last,
// taking the opposing pieces that stand between two consecutive squares on
// one diagonal; a man that ends where its side crowns is crowned. An
// irregular move that the opponent lets stand (FMJD) is played so, by the
// referee that saw it and by the audit of its record. Fewer than two
// squares describe no move: the zero Move.
func (p Position) BoardMove(sqs []Square) Move {
	if len(sqs) < 2 {
		return Move{}
	}
	m := Move{From: sqs[0], To: sqs[len(sqs)-1]}
	if c, k, ok := p.Piece(m.From); ok && k == Man {
		m.Promotes = p.v.Crowns(c, m.To)
	}
	opp := p.Pieces(p.turn.Opponent())
	for i := 0; i+1 < len(sqs); i++ {
		r0, c0 := p.v.RowCol(sqs[i])
		r1, c1 := p.v.RowCol(sqs[i+1])
		dr, dc := r1-r0, c1-c0
		if dr == 0 || dr != dc && dr != -dc {
			continue
		}
		for sq := range opp.All() {
			r, c := p.v.RowCol(sq)
			// strictly between: r0 < r < r1 (or r1 < r < r0), on the line
			if k := r - r0; k*dr > 0 && k*k < dr*dr && (c-c0)*dr == k*dc {
				m.Captured = m.Captured.With(sq)
			}
		}
	}
	return m
}

// IsCapture reports whether m captures anything.
func (m Move) IsCapture() bool { return !m.Captured.Empty() }

// Same reports whether m and o are the same move (same from, to and captured set).
func (m Move) Same(o Move) bool {
	return m.From == o.From && m.To == o.To && m.Captured == o.Captured
}

// Outcome tells whether the game is over, the side to move having no legal
// move, and who wins then (Variant.NoMoveOutcome; in Breakthrough the side
// that crowned a man); Ongoing while it has one. EndReason adds why.
func (p Position) Outcome() Outcome {
	if p.HasMoves() {
		return Ongoing
	}
	if c, _, ok := p.backRowWinner(); ok {
		return WinFor(c)
	}
	return p.v.NoMoveOutcome(p.turn)
}

// HasMoves reports whether the side to move has a legal move.
func (p Position) HasMoves() bool {
	if p.finished() {
		return false
	}
	if has, decided := p.hasMovesFast(); decided {
		return has
	}
	return len(p.LegalMoves()) > 0
}

// hasMovesFast answers HasMoves with the bitboard generator's counters,
// without generating: a plain move or a capture by a man or a short king
// settles it. decided is false when only the full generation can tell
// (flying kings that may or may not capture, or no bitboard layout).
func (p Position) hasMovesFast() (has, decided bool) {
	if fastMovesHook == nil {
		return false, false
	}
	geo := geoOf(p.v)
	if geo == nil {
		return false, false
	}
	g := p.quietGen(geo)
	own, opp, kings := geo.sides(&p)
	white := p.turn == White
	if g.countQuiet(own, opp, kings, white) > 0 {
		return true, true
	}
	c := g.capturers(own, opp, kings, white)
	if c == 0 {
		return false, true
	}
	if !g.flying || c&^kings != 0 {
		// capturers is exact for men and short kings.
		return true, true
	}
	return false, false
}

// quietGen is a generator set up just enough for capturers, quiet and
// countQuiet.
func (p Position) quietGen(geo *bbGeo) bbGen {
	return bbGen{bbGeo: geo, flying: p.v.p.Kings != ShortKings, menBack: p.v.p.MenCaptureBackward, menCapKings: p.v.p.MenCaptureKings,
		promo: promoBits(p.v, geo)}
}

// Find returns the legal move with the given identity.
func (p Position) Find(from, to Square, captured Set) (Move, bool) {
	m, _, ok := p.findLegal(from, to, captured)
	return m, ok
}

// findLegal is Find that also returns the legal moves when it generated
// them (nil when the quiet-move shortcut answered).
func (p Position) findLegal(from, to Square, captured Set) (Move, []Move, bool) {
	if p.finished() {
		return Move{}, nil, false
	}
	if m, ok, decided := p.findQuiet(from, to, captured); decided {
		return m, nil, ok
	}
	legal := p.LegalMoves()
	for _, m := range legal {
		if m.From == from && m.To == to && m.Captured == captured {
			return m, legal, true
		}
	}
	return Move{}, legal, false
}

// findQuiet is Find without generating every legal move, for positions in
// which the bitboard generator sees no capture at all (the usual case):
// then only a plain move can be legal, and it is looked for among the plain
// moves of the one piece on from, with the generator's own code. decided is
// false when the answer needs the full generation (a capture may exist, or
// the board has no bitboard layout); the move returned is the one
// LegalMoves would list.
func (p Position) findQuiet(from, to Square, captured Set) (m Move, ok, decided bool) {
	if fastMovesHook == nil {
		return Move{}, false, false
	}
	geo := geoOf(p.v)
	if geo == nil {
		return Move{}, false, false
	}
	g := p.quietGen(geo)
	own, opp, kings := geo.sides(&p)
	white := p.turn == White
	if g.capturers(own, opp, kings, white) != 0 {
		return Move{}, false, false
	}
	// No capture anywhere: a capture is not legal, nor a move of a square
	// that holds no piece of the side to move.
	n := p.v.geo.n
	if !captured.Empty() || from < 1 || int(from) > n || to < 1 || int(to) > n {
		return Move{}, false, true
	}
	fb, tb := uint64(1)<<geo.bitOf[from], uint64(1)<<geo.bitOf[to]
	if own&fb == 0 {
		return Move{}, false, true
	}
	var buf [32]bmove
	for _, q := range g.quiet(buf[:0], fb, (own|opp)&^fb, kings, white) {
		if q.ft == fb|tb {
			return Move{From: from, To: to, Promotes: fb&kings == 0 && q.kd != 0}, true, true
		}
	}
	return Move{}, false, true
}

// lastGeo remembers the bitboard geometry of the variant last asked for:
// the per-move shortcuts above would otherwise spend more time in
// bbGeoFor's sync.Map (hashing the Board) than in their own work.
var lastGeo atomic.Pointer[variantGeo]

type variantGeo struct {
	g   *geometry
	geo *bbGeo
}

// geoOf is bbGeoFor(v) through lastGeo (keyed by the board geometry that
// bbGeoFor builds from).
func geoOf(v *Variant) *bbGeo {
	if v == nil || v.geo == nil || v.noBitboards {
		return nil
	}
	if c := lastGeo.Load(); c != nil && c.g == v.geo {
		return c.geo
	}
	geo := bbGeoFor(v)
	lastGeo.Store(&variantGeo{v.geo, geo})
	return geo
}
