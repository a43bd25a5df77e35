package pdn

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Status is the verdict of an audit on one game.
type Status uint8

// Audit verdicts.
const (
	OK         Status = iota // every move of the main line is legal
	Illegal                  // a move cannot be played (illegal, ambiguous or unreadable text)
	Unreadable               // the record itself is malformed: syntax, FEN tag, GameType
)

func (s Status) String() string {
	switch s {
	case OK:
		return "ok"
	case Illegal:
		return "illegal"
	}
	return "unreadable"
}

// Report is the audit of one game.
type Report struct {
	Number, Line int       // game number in its file and the line where it starts
	Game         *Game     // only its tags when the game could not be read (nil: not even those)
	Replayed     *Replayed // the moves played (up to the first problem); nil if none could be
	Status       Status
	Err          error // *ParseError, *MoveError, or a FEN or GameType error; nil when OK
	// Note is advice on the game that does not change Status: a result that
	// the final position contradicts, a variation that cannot be played, what
	// the FEN tag was read as (Replayed.Notes).
	Note string
	// Variant is the rules the game was replayed under (nil when the tags
	// name none that exists).
	Variant *rules.Variant
	// Decided says how the moves chose Variant for a game without a
	// GameType tag (Choice.Reason); empty when a tag or the fallback did.
	Decided string
	// TagLine is the line of the tag an unreadable game's Err is about
	// (its GameType or FEN tag); 0 when unknown or not a tag's fault.
	TagLine int
}

// String is the one-line verdict a person reads, e.g.
//
//	game 3 (White: Wyllie, J., Black: Anderson, A.): illegal move 12... 15x24 (line 57): FEN B:W...:B... legal moves: 9-13, 10-14
func (rep Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "game %d", rep.Number)
	if rep.Game != nil {
		b.WriteString(rep.Game.who(rep.Status != OK))
	}
	b.WriteString(": ")
	switch {
	case rep.Status == OK:
		b.WriteString("ok")
	case rep.Status == Unreadable:
		var pe *ParseError
		if errors.As(rep.Err, &pe) {
			// The file name is already in front of the line; say where and what.
			fmt.Fprintf(&b, "unreadable at line %d", pe.Line)
			if pe.Move > 0 {
				fmt.Fprintf(&b, " (move %d)", pe.Move)
			}
			if pe.Text != "" {
				fmt.Fprintf(&b, " near %q", pe.Text)
			}
			fmt.Fprintf(&b, ": %v", pe.Err)
		} else if rep.TagLine > 0 {
			fmt.Fprintf(&b, "unreadable at line %d: %v", rep.TagLine, rep.Err)
		} else {
			fmt.Fprintf(&b, "unreadable (game at line %d): %v", rep.Line, rep.Err)
		}
	default:
		b.WriteString(rep.Err.Error())
	}
	if rep.Status != Unreadable {
		if rep.Note != "" {
			fmt.Fprintf(&b, " (note: %s)", rep.Note)
		}
		if rep.Decided != "" {
			fmt.Fprintf(&b, " (variant: %s (%s))", rep.Variant.Name(), rep.Decided)
		}
	}
	return oneLine(b.String())
}

// who names the game for a person looking for it in the file: its players
// and, for a game with a problem, the Event and Round it has, since a file
// of hundreds of games often has the same players many times, e.g.
// " (White: Wyllie, J., Black: Anderson, A., Event: Match 1876, Round: 3)".
// Italian records write the players in Italian tags (Bianco, Nero: the
// Campionato Assoluto files of wiegerw/pdn), and American checkers ones
// call the side that moves first Red ([Red "Ada"], as checkers programs
// export it); they stand in for White and Black.
func (g *Game) who(problem bool) string {
	white, black := g.Tag("White"), g.Tag("Black")
	if strings.TrimSpace(white+black) == "" {
		white, black = g.Tag("Bianco"), g.Tag("Nero")
	}
	if strings.TrimSpace(black) == "" {
		black = g.Tag("Red")
	}
	s := fmt.Sprintf(" (White: %s, Black: %s", orUnknown(white), orUnknown(black))
	for _, name := range []string{"Event", "Round"} {
		if v := strings.TrimSpace(g.Tag(name)); problem && v != "" && v != "?" && v != "-" {
			s += fmt.Sprintf(", %s: %s", name, v)
		}
	}
	if problem && len(g.Tags) == 0 && g.Number > 1 {
		// Move text after a game's result with no tags of its own (a
		// problem's second solution in wiegerw/pdn's Cat.C1.pdn) is a game
		// from the start position to a PDN reader: say so, or its first
		// move looks like nonsense.
		s += ", no tags: the moves after the previous game's result, read as a game from the start position"
	}
	return s + ")"
}

func orUnknown(s string) string {
	if strings.TrimSpace(s) == "" {
		return "?"
	}
	return s
}

