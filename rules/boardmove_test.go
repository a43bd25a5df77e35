package rules

import "testing"

// BoardMove plays what the squares say, legal or not: the opposing pieces
// between consecutive squares are taken; fewer than two squares are no
// move (the zero Move, not a panic).
func TestBoardMove(t *testing.T) {
	v, err := Lookup("international")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseFEN(v, "W:W32:B28,10")
	if err != nil {
		t.Fatal(err)
	}
	sq := func(s string) Square {
		q, err := v.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	for _, sqs := range [][]Square{nil, {sq("32")}} {
		if m := p.BoardMove(sqs); m.From != 0 || m.To != 0 || m.IsCapture() {
			t.Errorf("BoardMove(%v) = %+v, want the zero Move", sqs, m)
		}
	}
	// 32x23 takes 28, though the capture is short (it could go on): the
	// move as the squares describe it.
	m := p.BoardMove([]Square{sq("32"), sq("23")})
	if m.From != sq("32") || m.To != sq("23") || m.Captured != SetOf(sq("28")) || m.Promotes {
		t.Errorf("BoardMove(32, 23) = %+v, want 28 taken", m)
	}
}
