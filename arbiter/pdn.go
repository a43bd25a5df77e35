package arbiter

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// PDNTags are the tags of a game record that the referee does not know.
// Empty strings are written "?" (PDN's unknown); a zero Date "????.??.??".
type PDNTags struct {
	Event, Site, Round, White, Black string
	Date                             time.Time
	// Clock writes each side's remaining time after each of its moves as
	// a [%clock h:mm:ss] comment (timed games only).
	Clock bool
	// Notes are, per move (by ply index), a comment that comes first in
	// the move's comment: what the engine said of it (Annotation.String).
	Notes []string
}

// PDN builds the PDN record of the game: the tags (the seven-tag roster,
// GameType or Variant, FEN when not the start position, TimeControl, and
// Termination and PlyCount), the moves and, as comments, what the arbiter
// saw: warnings (with their explanation), claims (accepted or refused,
// with the evidence), the arbiter's decisions, the reason for the result
// and, with PDNTags.Clock, the clocks. It is the one builder of PDN from a
// game; `arbiter check` reads everything it writes.
//
// Each note stands after the move that led to the position in which it
// happened (before the first move: the game's opening comment), and an
// accepted claim made with a move after that move. Claims are written as a
// command followed by the evidence in words:
//
//	[%claim black threefold with 5-1 accepted] with 5-1 the position occurs ...
//	[%claim white 40-move refused auto] 79 of the 80 moves ...
//
// (see ParseClaims), clocks as [%clock 0:04:31] (the CheckerBoard/PGN
// convention).
func (rec Record) PDN(tags PDNTags) *pdn.Game {
	v := rec.Variant
	res := rec.Result
	pg := &pdn.Game{Result: res.PDN(v)}
	set := pg.SetTag
	set("Event", orUnknown(tags.Event))
	set("Site", orUnknown(tags.Site))
	if tags.Date.IsZero() {
		set("Date", "????.??.??")
	} else {
		set("Date", tags.Date.Format("2006.01.02"))
	}
	set("Round", orUnknown(tags.Round))
	set("White", orUnknown(tags.White))
	set("Black", orUnknown(tags.Black))
	set("Result", res.PDN(v))
	if gt := v.GameTypeTag(); gt != "" {
		set("GameType", gt)
	} else {
		// No PDN game type (antidraughts, giveaway, custom rules): name the
		// rules so a reader need not guess.
		set("Variant", v.Name())
	}
	if rec.Start != rules.NewPosition(v) {
		set("FEN", rec.Start.FEN())
	}
	tcs := rec.TimeControl
	if !tcs[0].Equal(tcs[1]) {
		// PDN has one TimeControl tag; different controls are written
		// white's first, and each side's in its own tag.
		set("WhiteTimeControl", tcs[0].String())
		set("BlackTimeControl", tcs[1].String())
	}
	set("TimeControl", tcs[0].String())
	if res.Outcome != rules.Ongoing {
		set("Termination", string(res.Termination))
	}
	set("PlyCount", strconv.Itoa(len(rec.Moves)))
	pg.Moves = make([]pdn.Move, 0, len(rec.Moves))
	for i, m := range rec.Moves {
		num, second := moveNumber(rec.Start, i)
		pm := pdn.Move{Text: m.Text, Num: num, Second: second}
		if i < len(tags.Notes) {
			pm.Comment = tags.Notes[i]
		}
		if tags.Clock && tcs[m.Color].Timed() {
			pm.Comment = clockNote(pm.Comment, m.Clock)
		}
		pg.Moves = append(pg.Moves, pm)
	}
	// note puts text after move i (-1: before the first move).
	note := func(i int, text string) {
		i = min(i, len(pg.Moves)-1)
		if i < 0 {
			pg.Comment = joinNote(pg.Comment, text)
			return
		}
		pg.Moves[i].Comment = joinNote(pg.Moves[i].Comment, text)
	}
	for _, w := range rec.Warnings {
		note(w.Ply-1, warningNote(w))
	}
	for _, c := range rec.Claims {
		at := c.Ply - 1
		if c.Accepted && c.Move != "" {
			at = c.Ply // made with that move, which was played
		}
		note(at, claimNote(c))
	}
	for _, d := range rec.Decisions {
		note(d.Ply-1, "arbiter's decision: "+d.String()+".")
	}
	// An accepted claim already says why the game ended, and so does the
	// arbiter's decision of the result (Adjudicate), which quotes it.
	claimed := len(rec.Claims) > 0 && rec.Claims[len(rec.Claims)-1].Accepted
	decided := len(rec.Decisions) > 0 && rec.Decisions[len(rec.Decisions)-1].Kind == DecisionResult && res.Termination == Adjudication
	if res.Reason != "" && !claimed && !decided {
		note(len(pg.Moves)-1, res.ReasonSentence())
	}
	return pg
}

