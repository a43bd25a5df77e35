package arbiter

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Evidence is what a draw claim was judged on, for the arbiter and the
// players: "documented for the arbiter" (WCDF). It is built only when a
// claim is made or a draw declared, never per move.
//
// Move numbers are PDN's: "12." is the 12th move of the side that moves
// first in the variant (black in English, white in international) and
// "12..." the reply, counted from 1 at the start of the record.
type Evidence struct {
	Kind  Termination
	Valid bool
	// Move is the claimed move (a claim before the move), "" for a claim
	// in the position on the board.
	Move string

	// Threefold repetition: where the position occurred since the last
	// irreversible move, in order. With a claimed move the last entry is
	// that move (Ply = the number of moves played before it). A move that
	// is itself irreversible leaves only its own entry.
	Occurred []MovePoint
	// Since is, for threefold, the last irreversible move (a capture or a
	// man move) before the occurrences; Ply -1 when there is none since
	// the start of the record.
	Since MovePoint

	// Window is the count of the N-move rule or an endgame rule.
	Window *Window

	// Material is, for the one-piece-each draw, the pieces on the board
	// (after the claimed move): "white: king d4; black: man e5", or how
	// many each side has when there are more.
	Material string

	// Problem is why the claim could not be judged on the moves (a rule
	// the variant lacks, a claim by the wrong side); "" otherwise.
	Problem string

	// Article is the article of the federation's rulebook that the draw
	// rule stands in (DrawArticle), zero where none is cited; Cited adds
	// it to String.
	Article Article
}

// MovePoint names one move of a game.
type MovePoint struct {
	Ply   int    // index of the move in Record.Moves; -1 = the start of the record
	Label string // its PDN move number, "12." or "12..."; "" at the start
	Text  string // the move in PDN, "22x13"; "" at the start
}

// String is "12... 22x13", "12..." when the text is unknown, or "the start".
func (p MovePoint) String() string {
	switch {
	case p.Ply < 0:
		return "the start"
	case p.Text == "":
		return p.Label
	}
	return p.Label + " " + p.Text
}

// Window is the run of moves an N-move or endgame rule counts.
type Window struct {
	// Rule says what keeps the count running: "with no uncrowned man
	// advanced and no capture", "with only kings moving and no capture",
	// "in this endgame".
	Rule string
	// First is the first move of the window (Ply = len(Record.Moves) and
	// no text when the window is empty).
	First MovePoint
	// Counted is the number of moves (plies) counted so far, the claimed
	// move included; Needed is 2N, both players' moves; Moves is N.
	Counted, Needed, Moves int
	// Broken is the move just before the window, which ended the previous
	// count (Ply -1: the count runs from the start of the record), and
	// BrokenWhy says why it did: "was a capture", "a man moved", "an
	// uncrowned man advanced", "brought about this endgame".
	Broken    MovePoint
	BrokenWhy string
}

// String says how often the position occurred or how far the count has
// come, and why the claim holds or not, in English.
func (e Evidence) String() string {
	if e.Problem != "" {
		return e.Problem
	}
	if e.Window != nil {
		return e.windowString()
	}
	if e.Kind == DrawOnePieceEach {
		switch {
		case e.Valid && e.Move != "":
			return "with " + e.Move + " each side has one piece left (" + e.Material + ")"
		case e.Valid:
			return "each side has one piece left (" + e.Material + ")"
		case e.Move != "":
			return "with " + e.Move + " the sides would not have one piece each (" + e.Material + ")"
		}
		return "the sides do not have one piece each (" + e.Material + ")"
	}
	if e.Kind == DrawAgreement {
		if e.Valid {
			return "the players agreed a draw"
		}
		return "the opponent did not agree to a draw"
	}
	if e.Kind != DrawThreefold {
		return ""
	}
	var b strings.Builder
	n := len(e.Occurred)
	switch {
	case e.Valid && e.Move != "":
		fmt.Fprintf(&b, "with %s the position occurs for the %s time", e.Move, ordinal(n))
	case e.Valid:
		fmt.Fprintf(&b, "the position occurs for the %s time", ordinal(n))
	case e.Move != "":
		fmt.Fprintf(&b, "with %s the position would occur %s", e.Move, times(n))
	default:
		fmt.Fprintf(&b, "the position has occurred %s", times(n))
	}
	b.WriteString(", ")
	b.WriteString(e.occurrences())
	switch {
	case e.Since.Ply >= 0:
		fmt.Fprintf(&b, ", since %s (the last man move or capture)", e.Since)
	case n != 1 || e.Occurred[0].Ply >= 0: // "at the start" alone says it
		b.WriteString(", since the start of the record")
	}
	switch {
	case e.Valid:
	case n == 2:
		b.WriteString("; a third time is needed")
	default:
		b.WriteString("; three times are needed")
	}
	return b.String()
}

