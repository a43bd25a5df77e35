package pdn

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Replayed is a game played through on the board.
type Replayed struct {
	Variant *rules.Variant
	// Positions[0] is the start (the FEN tag, or the variant's start);
	// Positions[i+1] is the position after Moves[i].
	Positions []rules.Position
	Moves     []rules.Move
	// Notes says what the replay had to assume to read the FEN tag: the
	// side to move of a "?" FEN, men on their king row read as kings.
	Notes []string

	crowned int // men of the FEN read as kings
}

// Final is the position after the last move.
func (r *Replayed) Final() rules.Position { return r.Positions[len(r.Positions)-1] }

// MoveError is a move of the main line that cannot be played.
type MoveError struct {
	Index int    // index of the move in Game.Moves
	Label string // its move number as written: "12." or "12..."
	Text  string // the move text
	Line  int    // the line it was read from (0 if unknown)
	FEN   string // the position before the move (CompactFEN)
	// Legal lists the legal moves in that position, in PDN notation.
	Legal []string
	Err   error // wraps rules.ErrIllegal, rules.ErrAmbiguous or rules.ErrSyntax
	// Why names the rule an illegal move breaks, in the referee's words,
	// when the caller has explained it (arbiter.Explain; this package
	// knows the moves, not the referee's explanations). Empty: not said.
	Why string
}

func (e *MoveError) Error() string {
	kind := "illegal move"
	switch {
	case errors.Is(e.Err, rules.ErrAmbiguous):
		kind = "ambiguous move"
	case errors.Is(e.Err, rules.ErrSyntax):
		kind = "unreadable move"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", kind, e.Label, e.Text)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", e.Line)
	}
	if errors.Is(e.Err, rules.ErrSyntax) {
		fmt.Fprintf(&b, " [%v]", e.Err)
	}
	if e.Why != "" {
		fmt.Fprintf(&b, ": %s; FEN %s legal moves: ", e.Why, e.FEN)
	} else {
		fmt.Fprintf(&b, ": FEN %s legal moves: ", e.FEN)
	}
	if len(e.Legal) == 0 {
		b.WriteString("none (the game is over)")
	} else {
		b.WriteString(strings.Join(e.Legal, ", "))
	}
	return b.String()
}

func (e *MoveError) Unwrap() error { return e.Err }

// Replay plays the main line of g under v, from the FEN tag when there is one
// and from the start position otherwise. A move that cannot be played gives a
// *MoveError naming its number, its text, the position before it and the
// legal moves there; a bad FEN tag gives an error wrapping rules.ErrSyntax.
//
// The FEN tag is read as records write it (rules.ParseFENLenient), with a
// note in Replayed.Notes for each assumption: a man on its own king row is a
// king (problem collections write them so), and "?" as the side to move
// (PDN 3.0: unknown) is the side whose move the record shows, that is, the
// side under which the moves are legal (the move numbering decides when
// both are, "1..." being the second player's).
//
// A short move text that matches several legal moves (two capture paths to
// the same square over different pieces, written without the landing
// squares) is settled the way an arbiter reads a scoresheet: by the rest of
// the game. The reading under which the remaining moves are legal is taken;
// if several are, the single jump among them (rules.SingleJump: how a
// writer writes it), else the first, with a note naming the readings: no
// move is illegal whichever was played, the record only does not say which.
func Replay(g *Game, v *rules.Variant) (*Replayed, error) {
	fen := strings.TrimSpace(g.Tag("FEN"))
	if fen == "" {
		return replayFrom(g, rules.NewPosition(v))
	}
	s, err := rules.ParseFENLenient(v, fen)
	if err != nil {
		return nil, fmt.Errorf("FEN tag: %w", err)
	}
	var notes []string
	for _, c := range s.Crowned {
		notes = append(notes, fmt.Sprintf("FEN: the %s man on %s stands on its king row: read as a king", c.Color, v.SquareName(c.Square)))
	}
	if !s.UnknownTurn {
		rep, err := replayFrom(g, s.Position)
		rep.Notes, rep.crowned = append(notes, rep.Notes...), len(s.Crowned)
		return rep, err
	}
	first := v.FirstPlayer()
	if len(g.Moves) > 0 && g.Moves[0].Num > 0 && g.Moves[0].Second {
		first = first.Opponent()
	}
	p := s.Position
	var rep *Replayed
	var repErr error
	var why string
	for _, c := range []rules.Color{first, first.Opponent()} {
		r, err := replayFrom(g, rules.Setup(v, c, p.Pieces(rules.White), p.Pieces(rules.Black), p.Kings()))
		if rep == nil || repErr != nil && (err == nil || len(r.Moves) > len(rep.Moves)) {
			rep, repErr = r, err
		}
		if err == nil {
			break
		}
	}
	who := rep.Positions[0].Turn()
	switch {
	case len(g.Moves) == 0:
		why = fmt.Sprintf("no move shows it: %s, who moves first in %s", who, v.Name())
	case repErr == nil:
		why = fmt.Sprintf("%s, whose move is the first of the record (%s)", who, g.Moves[0].Text)
	default:
		why = fmt.Sprintf("%s, under whom the record goes furthest", who)
	}
	rep.Notes = append(append(notes, "FEN: side to move \"?\": "+why), rep.Notes...)
	rep.crowned = len(s.Crowned)
	return rep, repErr
}