func orUnknown(s string) string {
	if strings.TrimSpace(s) == "" {
		return "?"
	}
	return s
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

// warningNote is "warning: Black played 10-15, illegal: capturing is
// compulsory: 14 can capture (14x32) (WCDF rules, 1.20); corrected."
func warningNote(w Warning) string {
	why := w.Why
	if w.Explanation.Code != "" {
		why = w.Explanation.Cited()
	}
	s := fmt.Sprintf("warning: %s played %s, illegal: %s", w.Color.Name(), strconv.Quote(w.Text), why)
	switch w.Decision {
	case "corrected":
		s += "; corrected at the opponent's choice"
	case "stands":
		s += "; let stand at the opponent's choice"
	}
	return s + "."
}

func claimNote(c ClaimRecord) string {
	var b strings.Builder
	b.WriteString("[%claim ")
	b.WriteString(c.Color.String())
	b.WriteByte(' ')
	b.WriteString(ClaimToken(c.Kind))
	if c.Move != "" && !c.Auto {
		b.WriteString(" with ")
		b.WriteString(c.Move)
	}
	if c.Accepted {
		b.WriteString(" accepted")
	} else {
		b.WriteString(" refused")
	}
	if c.Auto {
		b.WriteString(" auto")
	}
	b.WriteString("] ")
	b.WriteString(c.Reason)
	b.WriteByte('.')
	return b.String()
}

// FormatClock writes a clock reading as h:mm:ss (whole seconds, rounded
// down: the time a player may still count on).
func FormatClock(d time.Duration) string {
	var buf [24]byte
	return string(appendClock(buf[:0], d))
}

// appendClock appends FormatClock(d) to b.
func appendClock(b []byte, d time.Duration) []byte {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	b = strconv.AppendInt(b, s/3600, 10)
	for _, n := range [2]int64{s / 60 % 60, s % 60} {
		b = append(b, ':', byte('0'+n/10), byte('0'+n%10))
	}
	return b
}

// clockNote is joinNote(comment, "[%clock H:MM:SS]") in one allocation
// (it is written after every move of every stored game).
func clockNote(comment string, d time.Duration) string {
	var buf [64]byte
	b := buf[:0]
	if comment != "" {
		b = append(append(b, comment...), ' ')
	}
	b = append(b, "[%clock "...)
	b = appendClock(b, d)
	return string(append(b, ']'))
}

// ClaimToken is the short name of a draw rule in a claim command:
// "threefold", "40-move", "25-move", "16-move", "5-move", "N-move",
// "agreement", "one-piece-each", "2-kings-v-1-king", "1-king-v-1-king"; another termination is written as it is, spaces as dashes.
func ClaimToken(kind Termination) string {
	switch kind {
	case DrawThreefold:
		return "threefold"
	case DrawAgreement:
		return "agreement"
	case DrawOnePieceEach:
		return "one-piece-each"
	case DrawTwoKingsOneKing:
		return "2-kings-v-1-king"
	case DrawKingOneKing:
		return "1-king-v-1-king"
	}
	if n, ok := moveRuleN(kind); ok {
		return strconv.Itoa(n) + "-move"
	}
	return strings.ReplaceAll(string(kind), " ", "-")
}

// moveRuleN reads N from "draw by N-move rule".
func moveRuleN(kind Termination) (int, bool) {
	s, ok := strings.CutPrefix(string(kind), "draw by ")
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, "-move rule")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > 1000 {
		return 0, false
	}
	return n, true
}
