package rules

import (
	"slices"
	"strings"
	"testing"
)

// section8Case is one hand-checked position for a rule of RULES.md section
// 8: the complete list of legal moves, written from-to / fromxto (the
// squares as the variant names them), one per move identity.
type section8Case struct {
	rule    string
	variant *Variant
	fen     string
	want    []string
	// check, when set, tests more of the position (promotion, outcome,
	// state after a move).
	check func(t *testing.T, p Position)
}

// moveIDText writes a move for section8Case: from, a separator, to.
func moveIDText(p *Position, m Move) string {
	sep := "-"
	if m.IsCapture() {
		sep = "x"
	}
	return p.v.SquareName(m.From) + sep + p.v.SquareName(m.To)
}

// movesIDText lists the legal moves of p, sorted, as section8Case writes them.
func movesIDText(p *Position) []string {
	var got []string
	for _, m := range p.LegalMoves() {
		got = append(got, moveIDText(p, m))
	}
	slices.Sort(got)
	return got
}

// mustMove plays the legal move written text (moveIDText's form) in p.
func mustMove(t *testing.T, p Position, text string) Position {
	t.Helper()
	for _, m := range p.LegalMoves() {
		if moveIDText(&p, m) == text {
			return p.Play(m)
		}
	}
	t.Fatalf("%s: no legal move %s among %v", p.FEN(), text, movesIDText(&p))
	return p
}

// findMove returns the legal move written text in p.
func findMove(t *testing.T, p Position, text string) Move {
	t.Helper()
	for _, m := range p.LegalMoves() {
		if moveIDText(&p, m) == text {
			return m
		}
	}
	t.Fatalf("%s: no legal move %s among %v", p.FEN(), text, movesIDText(&p))
	return Move{}
}

func runSection8(t *testing.T, cases []section8Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.variant.Name()+"/"+c.rule, func(t *testing.T) {
			p, err := ParseFEN(c.variant, c.fen)
			if err != nil {
				t.Fatalf("%s: %v", c.rule, err)
			}
			got := movesIDText(&p)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s: legal moves %s, want %s", c.rule, c.fen, strings.Join(got, " "), strings.Join(want, " "))
			}
			if c.variant.geo != nil && !c.variant.noBitboards && bbGeoFor(c.variant) != nil {
				if ref := p.referenceMoves(false); !sameMoves(p.LegalMoves(), ref) {
					t.Errorf("%s: bitboard %s, reference %s", c.fen, movesString(&p, p.LegalMoves()), movesString(&p, ref))
				}
			}
			if c.check != nil {
				c.check(t, p)
			}
		})
	}
}

