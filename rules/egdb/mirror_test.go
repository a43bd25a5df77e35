package egdb

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// TestMirrorEqualsSolve: the tables a build reads off their twins (the
// board turned half a turn, the colours exchanged) are byte for byte the
// tables solving them gives, in English (short kings) and international
// draughts (flying kings, men capturing backwards).
func TestMirrorEqualsSolve(t *testing.T) {
	for _, name := range []string{"english", "international"} {
		v := rules.MustLookup(name)
		if halfTurn(v) == nil {
			t.Fatalf("%s: the half turn is not a symmetry of the board", name)
		}
		pieces := 3
		mirrored, err := Build(context.Background(), v, t.TempDir(), BuildOptions{Pieces: pieces})
		if err != nil {
			t.Fatal(err)
		}
		solved, err := Build(context.Background(), v, t.TempDir(), BuildOptions{Pieces: pieces, solveTwins: true})
		if err != nil {
			t.Fatal(err)
		}
		twins := 0
		for _, m := range Materials(pieces) {
			a, errA := os.ReadFile(mirrored.file(m))
			b, errB := os.ReadFile(solved.file(m))
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s %s: the table read off its twin differs from the one solved", name, m)
			}
			if m != m.Swap() {
				twins++
			}
		}
		if twins == 0 {
			t.Fatalf("%s: no table has a twin; the test proves nothing", name)
		}
	}
}

// TestHalfTurn: a square and its image have mirrored neighbours, so the
// half turn of a position is a position of the same game.
func TestHalfTurn(t *testing.T) {
	v := rules.MustLookup("international")
	rot := halfTurn(v)
	p, err := rules.ParseFEN(v, "W:W46,K5:B6")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := turned(v, rot, p).FEN(), "B:W45:B5,K46"; got != want {
		t.Errorf("turned %s = %s, want %s", p.FEN(), got, want)
	}
}
