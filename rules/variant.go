package rules

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Color is a side. White is the side whose men start at the bottom of the
// diagram (the high square numbers) and move up.
type Color uint8

// The two sides.
const (
	White Color = iota
	Black
)

// Opponent returns the other side.
func (c Color) Opponent() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Name returns "White" or "Black": the side as a result's reason names
// its player ("Black has no legal move", "White played 11-8: ..."), as the
// result's own words do ("White wins"). String stays lower-case for logs
// and flags.
func (c Color) Name() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// Letter returns the FEN letter of the side, W or B.
func (c Color) Letter() byte {
	if c == White {
		return 'W'
	}
	return 'B'
}

// KingRange says how far kings move and where they land after a capture.
type KingRange uint8

// King ranges.
const (
	ShortKings       KingRange = iota // one square, jump to the square right behind
	FlyingKings                       // any distance, land on any free square behind
	FlyingLandBehind                  // any distance, land right behind the captured piece (Thai)
)

// Precedence says which captures a player may choose among.
type Precedence uint8

// Capture precedence rules.
const (
	FreeChoice        Precedence = iota // any capture (English, Russian, Pool)
	Majority                            // most pieces (international, Brazilian, Canadian)
	MajorityThenKings                   // most pieces, then most kings (Spanish, Portuguese)
	ItalianOrder                        // most pieces, then with a king, then most kings, then kings met first
	KingsFirst                          // a king must capture if one can, otherwise free (Czech)
	// HighestValue: the capture of the highest value, n kings worth more
	// than 2n-1 men and less than 2n men; at equal value a king must
	// capture (Frisian). Generic generator only.
	HighestValue
)

// PromotionRule says what happens to a man that reaches the far row during a capture.
type PromotionRule uint8

// Promotion rules.
const (
	PromoteStop         PromotionRule = iota // crowned, and the move ends there (English, Italian)
	PromoteContinue                          // crowned, and it continues capturing as a king (Russian)
	PromoteOnlyIfEnding                      // continues as a man; crowned only if the capture ends there (international)
	PromoteNever                             // men are never crowned (Alquerque); generic generator only
)

// Notation says how squares are written in move text.
type Notation uint8

// Square notations.
const (
	Numeric   Notation = iota // 32-28, 28x19
	Algebraic                 // c3-d4, d4:f6
)

// DrawRules describe the draw rules of a variant; the arbiter enforces them.
type DrawRules struct {
	// ThreefoldAutomatic: the third occurrence ends the game (FMJD); otherwise
	// repetition must be claimed (WCDF).
	ThreefoldAutomatic bool
	// MoveRule is N of the N-move rule (0 = none). Under KingsOnly (FMJD 25-move)
	// the count runs while only kings move and nothing is captured; otherwise
	// (WCDF 40-move) while no man advances and nothing is captured.
	MoveRule  int
	KingsOnly bool
	// EndgameRules enables the FMJD 16- and 5-move endgame rules.
	EndgameRules bool
	// OnePieceEach: a position with one piece on each side (king or man)
	// is a draw (Turkish).
	OnePieceEach bool
	// TwoKingsOneKing is N of "2 kings against 1 king: a draw after N
	// moves each" (Frisian: 7), counted from the move that brought the
	// material about (no men on the board); 0 = none.
	TwoKingsOneKing int
	// KingOneKing is N of "1 king against 1 king: a draw after N moves
	// each" (Frisian: 2); 0 = none.
	KingOneKing int
}

// IllegalMoveRule is a federation's default for an illegal move (RULES.md
// section 6); an event may choose another policy.
type IllegalMoveRule uint8

// Illegal-move rules.
const (
	// IllegalLoses: an illegal move loses at once (the engine-match
	// convention, where no federation rule says otherwise).
	IllegalLoses IllegalMoveRule = iota
	// IllegalWarnsFirst: the first illegal move of a side is retracted with
	// a warning, the second loses (WCDF).
	IllegalWarnsFirst
)

