package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Adjudication by the engines' scores (the sparring engine reports its
// material after each move in its info line): off by default; a side that
// says it is lost for the configured moves loses, a game both sides call
// level past the move number is drawn, each with the scores in the
// termination's reason and in the PDN, which arbiter check reads; games the
// rules end first are left as the rules ended them.
func TestAdjudicationByEvaluation(t *testing.T) {
	dir := t.TempDir()
	base := []string{"match", "--time-control", "10+0.1", "--games-per-encounter", "4", "--progress", "off"}
	deep := []string{"--engine", "name=D cmd=self engine --level 3", "--engine", "name=R cmd=self engine --level random"}
	run := func(name string, args ...string) (string, string) {
		t.Helper()
		out := filepath.Join(dir, name)
		stdout, stderr, code := runArbiter(t, dir, append(append(append([]string{}, base...), args...), "--out", out)...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", name, code, stdout, stderr)
		}
		pdnText, err := os.ReadFile(filepath.Join(out, "games.pdn"))
		if err != nil {
			t.Fatal(err)
		}
		if check, _, code := runArbiter(t, dir, "check", filepath.Join(out, "games.pdn")); code != 0 || !strings.Contains(check, "ok=4") {
			t.Errorf("%s: arbiter check: exit %d\n%s", name, code, check)
		}
		return stdout, string(pdnText)
	}

	stdout, _ := run("off", deep...)
	if strings.Contains(stdout, "adjudicat") {
		t.Errorf("adjudicated without being asked:\n%s", stdout)
	}
	stdout, pdnText := run("resign", append(deep, "--set", "adjudication.resign={movecount: 2, score: 2}")...)
	if n := strings.Count(stdout, "(adjudication: adjudicated by engine evaluation: "); n != 4 || !strings.Contains(stdout, "Score of D vs R: 4 - 0 - 0") {
		t.Errorf("resign: %d games adjudicated, want 4 won by D:\n%s", n, stdout)
	}
	if !strings.Contains(stdout, "Black's score was -2.00 or worse over its last 2 moves (") || strings.Count(pdnText, `[Termination "adjudication"]`) != 4 ||
		!strings.Contains(strings.Join(strings.Fields(pdnText), " "), "adjudicated by engine evaluation: White's score was -2.00 or worse over its last 2 moves (") {
		t.Errorf("resign: the evidence is not in the result and the PDN:\n%s\n%s", stdout, pdnText)
	}
	stdout, _ = run("draw", "--engine", "name=D cmd=self engine --level 1", "--engine", "name=E cmd=self engine --level 1 --seed 3",
		"--adjudication-draw-movenumber", "8", "--adjudication-draw-movecount", "3")
	if !strings.Contains(stdout, "1/2-1/2 (adjudication: adjudicated a draw by engine evaluation after ") ||
		!strings.Contains(stdout, "over their last 3 moves (White +0.00, +0.00, +0.00; Black +0.00, +0.00, +0.00)") {
		t.Errorf("draw: no adjudicated draw with its scores:\n%s", stdout)
	}
	if !strings.Contains(stdout, "(normal: ") {
		t.Errorf("draw: every game adjudicated; the rules' own ends are expected too:\n%s", stdout)
	}
	// Bad values are configuration errors naming the key.
	_, stderr, code := runArbiter(t, dir, append(append(append([]string{}, base...), deep...), "--adjudication-resign-movecount", "0", "--out", filepath.Join(dir, "bad"))...)
	if code != exitUsage || !strings.Contains(stderr, "adjudication.resign.movecount") {
		t.Errorf("bad movecount: exit %d\n%s", code, stderr)
	}
}
