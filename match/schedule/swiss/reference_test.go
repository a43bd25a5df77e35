package swiss_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

// The reference cases (testdata/reference, see its README) are round states
// with the pairing a reference program made of them: bbpPairings' published
// test examples, and events simulated round by round with every round
// paired by bbpPairings. Pair must give the same boards, colours, board
// order and bye. Cases that still differ are listed, exactly, in
// testdata/reference/known-failures.txt: a listed case that passes fails the
// test too, so that the list only shrinks.

type refCase struct {
	name  string // directory/base, as the known-failures list names it
	trf   string // the state file
	pairs string // the expected pairing, in bbpPairings' output format
}

func referenceCases(t *testing.T) []refCase {
	t.Helper()
	var cases []refCase
	for _, dir := range []string{"published", "generated"} {
		files, err := filepath.Glob(filepath.Join("testdata", "reference", dir, "*.pairs"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			base := strings.TrimSuffix(filepath.Base(f), ".pairs")
			state, _, _ := strings.Cut(base, ".")
			cases = append(cases, refCase{
				name:  dir + "/" + base,
				trf:   filepath.Join(filepath.Dir(f), state+".trf"),
				pairs: f,
			})
		}
	}
	if len(cases) == 0 {
		t.Fatal("no reference cases in testdata/reference")
	}
	return cases
}

func knownFailures(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "reference", "known-failures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	known := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, _, _ := strings.Cut(line, " ")
		known[name] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return known
}

// readPairs reads bbpPairings' output: the number of pairs, then one pair a
// line, white first; "N 0" is the pairing-allocated bye.
func readPairs(path string) (swiss.Round, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return swiss.Round{}, err
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return swiss.Round{}, fmt.Errorf("%s: empty", path)
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || len(f) != 1+2*n {
		return swiss.Round{}, fmt.Errorf("%s: not a count and that many pairs", path)
	}
	var r swiss.Round
	for i := 0; i < n; i++ {
		w, err1 := strconv.Atoi(f[1+2*i])
		b, err2 := strconv.Atoi(f[2+2*i])
		if err1 != nil || err2 != nil {
			return swiss.Round{}, fmt.Errorf("%s: pair %d is not two numbers", path, i+1)
		}
		if b == 0 {
			r.Bye = w
			continue
		}
		r.Boards = append(r.Boards, swiss.Board{White: w, Black: b})
	}
	return r, nil
}

// bakuMatches reports whether the file's XXA accelerations are the Baku
// acceleration swiss.Pair applies (group A 2*ceil(n/4) players; the first
// ceil(rounds/2) rounds, the first half of them rounded up +1, then +1/2).
func bakuMatches(ev *trf.Event) bool {
	n := len(ev.Players)
	ga := 2 * ((n + 3) / 4)
	acc := (ev.Rounds + 1) / 2
	full := (acc + 1) / 2
	players := append([]trf.Player(nil), ev.Players...)
	sort.Slice(players, func(i, j int) bool { return players[i].Number < players[j].Number })
	for i, p := range players {
		var want []int
		if i < ga {
			for r := 0; r < acc; r++ {
				if r < full {
					want = append(want, 10)
				} else {
					want = append(want, 5)
				}
			}
		}
		got := p.Acceleration
		for len(got) > 0 && got[len(got)-1] == 0 {
			got = got[:len(got)-1]
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return false
		}
	}
	return true
}

// runCase pairs one case and says how it differs from the expected pairing
// ("" when it does not).
func runCase(c refCase) (string, error) {
	f, err := os.Open(c.trf)
	if err != nil {
		return "", err
	}
	defer f.Close()
	ev, err := trf.Read(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.trf, err)
	}
	want, err := readPairs(c.pairs)
	if err != nil {
		return "", err
	}
	players, err := ev.PairingState()
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.trf, err)
	}
	opt := swiss.Options{Rounds: ev.Rounds}
	if ev.PointSystem != nil {
		opt.Scoring = ev.PointSystem.Scoring()
	}
	for _, p := range ev.Players {
		if len(p.Acceleration) > 0 {
			opt.Baku = true
		}
	}
	if opt.Baku && !bakuMatches(ev) {
		return "", fmt.Errorf("%s: the XXA accelerations are not the Baku acceleration swiss.Pair applies", c.trf)
	}
	got, err := swiss.Pair(players, opt)
	if err != nil {
		return fmt.Sprintf("Pair: %v; want %d boards", err, len(want.Boards)), nil
	}
	for i := 0; i < max(len(got.Boards), len(want.Boards)); i++ {
		var g, w string
		if i < len(got.Boards) {
			g = fmt.Sprintf("%d-%d", got.Boards[i].White, got.Boards[i].Black)
		}
		if i < len(want.Boards) {
			w = fmt.Sprintf("%d-%d", want.Boards[i].White, want.Boards[i].Black)
		}
		if g != w {
			return fmt.Sprintf("board %d: got %q, want %q (white-black)", i+1, g, w), nil
		}
	}
	if got.Bye != want.Bye {
		return fmt.Sprintf("bye: got %d, want %d", got.Bye, want.Bye), nil
	}
	return "", nil
}