// replayFrom plays g.Moves from p (a variation starts in the middle of a
// game).
func replayFrom(g *Game, p rules.Position) (*Replayed, error) {
	v := p.Variant()
	r := replayer{g: g, budget: replayBudget}
	moves, merr := r.from(p, 0)
	rep := &Replayed{Variant: v, Positions: make([]rules.Position, 1, len(moves)+1), Moves: moves}
	rep.Positions[0] = p
	for i := range len(moves) {
		if note, ok := r.notes[i]; ok {
			rep.Notes = append(rep.Notes, note)
		}
	}
	for i := 0; i <= len(moves) && i < len(g.Moves); i++ {
		if s := g.Moves[i].Setup; s != "" {
			if q, err := setupPosition(p, s); err == nil {
				p, rep.Positions[i] = q, q
				rep.Notes = append(rep.Notes, fmt.Sprintf("the board was set up before %s %s (/FEN \"%s\"/, line %d): checked on from that position",
					label(g.Moves, i), g.Moves[i].Text, s, g.Moves[i].Line))
			}
		}
		if i < len(moves) {
			p = p.Play(moves[i])
			rep.Positions = append(rep.Positions, p)
		}
	}
	if merr != nil {
		return rep, merr
	}
	return rep, nil
}

// setupPosition is the position of a set-up in the move text (Move.Setup)
// under p's variant, read as the FEN tag is; "?" as the side to move is
// the side whose move it was, p's.
func setupPosition(p rules.Position, fen string) (rules.Position, error) {
	v := p.Variant()
	s, err := rules.ParseFENLenient(v, fen)
	if err != nil {
		return rules.Position{}, err
	}
	if s.UnknownTurn {
		q := s.Position
		return rules.Setup(v, p.Turn(), q.Pieces(rules.White), q.Pieces(rules.Black), q.Kings()), nil
	}
	return s.Position, nil
}

// replayBudget bounds the plies tried while settling ambiguous moves, so a
// record full of them cannot make the search explode.
const replayBudget = 1 << 16

type replayer struct {
	g      *Game
	budget int
	// notes are what the replay assumed to play a move, by index: an
	// irregular move let stand, an ambiguous move the rest of the game does
	// not settle. A branch tried and dropped leaves none (forget).
	notes map[int]string
}

func (r *replayer) note(i int, format string, a ...any) {
	if r.notes == nil {
		r.notes = map[int]string{}
	}
	r.notes[i] = fmt.Sprintf(format, a...)
}

