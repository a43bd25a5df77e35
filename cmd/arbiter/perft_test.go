package main

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// runPerftCmd runs `arbiter perft ARGS` in-process and returns its standard
// output and the exit status run() would give.
func runPerftCmd(t *testing.T, args ...string) (string, int) {
	t.Helper()
	root := newRoot()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(append([]string{"perft"}, args...))
	err := root.Execute()
	var ee exitError
	var ue usageError
	switch {
	case err == nil:
		return out.String(), exitOK
	case errors.As(err, &ee):
		return out.String(), ee.code
	case errors.As(err, &ue) || isCobraUsage(err):
		return err.Error(), exitUsage
	}
	return err.Error(), exitRuntime
}

func TestPerftDepthLines(t *testing.T) {
	tests := []struct {
		args []string
		want []uint64
	}{
		{[]string{"--variant", "english", "--depth", "6", "--count", "keep"}, []uint64{7, 49, 302, 1469, 7361, 36768}},
		{[]string{"--variant", "international", "--depth", "4"}, []uint64{9, 81, 658, 4265}},
		{[]string{"--variant", "russian", "--depth", "5", "--count", "unique"}, []uint64{7, 49, 302, 1469, 7482}},
		{[]string{"--variant", "english", "--fen", "W:W21,27:B15,17,23", "--depth", "1"}, []uint64{2}},
		{[]string{"--variant", "international", "--fen", "W:WK38:B18,19,32,33", "--depth", "1"}, []uint64{5}},
		{[]string{"--variant", "international", "--fen", "W:WK38:B18,19,32,33", "--depth", "1", "--count", "keep"}, []uint64{6}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, code := runPerftCmd(t, tt.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, out)
			}
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(tt.want), out)
			}
			for i, l := range lines {
				f := strings.Split(l, " ")
				if len(f) != 3 {
					t.Fatalf("line %q: want `d nodes seconds`", l)
				}
				if f[0] != strconv.Itoa(i+1) || f[1] != strconv.FormatUint(tt.want[i], 10) {
					t.Errorf("line %q: want depth %d nodes %d", l, i+1, tt.want[i])
				}
				if s, err := strconv.ParseFloat(f[2], 64); err != nil || s < 0 || !strings.Contains(f[2], ".") {
					t.Errorf("line %q: seconds %q is not a non-negative decimal", l, f[2])
				}
			}
		})
	}
}

func TestPerftDivide(t *testing.T) {
	out, code := runPerftCmd(t, "--variant", "international", "--depth", "3", "--divide")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, out)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 10 {
		t.Fatalf("want 9 moves and a total, got:\n%s", out)
	}
	p := rules.NewPosition(rules.MustLookup("international"))
	var sum uint64
	seen := map[string]bool{}
	for _, l := range lines[:9] {
		f := strings.Fields(l)
		if len(f) != 2 {
			t.Fatalf("line %q: want `move nodes`", l)
		}
		m, err := p.ParseMove(f[0])
		if err != nil {
			t.Errorf("line %q: move does not parse: %v", l, err)
			continue
		}
		n, _ := strconv.ParseUint(f[1], 10, 64)
		if want := rules.Perft(p.Play(m), 2, false); n != want {
			t.Errorf("line %q: want %d nodes", l, want)
		}
		if seen[f[0]] {
			t.Errorf("move %s listed twice", f[0])
		}
		seen[f[0]] = true
		sum += n
	}
	if lines[9] != "total 658" || sum != 658 {
		t.Errorf("last line %q, moves sum to %d; want total 658", lines[9], sum)
	}
}

// In keep mode the two paths of one identity get their own, long-form lines.
func TestPerftDivideKeepPaths(t *testing.T) {
	fen := "W:WK38:B18,19,32,33"
	for _, tc := range []struct {
		count string
		moves int
	}{{"unique", 5}, {"keep", 6}} {
		out, code := runPerftCmd(t, "--variant", "international", "--fen", fen, "--depth", "1", "--divide", "--count", tc.count)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, out)
		}
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if len(lines) != tc.moves+1 || lines[tc.moves] != "total "+strconv.Itoa(tc.moves) {
			t.Fatalf("%s: want %d moves and a total:\n%s", tc.count, tc.moves, out)
		}
		seen := map[string]bool{}
		for _, l := range lines[:tc.moves] {
			mv := strings.Fields(l)[0]
			if seen[mv] {
				t.Errorf("%s: line %q repeats a move", tc.count, l)
			}
			seen[mv] = true
			if tc.count == "keep" && strings.HasSuffix(mv, "x38") && strings.Count(mv, "x") != 4 {
				t.Errorf("keep: %q shares its identity with another path but is not in long form", mv)
			}
		}
	}
}

func TestPerftUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--depth", "3"},
		{"--variant", "chess", "--depth", "3"},
		{"--variant", "english", "--depth", "0"},
		{"--variant", "english", "--depth", "-2"},
		{"--variant", "english"},
		{"--variant", "english", "--depth", "2", "--count", "all"},
		{"--variant", "english", "--depth", "2", "--fen", "X:W1:B2"},
		{"--variant", "english", "--depth", "2", "--fen", "W:W99"},
		{"--variant", "english", "--depth", "two"},
		{"--variant", "english", "--depth", "2", "extra"},
		{"--variant", "english", "--depth", "2", "--hash", "-1"},
		{"--variant", "english", "--depth", "5", "--hash", "1048576"}, // more than half of any test machine
		{"--variant", "english", "--depth", "2", "--threads", "-3"},
		{"--variant", "english", "--depth", "2", "--threads", "1000000000"},
	} {
		if msg, code := runPerftCmd(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d (%s), want %d", args, code, msg, exitUsage)
		}
	}
	// through run(), as the binary does
	if code := run([]string{"perft", "--variant", "nosuch", "--depth", "1"}); code != exitUsage {
		t.Errorf("run: unknown variant gives exit %d, want %d", code, exitUsage)
	}
}