// Params are the parameters of a rule set: what a config or a test fills in
// to build a custom variant with NewVariant. A Params is a plain value;
// changing one changes no variant already built.
type Params struct {
	Name     string
	GameType int // PDN GameType number, 0 for custom variants
	Board    Board
	// RowsOfMen is how many rows each side fills at the start.
	RowsOfMen          int
	FirstPlayer        Color
	MenCaptureBackward bool
	Kings              KingRange
	Precedence         Precedence
	Promotion          PromotionRule
	// MenCaptureKings is false in Italian draughts, where a man may not take a king.
	MenCaptureKings bool
	// Losing variants: the side that cannot move wins.
	Losing   bool
	Notation Notation
	// WideResults writes results as 2-0 / 1-1 / 0-2 (international, Canadian).
	WideResults bool
	Draws       DrawRules
	// IllegalMoves is the federation's default illegal-move rule.
	IllegalMoves IllegalMoveRule

	// KillerKings (Killer draughts): a flying king whose capture ends by
	// taking a king must land on the square right behind that king.
	KillerKings bool
	// BackRowWins (Breakthrough): the first side to end a move on its king
	// row wins; the crowned man ends the game, so a position holding a king
	// has no legal move (the side to move has lost).
	BackRowWins bool
	// PromotionSquares, when not empty for a colour (indexed by Color), are
	// the only squares where that colour's men are crowned (Corner: White on
	// a7 and b8, Black on g1 and h2); empty means the whole far row.
	PromotionSquares [2]Set
	// Forward is the way each colour's men move and capture (indexed by
	// Color; One-way has both sides go the same way): zero is the usual
	// (White up the diagram, Black down). Men are crowned on the far row of
	// their own way (or on PromotionSquares).
	Forward [2]Heading

	// The rest is the generic generator's (grid.go): a variant that sets
	// any of it is played by that generator, the others keep theirs.

	// Layout is the board's playing field; DarkSquares for every diagonal
	// variant.
	Layout Layout
	// The directions, relative to the side's forward way, of men's plain
	// moves, men's captures (the first jump; MenLaterCaptures the jumps
	// after it, when not zero), kings' moves and kings' captures. Zero on
	// dark squares means the diagonal variants' rule (men forward,
	// MenCaptureBackward, kings every diagonal).
	MenMoves, MenCaptures, MenLaterCaptures, KingMoves, KingCaptures Dirs
	// RemoveAtOnce: each captured piece leaves the board as it is jumped
	// (Turkish); otherwise the pieces leave when the move ends.
	RemoveAtOnce bool
	// NoTurnBack forbids a 180-degree turn between two jumps (Turkish).
	NoTurnBack bool
	// LinearMoves: a straight line of own men moves one square along a
	// man's move direction, the rear man going to the square in front (Dameo).
	LinearMoves bool
	// KingMoveLimit: a side that has men may not move the same king more
	// than this many times in a row without capturing (Frisian: 3); the
	// count is part of the position.
	KingMoveLimit uint8
	// NoReturn: a piece may not go back, in a plain move, to the point it
	// left on its side's previous move (Alquerque); part of the position.
	NoReturn bool
	// Parachutists (Parachute): pieces written P in the FEN whose only
	// move is a short jump backwards (towards their side) over an enemy
	// piece; they land right behind as men, and the move ends.
	Parachutists bool
	// OpeningRemovals (Hawaii): on the full board the side to move first
	// removes one of its pieces from a corner or a centre square, then the
	// other side one of its pieces orthogonally next to that hole. A
	// removal is the move (sq, sq) capturing nothing.
	OpeningRemovals bool
	// OptionalJumps (Hawaii): a capture may stop after any jump, and a
	// piece that goes on jumps only straight on.
	OptionalJumps bool
	// Start is the start position as a FEN, when it is not RowsOfMen rows
	// of men each.
	Start string
}

// Dirs is a set of directions relative to a side's forward way.
type Dirs uint8

// Directions of Dirs.
const (
	DirForward         Dirs = 1 << iota // straight ahead
	DirForwardDiagonal                  // the two forward diagonals
	DirSideways                         // straight left and right
	DirBack                             // straight back
	DirBackDiagonal                     // the two backward diagonals
	// Diagonals, Orthogonal and AllDirs are the usual sets.
	Diagonals  = DirForwardDiagonal | DirBackDiagonal
	Orthogonal = DirForward | DirSideways | DirBack
	AllDirs    = Diagonals | Orthogonal
)

// abs returns the absolute directions (bit dirN...) of d for a side going up
// the diagram (up) or down.
func (d Dirs) abs(up bool) uint8 {
	var m uint8
	fw, bk := uint8(1)<<dirN, uint8(1)<<dirS
	fd, bd := uint8(1)<<dirNE|1<<dirNW, uint8(1)<<dirSE|1<<dirSW
	if !up {
		fw, bk, fd, bd = bk, fw, bd, fd
	}
	if d&DirForward != 0 {
		m |= fw
	}
	if d&DirForwardDiagonal != 0 {
		m |= fd
	}
	if d&DirSideways != 0 {
		m |= 1<<dirE | 1<<dirW
	}
	if d&DirBack != 0 {
		m |= bk
	}
	if d&DirBackDiagonal != 0 {
		m |= bd
	}
	return m
}

