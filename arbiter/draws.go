package arbiter

import (
	"github.com/draughts-arbiter/arbiter/rules"
)

// The draw rules are small tracker values fed each move, after the
// fastchess DrawTracker: each knows one rule, is updated with the move and
// the positions around it, and answers whether its draw is due.

// irreversible reports whether m, played in before, can never be undone:
// a capture or a man move. Positions before it cannot occur again.
func irreversible(before rules.Position, m rules.Move) bool {
	if m.IsCapture() {
		return true
	}
	_, k, _ := before.Piece(m.From)
	return k == rules.Man
}

// repetition counts how often each position (placement + side to move)
// has occurred since the last irreversible move.
type repetition struct {
	seen map[rules.Position]int
	// keys are the positions in seen while there are at most maxKeys
	// (nil beyond): after the usual irreversible move, deleting the one
	// or two there costs less than clearing the whole table.
	keys []rules.Position
}

// maxKeys bounds repetition.keys.
const maxKeys = 8

func newRepetition(start rules.Position) repetition {
	// Room for maxKeys positions: most reversible stretches are that short
	// (a man's move clears the table); a longer one grows it. A room of 64
	// was 8 KB to allocate and clear at every game's start.
	t := repetition{seen: make(map[rules.Position]int, maxKeys), keys: make([]rules.Position, 0, maxKeys)}
	t.seen[start] = 1
	t.keys = append(t.keys, start)
	return t
}

// update records the position after m.
func (t *repetition) update(before rules.Position, m rules.Move, after rules.Position) {
	if irreversible(before, m) {
		if t.keys != nil {
			for _, k := range t.keys {
				delete(t.seen, k)
			}
			t.keys = t.keys[:0]
		} else {
			clear(t.seen)
			t.keys = make([]rules.Position, 0, maxKeys)
		}
	}
	n := len(t.seen)
	t.seen[after]++
	if t.keys != nil && len(t.seen) > n {
		if len(t.keys) == maxKeys {
			t.keys = nil // too many to delete one by one: clear
		} else {
			t.keys = append(t.keys, after)
		}
	}
}

// count returns how often p has occurred.
func (t *repetition) count(p rules.Position) int { return t.seen[p] }

// countAfter returns how often the position after m would have occurred
// if m were played in before.
func (t *repetition) countAfter(before rules.Position, m rules.Move) int {
	if irreversible(before, m) {
		return 1
	}
	return t.seen[before.Play(m)] + 1
}

// moveRule is the N-move rule. Under kingsOnly (FMJD 25-move rule) a move
// counts while only a king moves and nothing is captured; otherwise (WCDF
// 40-move rule) while no uncrowned man is advanced and nothing is captured.
// The draw is due when each player has made N such moves in a row: 2N plies.
type moveRule struct {
	v         *rules.Variant
	n         int
	kingsOnly bool
	plies     int // consecutive counting plies
}

// counts reports whether m, played in before, keeps the count running.
func (t *moveRule) counts(before rules.Position, m rules.Move) bool {
	if m.IsCapture() {
		return false
	}
	c, k, ok := before.Piece(m.From)
	if !ok || k == rules.King {
		return ok
	}
	if t.kingsOnly {
		return false
	}
	// A man that does not get nearer its king row has not advanced (only an
	// illegal move let stand, or a sideways-moving future variant, can do it).
	fromRow, _ := t.v.RowCol(m.From)
	toRow, _ := t.v.RowCol(m.To)
	if c == rules.White {
		return toRow >= fromRow
	}
	return toRow <= fromRow
}

func (t *moveRule) update(before rules.Position, m rules.Move) {
	if t.counts(before, m) {
		t.plies++
	} else {
		t.plies = 0
	}
}

func (t *moveRule) due() bool { return t.n > 0 && t.plies >= 2*t.n }

// dueAfter reports whether the rule would be due after m.
func (t *moveRule) dueAfter(before rules.Position, m rules.Move) bool {
	return t.n > 0 && t.counts(before, m) && t.plies+1 >= 2*t.n
}

