package rules

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// perftRow is one row of testdata/perft.tsv.
type perftRow struct {
	line    int
	variant string
	keep    bool
	fen     string
	depth   int
	nodes   uint64
}

func readPerftRows(t testing.TB) []perftRow {
	t.Helper()
	f, err := os.Open("testdata/perft.tsv")
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
				t.Fatalf("perft.tsv:%d: unexpected header %q", line, text)
			}
			header = true
			continue
		}
		if len(cells) != 5 {
			t.Fatalf("perft.tsv:%d: want 5 fields, got %d", line, len(cells))
		}
		r := perftRow{line: line, variant: cells[0], fen: cells[2]}
		switch cells[1] {
		case "keep":
			r.keep = true
		case "unique":
		default:
			t.Fatalf("perft.tsv:%d: count %q is not unique or keep", line, cells[1])
		}
		if r.depth, err = strconv.Atoi(cells[3]); err != nil {
			t.Fatalf("perft.tsv:%d: depth: %v", line, err)
		}
		if r.nodes, err = strconv.ParseUint(cells[4], 10, 64); err != nil {
			t.Fatalf("perft.tsv:%d: nodes: %v", line, err)
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