// The table and the workers change the time, never the counts: the same
// lines and the same divide with and without them.
func TestPerftHashAndThreads(t *testing.T) {
	counts := func(out string) string {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			f := strings.Fields(l)
			b.WriteString(f[0] + " " + f[1] + "\n")
		}
		return b.String()
	}
	for _, base := range [][]string{
		{"--variant", "english", "--depth", "9", "--count", "keep"},
		{"--variant", "international", "--depth", "7"},
		{"--variant", "international", "--fen", "W:W6,7,8,9,10:B41,42,43,44,45.", "--depth", "6"},
		{"--variant", "english", "--depth", "8", "--divide"},
	} {
		plain, code := runPerftCmd(t, append(base, "--hash", "0", "--threads", "1")...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", base, code, plain)
		}
		for _, extra := range [][]string{nil, {"--hash", "1", "--threads", "3"}, {"--threads", "2"}} {
			out, code := runPerftCmd(t, append(base, extra...)...)
			if code != exitOK {
				t.Fatalf("%v %v: exit %d: %s", base, extra, code, out)
			}
			if counts(out) != counts(plain) {
				t.Errorf("%v %v:\n%s\nwithout table and workers:\n%s", base, extra, out, plain)
			}
		}
	}
}

// A count beyond 64 bits is an error naming the depth (exit 3), after the
// depths that fit; never a count wrapped around 2^64.
func TestPerftOverflow(t *testing.T) {
	base := []string{"--variant", "english", "--fen", "W:WK29:BK1", "--depth", "45", "--hash", "16"}
	out, code := runPerftCmd(t, base...)
	if code != exitRuntime || !strings.Contains(out, "depth 40: the count overflows 64 bits") {
		t.Errorf("exit %d: %q; want exit %d naming depth 40", code, out, exitRuntime)
	}
	out, code = runPerftCmd(t, append(base, "--divide")...)
	if code != exitRuntime || !strings.Contains(out, "depth 45: the count overflows 64 bits") {
		t.Errorf("divide: exit %d: %q; want exit %d naming depth 45", code, out, exitRuntime)
	}
	// the last depth that fits is printed exactly (rules.TestPerftOverflow
	// checks it against a count in unbounded integers)
	out, code = runPerftCmd(t, "--variant", "english", "--fen", "W:WK29:BK1", "--depth", "39", "--hash", "16")
	if code != exitOK || !strings.Contains(out, "\n39 6667383000698262516 ") {
		t.Errorf("depth 39: exit %d:\n%s", code, out)
	}
}

// Divide in keep mode lists one line per keep path (a flying king's stops
// on one line before its next piece there are one path), each readable as
// its move, and they add up to the keep count of that depth.
func TestPerftDivideKeepFlyingKings(t *testing.T) {
	for _, tc := range []struct {
		variant, fen string
		depth, moves int
	}{
		{"international", "W:WK46:B37,19", 1, 3},
		{"international", "W:WK46:B37,19,22", 3, 6},
		{"russian", "W:Wh6,c1:Bg7,e7,b4,e3", 3, 3},
		{"russian", "", 6, 7},
	} {
		args := []string{"--variant", tc.variant, "--depth", strconv.Itoa(tc.depth), "--count", "keep"}
		if tc.fen != "" {
			args = append(args, "--fen", tc.fen)
		}
		v := rules.MustLookup(tc.variant)
		p := rules.NewPosition(v)
		if tc.fen != "" {
			var err error
			if p, err = rules.ParseFEN(v, tc.fen); err != nil {
				t.Fatal(err)
			}
		}
		want := rules.Perft(p, tc.depth, true)
		out, code := runPerftCmd(t, append(args, "--divide")...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, out)
		}
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if len(lines) != tc.moves+1 || lines[tc.moves] != "total "+strconv.FormatUint(want, 10) {
			t.Errorf("%v: want %d paths and total %d:\n%s", args, tc.moves, want, out)
			continue
		}
		var sum uint64
		seen := map[string]bool{}
		for _, l := range lines[:tc.moves] {
			f := strings.Fields(l)
			if _, err := p.ParseMove(f[0]); err != nil {
				t.Errorf("%v: line %q: %v", args, l, err)
			}
			if seen[f[0]] {
				t.Errorf("%v: line %q repeats a path", args, l)
			}
			seen[f[0]] = true
			n, _ := strconv.ParseUint(f[1], 10, 64)
			sum += n
		}
		if sum != want {
			t.Errorf("%v: lines sum to %d, total %d", args, sum, want)
		}
		depthOut, _ := runPerftCmd(t, args...)
		if !strings.Contains(depthOut, "\n"+strconv.Itoa(tc.depth)+" "+strconv.FormatUint(want, 10)+" ") && tc.depth > 1 {
			t.Errorf("%v: depth lines disagree with divide total %d:\n%s", args, want, depthOut)
		}
	}
}