// Heading is the way a colour's men move along the board.
type Heading uint8

// Headings.
const (
	HeadingUsual Heading = iota // White towards the top (row 0), Black towards the bottom
	TowardTop                   // towards row 0, where White's men usually go
	TowardBottom                // towards the last row, where Black's men usually go
)

// Variant is a complete rule set, immutable once built: presets come from
// Lookup, custom variants from NewVariant. Its parameters are read through
// methods, so no caller can change the rules of another caller's games.
//
// Variants are interned: NewVariant and Lookup return the same *Variant for
// equal Params, so comparing pointers compares rule sets (names included),
// and positions of equal variants compare with ==. Equal says the same
// without relying on it.
type Variant struct {
	// p is read directly by move generation (no call, no copy per node).
	p   Params
	geo *geometry
	// up is, by colour, whether its men go towards row 0.
	up [2]bool
	// noBitboards: rules the bitboard generator does not know (one-way
	// men) go to the reference generator.
	noBitboards bool
	// grid: the generic generator plays this variant (grid.go), with the
	// absolute direction masks by colour in gd.
	grid  bool
	gd    gridDirs
	start Position
}

var presets = addDerived(map[string]Params{
	"english": {Name: "english", GameType: 21, Board: Board{8, 8, false}, RowsOfMen: 3, FirstPlayer: Black,
		Kings: ShortKings, Precedence: FreeChoice, Promotion: PromoteStop, MenCaptureKings: true,
		Draws: DrawRules{MoveRule: 40}, IllegalMoves: IllegalWarnsFirst},
	"international": {Name: "international", GameType: 20, Board: Board{10, 10, false}, RowsOfMen: 4, FirstPlayer: White,
		MenCaptureBackward: true, Kings: FlyingKings, Precedence: Majority, Promotion: PromoteOnlyIfEnding, MenCaptureKings: true,
		WideResults: true, Draws: DrawRules{ThreefoldAutomatic: true, MoveRule: 25, KingsOnly: true, EndgameRules: true}},
	"russian": {Name: "russian", GameType: 25, Board: Board{8, 8, false}, RowsOfMen: 3, FirstPlayer: White,
		MenCaptureBackward: true, Kings: FlyingKings, Precedence: FreeChoice, Promotion: PromoteContinue, MenCaptureKings: true,
		Notation: Algebraic, Draws: DrawRules{ThreefoldAutomatic: true, MoveRule: 15, KingsOnly: true}},
	"brazilian": {Name: "brazilian", GameType: 26, Board: Board{8, 8, false}, RowsOfMen: 3, FirstPlayer: White,
		MenCaptureBackward: true, Kings: FlyingKings, Precedence: Majority, Promotion: PromoteOnlyIfEnding, MenCaptureKings: true,
		Notation: Algebraic, Draws: DrawRules{ThreefoldAutomatic: true, MoveRule: 20, KingsOnly: true}},
	"pool": {Name: "pool", GameType: 23, Board: Board{8, 8, false}, RowsOfMen: 3, FirstPlayer: Black,
		MenCaptureBackward: true, Kings: FlyingKings, Precedence: FreeChoice, Promotion: PromoteOnlyIfEnding, MenCaptureKings: true,
		Draws: DrawRules{MoveRule: 40}},
	"czech": {Name: "czech", GameType: 29, Board: Board{8, 8, false}, RowsOfMen: 3, FirstPlayer: White,
		Kings: FlyingKings, Precedence: KingsFirst, Promotion: PromoteStop, MenCaptureKings: true,
		Notation: Algebraic, Draws: DrawRules{ThreefoldAutomatic: true, MoveRule: 30, KingsOnly: true}},
	"spanish": {Name: "spanish", GameType: 24, Board: Board{8, 8, true}, RowsOfMen: 3, FirstPlayer: White,
		Kings: FlyingKings, Precedence: MajorityThenKings, Promotion: PromoteStop, MenCaptureKings: true,
		Draws: DrawRules{ThreefoldAutomatic: true}},
	"portuguese": {Name: "portuguese", GameType: 28, Board: Board{8, 8, true}, RowsOfMen: 3, FirstPlayer: White,
		Kings: FlyingKings, Precedence: MajorityThenKings, Promotion: PromoteStop, MenCaptureKings: true,
		Draws: DrawRules{ThreefoldAutomatic: true, MoveRule: 20, KingsOnly: true}},
	"italian": {Name: "italian", GameType: 22, Board: Board{8, 8, true}, RowsOfMen: 3, FirstPlayer: White,
		Kings: ShortKings, Precedence: ItalianOrder, Promotion: PromoteStop, MenCaptureKings: false,
		Draws: DrawRules{ThreefoldAutomatic: true, MoveRule: 40}},
	"thai": {Name: "thai", GameType: 31, Board: Board{8, 8, false}, RowsOfMen: 2, FirstPlayer: Black,
		Kings: FlyingLandBehind, Precedence: FreeChoice, Promotion: PromoteStop, MenCaptureKings: true},
	"canadian": {Name: "canadian", GameType: 27, Board: Board{12, 12, false}, RowsOfMen: 5, FirstPlayer: White,
		MenCaptureBackward: true, Kings: FlyingKings, Precedence: Majority, Promotion: PromoteOnlyIfEnding, MenCaptureKings: true,
		WideResults: true, Draws: DrawRules{ThreefoldAutomatic: true, MoveRule: 25, KingsOnly: true, EndgameRules: true}},
	"antidraughts": {Name: "antidraughts", Board: Board{10, 10, false}, RowsOfMen: 4, FirstPlayer: White,
		MenCaptureBackward: true, Kings: FlyingKings, Precedence: Majority, Promotion: PromoteOnlyIfEnding, MenCaptureKings: true,
		Losing: true, WideResults: true, Draws: DrawRules{ThreefoldAutomatic: true, MoveRule: 25, KingsOnly: true}},
	"giveaway": {Name: "giveaway", Board: Board{8, 8, false}, RowsOfMen: 3, FirstPlayer: Black,
		Kings: ShortKings, Precedence: FreeChoice, Promotion: PromoteStop, MenCaptureKings: true,
		Losing: true, Draws: DrawRules{MoveRule: 40}},
})

