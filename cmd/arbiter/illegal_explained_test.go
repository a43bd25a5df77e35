package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// An engine's illegal plain move is explained as the referee explains a
// person's, with the federation's article (docs/check-and-pdn.md, "Which
// rules are cited": "an engine game's record and report"): the sparring
// engine's planned illegal move in an FMJD event under the strict policy
// reads "men move forward only, and 21-17 goes backward (FMJD rules, art.
// 3.4)" in the game's line and in games.pdn. It read "not a legal move for
// Black in B:W28,...: illegal move: 21-17".
func TestEngineIllegalMoveExplained(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runArbiter(t, dir, "match",
		"--engine", "name=ok cmd=self engine --level 2", "--engine", "name=bad cmd=self engine --level 2 --fault illegal-at=3",
		"--variant", "international", "--time-control", "5+0.1", "--games-per-encounter", "2",
		"--illegal-move-policy", "strict", "--out", "out", "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	lines := regexp.MustCompile(`(?m)^game \d+: .*\(illegal move: .*$`).FindAllString(stdout, -1)
	if len(lines) != 2 {
		t.Fatalf("want both games lost by bad's illegal move:\n%s", stdout)
	}
	for _, l := range lines {
		if !strings.Contains(l, "(FMJD rules, art. ") || strings.Contains(l, "not a legal move for") {
			t.Errorf("the illegal move is not explained with its article: %s", l)
		}
	}
	pdn, err := os.ReadFile(filepath.Join(dir, "out", "games.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(pdn)), " "), "(FMJD rules, art. ") {
		t.Errorf("games.pdn does not cite the article:\n%s", pdn)
	}
	out, errOut, code := runArbiter(t, dir, "check", filepath.Join("out", "games.pdn"))
	if code != 0 || !strings.Contains(out, "games=2 ok=2 illegal=0 unreadable=0") {
		t.Errorf("arbiter check of games.pdn: exit %d\n%s\n%s", code, out, errOut)
	}
}
