package rules

import (
	"reflect"
	"testing"
)

// TestAppendLegalMoves: AppendLegalMoves gives LegalMoves' moves after what
// dst held (quiet positions, captures by men and kings, promotions; short
// and flying kings), and again in the same buffer reused.
func TestAppendLegalMoves(t *testing.T) {
	for _, c := range []struct{ variant, fen string }{
		{"international", "W:WK4,28,32,33,37,38,42,43,47:B12,13,17,19,22,23,24,K45"},
		{"international", "W:W6,K50:B45"},
		{"english", "B:WK18,K27:BK1"},
		{"english", "W:W5,K14:B10"},
		{"russian", "W:W10,K30:B14,K2"},
	} {
		p, err := ParseFEN(MustLookup(c.variant), c.fen)
		if err != nil {
			t.Fatal(err)
		}
		want := p.LegalMoves()
		if len(want) == 0 {
			t.Fatalf("%s %s: no moves; pick another position", c.variant, c.fen)
		}
		buf := make([]Move, 1, 64)
		buf[0] = Move{From: 1, To: 2}
		got := p.AppendLegalMoves(buf)
		if got[0].From != 1 || got[0].To != 2 || !reflect.DeepEqual(got[1:], want) {
			t.Errorf("%s %s: AppendLegalMoves gave %v, want [1-2] then %v", c.variant, c.fen, got, want)
		}
		if again := p.AppendLegalMoves(got[:0]); !reflect.DeepEqual(again, want) {
			t.Errorf("%s %s: reusing the buffer gave %v, want %v", c.variant, c.fen, again, want)
		}
	}
}