// addDerived adds the presets that are another preset with a rule changed.
func addDerived(presets map[string]Params) map[string]Params {
	intl := presets["international"]
	k := intl
	k.Name, k.GameType, k.KillerKings = "killer", 0, true
	presets["killer"] = k
	// Breakthrough: lidraughts' GameType 96; no draw rules.
	bt := intl
	bt.Name, bt.GameType, bt.BackRowWins, bt.Draws = "breakthrough", 96, true, DrawRules{}
	presets["breakthrough"] = bt
	// Corner: the Czech start until a source gives BrainKing's (RULES.md
	// section 8); men are crowned only on two corner squares each.
	c := presets["czech"]
	c.Name, c.GameType = "corner", 0
	c.PromotionSquares = [2]Set{mustSquares(c.Board, "a7", "b8"), mustSquares(c.Board, "g1", "h2")}
	presets["corner"] = c

	// RULES.md section 8's games on the generic generator.
	presets["turkish"] = Params{Name: "turkish", GameType: 30, Layout: AllSquares, Board: Board{8, 8, false},
		Start: "W:W41-56:B9-24", FirstPlayer: White, Kings: FlyingKings, MenCaptureKings: true,
		MenMoves: DirForward | DirSideways, MenCaptures: DirForward | DirSideways, KingMoves: Orthogonal, KingCaptures: Orthogonal,
		RemoveAtOnce: true, NoTurnBack: true, Precedence: Majority, Promotion: PromoteOnlyIfEnding, Notation: Algebraic,
		// project's reading: 50 moves each without a capture (or a man's move)
		Draws: DrawRules{ThreefoldAutomatic: true, MoveRule: 50, OnePieceEach: true}}
	fr := Params{Name: "frisian", GameType: 40, Board: Board{10, 10, false}, RowsOfMen: 4, FirstPlayer: White,
		MenCaptureBackward: true, Kings: FlyingKings, MenCaptureKings: true,
		MenMoves: DirForwardDiagonal, MenCaptures: AllDirs, KingMoves: Diagonals, KingCaptures: AllDirs,
		Precedence: HighestValue, Promotion: PromoteOnlyIfEnding, KingMoveLimit: 3, WideResults: true,
		Draws: DrawRules{ThreefoldAutomatic: true, TwoKingsOneKing: 7, KingOneKing: 2}}
	presets["frisian"] = fr
	fr.Name, fr.GameType, fr.Start, fr.RowsOfMen = "frysk", 97, "W:W46-50:B1-5", 0
	presets["frysk"] = fr
	presets["gothic"] = Params{Name: "gothic", Layout: AllSquares, Board: Board{8, 8, false}, RowsOfMen: 2, FirstPlayer: White,
		Kings: ShortKings, MenCaptureKings: true,
		MenMoves: DirForward | DirForwardDiagonal | DirSideways, MenCaptures: DirForward | DirForwardDiagonal | DirSideways,
		KingMoves: AllDirs, KingCaptures: AllDirs, Precedence: FreeChoice, Promotion: PromoteStop, Notation: Algebraic,
		// project's reading: threefold, and 50 moves each without a capture or a man's move
		Draws: DrawRules{ThreefoldAutomatic: true, MoveRule: 50}}
	presets["alquerque"] = Params{Name: "alquerque", Layout: AlquerqueGrid, Board: Board{5, 5, false},
		Start: "W:W14-25:B1-12", FirstPlayer: White, MenCaptureKings: true,
		MenMoves: DirForward | DirForwardDiagonal | DirSideways, MenCaptures: DirForward | DirForwardDiagonal | DirSideways,
		MenLaterCaptures: AllDirs, KingMoves: AllDirs, KingCaptures: AllDirs,
		NoReturn: true, Precedence: FreeChoice, Promotion: PromoteNever, Notation: Algebraic,
		Draws: DrawRules{ThreefoldAutomatic: true}}
	// Parachute: Czech with 8 men each on its 2nd and 3rd rows and 4
	// parachutists on the opponent's first row.
	pc := presets["czech"]
	pc.Name, pc.GameType, pc.Parachutists, pc.RowsOfMen = "parachute", 0, true, 0
	pc.Start = "W:W21-28,P1,P2,P3,P4:B5-12,P29,P30,P31,P32"
	presets["parachute"] = pc
	// Hawaii (Konane): White on the dark squares, Black on the light ones,
	// Black first; opening removals, then only captures.
	presets["hawaii"] = Params{Name: "hawaii", Layout: AllSquares, Board: Board{8, 8, false}, Start: hawaiiStart(),
		FirstPlayer: Black, MenCaptureKings: true, MenCaptures: Orthogonal, OpeningRemovals: true, OptionalJumps: true,
		Precedence: FreeChoice, Promotion: PromoteNever, Notation: Algebraic}
	presets["dameo"] = Params{Name: "dameo", Layout: AllSquares, Board: Board{8, 8, false},
		Start: "W:W43-46,50-55,57-64:B1-8,10-15,19-22", FirstPlayer: White, MenCaptureBackward: true,
		Kings: FlyingKings, MenCaptureKings: true,
		MenMoves: DirForward | DirForwardDiagonal, LinearMoves: true, MenCaptures: Orthogonal,
		KingMoves: AllDirs, KingCaptures: Orthogonal, Precedence: Majority, Promotion: PromoteOnlyIfEnding,
		Notation: Algebraic, Draws: DrawRules{ThreefoldAutomatic: true}}
	return presets
}

