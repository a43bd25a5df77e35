package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fraction or an out-of-range number for a whole-number key stops the
// command with exit 2 and a message quoting the value as written, whether it
// comes from the file, --set or the key's own flag (configs tests the keys
// one by one).
func TestWholeNumberKeysOnTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "event.yaml")
	text := "variant: english\ntime_control: \"60+1\"\nengines:\n  - {name: a, command: self engine}\n  - {name: b, command: self engine}\n"
	if err := os.WriteFile(cfg, []byte(text+"concurrency: 1.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-c", cfg}, []string{"event.yaml: concurrency: 1.5 is not a whole number"}},
		{[]string{"-c", good, "--set", "games_per_encounter=4.5"}, []string{"--set games_per_encounter=4.5: games_per_encounter: 4.5 is not a whole number"}},
		{[]string{"-c", good, "--set", "openings.seed=99999999999999999999"}, []string{"openings.seed: 99999999999999999999 is out of range"}},
		{[]string{"-c", good, "--concurrency", "1.5"}, []string{`"1.5"`, "--concurrency"}},
		{[]string{"-c", good, "--games-per-encounter", "99999999999999999999"}, []string{`"99999999999999999999"`, "--games-per-encounter", "out of range"}},
	} {
		_, stderr, code := runArbiter(t, dir, append([]string{"tournament", "--out", filepath.Join(dir, "out")}, tc.args...)...)
		if code != 2 {
			t.Errorf("%q: exit %d, want 2; stderr %s", tc.args, code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%q: stderr %q does not say %q", tc.args, stderr, w)
			}
		}
	}
}

// An SPRT whose LLR cannot be computed (a normalized Elo of 2000 is beyond
// the fit whatever the results) does not stop the event; the run ends with
// a warning and the report says why.
func TestSPRTFailureIsShown(t *testing.T) {
	dir := t.TempDir()
	text := "variant: english\ntime_control: \"30+0.5\"\nengines:\n  - {name: a, command: self engine --level random --seed 1}\n" +
		"  - {name: b, command: self engine --level random --seed 2}\ngames_per_encounter: 2\nsprt: {elo0: 0, elo1: 2000}\nout: out\n"
	if err := os.WriteFile(filepath.Join(dir, "event.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runArbiter(t, dir, "tournament", "-c", "event.yaml", "--progress", "off")
	if code != 0 || !strings.Contains(stderr, "warning: SPRT: LLR not computed: sprt: ") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "out", "report.html"))
	if err != nil || !strings.Contains(string(page), "LLR not computed") {
		t.Errorf("report.html does not show the failure: %v", err)
	}
}
