package rules

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseFEN(t *testing.T) {
	eng, intl, rus, ita := MustLookup("english"), MustLookup("international"), MustLookup("russian"), MustLookup("italian")
	tests := []struct {
		name string
		v    *Variant
		fen  string
		want Position
	}{
		{"international start with ranges", intl, "W:W31-50:B1-20", NewPosition(intl)},
		{"english start, lists reversed", eng, "B:W21-32:B1-12", NewPosition(eng)},
		{"lists in either order", eng, "B:B1-12:W21-32", NewPosition(eng)},
		{"trailing dot, spaces, quotes", eng, ` "B:W21-32 : B1-12." `, NewPosition(eng)},
		{"ussr1947 start: numbers in a Russian FEN, trailing dot", rus,
			"W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4.", NewPosition(rus)},
		{"kings", eng, "B:W18,K24:BK3,12.", Setup(eng, Black, SetOf(18, 24), SetOf(3, 12), SetOf(24, 3))},
		{"lower case", eng, "w:wk1:b27", Setup(eng, White, SetOf(1), SetOf(27), SetOf(1))},
		{"algebraic squares", rus, "W:Wc3,Ka1:Bd4,f6", Setup(rus, White, SetOf(22, 29), SetOf(18, 11), SetOf(29))},
		{"dots after items", eng, "W:W18.,19:B1.", Setup(eng, White, SetOf(18, 19), SetOf(1), Set{})},
		{"empty side", eng, "W:W18:B", Setup(eng, White, SetOf(18), Set{}, Set{})},
		{"mirrored board numbering", ita, "W:W21-32:B1-12", NewPosition(ita)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.v, tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if p != tc.want {
				t.Errorf("got %s, want %s", p, tc.want)
			}
		})
	}
}

func TestParseFENErrors(t *testing.T) {
	eng := MustLookup("english")
	tests := []struct{ fen, msg string }{
		{"", "side to move"},
		{"X:W1:B2", `side to move "X" is not W, B or ?`},
		{"?:W1:B2", `side to move "?" is not W or B`}, // ParseFENLenient reads it
		{"W:W5:W6", "two piece lists for white"},
		{"W:W1,1:B2", "square 1 is given twice"},
		{"W:W1:B1", "square 1 is given twice"},
		{"W:W5-3:B1", `range "5-3" runs backwards`},
		{"W:W0:B1", "square 0 is off the board (1-32)"},
		{"W:W33:B1", "square 33 is off the board (1-32)"},
		{"W:Q1:B2", `piece list "Q1" does not start with W or B`},
		{"W:W5:B2:B3", "two piece lists for black"},
		{"W:W5:B2:B3:W7:B8:W1:B2", "want side:W...:B..."},
		{"W:W5:B2:H1x", "not a piece list"},
		{"W:WK5:B2:KW5/2", "english has no such state"},
		{"W:WK:B1", `without a square in "WK"`},
		{"W:Wcc:B1", `bad square "cc"`},
		{"W:Wx7:B1", `"x7" is not a playable square`},
		{"W:Wa2:B1", `"a2" is not a playable square`},
		{"W:W+5:B1", `bad square "+5"`},
		{"W:Wc+3:B1", `bad square "c+3"`},
		{"W:W1:B20", "white man on 1 stands on its king row"},
		{"B:W20:B29", "black man on 29 stands on its king row"},
		{"B:W20,K4:BK29,30,12", "black man on 30 stands on its king row"},
	}
	for _, tc := range tests {
		t.Run(tc.fen, func(t *testing.T) {
			p, err := ParseFEN(eng, tc.fen)
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("got %v, %v; want a syntax error", p, err)
			}
			if !strings.Contains(err.Error(), tc.msg) || strings.Count(err.Error(), ErrSyntax.Error()) != 1 {
				t.Errorf("error %q, want one %q and %q", err, ErrSyntax, tc.msg)
			}
		})
	}
}

// TestParseFENLenient: what records write and ParseFEN refuses. PDN 3.0's
// FEN tag allows "?" for the side to move; problem collections put a king
// on its king row as a man.
func TestParseFENLenient(t *testing.T) {
	eng, intl := MustLookup("english"), MustLookup("international")
	tests := []struct {
		name    string
		v       *Variant
		fen     string
		want    Position
		unknown bool
		crowned []Piece
	}{
		{"side to move unknown", intl, "?:W29,13,11:B22,4,2", Setup(intl, White, SetOf(29, 13, 11), SetOf(22, 4, 2), Set{}), true, nil},
		{"white man on its king row (English: 1-4)", eng, "W:W2,18:B20", Setup(eng, White, SetOf(2, 18), SetOf(20), SetOf(2)), false, []Piece{{White, 2}}},
		{"both sides, one written as a king already", eng, "B:WK1,3:B30,K31,12", Setup(eng, Black, SetOf(1, 3), SetOf(30, 31, 12), SetOf(1, 3, 30, 31)), false,
			[]Piece{{White, 3}, {Black, 30}}},
		{"a plain FEN needs nothing", eng, "B:W21-32:B1-12", NewPosition(eng), false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseFENLenient(tc.v, tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if s.Position != tc.want || s.UnknownTurn != tc.unknown || fmt.Sprint(s.Crowned) != fmt.Sprint(tc.crowned) {
				t.Errorf("got %s unknown=%v crowned=%v, want %s %v %v", s.Position, s.UnknownTurn, s.Crowned, tc.want, tc.unknown, tc.crowned)
			}
		})
	}
	if _, err := ParseFENLenient(eng, "W:W1,1:B2"); !errors.Is(err, ErrSyntax) {
		t.Errorf("a square given twice: %v", err)
	}
}

func TestFENWriter(t *testing.T) {
	intl, rus := MustLookup("international"), MustLookup("russian")
	if got := NewPosition(intl).FEN(); got != "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20" {
		t.Errorf("international start: %s", got)
	}
	p := Setup(rus, Black, SetOf(22, 29), SetOf(18, 11), SetOf(29, 11))
	// Squares come in numeric order: c3=22 before a1=29, f6=11 before d4=18.
	if got := p.FEN(); got != "B:Wc3,Ka1:BKf6,d4" {
		t.Errorf("russian FEN %s", got)
	}
	if got := p.NumericFEN(); got != "B:W22,K29:BK11,18" {
		t.Errorf("numeric FEN %s", got)
	}
	if p.String() != p.FEN() {
		t.Errorf("String %s", p.String())
	}
}

// A zero Variant (not from Lookup or NewVariant) gives a clear error (or,
// where no error can be returned, a panic that names the cause), not a nil
// dereference.
func TestZeroVariant(t *testing.T) {
	v := &Variant{}
	if _, err := ParseFEN(v, "W:W21:B1"); err == nil || !strings.Contains(err.Error(), "a zero Variant") {
		t.Errorf("ParseFEN: %v", err)
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "a zero Variant") {
				t.Errorf("NewPosition: recovered %v", r)
			}
		}()
		NewPosition(v)
	}()
	v, err := NewVariant(Params{Name: "house", Board: Board{8, 8, false}, RowsOfMen: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Ready(); err != nil {
		t.Errorf("from NewVariant: %v", err)
	}
}
