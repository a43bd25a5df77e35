package rules

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// perftDeepEnv names the environment variable that runs the rows of
// testdata/perft-deep.tsv too deep for `make test`.
const perftDeepEnv = "ARBITER_PERFT_DEEP"

// Rows of at most perftDeepDefault leaves run in `make test` (a few seconds
// each on two busy cores, the table warmed by the shallower rows before
// them); up to perftDeepShort they run under -short too. The deeper ones
// take from ten seconds (English keep 13, the 8x8 flying-king variants at
// 13) to minutes (English keep 16 about three on two busy cores, 17 and 18
// far more): they wait for ARBITER_PERFT_DEEP=1.
const (
	perftDeepShort   = 100_000_000
	perftDeepDefault = 600_000_000
)

// TestPerftDeep checks the deeper published counts of testdata/perft-deep.tsv,
// one subtest a row. Rows up to 2*10^7 leaves go through Perft itself, larger
// ones through PerftWith (its table makes English depth 14 a second's work).
// A row too deep for the run says so and why (go test -v lists it as
// skipped with its reason).
func TestPerftDeep(t *testing.T) {
	// CPU-bound and apart from every other test (its own generator, table
	// and variants): it runs beside the other long ones of the package.
	t.Parallel()
	f, err := os.Open("testdata/perft-deep.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows := 0
	var table *PerftTable // made when a row first needs it
	deep := os.Getenv(perftDeepEnv) != ""
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || text[0] == '#' || strings.HasPrefix(text, "variant\t") {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) != 4 {
			t.Fatalf("perft-deep.tsv:%d: want 4 fields, got %q", line, text)
		}
		depth, err1 := strconv.Atoi(fields[2])
		want, err2 := strconv.ParseUint(fields[3], 10, 64)
		if err1 != nil || err2 != nil || fields[1] != "keep" && fields[1] != "unique" {
			t.Fatalf("perft-deep.tsv:%d: bad row %q", line, text)
		}
		v, err := Lookup(fields[0])
		if err != nil {
			t.Fatalf("perft-deep.tsv:%d: %v", line, err)
		}
		rows++
		keep := fields[1] == "keep"
		t.Run(fmt.Sprintf("%s/%s/%d", fields[0], fields[1], depth), func(t *testing.T) {
			switch {
			case want > perftDeepDefault && !deep:
				t.Skipf("perft-deep.tsv:%d: %d leaves, too deep for make test: runs with %s=1", line, want, perftDeepEnv)
			case want > perftDeepShort && testing.Short():
				t.Skipf("perft-deep.tsv:%d: %d leaves: skipped under -short", line, want)
			}
			var got uint64
			if want <= 20_000_000 {
				got = Perft(NewPosition(v), depth, keep)
			} else {
				if table == nil {
					table = NewPerftTable(256 << 20)
				}
				got = mustPerftWith(t, NewPosition(v), depth, keep, PerftOptions{Table: table})
			}
			if got != want {
				t.Errorf("perft-deep.tsv:%d: %s %s depth %d: %d leaves, published %d", line, fields[0], fields[1], depth, got, want)
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
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
