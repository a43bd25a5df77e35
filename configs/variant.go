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
// no preset, board, rows_of_men (or start), first_player, king_range,
// precedence and promotion are required.
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
//	  # the generic generator's rules (RULES.md section 8)
//	  layout: dark-squares     # dark-squares, all-squares or alquerque-grid
//	  men_moves: forward sideways   # directions, relative to the side's way: forward,
//	  men_captures: orthogonal      # forward-diagonal, sideways, back, back-diagonal,
//	  men_later_captures: all       # or diagonal, orthogonal, all
//	  king_moves: orthogonal
//	  king_captures: orthogonal
//	  remove_at_once: false    # Turkish: captured pieces leave at once
//	  no_turn_back: false      # Turkish: no 180-degree turn between two jumps
//	  linear_moves: false      # Dameo: a line of men moves one square
//	  king_move_limit: 0       # Frisian: 3 moves of one king in a row for a side with men
//	  no_return: false         # Alquerque: no plain move back to the point just left
//	  start: W:W41-56:B9-24    # the start position as a FEN (default: rows_of_men rows each)
//	  draws:
//	    threefold: claim       # claim (WCDF) or automatic (FMJD)
//	    move_rule: 40          # N of the N-move rule, 0 = none
//	    move_rule_counts: no-man-move   # no-man-move (no man advanced, nothing captured) or kings-only
//	    endgame_rules: false   # FMJD 16- and 5-move endgame rules
//	    one_piece_each: false  # Turkish: one piece against one piece is a draw
//	    two_kings_v_king: 0    # Frisian: 7, 2 kings v 1 king drawn after N moves each (0 = none)
//	    king_v_king: 0         # Frisian: 2, 1 king v 1 king drawn after N moves each (0 = none)
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
	Layout             string     `mapstructure:"layout" json:"layout,omitempty"`
	MenMoves           string     `mapstructure:"men_moves" json:"men_moves,omitempty"`
	MenCaptures        string     `mapstructure:"men_captures" json:"men_captures,omitempty"`
	MenLaterCaptures   string     `mapstructure:"men_later_captures" json:"men_later_captures,omitempty"`
	KingMoves          string     `mapstructure:"king_moves" json:"king_moves,omitempty"`
	KingCaptures       string     `mapstructure:"king_captures" json:"king_captures,omitempty"`
	RemoveAtOnce       *bool      `mapstructure:"remove_at_once" json:"remove_at_once,omitempty"`
	NoTurnBack         *bool      `mapstructure:"no_turn_back" json:"no_turn_back,omitempty"`
	LinearMoves        *bool      `mapstructure:"linear_moves" json:"linear_moves,omitempty"`
	KingMoveLimit      *int       `mapstructure:"king_move_limit" json:"king_move_limit,omitempty"`
	NoReturn           *bool      `mapstructure:"no_return" json:"no_return,omitempty"`
	Start              string     `mapstructure:"start" json:"start,omitempty"`
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
	OnePieceEach   *bool  `mapstructure:"one_piece_each" json:"one_piece_each,omitempty"`
	TwoKingsVKing  *int   `mapstructure:"two_kings_v_king" json:"two_kings_v_king,omitempty"`
	KingVKing      *int   `mapstructure:"king_v_king" json:"king_v_king,omitempty"`
}

// custom reports whether any rule is changed from the preset.
func (s VariantSpec) custom() bool {
	return s.Board != "" || s.Mirrored != nil || s.RowsOfMen != 0 || s.FirstPlayer != "" || s.MenCaptureBackward != nil ||
		s.KingRange != "" || s.Precedence != "" || s.Promotion != "" || s.MenCaptureKings != nil || s.Losing != nil ||
		s.Notation != "" || s.WideResults != nil || s.Draws != nil ||
		s.KillerKings != nil || s.BackRowWins != nil || s.PromotionSquares != nil || s.MenForward != nil ||
		s.Layout != "" || s.MenMoves != "" || s.MenCaptures != "" || s.MenLaterCaptures != "" || s.KingMoves != "" ||
		s.KingCaptures != "" || s.RemoveAtOnce != nil || s.NoTurnBack != nil || s.LinearMoves != nil ||
		s.KingMoveLimit != nil || s.NoReturn != nil || s.Start != ""
}

// parseDirs reads a set of directions: words among forward,
// forward-diagonal, sideways, back, back-diagonal, diagonal, orthogonal
// and all, separated by spaces or commas.
func parseDirs(key, text string) (rules.Dirs, error) {
	words := map[string]rules.Dirs{"forward": rules.DirForward, "forward-diagonal": rules.DirForwardDiagonal,
		"sideways": rules.DirSideways, "back": rules.DirBack, "back-diagonal": rules.DirBackDiagonal,
		"diagonal": rules.Diagonals, "orthogonal": rules.Orthogonal, "all": rules.AllDirs}
	var d rules.Dirs
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r == ',' || r == ' ' }) {
		x, ok := words[w]
		if !ok {
			return 0, bad(key, "%q is not a direction (forward, forward-diagonal, sideways, back, back-diagonal, diagonal, orthogonal, all)", w)
		}
		d |= x
	}
	if d == 0 {
		return 0, bad(key, "no direction given")
	}
	return d, nil
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