// forget drops the notes on the moves after i: they were written while
// trying a reading of move i.
func (r *replayer) forget(i int) {
	for j := range r.notes {
		if j > i {
			delete(r.notes, j)
		}
	}
}

// from replays g.Moves[i:] from p. It returns the moves played and the
// first problem, if any.
func (r *replayer) from(p rules.Position, i int) ([]rules.Move, *MoveError) {
	var out []rules.Move
	for ; i < len(r.g.Moves); i++ {
		if s := r.g.Moves[i].Setup; s != "" {
			q, err := setupPosition(p, s)
			if err != nil {
				return out, r.moveError(p, i, fmt.Errorf("%w: the set-up before it, /FEN \"%s\"/: %v", rules.ErrSyntax, s, err))
			}
			p = q
		}
		text := r.g.Moves[i].Text
		cands, err := p.MatchMoves(text)
		if err == nil && len(cands) == 1 {
			r.budget--
			out = append(out, cands[0])
			p = p.Play(cands[0])
			continue
		}
		if err == nil && len(cands) > 1 {
			// Ambiguous (a short form a writer should have written long):
			// the reading the rest of the game fits, and where several do,
			// the one ParseMove takes (SingleJump), else the first, noted.
			var fitting []rules.Move
			var furthest []rules.Move
			var furthestErr *MoveError
			single, hasSingle := rules.SingleJump(cands)
			for _, c := range cands {
				if r.budget <= 0 {
					return out, r.moveError(p, i, fmt.Errorf("%w: %s matches %d legal moves; too many readings to try them all against the rest of the game", rules.ErrAmbiguous, text, len(cands)))
				}
				r.budget--
				r.forget(i)
				rest, e := r.from(p.Play(c), i+1)
				switch {
				case e == nil:
					fitting = append(fitting, c)
				case furthestErr == nil || e.Index > furthestErr.Index:
					furthest, furthestErr = append([]rules.Move{c}, rest...), e
				}
			}
			if len(fitting) == 0 {
				return append(out, furthest...), furthestErr
			}
			pick := fitting[0]
			for _, c := range fitting {
				if hasSingle && c.Same(single) && slices.Equal(c.Path, single.Path) {
					pick = c
				}
			}
			if len(fitting) > 1 && !(hasSingle && pick.Same(single)) {
				r.forget(i)
				r.note(i, "%s", bothFit(p, label(r.g.Moves, i), text, fitting, pick))
			}
			// Play the pick again: its notes, not the last reading tried's.
			r.forget(i)
			rest, e := r.from(p.Play(pick), i+1)
			if e != nil { // only when the budget ran out on the way
				return append(append(out, pick), rest...), e
			}
			return append(append(out, pick), rest...), nil
		}
		if m, ok := r.letStand(p, i); ok {
			r.note(i, "%s %s is illegal, and the record says it was let stand at the opponent's choice: played as written", label(r.g.Moves, i), text)
			r.budget--
			out = append(out, m)
			p = p.Play(m)
			continue
		}
		if err == nil { // no legal move: ParseMove says so in its words
			_, err = p.ParseMove(text)
		}
		return out, r.moveError(p, i, err)
	}
	return out, nil
}

// bothFit is the note on a short move that matches several captures, each
// legal and each fitting the rest of the game: no move of the record is
// illegal whichever was played, but the record does not say which
// (RULES.md section 7: the long form, listing the landing squares, is
// needed when the short form is ambiguous).
func bothFit(p rules.Position, label, text string, fitting []rules.Move, pick rules.Move) string {
	long := make([]string, len(fitting))
	for i, m := range fitting {
		long[i] = p.LongMoveText(m)
	}
	return fmt.Sprintf("%s %s can be read as %s, each legal and each fitting the rest of the game: "+
		"the record does not say which (the long form would); checked on as %s",
		label, text, strings.Join(long, " or "), p.LongMoveText(pick))
}

