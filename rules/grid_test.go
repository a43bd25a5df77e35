package rules

import (
	"math/rand/v2"
	"testing"
)

// TestGridMoveProperties checks the generic generator's moves against the
// geometry over random playouts of each of its presets, independently of
// how it searches: every capture path runs from stop to stop along the
// geometry's lines, the pieces it captures are exactly the enemy pieces it
// jumps (one per segment), plain moves go along a line, Play keeps the
// piece counts, and a keep count is at least the unique count.
func TestGridMoveProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, v := range allPresets() {
		if !v.grid {
			continue
		}
		t.Run(v.Name(), func(t *testing.T) {
			captures := 0
			defer func() {
				if captures == 0 {
					t.Errorf("no capture met: the test checked nothing of the captures")
				}
			}()
			for g := 0; g < 8; g++ {
				p := NewPosition(v)
				for ply := 0; ply < 200; ply++ {
					paths := p.LegalPaths()
					for _, m := range paths {
						checkGridMove(t, &p, m)
						if m.IsCapture() {
							captures++
						}
					}
					if len(p.LegalMoves()) > len(paths) {
						t.Fatalf("%s: more moves than paths", p.FEN())
					}
					if len(paths) == 0 {
						break
					}
					p = p.Play(paths[r.IntN(len(paths))])
				}
			}
		})
	}
}

// gridLine returns the absolute direction from a to b along the geometry's
// lines and the squares strictly between them, or false.
func gridLine(g *geometry, a, b Square) (int, []Square, bool) {
	for d := 0; d < numAbsDirs; d++ {
		var between []Square
		for t := g.line[a][d]; t != 0; t = g.line[t][d] {
			if t == b {
				return d, between, true
			}
			between = append(between, t)
		}
	}
	return 0, nil, false
}

func checkGridMove(t *testing.T, p *Position, m Move) {
	t.Helper()
	v, g := p.v, p.v.geo
	own, opp := p.Pieces(p.turn), p.Pieces(p.turn.Opponent())
	if !own.Has(m.From) {
		t.Fatalf("%s: %v does not start on a piece of the side to move", p.FEN(), m)
	}
	after := p.Play(m)
	removal := m.From == m.To && !m.IsCapture()
	wantOwn := own.Len()
	if removal {
		wantOwn--
	}
	if after.Pieces(p.turn).Len() != wantOwn || after.Pieces(p.turn.Opponent()).Len() != opp.Len()-m.Captured.Len() {
		t.Fatalf("%s: %s leaves %s", p.FEN(), p.LongMoveText(m), after.FEN())
	}
	if removal {
		return
	}
	if !m.IsCapture() {
		if _, between, ok := gridLine(g, m.From, m.To); !ok {
			t.Fatalf("%s: plain move %s is not along a line", p.FEN(), p.LongMoveText(m))
		} else if v.p.Kings == ShortKings || !p.kings.Has(m.From) {
			// a man's step, or a line of own men (Dameo) that it passes
			for _, sq := range between {
				if !v.p.LinearMoves || !own.Minus(p.kings).Has(sq) {
					t.Fatalf("%s: plain move %s passes %s", p.FEN(), p.LongMoveText(m), v.SquareName(sq))
				}
			}
		}
		return
	}
	if len(m.Path) != m.Captured.Len() {
		t.Fatalf("%s: %s has %d landings for %d captures", p.FEN(), p.LongMoveText(m), len(m.Path), m.Captured.Len())
	}
	var jumped Set
	from := m.From
	for _, to := range m.Path {
		_, between, ok := gridLine(g, from, to)
		if !ok {
			t.Fatalf("%s: %s: %s to %s is not along a line", p.FEN(), p.LongMoveText(m), v.SquareName(from), v.SquareName(to))
		}
		n := 0
		for _, sq := range between {
			switch {
			case sq == m.From:
				// the mover's own square, left
			case jumped.Has(sq):
				if !v.p.RemoveAtOnce {
					t.Fatalf("%s: %s crosses %s, taken before but still on the board", p.FEN(), p.LongMoveText(m), v.SquareName(sq))
				}
			case m.Captured.Has(sq):
				jumped = jumped.With(sq)
				n++
			case own.Has(sq) || opp.Has(sq):
				t.Fatalf("%s: %s passes over %s, not captured", p.FEN(), p.LongMoveText(m), v.SquareName(sq))
			}
		}
		if n != 1 {
			t.Fatalf("%s: %s: the jump %s to %s takes %d pieces", p.FEN(), p.LongMoveText(m), v.SquareName(from), v.SquareName(to), n)
		}
		from = to
	}
	if jumped != m.Captured {
		t.Fatalf("%s: %s captures %v but jumps %v", p.FEN(), p.LongMoveText(m), m.Captured.Squares(), jumped.Squares())
	}
}
