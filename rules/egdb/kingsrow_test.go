package egdb

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// kingsrowPosition is an entry of testdata/kingsrow-highmtc.txt: a
// position Kingsrow's moves-to-conversion database holds (so won or lost,
// never drawn) and its plies to conversion.
type kingsrowPosition struct {
	name string
	p    rules.Position
	mtc  int
}

func readKingsrow(t *testing.T) []kingsrowPosition {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "kingsrow-highmtc.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v := rules.MustLookup("international")
	var out []kingsrowPosition
	var head string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "db"):
			head = line
		default:
			p, err := rules.ParseFEN(v, strings.TrimSuffix(line, "."))
			if err != nil {
				t.Fatalf("kingsrow-highmtc.txt:%d: %v", n, err)
			}
			_, after, ok := strings.Cut(head, "mtc ")
			mtc, err := strconv.Atoi(after)
			if !ok || err != nil {
				t.Fatalf("kingsrow-highmtc.txt:%d: no mtc in %q", n, head)
			}
			out = append(out, kingsrowPosition{head, p, mtc})
		}
	}
	if len(out) != 23 {
		t.Fatalf("read %d positions, want the file's 23", len(out))
	}
	return out
}

// checkKingsrow: every position of the file that db holds is won or lost
// for the side to move, never drawn, as Kingsrow's database says (its
// moves-to-conversion values are of won and lost positions only; its test
// program calls a drawn one "bad wld value"). Which of the two the count
// does not say: a conversion is a capture or any man's move, which the
// losing side may be the one to make. It returns how many it checked.
func checkKingsrow(t *testing.T, db *DB) int {
	checked := 0
	for _, k := range readKingsrow(t) {
		if MaterialOf(k.p).Pieces() > db.Pieces() {
			continue
		}
		got, err := db.Probe(k.p)
		if err != nil {
			t.Fatal(err)
		}
		if got != Win && got != Loss {
			t.Errorf("%s %s: the database says %s; Kingsrow's has it won or lost (%d plies to conversion)", k.name, k.p.FEN(), got, k.mtc)
		}
		checked++
	}
	return checked
}

// TestKingsrowPositions: the three-piece position of Kingsrow's list (the
// others need four and five pieces: TestKingsrowPositionsBuilt).
func TestKingsrowPositions(t *testing.T) {
	db, err := Build(context.Background(), rules.MustLookup("international"), t.TempDir(), BuildOptions{Pieces: 3})
	if err != nil {
		t.Fatal(err)
	}
	if n := checkKingsrow(t, db); n != 1 {
		t.Errorf("checked %d positions of three pieces, want 1", n)
	}
}

// TestKingsrowPositionsBuilt checks every position of Kingsrow's list
// against an international database already built (EGDB_INT_DIR, up to
// EGDB_INT_PIECES pieces, default 5): make egdb-verify-international.
func TestKingsrowPositionsBuilt(t *testing.T) {
	dir := os.Getenv("EGDB_INT_DIR")
	if dir == "" {
		t.Skip("EGDB_INT_DIR not set: make egdb-verify-international builds the database and runs this")
	}
	pieces := 5
	if s := os.Getenv("EGDB_INT_PIECES"); s != "" {
		pieces, _ = strconv.Atoi(s)
	}
	db, err := Open(rules.MustLookup("international"), dir, pieces)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("checked %d positions of up to %d pieces", checkKingsrow(t, db), pieces)
}