func (t *moveRule) condition() string {
	if t.kingsOnly {
		return "only kings moving and no capture"
	}
	return "no uncrowned man advanced and no capture"
}

// material is the piece count of a position.
type material struct{ men, kings [2]int }

func materialOf(p rules.Position) material {
	var m material
	for c := rules.White; c <= rules.Black; c++ {
		all := p.Pieces(c)
		k := all.Intersect(p.Kings()).Len()
		m.kings[c], m.men[c] = k, all.Len()-k
	}
	return m
}

// endgameLimit returns the FMJD endgame rule that applies to m: 16 for 3
// kings, 2 kings + 1 man or 1 king + 2 men against a lone king; 5 for 2
// kings, king + man or a king against a lone king; 0 otherwise.
func endgameLimit(m material) int {
	lone := func(c rules.Color) bool { return m.kings[c] == 1 && m.men[c] == 0 }
	for c := rules.White; c <= rules.Black; c++ {
		o := c.Opponent()
		if !lone(o) || m.kings[c] < 1 {
			continue
		}
		switch [2]int{m.kings[c], m.men[c]} {
		case [2]int{3, 0}, [2]int{2, 1}, [2]int{1, 2}:
			return 16
		case [2]int{2, 0}, [2]int{1, 1}, [2]int{1, 0}:
			return 5
		}
	}
	return 0
}

// endgame is the FMJD 16- and 5-move endgame rule. A count starts when its
// endgame arises (a promotion inside the same endgame, 1 king + 2 men ->
// 2 kings + 1 man, starts nothing new). When a capture turns a 16-move
// endgame into a 5-move one, the 5-move count starts and the 16-move count
// goes on ("the maximum of 16 moves remains valid"): the draw comes at
// whichever limit is reached first.
type endgame struct {
	limit   int // the rule of the material on the board: 16, 5 or 0
	plies   int // plies since that rule's endgame arose
	plies16 int // plies since a 16-move endgame arose; -1 when none is running
}

func newEndgame(start rules.Position) endgame {
	t := endgame{limit: endgameLimit(materialOf(start)), plies16: -1}
	if t.limit == 16 {
		t.plies16 = 0
	}
	return t
}

func (t *endgame) update(after rules.Position) {
	limit := endgameLimit(materialOf(after))
	if t.plies16 >= 0 {
		t.plies16++
	}
	switch {
	case limit == 0:
		*t = endgame{plies16: -1}
	case limit == t.limit:
		t.plies++
	case limit == 16:
		*t = endgame{limit: 16}
	default: // a 5-move endgame arose; a running 16-move count goes on
		t.limit, t.plies = limit, 0
	}
}

// due16 reports whether the 16-move limit has been reached.
func (t *endgame) due16() bool { return t.plies16 >= 2*16 }

func (t *endgame) due() bool { return t.limit > 0 && t.plies >= 2*t.limit || t.due16() }

func (t *endgame) termination() Termination {
	if t.limit == 5 && !t.due16() {
		return Draw5Move
	}
	return Draw16Move
}

// moves is the number of moves each that the rule now due (or nearest) counts.
func (t *endgame) moves() int {
	if t.termination() == Draw16Move {
		return 16
	}
	return 5
}

// onePieceEach reports whether each side has exactly one piece (Turkish:
// a draw at once, king or man).
func onePieceEach(p rules.Position) bool {
	return p.Pieces(rules.White).Len() == 1 && p.Pieces(rules.Black).Len() == 1
}

// Kings endgames of the few-kings rules (Frisian).
const (
	noKingsEnd      = iota
	twoKingsOneKing // 2 kings against a lone king, no men
	kingOneKing     // a lone king each
)

// kingsEndgame is the Frisian few-kings rule: 2 kings against 1 king (no
// men) is drawn after `two` moves each (Frisian: 7), 1 king against 1 king
// after `one` (Frisian: 2); the count runs from the move that brought the
// material about (or the start). Disabled (both zero) it does nothing per
// move.
type kingsEndgame struct {
	two, one int // N of each rule in moves each; 0 = none
	kind     int // the endgame on the board: noKingsEnd, twoKingsOneKing, kingOneKing
	plies    int // plies since it arose
}

