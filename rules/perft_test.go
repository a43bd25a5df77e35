package rules

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// perftRow is one row of testdata/perft.tsv or perft-positions.tsv.
type perftRow struct {
	line    int
	variant string
	keep    bool
	fen     string
	depth   int
	nodes   uint64
}

func readPerftRows(t testing.TB) []perftRow { return readPerftFile(t, "perft.tsv") }

func readPerftFile(t testing.TB, name string) []perftRow {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []perftRow
	sc := bufio.NewScanner(f)
	header := false
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") || strings.TrimSpace(text) == "" {
			continue
		}
		cells := strings.Split(text, "\t")
		if !header {
			if strings.Join(cells, ",") != "variant,count,fen,depth,nodes" {
				t.Fatalf("%s:%d: unexpected header %q", name, line, text)
			}
			header = true
			continue
		}
		if len(cells) != 5 {
			t.Fatalf("%s:%d: want 5 fields, got %d", name, line, len(cells))
		}
		r := perftRow{line: line, variant: cells[0], fen: cells[2]}
		switch cells[1] {
		case "keep":
			r.keep = true
		case "unique":
		default:
			t.Fatalf("%s:%d: count %q is not unique or keep", name, line, cells[1])
		}
		if r.depth, err = strconv.Atoi(cells[3]); err != nil {
			t.Fatalf("%s:%d: depth: %v", name, line, err)
		}
		if r.nodes, err = strconv.ParseUint(cells[4], 10, 64); err != nil {
			t.Fatalf("%s:%d: nodes: %v", name, line, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestPerftTable reproduces every row of perft.tsv with the bitboard
// generator (through the public Perft) and, where the tree is small enough
// to stay quick, with the reference generator.
func TestPerftTable(t *testing.T) {
	rows := readPerftRows(t)
	if len(rows) < 100 {
		t.Fatalf("only %d perft rows read", len(rows))
	}
	const refLimit = 250_000
	for _, r := range rows {
		count := "unique"
		if r.keep {
			count = "keep"
		}
		t.Run(fmt.Sprintf("%s/%s/%d", r.variant, count, r.depth), func(t *testing.T) {
			v, err := Lookup(r.variant)
			if err != nil {
				t.Fatalf("perft.tsv:%d: %v", r.line, err)
			}
			p, err := ParseFEN(v, r.fen)
			if err != nil {
				t.Fatalf("perft.tsv:%d: %v", r.line, err)
			}
			if _, ok := p.fastMoves(false); !ok {
				t.Fatalf("perft.tsv:%d: %s has no bitboard layout", r.line, r.variant)
			}
			if got := Perft(p, r.depth, r.keep); got != r.nodes {
				t.Errorf("perft.tsv:%d: bitboard perft(%d) = %d, want %d", r.line, r.depth, got, r.nodes)
			}
			if r.nodes <= refLimit {
				if got := referencePerft(p, r.depth, r.keep); got != r.nodes {
					t.Errorf("perft.tsv:%d: reference perft(%d) = %d, want %d", r.line, r.depth, got, r.nodes)
				}
			}
		})
	}
}

// TestPerftDivide checks that the root moves' subtrees add up to the whole,
// in both count modes, and that depth 0 and negative depths are sane.
func TestPerftDivide(t *testing.T) {
	for _, name := range []string{"english", "international", "russian", "italian"} {
		p := NewPosition(MustLookup(name))
		for _, keep := range []bool{false, true} {
			moves := p.LegalMoves()
			if keep {
				moves = p.LegalPaths()
			}
			var sum uint64
			for _, m := range moves {
				sum += Perft(p.Play(m), 4, keep)
			}
			if whole := Perft(p, 5, keep); sum != whole {
				t.Errorf("%s keep=%v: divide sums to %d, perft(5) = %d", name, keep, sum, whole)
			}
		}
		if n := Perft(p, 0, false); n != 1 {
			t.Errorf("%s: perft(0) = %d, want 1", name, n)
		}
		if n := Perft(p, -1, false); n != 0 {
			t.Errorf("%s: perft(-1) = %d, want 0", name, n)
		}
	}
}

// TestPerftPositions reproduces the published counts of the classic
// international test positions (testdata/perft-positions.tsv): kings
// against kings, a crowded middle game, promotion at every turn. Trees
// above 10^7 leaves go through PerftWith (the table), which counts exactly
// what Perft counts (TestPerftWithEqualsPerft).
func TestPerftPositions(t *testing.T) {
	// CPU-bound and apart from every other test (its own generator, table
	// and variants): it runs beside the other long ones of the package.
	t.Parallel()
	rows := readPerftFile(t, "perft-positions.tsv")
	if len(rows) < 40 {
		t.Fatalf("only %d rows read", len(rows))
	}
	table := NewPerftTable(64 << 20)
	for _, r := range rows {
		if testing.Short() && r.nodes > 10_000_000 {
			continue
		}
		v := MustLookup(r.variant)
		p, err := ParseFEN(v, r.fen)
		if err != nil {
			t.Fatalf("perft-positions.tsv:%d: %v", r.line, err)
		}
		var got uint64
		if r.nodes <= 10_000_000 {
			got = Perft(p, r.depth, r.keep)
		} else {
			got = mustPerftWith(t, p, r.depth, r.keep, PerftOptions{Table: table})
		}
		if got != r.nodes {
			t.Errorf("perft-positions.tsv:%d: %s perft(%d) = %d, want %d", r.line, r.fen, r.depth, got, r.nodes)
		}
	}
}

// TestPerftVariants reproduces the published counts of RULES.md section 8
// (perft-variants.tsv) from each variant's start, with the reference
// generator too where the tree is small.
func TestPerftVariants(t *testing.T) {
	rows := readPerftFile(t, "perft-variants.tsv")
	if len(rows) < 10 {
		t.Fatalf("only %d rows read", len(rows))
	}
	for _, r := range rows {
		v := MustLookup(r.variant)
		p, err := ParseFEN(v, r.fen)
		if err != nil {
			t.Fatalf("perft-variants.tsv:%d: %v", r.line, err)
		}
		if got := Perft(p, r.depth, r.keep); got != r.nodes {
			t.Errorf("perft-variants.tsv:%d: %s %s perft(%d, keep=%v) = %d, want %d", r.line, r.variant, r.fen, r.depth, r.keep, got, r.nodes)
		}
		if r.nodes <= 100_000 {
			if got := referencePerft(p, r.depth, r.keep); got != r.nodes {
				t.Errorf("perft-variants.tsv:%d: %s reference perft(%d, keep=%v) = %d, want %d", r.line, r.variant, r.depth, r.keep, got, r.nodes)
			}
		}
	}
}
