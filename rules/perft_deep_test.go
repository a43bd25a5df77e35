package rules

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestPerftDeep checks the deeper published counts of testdata/perft-deep.tsv.
// Rows up to 10^8 leaves go through Perft itself, larger ones
// through PerftWith (its table makes English depth 14 a second's work);
// those are skipped under -short, and rows above 10^10 leaves run only with
// ARBITER_PERFT_DEEP=1 (English keep 17 takes about a minute, 18 several).
func TestPerftDeep(t *testing.T) {
	f, err := os.Open("testdata/perft-deep.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows := 0
	table := NewPerftTable(256 << 20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || strings.HasPrefix(line, "variant\t") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 4 {
			t.Fatalf("bad row %q", line)
		}
		depth, err1 := strconv.Atoi(fields[2])
		want, err2 := strconv.ParseUint(fields[3], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad row %q", line)
		}
		rows++
		if want > 500_000_000 && testing.Short() || want > 10_000_000_000 && os.Getenv("ARBITER_PERFT_DEEP") == "" {
			continue
		}
		v := MustLookup(fields[0])
		keep := fields[1] == "keep"
		var got uint64
		if want <= 100_000_000 {
			got = Perft(NewPosition(v), depth, keep)
		} else {
			got = PerftWith(NewPosition(v), depth, keep, PerftOptions{Table: table})
		}
		if got != want {
			t.Errorf("%s %s depth %d: %d leaves, published %d", fields[0], fields[1], depth, got, want)
		}
	}
	if rows == 0 {
		t.Fatal("no rows read")
	}
}

// A depth far beyond any search that can finish must not size buffers from
// it: a position whose tree ends early still answers.
func TestPerftHugeDepth(t *testing.T) {
	v := MustLookup("english")
	p, err := ParseFEN(v, "W:W18:B14") // white takes the last black man, then black cannot move
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []bool{false, true} {
		if got := Perft(p, 1<<40, keep); got != 0 {
			t.Errorf("keep=%v: %d leaves at depth 2^40, want 0", keep, got)
		}
	}
}