// hawaiiStart is Hawaii's full board: White on the dark squares (a1 is
// dark), Black on the light ones, numbered 1 (a8) to 64 (h1); Black to move.
func hawaiiStart() string {
	var w, b []string
	for sq := 1; sq <= 64; sq++ {
		r, c := (sq-1)/8, (sq-1)%8
		file, rank := c+1, 8-r
		if (file+rank)%2 == 0 {
			w = append(w, strconv.Itoa(sq))
		} else {
			b = append(b, strconv.Itoa(sq))
		}
	}
	return "B:W" + strings.Join(w, ",") + ":B" + strings.Join(b, ",")
}

// mustSquares is the set of the named squares of board b (preset tables).
func mustSquares(b Board, names ...string) Set {
	g, err := newGeometry(b)
	if err != nil {
		panic(err)
	}
	var s Set
	for _, n := range names {
		sq, err := g.parseSquare(n)
		if err != nil {
			panic(err)
		}
		s = s.With(sq)
	}
	return s
}

// aliases map other common names to presets.
var aliases = map[string]string{
	"checkers": "english", "american": "english", "draughts": "international", "fmjd": "international",
	"wcdf": "english", "anti": "antidraughts", "antidam": "giveaway", "losing": "giveaway",
	"bt": "breakthrough",
}

// presetVariants holds the presets built so far, by name. A preset is
// built the first time it is asked for: building all of them took 1.2 ms
// of every start of the binary, an engine's included, for the one or two
// a run uses. A preset that does not build is a bug caught by the tests
// (TestEveryPresetBuilds), and a panic at its first use.
var presetVariants sync.Map // string -> *Variant

// presetByGameType names the preset of each PDN GameType (each has one:
// TestEveryPresetBuilds).
var presetByGameType = func() map[int]string {
	m := make(map[int]string, len(presets))
	for name, p := range presets {
		if p.GameType != 0 {
			m[p.GameType] = name
		}
	}
	return m
}()

// preset returns the preset called name (already lower-case, no alias).
func preset(name string) (*Variant, bool) {
	if v, ok := presetVariants.Load(name); ok {
		return v.(*Variant), true
	}
	p, ok := presets[name]
	if !ok {
		return nil, false
	}
	// NewVariant interns: two callers racing here store the same variant.
	v, err := NewVariant(p)
	if err != nil {
		panic(fmt.Sprintf("rules: preset %s: %v", name, err))
	}
	presetVariants.Store(name, v)
	return v, true
}

// interned holds every variant built, by its parameters (see Variant).
var interned struct {
	sync.Mutex
	m map[Params]*Variant
}

// NewVariant checks p and returns the variant it describes. Equal Params
// give the same *Variant. Variants are kept for the life of the process, one
// per distinct Params: a config builds one, so the table stays small.
func NewVariant(p Params) (*Variant, error) {
	interned.Lock()
	defer interned.Unlock()
	if v, ok := interned.m[p]; ok {
		return v, nil
	}
	v, err := p.build()
	if err != nil {
		return nil, err
	}
	if interned.m == nil {
		interned.m = make(map[Params]*Variant)
	}
	interned.m[p] = v
	return v, nil
}

// build checks p and makes its variant (not interned).
func (p Params) build() (*Variant, error) {
	g, err := p.check()
	if err != nil {
		return nil, err
	}
	v := &Variant{p: p, geo: g, up: [2]bool{p.Forward[White] != TowardBottom, p.Forward[Black] == TowardTop}}
	v.noBitboards = !v.up[White] || v.up[Black]
	v.grid = p.needsGrid()
	if v.grid {
		v.noBitboards = true
		v.gd = newGridDirs(&p, v.up)
	}
	v.start = v.defaultStart()
	if p.Start != "" {
		s, err := ParseFEN(v, p.Start)
		if err != nil {
			return nil, fmt.Errorf("rules: variant %q: start position: %w", p.Name, err)
		}
		v.start = s
	}
	return v, nil
}

// Lookup returns the preset variant with the given name (case-insensitive;
// common aliases such as "checkers" are accepted).
func Lookup(name string) (*Variant, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if a, ok := aliases[n]; ok {
		n = a
	}
	if v, ok := preset(n); ok {
		return v, nil
	}
	return nil, fmt.Errorf("%w %q (presets: %s)", ErrUnknownVariant, name, strings.Join(Presets(), ", "))
}

// MustLookup is Lookup for names known at compile time; it panics on an unknown name.
func MustLookup(name string) *Variant {
	v, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return v
}

// Presets lists the preset names in alphabetical order.
func Presets() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ByGameType returns the preset for a PDN GameType number.
func ByGameType(gt int) (*Variant, bool) {
	if name, ok := presetByGameType[gt]; ok && gt != 0 {
		return preset(name)
	}
	return nil, false
}

// Validate checks the parameters of a custom variant: nil exactly when
// NewVariant(p) succeeds.
func (p Params) Validate() error {
	_, err := p.build()
	return err
}

// check is Validate, returning the board tables it built on the way.
func (p Params) check() (*geometry, error) {
	g, err := newLayoutGeometry(p.Board, p.Layout)
	if err != nil {
		return nil, err
	}
	if p.needsGrid() && g.n > 64 {
		return nil, fmt.Errorf("rules: variant %q: the generic generator's rules need a board of at most 64 squares, not %d", p.Name, g.n)
	}
	if p.Precedence == ItalianOrder && p.needsGrid() {
		return nil, fmt.Errorf("rules: variant %q: the Italian precedence is for the diagonal rules only", p.Name)
	}
	if (p.Precedence == HighestValue || p.Promotion == PromoteNever) && !p.needsGrid() {
		// (needsGrid is true for them: unreachable, kept as a guard)
		return nil, fmt.Errorf("rules: variant %q: precedence or promotion needs the generic generator", p.Name)
	}
	if p.Start != "" && p.RowsOfMen == 0 {
		// the start position is given: no rows of men to check
	} else if p.RowsOfMen < 1 || p.RowsOfMen >= p.Board.Height || 2*p.RowsOfMen >= p.Board.Height {
		return nil, fmt.Errorf("rules: variant %q: %d rows of men do not fit a board of height %d with an empty middle", p.Name, p.RowsOfMen, p.Board.Height)
	}
	if p.Kings > FlyingLandBehind || p.Precedence > HighestValue || p.Promotion > PromoteNever || p.FirstPlayer > Black {
		return nil, fmt.Errorf("rules: variant %q: parameter out of range", p.Name)
	}
	if p.IllegalMoves > IllegalWarnsFirst {
		return nil, fmt.Errorf("rules: variant %q: illegal-move rule out of range", p.Name)
	}
	if p.Notation > Algebraic {
		return nil, fmt.Errorf("rules: variant %q: notation out of range", p.Name)
	}
	if p.Notation == Algebraic && p.Board.Width > maxAlgebraicWidth {
		// Files run a..w: x is the capture separator of move text.
		return nil, fmt.Errorf("rules: variant %q: algebraic notation needs a board at most %d wide, not %d", p.Name, maxAlgebraicWidth, p.Board.Width)
	}
	if p.Forward[White] > TowardBottom || p.Forward[Black] > TowardBottom {
		return nil, fmt.Errorf("rules: variant %q: men's heading out of range", p.Name)
	}
	for c, s := range p.PromotionSquares {
		for sq := range s.All() {
			if int(sq) > g.n {
				return nil, fmt.Errorf("rules: variant %q: %s promotion square %d is off the board (1-%d)", p.Name, Color(c), sq, g.n)
			}
		}
	}
	if p.Draws.MoveRule < 0 {
		return nil, fmt.Errorf("rules: variant %q: negative move rule %d (0 = none)", p.Name, p.Draws.MoveRule)
	}
	if p.Draws.TwoKingsOneKing < 0 || p.Draws.KingOneKing < 0 {
		return nil, fmt.Errorf("rules: variant %q: negative kings-endgame rule (%d, %d; 0 = none)", p.Name, p.Draws.TwoKingsOneKing, p.Draws.KingOneKing)
	}
	return g, nil
}

// needsGrid reports whether p sets a rule only the generic generator plays.
func (p *Params) needsGrid() bool {
	return p.Layout != DarkSquares || p.MenMoves|p.MenCaptures|p.MenLaterCaptures|p.KingMoves|p.KingCaptures != 0 ||
		p.RemoveAtOnce || p.NoTurnBack || p.LinearMoves || p.KingMoveLimit > 0 || p.NoReturn || p.Parachutists ||
		p.OpeningRemovals || p.OptionalJumps ||
		p.Precedence == HighestValue || p.Promotion == PromoteNever
}

// maxAlgebraicWidth is the widest board algebraic squares can name: files a
// to w (x is a capture separator), and an even width.
const maxAlgebraicWidth = 22

// Ready reports whether v can be played: a variant from Lookup or
// NewVariant (not nil, nor a zero Variant).
func (v *Variant) Ready() error {
	if v == nil {
		return errors.New("rules: no variant")
	}
	if v.geo == nil {
		return errors.New("rules: a zero Variant; build one with Lookup or NewVariant")
	}
	return nil
}

// mustBeReady turns a programming error (a zero Variant)
// into a panic that says so, instead of a nil dereference deep inside.
func (v *Variant) mustBeReady() {
	if err := v.Ready(); err != nil {
		panic(err)
	}
}

// Params returns the parameters of v: a copy, to read or to change and
// build another variant from.
func (v *Variant) Params() Params { return v.p }

// Equal reports whether v and o are the same rule set (same parameters,
// names included).
func (v *Variant) Equal(o *Variant) bool {
	if v == nil || o == nil {
		return v == o
	}
	return v.p == o.p
}

// Name is the variant's name, e.g. "english".
func (v *Variant) Name() string { return v.p.Name }

// GameType is the PDN GameType number, 0 for custom variants.
func (v *Variant) GameType() int { return v.p.GameType }

// Board is the board's size and numbering.
func (v *Variant) Board() Board { return v.p.Board }

