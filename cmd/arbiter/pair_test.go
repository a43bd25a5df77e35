package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testdata/pair: onebye.trf and nobye.trf are round 3 of a 3-player event
// (made for these tests): in nobye.trf nobody may have the PAB (1 won by
// forfeit, 2 had a full-point bye, 3 the PAB), and bbpPairings 6 also
// exits 1 on it; in onebye.trf 2's bye was a half point, so 2 gets the PAB.
// burstein.trf is round 3 of a 4-round event of 8 (made for these tests):
// two score groups of four with equal Indexes, where the Burstein system
// (C.04.4.2 Art. 4: BSN 1 against BSN 4) and the Dutch (S1 against S2)
// pair differently.

func runPairCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = runPair(args, &o, &e)
	return o.String(), e.String(), code
}

// TestPairExitCodes: every exit status bbpPairings documents, and each
// output form, from the command line a calling program writes.
func TestPairExitCodes(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join("testdata", "pair", "onebye.trf")
	none := filepath.Join("testdata", "pair", "nobye.trf")
	burst := filepath.Join("testdata", "pair", "burstein.trf")
	noRounds := filepath.Join(dir, "norounds.trf")
	data, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	writeTemp(t, noRounds, strings.Replace(string(data), "XXR 4\r", "", 1))
	bad := filepath.Join(dir, "bad.trf")
	writeTemp(t, bad, "001    1      A                                 20x0\r")
	big := filepath.Join(dir, "big.trf")
	var b strings.Builder
	b.WriteString("XXR 5\r")
	for i := 1; i <= 2001; i++ {
		fmt.Fprintf(&b, "001 %4d      Player%-27d %4d\r", i, i, 2000)
	}
	writeTemp(t, big, b.String())
	badConf := filepath.Join(dir, "bad.conf")
	writeTemp(t, badConf, "PlayersNumber=ten\n")
	// An event whose every round is paired: the message says how to pair
	// one more (it said only "all 3 rounds are paired already").
	fullConf, full := filepath.Join(dir, "full.conf"), filepath.Join(dir, "full.trf")
	writeTemp(t, fullConf, "PlayersNumber=6\nRoundsNumber=3\n")
	if _, stderr, code := runPairCmd(t, "--dutch", fullConf, "-g", "-o", full, "-s", "1"); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "out.txt")
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string // exact, when not ""
		stderrHas  string
		wantOutput string // the -p output file's content
	}{
		{"pair to stdout", []string{"--dutch", one, "-p"}, 0, "2\n1 3\n2 0\n", "", ""},
		{"pair to a file", []string{"--dutch", one, "-p", out}, 0, "", "", "2\n1 3\n2 0\n"},
		{"no valid pairing", []string{"--dutch", none, "-p"}, 1, "", "no valid pairing", ""},
		{"bad line", []string{"--dutch", bad, "-p"}, 3, "", "column 49", ""},
		{"no rounds", []string{"--dutch", noRounds, "-p"}, 3, "", "XXR", ""},
		{"no system", []string{one, "-p"}, 3, "", "--dutch", ""},
		{"all rounds paired", []string{"--dutch", full, "-p"}, 3, "", `raise the number of rounds: "XXR 4"`, ""},
		{"burstein", []string{"--burstein", burst, "-p"}, 0, "4\n1 4\n2 3\n8 5\n7 6\n", "", ""},
		{"dutch on the burstein file", []string{"--dutch", burst, "-p"}, 0, "4\n1 3\n2 4\n7 5\n8 6\n", "", ""},
		{"two systems", []string{"--dutch", "--burstein", one, "-p"}, 3, "", "given twice", ""},
		{"unknown option", []string{"--dutch", one, "-x"}, 3, "", "unknown option", ""},
		{"two operations", []string{"--dutch", one, "-p", "-c"}, 3, "", "one of", ""},
		{"generate without -o", []string{"--dutch", "-g", "-s", "1"}, 3, "", "-o", ""},
		{"bad seed", []string{"--dutch", "-g", "-o", out, "-s", "x"}, 3, "", "seed", ""},
		{"bad config", []string{"--dutch", badConf, "-g", "-o", out}, 3, "", "PlayersNumber", ""},
		{"too many players", []string{"--dutch", big, "-p"}, 4, "", "2001 players", ""},
		{"missing input", []string{"--dutch", filepath.Join(dir, "none.trf"), "-p"}, 5, "", "no such file", ""},
		{"missing config", []string{"--dutch", filepath.Join(dir, "none.conf"), "-g", "-o", out}, 5, "", "no such file", ""},
		{"unwritable output", []string{"--dutch", one, "-p", filepath.Join(dir, "no", "dir", "out")}, 5, "", "no such file", ""},
		{"help", []string{"-h"}, 0, "", "", ""},
	}
	// Status 2 (an unexpected error) is a panic recovered in runPair: no
	// input reaches it.
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(out)
			stdout, stderr, code := runPairCmd(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout %q\nstderr %q", code, tc.code, stdout, stderr)
			}
			if tc.stdout != "" && stdout != tc.stdout {
				t.Errorf("stdout %q, want %q", stdout, tc.stdout)
			}
			if !strings.Contains(stderr, tc.stderrHas) {
				t.Errorf("stderr %q, want it to say %q", stderr, tc.stderrHas)
			}
			if tc.wantOutput != "" {
				got, err := os.ReadFile(out)
				if err != nil || string(got) != tc.wantOutput {
					t.Errorf("output file %q (%v), want %q", got, err, tc.wantOutput)
				}
			}
		})
	}
}

