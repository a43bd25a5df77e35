package configs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
)

// VariantSpec is the variant as configured: a preset name (`variant:
// english`), or a map of parameters (RULES.md section 5). In map form,
// `preset` is the starting point and every other key changes one rule; with
// no preset, board, rows_of_men, first_player, king_range, precedence and
// promotion are required.
//
//	variant:
//	  name: house-rules
//	  board: 8x8               # width x height, or one number for a square board
//	  mirrored: false          # numbering of the Spanish/Italian boards
//	  rows_of_men: 3
//	  first_player: black      # white or black (the dark side, "red" in some books)
//	  men_capture_backward: true
//	  king_range: flying       # short, flying or flying-land-behind
//	  precedence: free         # free, majority, majority-then-kings, italian or kings-first
//	  promotion: stop          # stop, continue or only-if-ending
//	  men_capture_kings: true
//	  losing: false
//	  notation: numeric        # numeric or algebraic
//	  wide_results: false      # 2-0 / 1-1 / 0-2
//	  killer_kings: false      # Killer: a king whose capture ends on a king stops right behind it
//	  back_row_wins: false     # Breakthrough: the first to end a move on the back row wins
//	  promotion_squares:       # Corner: the only squares where men are crowned (default: the far row)
//	    white: a7 b8
//	    black: g1 h2
//	  men_forward:             # One-way: the way each side's men go, up or down the diagram
//	    white: up
//	    black: up
//	  draws:
//	    threefold: claim       # claim (WCDF) or automatic (FMJD)
//	    move_rule: 40          # N of the N-move rule, 0 = none
//	    move_rule_counts: no-man-move   # no-man-move (no man advanced, nothing captured) or kings-only
//	    endgame_rules: false   # FMJD 16- and 5-move endgame rules
type VariantSpec struct {
	Preset             string     `mapstructure:"preset" json:"preset,omitempty"`
	Name               string     `mapstructure:"name" json:"name,omitempty"`
	Board              string     `mapstructure:"board" json:"board,omitempty"`
	Mirrored           *bool      `mapstructure:"mirrored" json:"mirrored,omitempty"`
	RowsOfMen          int        `mapstructure:"rows_of_men" json:"rows_of_men,omitempty"`
	FirstPlayer        string     `mapstructure:"first_player" json:"first_player,omitempty"`
	MenCaptureBackward *bool      `mapstructure:"men_capture_backward" json:"men_capture_backward,omitempty"`
	KingRange          string     `mapstructure:"king_range" json:"king_range,omitempty"`
	Precedence         string     `mapstructure:"precedence" json:"precedence,omitempty"`
	Promotion          string     `mapstructure:"promotion" json:"promotion,omitempty"`
	MenCaptureKings    *bool      `mapstructure:"men_capture_kings" json:"men_capture_kings,omitempty"`
	Losing             *bool      `mapstructure:"losing" json:"losing,omitempty"`
	Notation           string     `mapstructure:"notation" json:"notation,omitempty"`
	WideResults        *bool      `mapstructure:"wide_results" json:"wide_results,omitempty"`
	KillerKings        *bool      `mapstructure:"killer_kings" json:"killer_kings,omitempty"`
	BackRowWins        *bool      `mapstructure:"back_row_wins" json:"back_row_wins,omitempty"`
	PromotionSquares   *SidesSpec `mapstructure:"promotion_squares" json:"promotion_squares,omitempty"`
	MenForward         *SidesSpec `mapstructure:"men_forward" json:"men_forward,omitempty"`
	Draws              *DrawsSpec `mapstructure:"draws" json:"draws,omitempty"`
}

// SidesSpec is a setting given per side (promotion squares, men's way).
type SidesSpec struct {
	White string `mapstructure:"white" json:"white,omitempty"`
	Black string `mapstructure:"black" json:"black,omitempty"`
}

// DrawsSpec are the draw rules of a custom variant.
type DrawsSpec struct {
	Threefold      string `mapstructure:"threefold" json:"threefold,omitempty"`
	MoveRule       *int   `mapstructure:"move_rule" json:"move_rule,omitempty"`
	MoveRuleCounts string `mapstructure:"move_rule_counts" json:"move_rule_counts,omitempty"`
	EndgameRules   *bool  `mapstructure:"endgame_rules" json:"endgame_rules,omitempty"`
}