// oneLine keeps a report on one line whatever the tags contain.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// Check audits one game: it picks the variant (VariantOf, with fallback for
// a game whose tags name none; without one the moves decide, and
// Report.Decided says how) and replays the main line, then the variations
// (a wrong one is a Note).
func Check(g *Game, fallback *rules.Variant) Report {
	rep := Report{Number: g.Number, Line: g.Line, Game: g}
	v, err := tagVariant(g)
	if err != nil {
		rep.Status, rep.Err, rep.TagLine = Unreadable, err, g.tagLine("GameType")
		return rep
	}
	if v == nil {
		v = fallback
	}
	if v != nil {
		rep.Replayed, err = Replay(g, v)
	} else {
		c := ByMoves(g)
		v, rep.Replayed, err, rep.Decided = c.Variant, c.Replayed, c.Err, c.Reason
	}
	rep.Variant = v
	var me *MoveError
	switch {
	case err == nil:
		rep.Status = OK
		rep.Note = joinNotes(strings.Join(rep.Replayed.Notes, "; "), joinNotes(joinNotes(scoreNote(g), resultTagNote(g)),
			joinNotes(resultNote(g, rep.Replayed.Final()), variationNote(g.Moves, rep.Replayed.Positions))))
	case errors.As(err, &me):
		rep.Status, rep.Err = Illegal, err
		rep.Note = strings.Join(rep.Replayed.Notes, "; ")
	default: // the FEN tag: nothing else stops a replay before its moves
		rep.Status, rep.Err, rep.TagLine = Unreadable, err, g.tagLine("FEN")
	}
	return rep
}

// resultNote checks the recorded result against a final position in which
// the side to move has no legal move: the rules decide that game, so a
// result saying otherwise is worth an arbiter's look. Games that end by
// resignation, agreement or time (the usual case) are not judged.
func resultNote(g *Game, final rules.Position) string {
	o := final.Outcome()
	if o == rules.Ongoing {
		return ""
	}
	// The sides are named as the referee names them ("White", "Black"),
	// also inside a sentence.
	want := rules.White.Name()
	if o == rules.BlackWins {
		want = rules.Black.Name()
	}
	var got string
	res, _, _ := rules.ParseResult(g.Result)
	switch res {
	case rules.WhiteWins:
		got = rules.White.Name()
	case rules.BlackWins:
		got = rules.Black.Name()
	case rules.Draw:
		got = "a draw"
	default:
		return "" // unfinished, double forfeit or unknown: nothing to contradict
	}
	if got == want {
		return ""
	}
	if final.Variant().BackRowWins() {
		_, why := final.EndReason()
		return fmt.Sprintf("the result %s gives %s, but in the final position %s", strings.TrimSpace(g.Result), resultWho(got), why)
	}
	why := final.NoMoveWhy()
	if final.Variant().Losing() {
		why += " and so wins"
	}
	return fmt.Sprintf("the result %s gives %s, but in the final position %s %s: %s wins",
		strings.TrimSpace(g.Result), resultWho(got), final.Turn().Name(), why, want)
}

// scoreNote names a result that is no PDN result (a Dambase score such as
// "4-6", an unfinished game's "-", see isTagScore): the arbiter cannot tell
// who won from it.
func scoreNote(g *Game) string {
	if _, _, err := rules.ParseResult(g.Result); err == nil {
		return ""
	}
	return fmt.Sprintf("the result %s is not a PDN result (2-0, 1-1, 0-2, 1-0, 1/2-1/2, 0-1, 0-0, *): who won is not checked", strings.TrimSpace(g.Result))
}

// resultTagNote compares the Result tag with the result that ends the game
// text: a record whose two say different things (the tag 2-0, the text 0-2)
// does not say who won. The scoring style does not matter (1-0 is 2-0), and
// an unfinished "*" on either side contradicts nothing.
func resultTagNote(g *Game) string {
	tag := g.Tag("Result")
	t, _, err1 := rules.ParseResult(tag)
	e, _, err2 := rules.ParseResult(g.Result)
	if err1 != nil || err2 != nil || t == rules.Ongoing || e == rules.Ongoing || t == e {
		return ""
	}
	return fmt.Sprintf("the Result tag says %s but the game text ends %s", strings.TrimSpace(tag), strings.TrimSpace(g.Result))
}

// variationNote replays every variation (and the variations inside them)
// from the position before the move it replaces, and names the first move
// there that cannot be played. Analysis is not the game: a wrong variation
// is worth a note to the arbiter, not a verdict on the game.
func variationNote(moves []Move, positions []rules.Position) string {
	for i, m := range moves {
		for _, line := range m.Variations {
			if len(line) == 0 {
				continue
			}
			rep, err := replayFrom(&Game{Moves: line}, positions[i])
			if err != nil {
				return fmt.Sprintf("in the variation on %s %s: %v", label(moves, i), m.Text, err)
			}
			if note := variationNote(line, rep.Positions); note != "" {
				return note
			}
		}
	}
	return ""
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

func resultWho(got string) string {
	if got == "a draw" {
		return got
	}
	return "the game to " + got
}

// Audit reads every game from r and calls fn with the verdict on each, in
// order, playing games whose tags name no variant under fallback (nil: the
// moves decide). This is `arbiter check` for one file. It returns an error only when
// reading stops early (an I/O error); malformed games are reported to fn.
func Audit(r io.Reader, file string, fallback *rules.Variant, fn func(Report)) error {
	return AuditReader(NewReader(r, file), fallback, fn)
}

// AuditReader is Audit on a Reader the caller made (to set its encoding,
// or to ask it afterwards which encoding it read the file in).
func AuditReader(pr *Reader, fallback *rules.Variant, fn func(Report)) error {
	for {
		g, err := pr.Next()
		if err == io.EOF {
			return nil
		}
		var pe *ParseError
		switch {
		case errors.As(err, &pe):
			rep := Report{Number: pe.Game, Line: pe.Line, Status: Unreadable, Err: err}
			if len(pe.Tags) > 0 { // the players and event name the game
				rep.Game = &Game{Tags: pe.Tags, Number: pe.Game}
			}
			fn(rep)
		case err != nil:
			return err
		default:
			fn(Check(g, fallback))
		}
	}
}