// TestPairGenerateCheckList: a generated event is reproducible from its
// seed, checks clean (exit 0, nothing listed), and a hand-made change to
// one round is reported (exit 1) with the round and the rule; -l writes
// the checklist of every round.
func TestPairGenerateCheckList(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "gen.conf")
	writeTemp(t, conf, "# 16 players, 5 rounds\nPlayersNumber=16\nRoundsNumber=5\nForfeitRate=0\n")
	a, b := filepath.Join(dir, "a.trf"), filepath.Join(dir, "b.trf")
	for _, p := range []string{a, b} {
		if _, stderr, code := runPairCmd(t, "--dutch", conf, "-g", "-o", p, "-s", "11", "-l"); code != 0 {
			t.Fatalf("generate: exit %d: %s", code, stderr)
		}
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) == 0 || !bytes.Equal(da, db) {
		t.Fatal("the same config and seed give different files")
	}
	list, err := os.ReadFile(filepath.Join(dir, "a.list"))
	if err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 5; r++ {
		if !strings.Contains(string(list), fmt.Sprintf("Round %d\n", r)) {
			t.Errorf("checklist has no round %d:\n%s", r, list)
		}
	}
	if !strings.Contains(string(list), "No   Pts Diff Pref F1 F2 PAB") {
		t.Errorf("checklist has no column header:\n%.300s", list)
	}
	stdout, stderr, code := runPairCmd(t, "--dutch", a, "-c")
	if code != 0 || stdout != "" {
		t.Fatalf("check of a generated event: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// Swap the colours of player 1's round-2 game.
	lines := strings.Split(string(da), "\r\n")
	col := 92 + 10 + 5 - 1 // round 2's colour, 0-based
	var opp string
	for i, l := range lines {
		if strings.HasPrefix(l, "001    1 ") {
			opp = strings.TrimSpace(l[col-5 : col-1])
			lines[i] = l[:col] + flip(l[col]) + l[col+1:]
		}
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "001 ") && strings.TrimSpace(l[4:8]) == opp {
			lines[i] = l[:col] + flip(l[col]) + l[col+1:]
		}
	}
	c := filepath.Join(dir, "c.trf")
	writeTemp(t, c, strings.Join(lines, "\r\n"))
	stdout, _, code = runPairCmd(t, "--dutch", c, "-c")
	if code != 1 || !strings.Contains(stdout, "round 2: ") || !strings.Contains(stdout, "colours") {
		t.Errorf("check of a changed round 2: exit %d, stdout %q; want 1 and round 2's colours named", code, stdout)
	}
}

func flip(c byte) string {
	if c == 'w' {
		return "b"
	}
	return "w"
}

func writeTemp(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPairProcess runs the real binary as a tournament program would:
// the pairs on standard output and exit 0, or exit 1 and a message.
func TestPairProcess(t *testing.T) {
	cmd := exec.Command(arbiterBin, "pair", "--dutch", filepath.Join("testdata", "pair", "onebye.trf"), "-p")
	out, err := cmd.Output()
	if err != nil || string(out) != "2\n1 3\n2 0\n" {
		t.Fatalf("onebye: %q, %v", out, err)
	}
	cmd = exec.Command(arbiterBin, "pair", "--dutch", filepath.Join("testdata", "pair", "nobye.trf"), "-p")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "no valid pairing") {
		t.Fatalf("nobye: %v, stderr %q; want exit 1 and \"no valid pairing\"", err, stderr.String())
	}
}

// TestPairBursteinGenerateCheck: an event generated by the Burstein
// system (-g --burstein) checks clean with --burstein -c, every round
// re-paired the same, and its type (192) says FIDE_BURSTEIN; the Dutch
// checker finds rounds it would pair otherwise (the systems differ after
// the seeding rounds).
func TestPairBursteinGenerateCheck(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "gen.conf")
	writeTemp(t, conf, "PlayersNumber=20\nRoundsNumber=7\nForfeitRate=0\n")
	ev := filepath.Join(dir, "b.trf")
	if _, stderr, code := runPairCmd(t, "--burstein", conf, "-g", "-o", ev, "-s", "5"); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(ev)
	if err != nil || !strings.Contains(string(data), "192 FIDE_BURSTEIN") {
		t.Fatalf("the generated file does not name the Burstein system (%v):\n%s", err, data)
	}
	if stdout, stderr, code := runPairCmd(t, "--burstein", ev, "-c"); code != 0 || stdout != "" {
		t.Fatalf("--burstein -c: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, _, code := runPairCmd(t, "--dutch", ev, "-c")
	if code != 1 || !strings.Contains(stdout, "round ") {
		t.Fatalf("--dutch -c on a Burstein event: exit %d, %q; want rounds that differ", code, stdout)
	}
	t.Logf("the Dutch checker on the Burstein event:\n%s", stdout)
}