// custom reports whether any rule is changed from the preset.
func (s VariantSpec) custom() bool {
	return s.Board != "" || s.Mirrored != nil || s.RowsOfMen != 0 || s.FirstPlayer != "" || s.MenCaptureBackward != nil ||
		s.KingRange != "" || s.Precedence != "" || s.Promotion != "" || s.MenCaptureKings != nil || s.Losing != nil ||
		s.Notation != "" || s.WideResults != nil || s.Draws != nil ||
		s.KillerKings != nil || s.BackRowWins != nil || s.PromotionSquares != nil || s.MenForward != nil
}

// fieldError is an error about one key of the variant map.
type fieldError struct {
	key string
	err error
}

func (e *fieldError) Error() string { return e.key + ": " + e.err.Error() }

func bad(key, format string, a ...any) error {
	return &fieldError{key: key, err: fmt.Errorf(format, a...)}
}

// Build returns the variant the spec describes, validated.
func (s VariantSpec) Build() (*rules.Variant, error) {
	var v rules.Params
	if s.Preset != "" {
		p, err := rules.Lookup(s.Preset)
		if err != nil {
			return nil, bad("preset", "%v", err)
		}
		if !s.custom() {
			if s.Name == "" || s.Name == p.Name() {
				return p, nil
			}
		}
		v = p.Params()
		v.GameType = 0 // a changed rule set is no longer the federation's GameType
		v.Name = p.Name() + "-custom"
	} else {
		if !s.custom() {
			return nil, bad("preset", "give a preset name (%s) or the rules of a custom variant", strings.Join(rules.Presets(), ", "))
		}
		var missing []string
		for _, f := range []struct {
			key string
			set bool
		}{{"board", s.Board != ""}, {"rows_of_men", s.RowsOfMen != 0}, {"first_player", s.FirstPlayer != ""},
			{"king_range", s.KingRange != ""}, {"precedence", s.Precedence != ""}, {"promotion", s.Promotion != ""}} {
			if !f.set {
				missing = append(missing, f.key)
			}
		}
		if len(missing) > 0 {
			return nil, bad(missing[0], "a custom variant without a preset must set %s", strings.Join(missing, ", "))
		}
		v = rules.Params{Name: "custom", MenCaptureKings: true}
	}
	if s.Name != "" {
		v.Name = s.Name
	}
	if s.Board != "" {
		w, h, err := parseBoard(s.Board)
		if err != nil {
			return nil, bad("board", "%v", err)
		}
		v.Board.Width, v.Board.Height = w, h
	}
	setBool(&v.Board.Mirrored, s.Mirrored)
	if s.RowsOfMen != 0 {
		v.RowsOfMen = s.RowsOfMen
	}
	if s.FirstPlayer != "" {
		switch strings.ToLower(s.FirstPlayer) {
		case "white", "w":
			v.FirstPlayer = rules.White
		case "black", "b", "red", "dark":
			v.FirstPlayer = rules.Black
		default:
			return nil, bad("first_player", "%q is not white or black", s.FirstPlayer)
		}
	}
	setBool(&v.MenCaptureBackward, s.MenCaptureBackward)
	if s.KingRange != "" {
		k, ok := map[string]rules.KingRange{"short": rules.ShortKings, "flying": rules.FlyingKings, "flying-land-behind": rules.FlyingLandBehind}[strings.ToLower(s.KingRange)]
		if !ok {
			return nil, bad("king_range", "%q is not short, flying or flying-land-behind", s.KingRange)
		}
		v.Kings = k
	}
	if s.Precedence != "" {
		p, ok := map[string]rules.Precedence{"free": rules.FreeChoice, "majority": rules.Majority, "majority-then-kings": rules.MajorityThenKings,
			"italian": rules.ItalianOrder, "kings-first": rules.KingsFirst}[strings.ToLower(s.Precedence)]
		if !ok {
			return nil, bad("precedence", "%q is not free, majority, majority-then-kings, italian or kings-first", s.Precedence)
		}
		v.Precedence = p
	}
	if s.Promotion != "" {
		p, ok := map[string]rules.PromotionRule{"stop": rules.PromoteStop, "continue": rules.PromoteContinue, "only-if-ending": rules.PromoteOnlyIfEnding}[strings.ToLower(s.Promotion)]
		if !ok {
			return nil, bad("promotion", "%q is not stop, continue or only-if-ending", s.Promotion)
		}
		v.Promotion = p
	}
	setBool(&v.MenCaptureKings, s.MenCaptureKings)
	setBool(&v.Losing, s.Losing)
	if s.Notation != "" {
		switch strings.ToLower(s.Notation) {
		case "numeric":
			v.Notation = rules.Numeric
		case "algebraic":
			v.Notation = rules.Algebraic
		default:
			return nil, bad("notation", "%q is not numeric or algebraic", s.Notation)
		}
	}
	setBool(&v.WideResults, s.WideResults)
	setBool(&v.KillerKings, s.KillerKings)
	setBool(&v.BackRowWins, s.BackRowWins)
	if f := s.MenForward; f != nil {
		for c, text := range []string{f.White, f.Black} {
			key := "men_forward." + rules.Color(c).String()
			switch strings.ToLower(strings.TrimSpace(text)) {
			case "":
			case "up":
				v.Forward[c] = rules.TowardTop
			case "down":
				v.Forward[c] = rules.TowardBottom
			default:
				return nil, bad(key, "%q is not up or down", text)
			}
		}
	}
	if ps := s.PromotionSquares; ps != nil {
		// The squares are named on the board as configured: build the
		// variant without them first, to read them.
		base := v
		base.PromotionSquares = [2]rules.Set{}
		bv, err := rules.NewVariant(base)
		if err != nil {
			return nil, err
		}
		for c, text := range []string{ps.White, ps.Black} {
			key := "promotion_squares." + rules.Color(c).String()
			if strings.TrimSpace(text) == "" {
				continue
			}
			var set rules.Set
			for _, name := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' }) {
				sq, err := bv.ParseSquare(name)
				if err != nil {
					return nil, bad(key, "%v", err)
				}
				set = set.With(sq)
			}
			v.PromotionSquares[c] = set
		}
	}
	if d := s.Draws; d != nil {
		switch strings.ToLower(d.Threefold) {
		case "":
		case "claim":
			v.Draws.ThreefoldAutomatic = false
		case "automatic":
			v.Draws.ThreefoldAutomatic = true
		default:
			return nil, bad("draws.threefold", "%q is not claim or automatic", d.Threefold)
		}
		if d.MoveRule != nil {
			if *d.MoveRule < 0 || *d.MoveRule > 1000 {
				return nil, bad("draws.move_rule", "%d is not a number of moves from 0 (none) to 1000", *d.MoveRule)
			}
			v.Draws.MoveRule = *d.MoveRule
		}
		switch strings.ToLower(d.MoveRuleCounts) {
		case "":
		case "no-man-move":
			v.Draws.KingsOnly = false
		case "kings-only":
			v.Draws.KingsOnly = true
		default:
			return nil, bad("draws.move_rule_counts", "%q is not no-man-move or kings-only", d.MoveRuleCounts)
		}
		setBool(&v.Draws.EndgameRules, d.EndgameRules)
	}
	return rules.NewVariant(v)
}

func setBool(dst *bool, src *bool) {
	if src != nil {
		*dst = *src
	}
}

// parseBoard reads "8x8", "10X10" or "10".
func parseBoard(s string) (w, h int, err error) {
	ws, hs, two := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !two {
		hs = ws
	}
	w, err1 := strconv.Atoi(strings.TrimSpace(ws))
	h, err2 := strconv.Atoi(strings.TrimSpace(hs))
	if err1 != nil || err2 != nil || w < 4 || h < 4 || w > 16 || h > 16 {
		return 0, 0, fmt.Errorf("%q is not a board size like 8x8 or 10 (4 to 16 squares a side)", s)
	}
	return w, h, nil
}