func newKingsEndgame(d rules.DrawRules, start rules.Position) kingsEndgame {
	t := kingsEndgame{two: d.TwoKingsOneKing, one: d.KingOneKing}
	t.kind = t.classify(start)
	return t
}

// classify names the endgame of p that one of t's rules counts.
func (t *kingsEndgame) classify(p rules.Position) int {
	w, b := p.Pieces(rules.White), p.Pieces(rules.Black)
	nw, nb := w.Len(), b.Len()
	if nw+nb > 3 || nw == 0 || nb == 0 {
		return noKingsEnd
	}
	if p.Kings().Len() != nw+nb { // a man on the board
		return noKingsEnd
	}
	switch {
	case nw+nb == 2 && t.one > 0:
		return kingOneKing
	case nw+nb == 3 && t.two > 0:
		return twoKingsOneKing
	}
	return noKingsEnd
}

func (t *kingsEndgame) update(after rules.Position) {
	if t.two == 0 && t.one == 0 {
		return
	}
	if k := t.classify(after); k != t.kind {
		t.kind, t.plies = k, 0
		return
	}
	if t.kind != noKingsEnd {
		t.plies++
	}
}

// moves is N of the rule of the endgame on the board (0 when none).
func (t *kingsEndgame) moves() int {
	switch t.kind {
	case twoKingsOneKing:
		return t.two
	case kingOneKing:
		return t.one
	}
	return 0
}

func (t *kingsEndgame) due() bool { return t.kind != noKingsEnd && t.plies >= 2*t.moves() }

func (t *kingsEndgame) termination() Termination {
	if t.kind == kingOneKing {
		return DrawKingOneKing
	}
	return DrawTwoKingsOneKing
}

// maxMoves adjudicates a draw after n moves each (2n plies); n == 0 never.
type maxMoves struct{ n, plies int }

func (t *maxMoves) update()   { t.plies++ }
func (t *maxMoves) due() bool { return t.n > 0 && t.plies >= 2*t.n }

// drawTrackers holds the draw rule trackers of one game.
type drawTrackers struct {
	rep      repetition
	moveRule moveRule
	endgame  endgame
	kings    kingsEndgame
	maxMoves maxMoves
}

func newDrawTrackers(v *rules.Variant, start rules.Position, max int) drawTrackers {
	return drawTrackers{
		rep:      newRepetition(start),
		moveRule: moveRule{v: v, n: v.Draws().MoveRule, kingsOnly: v.Draws().KingsOnly},
		endgame:  newEndgame(start),
		kings:    newKingsEndgame(v.Draws(), start),
		maxMoves: maxMoves{n: max},
	}
}

// update feeds one move to every tracker.
func (d *drawTrackers) update(before rules.Position, m rules.Move, after rules.Position) {
	d.rep.update(before, m, after)
	d.moveRule.update(before, m)
	d.endgame.update(after)
	d.kings.update(after)
	d.maxMoves.update()
}

// DrawKinds are the draw rules of v a claim may name: threefold
// repetition, then the N-move rule, the endgame rules and the few-piece
// rules the variant has.
func DrawKinds(v *rules.Variant) []Termination {
	d := v.Draws()
	kinds := []Termination{DrawThreefold}
	if d.MoveRule > 0 {
		kinds = append(kinds, MoveRuleTermination(d.MoveRule))
	}
	if d.EndgameRules {
		kinds = append(kinds, Draw16Move, Draw5Move)
	}
	if d.OnePieceEach {
		kinds = append(kinds, DrawOnePieceEach)
	}
	if d.TwoKingsOneKing > 0 {
		kinds = append(kinds, DrawTwoKingsOneKing)
	}
	if d.KingOneKing > 0 {
		kinds = append(kinds, DrawKingOneKing)
	}
	return kinds
}
