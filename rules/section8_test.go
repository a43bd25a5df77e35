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