// oneWay is Czech with both sides' men going up the board (RULES.md
// section 8, One-way: a custom variant until a source gives the start).
func oneWay(t *testing.T) *Variant {
	p := MustLookup("czech").Params()
	p.Name, p.GameType = "one-way", 0
	p.Forward = [2]Heading{TowardTop, TowardTop}
	v, err := NewVariant(p)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSection8DarkSquareRules: Killer, Breakthrough, Corner and One-way,
// the rules of section 8 that the dark-square generators play.
func TestSection8DarkSquareRules(t *testing.T) {
	killer, bt, corner := MustLookup("killer"), MustLookup("breakthrough"), MustLookup("corner")
	promotes := func(text string, want bool) func(t *testing.T, p Position) {
		return func(t *testing.T, p Position) {
			if m := findMove(t, p, text); m.Promotes != want {
				t.Errorf("%s: %s promotes = %v, want %v", p.FEN(), text, m.Promotes, want)
			}
		}
	}
	runSection8(t, []section8Case{
		{rule: "killer: a king that takes a king last stops right behind it", variant: killer, fen: "W:WK46:BK37",
			want: []string{"46x32"}},
		{rule: "killer: behind a man the king lands on any free square", variant: killer, fen: "W:WK46:B37",
			want: []string{"46x32", "46x28", "46x23", "46x19", "46x14", "46x10", "46x5"}},
		{rule: "killer: a king taken before the last piece does not stop the king", variant: killer, fen: "W:WK46:BK37,22",
			want: []string{"46x17", "46x11", "46x6"}},
		{rule: "killer: the last piece a king, after a man", variant: killer, fen: "W:WK46:B37,K22",
			want: []string{"46x17"}},
		{rule: "international: no stop behind a king", variant: MustLookup("international"), fen: "W:WK46:BK37",
			want: []string{"46x32", "46x28", "46x23", "46x19", "46x14", "46x10", "46x5"}},
		{rule: "breakthrough: the man that ends a move on the back row wins", variant: bt, fen: "W:W7:B45",
			want: []string{"7-1", "7-2"}, check: func(t *testing.T, p Position) {
				after := mustMove(t, p, "7-1")
				if after.HasMoves() || len(after.LegalMoves()) != 0 || len(after.LegalPaths()) != 0 {
					t.Errorf("%s: black still has moves after white crowned", after.FEN())
				}
				if o := after.Outcome(); o != WhiteWins {
					t.Errorf("%s: outcome %v, want white wins", after.FEN(), o)
				}
				if n := Perft(p, 2, false); n != 0 {
					t.Errorf("perft 2 = %d, want 0 (every move ends the game)", n)
				}
			}},
		{rule: "breakthrough: passing the back row in a capture does not win", variant: bt, fen: "W:W13:B7,8,45",
			want: []string{"13x11"}, check: func(t *testing.T, p Position) {
				after := mustMove(t, p, "13x11")
				if !after.Kings().Empty() || !after.HasMoves() {
					t.Errorf("%s: the capture through the back row ended the game", after.FEN())
				}
			}},
		{rule: "corner: a7 is a white promotion square", variant: corner, fen: "W:Wb6:Bc7,d8",
			want: []string{"b6-a7"}, check: promotes("b6-a7", true)},
		{rule: "corner: d8 is not a promotion square, b8 is", variant: corner, fen: "W:Wc7",
			want: []string{"c7-b8", "c7-d8"}, check: func(t *testing.T, p Position) {
				promotes("c7-b8", true)(t, p)
				promotes("c7-d8", false)(t, p)
				after := mustMove(t, p, "c7-d8")
				if !after.Kings().Empty() {
					t.Errorf("%s: the man on d8 was crowned", after.FEN())
				}
			}},
		{rule: "corner: black promotes on g1 and h2", variant: corner, fen: "B:Bg3,e3:Wa1",
			want: []string{"e3-d2", "e3-f2", "g3-f2", "g3-h2"}, check: func(t *testing.T, p Position) {
				promotes("g3-h2", true)(t, p)
				promotes("e3-d2", false)(t, p)
			}},
		{rule: "corner: elsewhere on the back row a man stays a man", variant: corner, fen: "B:Bd2:Wa1",
			want: []string{"d2-c1", "d2-e1"}, check: func(t *testing.T, p Position) {
				promotes("d2-c1", false)(t, p)
				promotes("d2-e1", false)(t, p)
			}},
		{rule: "one-way: black men move up the board too", variant: oneWay(t), fen: "B:Bc3",
			want: []string{"c3-b4", "c3-d4"}},
		{rule: "one-way: black men capture up the board and are crowned on rank 8", variant: oneWay(t), fen: "B:Bd6:We7",
			want: []string{"d6xf8"}, check: promotes("d6xf8", true)},
	})
}

// TestSection8GenericRules: one hand-checked position per rule of RULES.md
// section 8 that the generic generator plays (grid.go).
func TestSection8GenericRules(t *testing.T) {
	turkish, frisian, dameo, gothic, alquerque := MustLookup("turkish"), MustLookup("frisian"), MustLookup("dameo"), MustLookup("gothic"), MustLookup("alquerque")
	hawaii, parachute := MustLookup("hawaii"), MustLookup("parachute")
	runSection8(t, []section8Case{
		{rule: "turkish: a man that reaches the back rank mid-capture goes on as a man, crowned at the end", variant: turkish,
			fen: "W:Wc6:Bc7,d8", want: []string{"c6xe8"}, check: func(t *testing.T, p Position) {
				m := findMove(t, p, "c6xe8")
				if !m.Promotes || len(m.Path) != 2 || p.v.SquareName(m.Path[0]) != "c8" {
					t.Errorf("c6xe8: path %v promotes %v, want via c8, crowned", m.Path, m.Promotes)
				}
			}},
		{rule: "turkish: a king is blocked by its own man; men move straight forward and sideways", variant: turkish,
			fen: "W:WKa1,a3:Ba5", want: []string{"a1-a2", "a1-b1", "a1-c1", "a1-d1", "a1-e1", "a1-f1", "a1-g1", "a1-h1", "a3-a4", "a3-b3"}},
		{rule: "turkish: pieces are removed at once, so a king crosses a captured square to a new capture", variant: turkish,
			fen: "W:WKc5:Bc3,Kb1,a2,e3", want: []string{"c5xf3", "c5xg3", "c5xh3"}, check: func(t *testing.T, p Position) {
				m := findMove(t, p, "c5xf3")
				if m.Captured.Len() != 4 {
					t.Errorf("c5xf3 takes %d pieces, want 4 (c3, b1, a2, e3)", m.Captured.Len())
				}
			}},
		{rule: "turkish: no 180-degree turn between two jumps", variant: turkish,
			fen: "W:WKd4:Bd6,d2", want: []string{"d4xd1", "d4xd7", "d4xd8"}},
		{rule: "frisian: value precedence, 2 kings beat 3 men", variant: frisian,
			fen: "W:W45,46:B4,15,35,K41,K32", want: []string{"46x28"}},
		{rule: "frisian: value precedence, 3 men beat 1 king", variant: frisian,
			fen: "W:W45,46:B4,15,35,K41", want: []string{"45x3"}},
		{rule: "frisian: men capture straight along files and rows", variant: frisian,
			fen: "W:W28:B18,27", want: []string{"28x8", "28x26"}},
		{rule: "frisian: at equal value a king must capture", variant: frisian,
			fen: "W:WK1,46:B7,36", want: []string{"1x12", "1x18", "1x23", "1x29", "1x34", "1x40", "1x45"}},
		{rule: "frisian: a side with men may not move the same king a fourth time in a row", variant: frisian,
			fen: "W:WK46,15:B1:KW46/3", want: []string{"15-10"}, check: func(t *testing.T, p Position) {
				// and the count is kept by play, and is part of the position
				q, err := ParseFEN(frisian, "W:WK46,15:B1")
				if err != nil {
					t.Fatal(err)
				}
				for i, mv := range []string{"46-41", "1-6", "41-37", "6-11", "37-32", "11-16"} {
					q = mustMove(t, q, mv)
					if i == 3 && q.st[White].n != 2 {
						t.Errorf("%s: count %d after two king moves, want 2", q.FEN(), q.st[White].n)
					}
				}
				if got := movesIDText(&q); !slices.Equal(got, []string{"15-10"}) {
					t.Errorf("%s: after three king moves: %v, want 15-10 only", q.FEN(), got)
				}
				if q.FEN() != "W:W15,K32:B16:KW32/3" {
					t.Errorf("FEN %s, want the count written", q.FEN())
				}
				back, err := ParseFEN(frisian, q.FEN())
				if err != nil || back != q {
					t.Errorf("FEN %s reads back as %v (%v)", q.FEN(), back.FEN(), err)
				}
				if r, _ := ParseFEN(frisian, "W:W15,K32:B16"); r == q {
					t.Error("the count is not part of the position's identity")
				}
			}},
		{rule: "frisian: a side with only kings has no king-move limit", variant: frisian,
			fen: "W:WK46:B1:KW46/3", want: []string{"46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10", "46-5"}},
		{rule: "killer: see TestSection8DarkSquareRules; frisian men move diagonally forward only", variant: frisian,
			fen: "W:W33", want: []string{"33-28", "33-29"}},
		{rule: "dameo: linear move, the rear man of a line goes to the square in front", variant: dameo,
			fen: "W:Wc1,c2", want: []string{"c1-b2", "c1-d2", "c1-c3", "c2-b3", "c2-c3", "c2-d3"}, check: func(t *testing.T, p Position) {
				q := mustMove(t, p, "c1-c3")
				if q.FEN() != "B:Wc3,c2:B" {
					t.Errorf("after c1-c3: %s, want men on c2 and c3", q.FEN())
				}
			}},
		{rule: "dameo: men capture orthogonally only, backwards too, never diagonally", variant: dameo,
			fen: "W:Wd4:Bd5,e5,c4,d3", want: []string{"d4xd6", "d4xb4", "d4xd2"}},
		{rule: "dameo: crowned only if the move ends on the back row", variant: dameo,
			fen: "W:Wd6:Bd7,e8,g8", want: []string{"d6xh8"}, check: func(t *testing.T, p Position) {
				if m := findMove(t, p, "d6xh8"); !m.Promotes {
					t.Error("d6xh8 ends on the back row: crowned")
				}
			}},
		{rule: "gothic: men move forward, diagonally forward and sideways", variant: gothic,
			fen: "W:Wd4:Ba8", want: []string{"d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"}},
		{rule: "gothic: men capture sideways", variant: gothic,
			fen: "W:Wd4:Be4", want: []string{"d4xf4"}},
		{rule: "alquerque: a later jump goes backwards; free choice", variant: alquerque,
			fen: "W:Wa1:Ba2,b2", want: []string{"a1xc1", "a1xc3"}},
		{rule: "alquerque: a piece may not return to the point it left on its previous move", variant: alquerque,
			fen: "W:Wd3:Be5:RWd3/c3", want: []string{"d3-d4", "d3-e3"}, check: func(t *testing.T, p Position) {
				q, err := ParseFEN(alquerque, "W:Wc3:Be5")
				if err != nil {
					t.Fatal(err)
				}
				q = mustMove(t, mustMove(t, q, "c3-d3"), "e5-e4")
				if got := movesIDText(&q); slices.Contains(got, "d3-c3") {
					t.Errorf("%s: %v: d3 goes back to c3", q.FEN(), got)
				}
				if q.FEN() != "W:Wd3:Be4:RWd3/c3:RBe4/e5" {
					t.Errorf("FEN %s, want the no-return state written", q.FEN())
				}
			}},
		{rule: "hawaii: black opens by removing one of its pieces from a corner or the centre", variant: hawaii,
			fen: NewPosition(hawaii).FEN(), want: []string{"a8-a8", "d5-d5", "e4-e4", "h1-h1"}, check: func(t *testing.T, p Position) {
				q := mustMove(t, p, "d5-d5")
				if got, want := movesIDText(&q), []string{"c5-c5", "d4-d4", "d6-d6", "e5-e5"}; !slices.Equal(got, want) {
					t.Errorf("white's removals next to the hole: %v, want %v", got, want)
				}
				q = mustMove(t, q, "d4-d4")
				// black's pieces stand on light squares: they jump into d5 only
				if got, want := movesIDText(&q), []string{"b5xd5", "d7xd5", "f5xd5"}; !slices.Equal(got, want) {
					t.Errorf("after the removals, only captures into the holes: %v, want %v", got, want)
				}
			}},
		{rule: "hawaii: a piece may go on jumping straight on, or stop", variant: hawaii,
			fen: "W:Wa1:Ba2,a4", want: []string{"a1xa3", "a1xa5"}},
		{rule: "hawaii: a piece that goes on jumps only straight on", variant: hawaii,
			fen: "W:Wa1:Ba2,b3", want: []string{"a1xa3"}},
		{rule: "parachute: a parachutist jumps backwards over a piece next to it and lands as a man", variant: parachute,
			fen: "W:WPd8,c1:Bc7,e7,h4", want: []string{"d8xb6", "d8xf6"}, check: func(t *testing.T, p Position) {
				q := mustMove(t, p, "d8xb6")
				b6, _ := parachute.ParseSquare("b6")
				if c, k, ok := q.Piece(b6); !ok || c != White || k != Man || q.Parachutists().Has(b6) || !q.Parachutists().Empty() {
					t.Errorf("%s: the parachutist did not land as a white man on b6", q.FEN())
				}
				if back, err := ParseFEN(parachute, p.FEN()); err != nil || back != p {
					t.Errorf("FEN %s reads back as %v, %v", p.FEN(), back.FEN(), err)
				}
			}},
		{rule: "parachute: a parachutist never makes a plain move", variant: parachute,
			fen: "W:WPd8,c1:Bh4", want: []string{"c1-b2", "c1-d2"}},
		{rule: "alquerque: men never promote; no diagonal where the point has none", variant: alquerque,
			fen: "W:Wc4:Ba5", want: []string{"c4-b4", "c4-c5", "c4-d4"}, check: func(t *testing.T, p Position) {
				q := mustMove(t, p, "c4-c5")
				if !q.Kings().Empty() {
					t.Errorf("%s: a man was crowned", q.FEN())
				}
			}},
	})
}

// EndReason names how a game ended by the rules: no legal move (a loss, or
// a win in a losing variant), or Breakthrough's crowned man.
func TestEndReason(t *testing.T) {
	tests := []struct {
		variant, fen, move string // move played first, "" = none
		want               Outcome
		why                string
	}{
		{"breakthrough", "W:W7:B45", "7-1", WhiteWins, "White reached the back row (1) and wins"},
		{"breakthrough", "B:W7:B44", "44-50", BlackWins, "Black reached the back row (50) and wins"},
		{"breakthrough", "W:W7:B45", "", Ongoing, ""},
		{"international", "B:W7:B", "", WhiteWins, "Black has no pieces left"},
		{"antidraughts", "B:W7:B", "", BlackWins, "Black has no pieces left and wins (losing variant)"},
		// Blocked: black's man on 6 can only go to 11, taken by white, and
		// cannot take it (17 is taken too).
		{"international", "B:W11,17:B6", "", WhiteWins, "Black has no legal move"},
		{"antidraughts", "B:W11,17:B6", "", BlackWins, "Black has no legal move and wins (losing variant)"},
	}
	for _, tt := range tests {
		v := MustLookup(tt.variant)
		p, err := ParseFEN(v, tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		if tt.move != "" {
			p = mustMove(t, p, tt.move)
		}
		o, why := p.EndReason()
		if o != tt.want || why != tt.why || p.Outcome() != o {
			t.Errorf("%s %s %s: %v %q (Outcome %v), want %v %q", tt.variant, tt.fen, tt.move, o, why, p.Outcome(), tt.want, tt.why)
		}
	}
}