// Build returns the variant the spec describes, validated: the preset's
// rules (or a custom variant's required ones), then each group of rules the
// spec changes, each step naming the key it refuses.
func (s VariantSpec) Build() (*rules.Variant, error) {
	v, preset, err := s.base()
	if err != nil || preset != nil {
		return preset, err
	}
	for _, step := range []func(*rules.Params) error{s.setBoard, s.setPieces, s.setGeometry, s.setPromotionSquares, s.setDraws} {
		if err := step(&v); err != nil {
			return nil, err
		}
	}
	built, err := rules.NewVariant(v)
	if err != nil && s.Start != "" && strings.Contains(err.Error(), "start position") {
		return nil, bad("start", "%v", err)
	}
	return built, err
}

// base is where the spec's rules start: a preset unchanged (returned as
// the variant itself), a preset's rules under a new name, or a custom
// variant's, which must set the rules no default can stand for.
func (s VariantSpec) base() (rules.Params, *rules.Variant, error) {
	var v rules.Params
	if s.Preset != "" {
		p, err := rules.Lookup(s.Preset)
		if err != nil {
			return v, nil, bad("preset", "%v%s", err, suggest(strings.TrimSpace(s.Preset), rules.Presets()))
		}
		if !s.custom() && (s.Name == "" || s.Name == p.Name()) {
			return v, p, nil
		}
		v = p.Params()
		v.GameType = 0 // a changed rule set is no longer the federation's GameType
		v.Name = p.Name() + "-custom"
	} else {
		if !s.custom() {
			return v, nil, bad("preset", "give a preset name (%s) or the rules of a custom variant", strings.Join(rules.Presets(), ", "))
		}
		var missing []string
		for _, f := range []struct {
			key string
			set bool
		}{{"board", s.Board != ""}, {"rows_of_men", s.RowsOfMen != 0 || s.Start != ""}, {"first_player", s.FirstPlayer != ""},
			{"king_range", s.KingRange != ""}, {"precedence", s.Precedence != ""}, {"promotion", s.Promotion != ""}} {
			if !f.set {
				missing = append(missing, f.key)
			}
		}
		if len(missing) > 0 {
			return v, nil, bad(missing[0], "a custom variant without a preset must set %s", strings.Join(missing, ", "))
		}
		v = rules.Params{Name: "custom", MenCaptureKings: true}
	}
	if s.Name != "" {
		v.Name = s.Name
	}
	return v, nil, nil
}

// choose reads a keyword of key among opts (case aside); list names the
// choices in the error.
func choose[T any](key, text string, opts map[string]T, list string) (T, error) {
	x, ok := opts[strings.ToLower(text)]
	if !ok {
		return x, bad(key, "%q is not %s", text, list)
	}
	return x, nil
}

// setBoard sets the board, the men's rows, the start and who moves first.
func (s VariantSpec) setBoard(v *rules.Params) error {
	if s.Board != "" {
		w, h, err := parseBoard(s.Board)
		if err != nil {
			return bad("board", "%v", err)
		}
		v.Board.Width, v.Board.Height = w, h
	}
	setBool(&v.Board.Mirrored, s.Mirrored)
	if s.RowsOfMen != 0 {
		v.RowsOfMen = s.RowsOfMen
		v.Start = "" // rows of men replace a preset's start position
	}
	if s.FirstPlayer != "" {
		c, err := choose("first_player", s.FirstPlayer, map[string]rules.Color{"white": rules.White, "w": rules.White,
			"black": rules.Black, "b": rules.Black, "red": rules.Black, "dark": rules.Black}, "white or black")
		if err != nil {
			return err
		}
		v.FirstPlayer = c
	}
	if s.Notation != "" {
		n, err := choose("notation", s.Notation, map[string]rules.Notation{"numeric": rules.Numeric, "algebraic": rules.Algebraic}, "numeric or algebraic")
		if err != nil {
			return err
		}
		v.Notation = n
	}
	if s.Layout != "" {
		l, err := choose("layout", s.Layout, map[string]rules.Layout{"dark-squares": rules.DarkSquares, "all-squares": rules.AllSquares,
			"alquerque-grid": rules.AlquerqueGrid}, "dark-squares, all-squares or alquerque-grid")
		if err != nil {
			return err
		}
		v.Layout = l
	}
	if s.Start != "" {
		v.Start = strings.TrimSpace(s.Start)
	}
	return nil
}

