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

// VariantOf returns the rules a game is played under: the preset its Variant
// tag names (variants without a GameType number, antidraughts and giveaway,
// are written so), else its GameType tag: a number ("20"), or the full form
// "20,W,10,10,N2,0", whose board size must then match the preset. A game
// with neither is played under fallback (the --variant of `arbiter check`)
// when there is one: it stands in for a missing tag, it never overrides one.
// Without fallback the moves decide (ByMoves).
func VariantOf(g *Game, fallback *rules.Variant) (*rules.Variant, error) {
	v, err := tagVariant(g)
	switch {
	case err != nil:
		return nil, err
	case v != nil:
		return v, nil
	case fallback != nil:
		return fallback, nil
	}
	return ByMoves(g).Variant, nil
}

// tagVariant is the variant the tags of g name, or nil when they name none.
func tagVariant(g *Game) (*rules.Variant, error) {
	if name := strings.TrimSpace(g.Tag("Variant")); name != "" {
		if v, err := rules.Lookup(name); err == nil {
			return v, nil
		}
	}
	if gt := strings.TrimSpace(g.Tag("GameType")); gt != "" {
		return gameType(gt)
	}
	return nil, nil
}

// Choice is the variant ByMoves took for a game without a GameType tag.
type Choice struct {
	Variant  *rules.Variant
	Replayed *Replayed // the game under Variant, up to its first problem (nil if the FEN tag is unreadable)
	Err      error     // Replay's error under Variant: nil when the game is legal
	// Reason says how the choice was made, for the arbiter to read, e.g.
	// "no GameType; legal as english, not as international".
	Reason string
}

// ByMoves chooses the variant of a game without a GameType tag by replaying
// it: the first preset, in the order below, under which every move of the
// main line is legal (and, among those, the FEN tag needs the fewest men
// read as kings). The order: international draughts, GameType 20, taken
// as PDN 3.0's default (as issue 7 has it; the standard's GameType table
// lists it first, and its text says nothing of a missing tag), and the game
// usually recorded in the game's notation without a tag, English checkers
// for numbered squares or Russian draughts for algebraic ones ("c3-d4");
// the latter comes first when no square of the moves or the FEN is above
// 32, as on an 8x8 board (an international game
// names squares above 32 within its first moves; a position of a few pieces
// in the upper 32 squares of a 10x10 board with a short solution, which
// would be legal in both, is far more often an English problem). Then every
// other preset with a GameType number, in that number's order. Presets
// whose board is too small for a square the game names are not tried. When
// the game is legal under none, the preset under which it goes furthest is
// taken, so the problem reported is the one an arbiter would look at.
func ByMoves(g *Game) Choice {
	cands := candidates(g)
	type try struct {
		rep *Replayed
		err error
	}
	tries := make([]try, 0, len(cands))
	best := -1
	// A move matching two legal captures (a short form the rest of the
	// game does not settle) is a legal move badly written: the game still
	// fits the variant, and the report names the ambiguity.
	fits := func(err error) bool { return err == nil || errors.Is(err, rules.ErrAmbiguous) }
	for i, v := range cands {
		rep, err := Replay(g, v)
		tries = append(tries, try{rep, err})
		if fits(err) && (best < 0 || rep.crowned < tries[best].rep.crowned) {
			best = i
		}
		if fits(err) && rep.crowned == 0 {
			break // nothing later can be better
		}
	}
	legal := best >= 0
	if !legal {
		best = 0
		for i, t := range tries {
			if t.rep != nil && (tries[best].rep == nil || len(t.rep.Moves) > len(tries[best].rep.Moves)) {
				best = i
			}
		}
	}
	v := cands[best]
	c := Choice{Variant: v, Replayed: tries[best].rep, Err: tries[best].err}
	if !legal {
		c.Reason = fmt.Sprintf("no GameType; legal under no preset, %s reads furthest", v.Name())
		return c
	}
	if len(g.Moves) == 0 {
		// A set-up without moves (a ballot or problem file) is legal in
		// every variant its board fits: say so, not "legal as".
		c.Reason = fmt.Sprintf("no GameType and no move to tell by: %s, the first variant tried; a GameType tag or --variant says which", v.Name())
		return c
	}
	var not, crowning []string
	for i, t := range tries[:best] {
		if !fits(t.err) {
			not = append(not, cands[i].Name())
		} else {
			crowning = append(crowning, cands[i].Name())
		}
	}
	// The 8x8 game came before the default: say whether the default fits too.
	also := ""
	for i := best + 1; i < len(cands); i++ {
		if cands[i].GameType() != 20 {
			continue
		}
		if _, err := Replay(g, cands[i]); fits(err) {
			also = cands[i].Name()
		} else {
			not = append(not, cands[i].Name())
		}
	}
	c.Reason = "no GameType; legal as " + v.Name()
	if v.GameType() == 20 && best == 0 {
		c.Reason += ", the PDN 3.0 default"
	}
	if len(not) > 0 {
		c.Reason += ", not as " + strings.Join(not, ", ")
	}
	if also != "" {
		c.Reason += "; also legal as " + also + ", the PDN 3.0 default"
	}
	if len(crowning) > 0 {
		c.Reason += "; as " + strings.Join(crowning, ", ") + " only with more men read as kings"
	}
	return c
}

// gameType reads a GameType tag value.
func gameType(tag string) (*rules.Variant, error) {
	fields := strings.Split(tag, ",")
	n, err := strconv.Atoi(strings.TrimSpace(fields[0]))
	if err != nil {
		return nil, fmt.Errorf("GameType %q: %w: the game type is not a number", tag, rules.ErrSyntax)
	}
	v, ok := rules.ByGameType(n)
	if !ok {
		return nil, fmt.Errorf("GameType %q: %w: no preset has game type %d", tag, rules.ErrUnknownVariant, n)
	}
	if len(fields) >= 4 {
		w, errW := strconv.Atoi(strings.TrimSpace(fields[2]))
		h, errH := strconv.Atoi(strings.TrimSpace(fields[3]))
		if errW != nil || errH != nil {
			return nil, fmt.Errorf("GameType %q: %w: board size %q x %q is not a number", tag, rules.ErrSyntax, fields[2], fields[3])
		}
		if w != v.Board().Width || h != v.Board().Height {
			return nil, fmt.Errorf("GameType %q: %w: a %dx%d board, but game type %d (%s) is played on %dx%d",
				tag, rules.ErrUnknownVariant, w, h, n, v.Name(), v.Board().Width, v.Board().Height)
		}
	}
	return v, nil
}

// candidates lists the presets ByMoves tries for g, in order.
func candidates(g *Game) []*rules.Variant {
	var s squareScan
	if fen := g.Tag("FEN"); fen != "" {
		fields := strings.Split(strings.TrimSpace(fen), ":")
		for _, f := range fields[1:] {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			for _, item := range strings.Split(f[1:], ",") {
				item = strings.TrimLeft(strings.TrimSpace(item), "Kk")
				for _, sq := range strings.Split(item, "-") {
					s.add(strings.TrimSuffix(strings.TrimSpace(sq), "."))
				}
			}
		}
	}
	s.moves(g.Moves)
	usual := rules.MustLookup("english")
	if s.algebraic {
		usual = rules.MustLookup("russian")
	}
	out := []*rules.Variant{rules.MustLookup("international"), usual}
	if s.max <= 32 && (len(g.Moves) > 0 || g.Tag("FEN") != "") {
		out[0], out[1] = usual, out[0]
	}
	var rest []*rules.Variant
	for _, name := range rules.Presets() {
		if v := rules.MustLookup(name); v.GameType() != 0 && v != out[0] && v != out[1] {
			rest = append(rest, v)
		}
	}
	slices.SortFunc(rest, func(a, b *rules.Variant) int { return cmp.Compare(a.GameType(), b.GameType()) })
	out = append(out, rest...)
	fit := out[:0:0]
	largest := out[0]
	for _, v := range out {
		if v.Squares() >= s.max {
			fit = append(fit, v)
		}
		if v.Squares() > largest.Squares() {
			largest = v
		}
	}
	if len(fit) == 0 {
		// A square beyond every board: the largest one names the problem.
		return []*rules.Variant{largest}
	}
	return fit
}

type squareScan struct {
	algebraic bool
	max       int
}

func (s *squareScan) add(sq string) {
	if sq == "" {
		return
	}
	if c := sq[0] | 0x20; c >= 'a' && c <= 'z' {
		if len(sq) > 1 && isDigit(sq[1]) {
			s.algebraic = true
		}
		return
	}
	if n, err := strconv.Atoi(sq); err == nil && n > s.max {
		s.max = n
	}
}

func (s *squareScan) moves(ms []Move) {
	for _, m := range ms {
		for _, sq := range strings.FieldsFunc(m.Text, func(r rune) bool {
			return r == '-' || r == 'x' || r == 'X' || r == ':' || r == '×'
		}) {
			s.add(sq)
		}
		for _, v := range m.Variations {
			s.moves(v)
		}
	}
}