// occurrences lists where the position stood: "at the start and at moves
// 2... and 4...".
func (e Evidence) occurrences() string {
	var b strings.Builder
	labels := make([]string, 0, len(e.Occurred))
	for i, p := range e.Occurred {
		switch {
		case p.Ply < 0:
			b.WriteString("at the start")
		case e.Move != "" && i == len(e.Occurred)-1:
			labels = append(labels, p.Label+" (the claimed move "+e.Move+")")
		default:
			labels = append(labels, p.Label)
		}
	}
	if len(labels) > 0 {
		if b.Len() > 0 {
			b.WriteString(" and ")
		}
		b.WriteString("at move")
		if len(labels) > 1 {
			b.WriteString("s")
		}
		b.WriteString(" " + joinAnd(labels))
	}
	return b.String()
}

func (e Evidence) windowString() string {
	w := e.Window
	var b strings.Builder
	if e.Valid {
		fmt.Fprintf(&b, "each player has made %d moves %s: %d of the %d moves needed", w.Moves, w.Rule, w.Counted, w.Needed)
	} else {
		fmt.Fprintf(&b, "%d of the %d moves (%d each) needed have been played %s", w.Counted, w.Needed, w.Moves, w.Rule)
		if e.Move != "" {
			b.WriteString(", the claimed move " + e.Move + " included")
		}
	}
	if w.Counted > 0 {
		fmt.Fprintf(&b, ", counted from %s", w.First)
	}
	switch {
	case e.Move != "" && w.Counted == 0: // the claimed move broke the count
		fmt.Fprintf(&b, "; the claimed move %s %s, which restarts the count", e.Move, present(w.BrokenWhy))
	case w.Broken.Ply >= 0:
		fmt.Fprintf(&b, " (%s %s)", w.Broken, w.BrokenWhy)
	default:
		b.WriteString(" (since the start of the record)")
	}
	return b.String()
}

// present turns "was a capture" into "is a capture" for the claimed move.
func present(why string) string {
	if rest, ok := strings.CutPrefix(why, "was "); ok {
		return "is " + rest
	}
	return why
}

func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return strconv.Itoa(n) + " times"
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// MoveLabel is the PDN move number of the move with index ply in a record
// starting from start: "1." for the first player's first move; a record
// whose start position has the other side to move begins "1...".
func MoveLabel(start rules.Position, ply int) string {
	num, second := moveNumber(start, ply)
	if second {
		return strconv.Itoa(num) + "..."
	}
	return strconv.Itoa(num) + "."
}

// moveNumber is MoveLabel's number and half.
func moveNumber(start rules.Position, ply int) (num int, second bool) {
	if start.Turn() != start.Variant().FirstPlayer() {
		return (ply+1)/2 + 1, ply%2 == 0
	}
	return ply/2 + 1, ply%2 == 1
}

// point names move i of the game so far (-1: the start).
func (r *Referee) point(i int) MovePoint {
	if i < 0 {
		return MovePoint{Ply: -1}
	}
	p := MovePoint{Ply: i, Label: MoveLabel(r.rec.Start, i)}
	if i < len(r.rec.Moves) {
		p.Text = r.rec.Moves[i].Text
	}
	return p
}

// threefoldEvidence lists where the position on the board (m == nil) or
// after m (text) occurred since the last irreversible move.
func (r *Referee) threefoldEvidence(m *rules.Move, text string) Evidence {
	e := Evidence{Kind: DrawThreefold, Move: text}
	target, from := r.pos, r.irrev
	n := len(r.moves)
	if m != nil {
		target = r.pos.Play(*m)
		if irreversible(r.pos, *m) {
			from = len(r.history) // nothing before the move counts
		}
	}
	for h := from; h < len(r.history); h++ {
		if r.history[h] == target {
			e.Occurred = append(e.Occurred, r.point(h-1))
		}
	}
	if m != nil {
		e.Occurred = append(e.Occurred, MovePoint{Ply: n, Label: MoveLabel(r.rec.Start, n), Text: text})
		if from == len(r.history) {
			e.Since = MovePoint{Ply: n, Label: MoveLabel(r.rec.Start, n), Text: text}
		} else {
			e.Since = r.point(from - 1)
		}
	} else {
		e.Since = r.point(from - 1)
	}
	e.Valid = len(e.Occurred) >= 3
	return e
}

// moveRuleEvidence is the window of the N-move rule, with m played when
// not nil.
func (r *Referee) moveRuleEvidence(kind Termination, m *rules.Move, text string) Evidence {
	t := &r.draws.moveRule
	e := Evidence{Kind: kind, Move: text}
	w := &Window{Rule: "with " + t.condition(), Needed: 2 * t.n, Moves: t.n, Counted: t.plies}
	n := len(r.moves)
	end := n // moves before the window's end
	brokenAt := n - t.plies - 1
	brokenWhy := ""
	if brokenAt >= 0 {
		brokenWhy = t.breakWhy(r.history[brokenAt], r.moves[brokenAt])
	}
	if m != nil {
		end = n + 1
		if t.counts(r.pos, *m) {
			w.Counted++
		} else {
			w.Counted = 0
			brokenAt, brokenWhy = n, t.breakWhy(r.pos, *m)
		}
	}
	w.First = MovePoint{Ply: end - w.Counted, Label: MoveLabel(r.rec.Start, end-w.Counted)}
	if w.First.Ply < n {
		w.First.Text = r.rec.Moves[w.First.Ply].Text
	} else if w.First.Ply == n && text != "" {
		w.First.Text = text
	}
	w.Broken, w.BrokenWhy = r.point(brokenAt), brokenWhy
	if brokenAt == n {
		w.Broken = MovePoint{Ply: n, Label: MoveLabel(r.rec.Start, n), Text: text}
	}
	e.Window = w
	e.Valid = t.n > 0 && w.Counted >= w.Needed
	return e
}

// breakWhy says why m, played in before, stops the N-move count.
func (t *moveRule) breakWhy(before rules.Position, m rules.Move) string {
	if m.IsCapture() {
		return "was a capture"
	}
	if t.kingsOnly {
		return "moved a man"
	}
	return "advanced an uncrowned man"
}

// endgameEvidence is the window of the 16- or 5-move endgame rule (kind)
// in the position on the board.
func (r *Referee) endgameEvidence(kind Termination) Evidence {
	eg := &r.draws.endgame
	moves, counted := 5, eg.plies
	if kind == Draw16Move {
		moves = 16
		if eg.plies16 >= 0 {
			counted = eg.plies16
		}
	}
	return r.windowEvidence(kind, moves, counted, "in this endgame")
}

// onePieceEvidence judges the one-piece-each draw in the position on the
// board, or after m (text) when m is not nil.
func (r *Referee) onePieceEvidence(m *rules.Move, text string) Evidence {
	p := r.pos
	if m != nil {
		p = p.Play(*m)
	}
	e := Evidence{Kind: DrawOnePieceEach, Move: text, Valid: onePieceEach(p)}
	v := p.Variant()
	side := func(c rules.Color) string {
		all := p.Pieces(c)
		if all.Len() != 1 {
			return fmt.Sprintf("%s: %d pieces", c, all.Len())
		}
		for sq := range all.All() {
			kind := "man"
			if p.Kings().Has(sq) {
				kind = "king"
			}
			return fmt.Sprintf("%s: %s %s", c, kind, v.SquareName(sq))
		}
		return ""
	}
	e.Material = side(rules.White) + "; " + side(rules.Black)
	return e
}

// kingsEvidence is the window of a few-kings rule (kind) in the position
// on the board.
func (r *Referee) kingsEvidence(kind Termination) Evidence {
	t := &r.draws.kings
	moves, rule := t.two, "with 2 kings against 1 king"
	if kind == DrawKingOneKing {
		moves, rule = t.one, "with 1 king against 1 king"
	}
	return r.windowEvidence(kind, moves, t.plies, rule)
}

// windowEvidence is the evidence of an endgame rule of moves moves each
// whose endgame arose counted plies ago.
func (r *Referee) windowEvidence(kind Termination, moves, counted int, rule string) Evidence {
	n := len(r.moves)
	w := &Window{Rule: rule, Needed: 2 * moves, Moves: moves, Counted: counted, BrokenWhy: "brought about this endgame"}
	w.First = r.point(n - counted)
	if n-counted >= n {
		w.First = MovePoint{Ply: n, Label: MoveLabel(r.rec.Start, n)}
	}
	w.Broken = r.point(n - counted - 1)
	return Evidence{Kind: kind, Window: w, Valid: counted >= w.Needed}
}
