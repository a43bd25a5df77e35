package online

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/internal/strictjson"
	"github.com/draughts-arbiter/arbiter/rules"
)

// MaxIntent bounds an intent's JSON.
const MaxIntent = 8 << 10

// ParseIntent reads an intent's JSON (what a browser posts). Unknown
// fields are refused, so that a typo is not silently ignored.
func ParseIntent(data []byte) (Intent, error) {
	var in Intent
	if len(data) > MaxIntent {
		return in, badInput("intent", fmt.Sprintf("longer than %d bytes", MaxIntent))
	}
	if err := strictjson.Decode(data, &in); err != nil {
		return Intent{}, badInput("intent", clip(err.Error(), 200))
	}
	if r := in.check(); r != nil {
		return Intent{}, r
	}
	if r := in.refuseControls(); r != nil {
		return Intent{}, r
	}
	return in, nil
}

// check bounds every field of an intent.
func (in *Intent) check() *Refusal {
	for _, f := range []struct{ name, v string }{{"kind", in.Kind}, {"move", in.Move}, {"claim", in.Claim}, {"with_move", in.WithMove},
		{"color", in.Color}, {"role", in.Role}, {"outcome", in.Outcome}} {
		if len(f.v) > MaxMoveText {
			return badInput(f.name, fmt.Sprintf("longer than %d bytes", MaxMoveText))
		}
		if !utf8.ValidString(f.v) {
			return badInput(f.name, "not UTF-8")
		}
	}
	if len(in.Path) > 64 {
		return badInput("path", "more than 64 squares")
	}
	for _, s := range in.Path {
		if len(s) > 8 || !utf8.ValidString(s) {
			return badInput("path", "not a square")
		}
	}
	if in.Seconds < 0 || in.Seconds > MaxAddSeconds {
		return badInput("seconds", fmt.Sprintf("want 1 to %d", MaxAddSeconds))
	}
	return checkText("text", in.Text)
}

// attempt is what a player's move means in a position: a legal move, a
// move on the board the referee will judge illegal (moved geometrically:
// from, to and the opposing pieces jumped), or text that names no move.
type attempt struct {
	move  rules.Move
	legal bool
	none  bool   // names no move at all: SubmitIllegal
	text  string // as sent (cleaned)
	why   string // for none
}

// readMove reads move text (or the squares clicked, path) in p. It refuses
// only an empty move and an ambiguous one (the player must say which
// pieces are taken); everything else is for the referee to judge.
func readMove(p rules.Position, text string, path []string) (attempt, *Refusal) {
	text = strings.TrimSpace(text)
	if len(path) > 0 {
		text = strings.Join(path, "-")
	}
	if text == "" {
		return attempt{}, badInput("move", "no move given")
	}
	if len(text) > MaxMoveText || !utf8.ValidString(text) {
		return attempt{}, badInput("move", "not a move")
	}
	a := attempt{text: text}
	found, err := p.MatchMoves(text)
	switch {
	case err != nil:
		sqs, serr := squares(p.Variant(), text)
		if serr != nil {
			a.none, a.why = true, serr.Error()
			return a, nil
		}
		a.move = p.BoardMove(sqs)
		return a, nil
	case len(found) == 1:
		a.move, a.legal = found[0], true
		return a, nil
	case len(found) > 1:
		choices := make([]string, len(found))
		for i, m := range found {
			choices[i] = p.LongMoveText(m)
		}
		return a, refuse(message.Invalid, "refused.ambiguous", "move", clip(text, 64), "choices", strings.Join(choices, ", "))
	}
	sqs, serr := squares(p.Variant(), text)
	if serr != nil {
		a.none, a.why = true, serr.Error()
		return a, nil
	}
	a.move = p.BoardMove(sqs)
	return a, nil
}

// squares splits move text into squares: separators - x X : × and spaces.
func squares(v *rules.Variant, text string) ([]rules.Square, error) {
	f := strings.FieldsFunc(text, func(r rune) bool {
		return r == '-' || r == 'x' || r == 'X' || r == ':' || r == '×' || r == ' ' || r == ','
	})
	if len(f) < 2 {
		return nil, fmt.Errorf("%q names no move (want two squares or more, like 32-28)", clip(text, 32))
	}
	out := make([]rules.Square, len(f))
	for i, s := range f {
		sq, err := v.ParseSquare(s)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", clip(text, 32), err)
		}
		out[i] = sq
	}
	return out, nil
}

// geo is a variant's board layout, computed once per variant.
type geo struct {
	at  map[[2]int]rules.Square
	pub Geometry
}

var geos sync.Map // *rules.Variant -> *geo

func geometryOf(v *rules.Variant) *geo {
	if g, ok := geos.Load(v); ok {
		return g.(*geo)
	}
	b := v.Board()
	g := &geo{at: make(map[[2]int]rules.Square, v.Squares()), pub: Geometry{Width: b.Width, Height: b.Height}}
	for i := 1; i <= v.Squares(); i++ {
		sq := rules.Square(i)
		r, c := v.RowCol(sq)
		g.at[[2]int{r, c}] = sq
		g.pub.Squares = append(g.pub.Squares, Square{Name: v.SquareName(sq), Row: r, Col: c})
	}
	actual, _ := geos.LoadOrStore(v, g)
	return actual.(*geo)
}

// capturesOf is what a page needs of v's capture rules (Captures).
func capturesOf(v *rules.Variant) Captures {
	promo := map[rules.PromotionRule]string{rules.PromoteStop: "stop", rules.PromoteContinue: "continue",
		rules.PromoteOnlyIfEnding: "pass", rules.PromoteNever: "never"}[v.Promotion()]
	return Captures{MenBackward: v.MenCaptureBackward(), KingsFly: v.Kings() != rules.ShortKings, Promotion: promo}
}

// refuseControls refuses control characters in what a player or the
// arbiter types (issue 24): ESC, BEL, NUL and the rest would reach the PDN
// record, and a PDN shown in a terminal would run them. A reason or an
// annotation (Text) may hold line ends and tabs; nothing else may. It is
// checked where text enters (Act, ParseIntent), not on replay, so that a
// game stored before the rule still replays (its export escapes them:
// escapeControls).
func (in *Intent) refuseControls() *Refusal {
	for _, f := range []struct{ name, v string }{{"kind", in.Kind}, {"move", in.Move}, {"claim", in.Claim}, {"with_move", in.WithMove},
		{"color", in.Color}, {"role", in.Role}, {"outcome", in.Outcome}} {
		if i := strings.IndexFunc(f.v, unicode.IsControl); i >= 0 {
			return badInput(f.name, fmt.Sprintf("holds the control character %U", []rune(f.v[i:])[0]))
		}
	}
	for _, s := range in.Path {
		if strings.IndexFunc(s, unicode.IsControl) >= 0 {
			return badInput("path", "not a square")
		}
	}
	if i := strings.IndexFunc(in.Text, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }); i >= 0 {
		return badInput("text", fmt.Sprintf("holds the control character %U (only line ends and tabs may be written)", []rune(in.Text[i:])[0]))
	}
	return nil
}

// escapeControls replaces the control characters of an exported text
// (but line ends and tabs) by U+FFFD, so that nothing stored before the
// rule reaches a terminal raw.
func escapeControls(s string) string {
	if strings.IndexFunc(s, isRawControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isRawControl(r) {
			return utf8.RuneError
		}
		return r
	}, s)
}

func isRawControl(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }
