package pdn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
)

// VariantOf returns the rules a game is played under. An override (the
// --variant of `arbiter check`) wins. Otherwise the GameType tag decides: its
// number ("20"), or the full form "20,W,10,10,N2,0", whose board size must
// then match the preset. Without a GameType tag the variant is detected from
// the content of the FEN tag and the moves:
//
//   - algebraic squares ("c3-d4") mean Russian draughts, the usual 8x8 game
//     recorded algebraically (Brazilian and Czech records, also algebraic,
//     need their GameType tag or an override);
//   - a square number above 50 means Canadian (12x12), above 32 international (10x10);
//   - anything else is English checkers, the usual 8x8 game recorded with numbers.
func VariantOf(g *Game, override *rules.Variant) (*rules.Variant, error) {
	if override != nil {
		return override, nil
	}
	// Variants without a GameType number (antidraughts, giveaway) are written
	// with a Variant tag naming the preset; it is more specific than GameType.
	if name := strings.TrimSpace(g.Tag("Variant")); name != "" {
		if v, err := rules.Lookup(name); err == nil {
			return v, nil
		}
	}
	if gt := strings.TrimSpace(g.Tag("GameType")); gt != "" {
		return gameType(gt)
	}
	return detect(g), nil
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

// detect guesses the variant of a game without a GameType tag from the
// squares in its FEN tag and its moves (variations included).
func detect(g *Game) *rules.Variant {
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
	switch {
	case s.algebraic:
		return rules.MustLookup("russian")
	case s.max > 50:
		return rules.MustLookup("canadian")
	case s.max > 32:
		return rules.MustLookup("international")
	}
	return rules.MustLookup("english")
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