// setPieces sets how the pieces take and crown: the kings' range, the
// capture precedence, promotion, and the rules that are on or off.
func (s VariantSpec) setPieces(v *rules.Params) error {
	if s.KingRange != "" {
		k, err := choose("king_range", s.KingRange, map[string]rules.KingRange{"short": rules.ShortKings, "flying": rules.FlyingKings,
			"flying-land-behind": rules.FlyingLandBehind}, "short, flying or flying-land-behind")
		if err != nil {
			return err
		}
		v.Kings = k
	}
	if s.Precedence != "" {
		p, err := choose("precedence", s.Precedence, map[string]rules.Precedence{"free": rules.FreeChoice, "majority": rules.Majority,
			"majority-then-kings": rules.MajorityThenKings, "italian": rules.ItalianOrder, "kings-first": rules.KingsFirst,
			"value": rules.HighestValue}, "free, majority, majority-then-kings, italian, kings-first or value")
		if err != nil {
			return err
		}
		v.Precedence = p
	}
	if s.Promotion != "" {
		p, err := choose("promotion", s.Promotion, map[string]rules.PromotionRule{"stop": rules.PromoteStop, "continue": rules.PromoteContinue,
			"only-if-ending": rules.PromoteOnlyIfEnding, "never": rules.PromoteNever}, "stop, continue, only-if-ending or never")
		if err != nil {
			return err
		}
		v.Promotion = p
	}
	for _, b := range []struct{ dst, src *bool }{{&v.MenCaptureBackward, s.MenCaptureBackward}, {&v.MenCaptureKings, s.MenCaptureKings},
		{&v.Losing, s.Losing}, {&v.WideResults, s.WideResults}, {&v.KillerKings, s.KillerKings}, {&v.BackRowWins, s.BackRowWins},
		{&v.RemoveAtOnce, s.RemoveAtOnce}, {&v.NoTurnBack, s.NoTurnBack}, {&v.LinearMoves, s.LinearMoves}, {&v.NoReturn, s.NoReturn}} {
		setBool(b.dst, b.src)
	}
	if s.KingMoveLimit != nil {
		if *s.KingMoveLimit < 0 || *s.KingMoveLimit > 100 {
			return bad("king_move_limit", "%d is not a number of moves from 0 (none) to 100", *s.KingMoveLimit)
		}
		v.KingMoveLimit = uint8(*s.KingMoveLimit)
	}
	return nil
}

// setGeometry sets the directions: which way each side's men go, and
// where men and kings move and capture.
func (s VariantSpec) setGeometry(v *rules.Params) error {
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
				return bad(key, "%q is not up or down", text)
			}
		}
	}
	for _, f := range []struct {
		key, text string
		dst       *rules.Dirs
	}{{"men_moves", s.MenMoves, &v.MenMoves}, {"men_captures", s.MenCaptures, &v.MenCaptures},
		{"men_later_captures", s.MenLaterCaptures, &v.MenLaterCaptures}, {"king_moves", s.KingMoves, &v.KingMoves},
		{"king_captures", s.KingCaptures, &v.KingCaptures}} {
		if f.text == "" {
			continue
		}
		d, err := parseDirs(f.key, f.text)
		if err != nil {
			return err
		}
		*f.dst = d
	}
	return nil
}

// setPromotionSquares sets the squares that crown, named on the board as
// configured: the variant is built without them first, to read them.
func (s VariantSpec) setPromotionSquares(v *rules.Params) error {
	ps := s.PromotionSquares
	if ps == nil {
		return nil
	}
	base := *v
	base.PromotionSquares = [2]rules.Set{}
	bv, err := rules.NewVariant(base)
	if err != nil {
		return err
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
				return bad(key, "%v", err)
			}
			set = set.With(sq)
		}
		v.PromotionSquares[c] = set
	}
	return nil
}

// setDraws sets the draw rules.
func (s VariantSpec) setDraws(v *rules.Params) error {
	d := s.Draws
	if d == nil {
		return nil
	}
	if d.Threefold != "" {
		auto, err := choose("draws.threefold", d.Threefold, map[string]bool{"claim": false, "automatic": true}, "claim or automatic")
		if err != nil {
			return err
		}
		v.Draws.ThreefoldAutomatic = auto
	}
	if d.MoveRuleCounts != "" {
		kings, err := choose("draws.move_rule_counts", d.MoveRuleCounts, map[string]bool{"no-man-move": false, "kings-only": true}, "no-man-move or kings-only")
		if err != nil {
			return err
		}
		v.Draws.KingsOnly = kings
	}
	setBool(&v.Draws.EndgameRules, d.EndgameRules)
	setBool(&v.Draws.OnePieceEach, d.OnePieceEach)
	for _, k := range []struct {
		key string
		src *int
		dst *int
	}{{"draws.move_rule", d.MoveRule, &v.Draws.MoveRule}, {"draws.two_kings_v_king", d.TwoKingsVKing, &v.Draws.TwoKingsOneKing},
		{"draws.king_v_king", d.KingVKing, &v.Draws.KingOneKing}} {
		if k.src == nil {
			continue
		}
		if *k.src < 0 || *k.src > 1000 {
			return bad(k.key, "%d is not a number of moves from 0 (none) to 1000", *k.src)
		}
		*k.dst = *k.src
	}
	return nil
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
