package pdn

import (
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// twoReadings is a position where a short capture text is both a single
// jump and a longer capture to the same square (PDN 3.0 wants the long form
// then; records often give the short one): in Gothic, Black's man b7 takes
// c6 to d5, or c7 and d6 by way of d7.
func twoReadings(t *testing.T) (rules.Position, string) {
	t.Helper()
	p, err := rules.ParseFEN(rules.MustLookup("gothic"), "B:Bb7:Wc6,c7,d6,h1")
	if err != nil {
		t.Fatal(err)
	}
	if cands, err := p.MatchMoves("b7xd5"); err != nil || len(cands) != 2 {
		t.Fatalf("b7xd5 has readings %v, %v; want two", cands, err)
	}
	return p, "b7xd5"
}

// TestShortCaptureWithTwoReadings: a short capture text that is both a
// single jump and a longer capture to the same square reads as the single
// jump (how MoveText writes it) when nothing else decides, and as the
// longer one when only that reading lets the record go on.
func TestShortCaptureWithTwoReadings(t *testing.T) {
	p, short := twoReadings(t)
	m, err := p.ParseMove(short)
	if err != nil || len(m.Path) != 1 {
		t.Fatalf("ParseMove(%q) = %v, %v; want the single jump", short, m, err)
	}
	cands, _ := p.MatchMoves(short)
	var loop rules.Move
	for _, c := range cands {
		if len(c.Path) > 1 {
			loop = c
		}
	}
	if len(loop.Path) < 2 {
		t.Fatalf("readings %v; want a longer capture among them", cands)
	}
	// A black reply legal only after the longer capture: the record says
	// which capture White made.
	after := p.Play(loop)
	var reply string
	for _, bm := range after.LegalMoves() {
		text := after.MoveText(bm)
		if _, err := p.Play(m).ParseMove(text); err != nil {
			reply = text
			break
		}
	}
	if reply == "" {
		t.Skip("no black reply tells the readings apart in this position")
	}
	for _, c := range []struct {
		name  string
		moves []string
		want  rules.Move
	}{
		{"alone", []string{short}, m},
		{"the rest decides", []string{short, reply}, loop},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := &Game{}
			g.SetTag("FEN", p.FEN())
			for i, text := range c.moves {
				g.Moves = append(g.Moves, Move{Text: text, Num: 1 + i/2, Second: i%2 == 1})
			}
			rep, err := Replay(g, p.Variant())
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Moves) != len(c.moves) {
				t.Fatalf("replay: %d moves of %d", len(rep.Moves), len(c.moves))
			}
			if got := rep.Moves[0]; !got.Same(c.want) {
				t.Errorf("first move read as %v; want %v", got, c.want)
			}
		})
	}
}