// RowsOfMen is how many rows each side fills at the start.
func (v *Variant) RowsOfMen() int { return v.p.RowsOfMen }

// FirstPlayer is the side that moves first from the starting position.
func (v *Variant) FirstPlayer() Color { return v.p.FirstPlayer }

// MenCaptureBackward reports whether men may capture backwards.
func (v *Variant) MenCaptureBackward() bool { return v.p.MenCaptureBackward }

// Kings is how far kings move and where they land after a capture.
func (v *Variant) Kings() KingRange { return v.p.Kings }

// Precedence is which captures a player may choose among.
func (v *Variant) Precedence() Precedence { return v.p.Precedence }

// Promotion is what happens to a man reaching the far row in a capture.
func (v *Variant) Promotion() PromotionRule { return v.p.Promotion }

// MenCaptureKings is false in Italian draughts, where a man may not take a king.
func (v *Variant) MenCaptureKings() bool { return v.p.MenCaptureKings }

// Losing reports a losing variant: the side that cannot move wins.
func (v *Variant) Losing() bool { return v.p.Losing }

// Notation is how squares are written in move text.
func (v *Variant) Notation() Notation { return v.p.Notation }

// WideResults reports results written as 2-0 / 1-1 / 0-2 (international, Canadian).
func (v *Variant) WideResults() bool { return v.p.WideResults }

// Draws are the draw rules the arbiter enforces.
func (v *Variant) Draws() DrawRules { return v.p.Draws }

// IllegalMoves is the federation's default illegal-move rule.
func (v *Variant) IllegalMoves() IllegalMoveRule { return v.p.IllegalMoves }

// Layout is what the board is made of: dark squares, all squares, or
// Alquerque's grid of points.
func (v *Variant) Layout() Layout { return v.p.Layout }

// Squares is the number of playable squares of the variant's board.
func (v *Variant) Squares() int { return v.geo.n }

// GameTypeTag is the full PDN GameType tag value, e.g. "20,W,10,10,N2,0".
func (v *Variant) GameTypeTag() string {
	if v.p.GameType == 0 {
		return ""
	}
	return fmt.Sprint(v.p.GameType)
}

// ParseSquare reads a square as a number or an algebraic name.
func (v *Variant) ParseSquare(s string) (Square, error) { return v.geo.parseSquare(s) }

// SquareName writes a square in the variant's notation.
func (v *Variant) SquareName(sq Square) string {
	if v.p.Notation == Algebraic {
		return v.geo.algebraic(sq)
	}
	return strconv.Itoa(int(sq))
}

// Next returns the neighbour of sq in direction d, or 0 at the edge.
func (v *Variant) Next(sq Square, d Direction) Square { return v.geo.next[sq][d] }

// RowCol returns the row (0 = top) and column (0 = left) of sq.
func (v *Variant) RowCol(sq Square) (row, col int) { return int(v.geo.row[sq]), int(v.geo.col[sq]) }

// promotes reports whether a man of colour c on sq is crowned there: it
// stands on its far row (or on one of its PromotionSquares).
func (v *Variant) promotes(c Color, sq Square) bool {
	if v.p.Promotion == PromoteNever {
		return false
	}
	if ps := v.p.PromotionSquares[c]; !ps.Empty() {
		return ps.Has(sq)
	}
	if v.up[c] {
		return v.geo.row[sq] == 0
	}
	return int(v.geo.row[sq]) == v.p.Board.Height-1
}

// Crowns reports whether a man of colour c is crowned on sq (its far row,
// or its promotion squares where the variant has them).
func (v *Variant) Crowns(c Color, sq Square) bool {
	if sq < 1 || int(sq) > v.geo.n {
		return false
	}
	return v.promotes(c, sq)
}

// KillerKings reports Killer's rule: a king whose capture ends by taking a
// king lands right behind it.
func (v *Variant) KillerKings() bool { return v.p.KillerKings }

// BackRowWins reports Breakthrough's rule: the first side to end a move on
// its king row wins.
func (v *Variant) BackRowWins() bool { return v.p.BackRowWins }

// PromotionSquares returns colour c's promotion squares, empty when its men
// are crowned anywhere on the far row.
func (v *Variant) PromotionSquares(c Color) Set { return v.p.PromotionSquares[c] }

// Forward returns the way colour c's men go (never HeadingUsual).
func (v *Variant) Forward(c Color) Heading {
	if v.up[c] {
		return TowardTop
	}
	return TowardBottom
}
