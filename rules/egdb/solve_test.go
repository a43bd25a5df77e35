package egdb

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

func TestBuildSmall(t *testing.T) {
	dir := t.TempDir()
	v := rules.MustLookup("english")
	db, err := Build(context.Background(), v, dir, BuildOptions{Pieces: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range Materials(3) {
		if err := db.Verify(context.Background(), m); err != nil {
			t.Error(err)
		}
	}
}

// TestVerifyFindsAWrongValue: a table with one value changed no longer
// verifies, so the check can fail.
func TestVerifyFindsAWrongValue(t *testing.T) {
	v := rules.MustLookup("english")
	db, err := Build(context.Background(), v, t.TempDir(), BuildOptions{Pieces: 2})
	if err != nil {
		t.Fatal(err)
	}
	m := Material{0, 1, 0, 1}
	s, _ := db.table(m)
	p, err := rules.ParseFEN(v, "W:WK18:BK1")
	if err != nil {
		t.Fatal(err)
	}
	i, _ := s.t.index(p)
	if got := Value(s.bits[i/4] >> (2 * (i % 4)) & 3); got != Draw {
		t.Fatalf("%s is a %s, want a draw", p.FEN(), got)
	}
	s.bits[i/4] ^= byte(Draw^Win) << (2 * (i % 4))
	if err := db.Verify(context.Background(), m); err == nil {
		t.Fatal("a draw made a win still verifies")
	}
}

// TestKnownPositions: values a player can check by hand.
func TestKnownPositions(t *testing.T) {
	v := rules.MustLookup("english")
	db, err := Build(context.Background(), v, t.TempDir(), BuildOptions{Pieces: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fen  string
		want Value
		why  string
	}{
		{"W:W18:B14", Win, "White jumps 18x9, taking Black's last piece"},
		{"B:W18:B14", Win, "Black to move jumps first: 14x23"},
		{"W:W29:BK22,K25", Loss, "White's man on 29 can only go to 25, taken, and jump to 22, taken: no move"},
		{"W:WK18:BK1", Draw, "a king against a king is never caught"},
		{"B:WK18,K27:BK1", Loss, "two kings beat one king: the lone king is driven out of the double corner and caught"},
	} {
		p, err := rules.ParseFEN(v, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.Probe(p)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s (%s)", c.fen, got, c.want, c.why)
		}
	}
}

// TestBuildResumes: a second build reads the tables the first one wrote
// and solves only what is missing; a damaged table is refused with the
// file named and what to do.
func TestBuildResumes(t *testing.T) {
	v := rules.MustLookup("english")
	dir := t.TempDir()
	if _, err := Build(context.Background(), v, dir, BuildOptions{Pieces: 2}); err != nil {
		t.Fatal(err)
	}
	solved, found := 0, 0
	opt := BuildOptions{Pieces: 3, Table: func(_ Material, s bool) {
		if s {
			solved++
		} else {
			found++
		}
	}}
	if _, err := Build(context.Background(), v, dir, opt); err != nil {
		t.Fatal(err)
	}
	if found != len(Materials(2)) || solved != len(Materials(3))-len(Materials(2)) {
		t.Fatalf("second build: %d found, %d solved; want %d and %d", found, solved, len(Materials(2)), len(Materials(3))-len(Materials(2)))
	}
	name := filepath.Join(dir, "english", "0m1k-0m1k.wdl")
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(v, dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := rules.ParseFEN(v, "W:WK18:BK1")
	if _, err := db.Probe(p); err == nil || !strings.Contains(err.Error(), "0m1k-0m1k.wdl is damaged") || !strings.Contains(err.Error(), "`arbiter egdb build --variant english --pieces 3 --dir "+dir+"` solves it again") {
		t.Fatalf("damaged table: %v", err)
	}
}