// letStand reads the arbiter's note before move i (arbiter.Record.PDN:
// `warning: white played "32x23", illegal: ...; let stand at the opponent's
// choice.`): an irregular move that the opponent accepted (FMJD, the
// opponent-decides policy), from which the game went on. It is played as
// the referee played it (Position.BoardMove, arbiter's geometric) when it
// is a move on the board: a piece of the side to move from the first
// square to an empty last one (or back to its own after a capture).
func (r *replayer) letStand(p rules.Position, i int) (rules.Move, bool) {
	note := r.g.Comment
	if i > 0 {
		note = r.g.Moves[i-1].Comment
	}
	text := r.g.Moves[i].Text
	k := strings.Index(note, " played "+strconv.Quote(text)+", illegal: ")
	if k < 0 {
		return rules.Move{}, false
	}
	note = note[k:]
	if end := strings.Index(note, "warning: "); end >= 0 {
		note = note[:end] // the next warning is about another attempt
	}
	if !strings.Contains(note, "; let stand at the opponent's choice.") {
		return rules.Move{}, false
	}
	sqs, err := rules.MoveSquares(p.Variant(), text)
	if err != nil || len(sqs) < 2 {
		return rules.Move{}, false
	}
	m := p.BoardMove(sqs)
	if c, _, ok := p.Piece(m.From); !ok || c != p.Turn() || m.To == m.From && !m.IsCapture() || m.To != m.From && p.Occupied().Has(m.To) {
		return rules.Move{}, false
	}
	return m, true
}

func (r *replayer) moveError(p rules.Position, i int, err error) *MoveError {
	gm := r.g.Moves[i]
	return &MoveError{Index: i, Label: label(r.g.Moves, i), Text: gm.Text, Line: gm.Line, FEN: CompactFEN(p), Legal: LegalTexts(p), Err: err}
}

// label is the move number of moves[i]: as read, or counted from the first
// numbered move for hand-built games.
func label(moves []Move, i int) string {
	if moves[i].Num > 0 {
		return moves[i].Label()
	}
	num, second := 1, false
	if moves[0].Num > 0 {
		num, second = moves[0].Num, moves[0].Second
	}
	num += (i + b2i(second)) / 2
	second = (i+b2i(second))%2 == 1
	return Move{Num: num, Second: second}.Label()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// LegalTexts lists the legal moves of p in PDN notation (the long form where
// the short one is ambiguous), ordered by from and to square.
func LegalTexts(p rules.Position) []string {
	ms := slices.Clone(p.LegalMoves()) // never reorder the generator's slice
	slices.SortStableFunc(ms, func(a, b rules.Move) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = p.MoveText(m)
	}
	return out
}

// CompactFEN writes the FEN of p with runs of three or more men on
// consecutive squares as ranges ("W:W31-50:B1-20"), which is easier on the
// eye in reports. Variants written algebraically, and positions with state
// beyond the board (its FEN fields), get the plain FEN.
func CompactFEN(p rules.Position) string {
	if p.Variant().Notation() == rules.Algebraic || p.HasHiddenState() {
		return p.FEN()
	}
	var b strings.Builder
	b.WriteByte(p.Turn().Letter())
	for _, c := range []rules.Color{rules.White, rules.Black} {
		b.WriteByte(':')
		b.WriteByte(c.Letter())
		sqs := p.Pieces(c).Squares()
		first := true
		for i := 0; i < len(sqs); {
			if !first {
				b.WriteByte(',')
			}
			first = false
			if p.Kings().Has(sqs[i]) {
				fmt.Fprintf(&b, "K%d", sqs[i])
				i++
				continue
			}
			j := i
			for j+1 < len(sqs) && sqs[j+1] == sqs[j]+1 && !p.Kings().Has(sqs[j+1]) {
				j++
			}
			if j-i >= 2 {
				fmt.Fprintf(&b, "%d-%d", sqs[i], sqs[j])
				i = j + 1
				continue
			}
			fmt.Fprintf(&b, "%d", sqs[i])
			i++
		}
	}
	return b.String()
}
