package rules

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestPerftDeep checks the deeper published counts of testdata/perft-deep.tsv.
// Rows above half a billion leaves are skipped under -short; rows above a
// billion run only with ARBITER_PERFT_DEEP=1 (international depth 11 takes
// about 6 s).
func TestPerftDeep(t *testing.T) {
	f, err := os.Open("testdata/perft-deep.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	rows := 0
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
		if want > 500_000_000 && testing.Short() || want > 1_000_000_000 && os.Getenv("ARBITER_PERFT_DEEP") == "" {
			continue
		}
		v := MustLookup(fields[0])
		if got := Perft(NewPosition(v), depth, fields[1] == "keep"); got != want {
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