func TestReference(t *testing.T) {
	cases := referenceCases(t)
	known := knownFailures(t)
	names := map[string]bool{}
	failed, run := 0, 0
	for i, c := range cases {
		names[c.name] = true
		if raceEnabled && strings.HasPrefix(c.name, "generated/") && (i%10 != 0 || fileSize(c.trf) > 12000) {
			continue // the race detector slows Pair ten times: a sample of the small fields
		}
		run++
		diff, err := runCase(c)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		switch {
		case diff != "" && !known[c.name]:
			t.Errorf("%s (%s): %s", c.name, c.trf, diff)
			failed++
		case diff != "":
			failed++
		case known[c.name]:
			t.Errorf("%s passes now: remove it from testdata/reference/known-failures.txt", c.name)
		}
	}
	for n := range known {
		if !names[n] {
			t.Errorf("known-failures.txt names %s, which is not a case", n)
		}
	}
	t.Logf("%d reference cases, %d paired, %d pass, %d differ", len(cases), run, run-failed, failed)
}

// TestReferenceHarness: the comparison sees a changed board, colour or bye,
// and the pairing reader rejects what is not bbpPairings' format.
func TestReferenceHarness(t *testing.T) {
	dir := t.TempDir()
	c := refCase{name: "published/dutch_2025_C9", trf: filepath.Join("testdata", "reference", "published", "dutch_2025_C9.trf")}
	for _, tc := range []struct{ pairs, diff string }{
		{"3\n2 1\n3 5\n4 0\n", ""},
		{"3\n1 2\n3 5\n4 0\n", "board 1"},
		{"3\n2 1\n5 3\n4 0\n", "board 2"},
		{"3\n2 1\n3 5\n3 0\n", "bye"},
		{"2\n2 1\n3 5\n", "bye"},
	} {
		c.pairs = filepath.Join(dir, "case.pairs")
		if err := os.WriteFile(c.pairs, []byte(tc.pairs), 0o644); err != nil {
			t.Fatal(err)
		}
		diff, err := runCase(c)
		if err != nil {
			t.Fatal(err)
		}
		if (tc.diff == "") != (diff == "") || !strings.Contains(diff, tc.diff) {
			t.Errorf("expected %q: got difference %q, want one naming %q", tc.pairs, diff, tc.diff)
		}
	}
	for _, bad := range []string{"", "x\n", "2\n1 2\n", "1\n1 x\n"} {
		p := filepath.Join(dir, "bad.pairs")
		if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readPairs(p); err == nil {
			t.Errorf("readPairs(%q): no error", bad)
		}
	}
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}
