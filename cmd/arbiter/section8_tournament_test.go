package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every preset of RULES.md section 8 runs a short event: two sparring
// engines, two games (a colour-reversed pair from the start position),
// a small move cap so that the test stays fast, and the games.pdn the
// event writes passes `arbiter check`. The presets run in parallel: each
// is a process of its own with its own files.
func TestSection8PresetEvents(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"turkish", "frisian", "frysk", "breakthrough", "killer", "dameo", "gothic", "alquerque", "corner", "hawaii", "parachute"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(dir, name)
			stdout, stderr, code := runArbiter(t, dir, "match", "--variant", name, "--time-control", "10+0.1",
				"--games-per-encounter", "2", "--adjudication-max-moves", "40", "--progress", "off",
				"--engine", "name=A cmd=self engine --level 1 --seed 1", "--engine", "name=B cmd=self engine --level greedy --seed 2",
				"--out", out)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			pdnText, err := os.ReadFile(filepath.Join(out, "games.pdn"))
			if err != nil {
				t.Fatal(err)
			}
			tag := map[string]string{"turkish": `[GameType "30"]`, "frisian": `[GameType "40"]`, "frysk": `[GameType "97"]`, "breakthrough": `[GameType "96"]`}[name]
			if tag == "" {
				tag = `[Variant "` + name + `"]`
			}
			if n := strings.Count(string(pdnText), tag); n != 2 {
				t.Errorf("games.pdn names the variant %s %d times, want 2:\n%s", tag, n, pdnText)
			}
			if n := strings.Count(string(pdnText), "[Event "); n != 2 {
				t.Errorf("games.pdn has %d games, want 2:\n%s", n, pdnText)
			}
			for _, bad := range []string{"illegal move", "engine crashed", "engine stalled", "engine fault", "time forfeit"} {
				if strings.Contains(string(pdnText), `[Termination "`+bad+`"]`) {
					t.Errorf("a game ended by %s:\n%s", bad, pdnText)
				}
			}
			if check, _, code := runArbiter(t, dir, "check", filepath.Join(out, "games.pdn")); code != 0 || !strings.Contains(check, "ok=2") {
				t.Errorf("arbiter check: exit %d\n%s", code, check)
			}
		})
	}
}
