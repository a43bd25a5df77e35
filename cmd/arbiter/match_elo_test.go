package main

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMatchEloInWords: an engine author's first match is often against a
// much weaker engine, won in every game, or a single pair. The console
// printed "Elo: +Inf +/- NaN" and "Elo: 0.0 +/- 0.0", the report "n/a +/-
// n/a" and "± 0.0": a crash to read, and a certainty the games do not give.
// The cutechess line stays as scripts read it (docs/engine-testing.md
// promises +Inf), with a sentence under it saying what it means, the same
// in report.html; results.json has null for what does not exist.
func TestMatchEloInWords(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, a, b string
		games      string
		console    []string // in this order, each on the line after the last
		report     []string
		nullKeys   []string // penta_elo's keys that are null for both engines
	}{
		{
			name: "won every game",
			a:    "name=strong cmd=self engine --level 3", b: "name=weak cmd=self engine --level random",
			games: "4",
			console: []string{"Score of strong vs weak: 4 - 0 - 0  [1.000] 4",
				"Elo: +Inf +/- NaN, LOS: 97.7 %, DrawRatio: 0.0 %",
				"No finite Elo yet: strong won every game (4 of 4); more games, or a stronger opponent, give one.",
				"Ptnml(0-2): [0, 0, 0, 0, 2]"},
			report: []string{"Elo difference: +∞ +/- n/a, LOS: 97.7 %",
				"No finite Elo yet: strong won every game (4 of 4); more games, or a stronger opponent, give one.",
				"<td>+∞</td><td class=\"pm\">every game won</td>",
				"+∞ (every game won)", "−∞ (every game lost)"},
			nullKeys: []string{"elo", "error"},
		},
		{
			// The sparring engine at one level against itself: each wins
			// with White, 1-1.
			name: "one pair",
			a:    "name=a cmd=self engine --level 2", b: "name=b cmd=self engine --level 2",
			games: "2",
			console: []string{"Score of a vs b: 1 - 1 - 0  [0.500] 2",
				"Elo: 0.0 +/- NaN, LOS: 50.0 %, DrawRatio: 0.0 %",
				"No Elo interval yet: too few games (1 game pair) to estimate how far the Elo may be off; more games give one.",
				"Ptnml(0-2): [0, 0, 1, 0, 0]"},
			report: []string{"Elo difference: 0.0 +/- n/a, LOS: 50.0 %",
				"No Elo interval yet: too few games (1 game pair)",
				"<td>+0.0</td><td class=\"pm\">too few games</td>",
				"+0.0 (too few games)"},
			nullKeys: []string{"lower", "upper", "error"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			stdout, stderr, code := runArbiter(t, dir, "match", "--engine", tc.a, "--engine", tc.b,
				"--variant", "english", "--time-control", "10+0.1", "--games-per-encounter", tc.games,
				"--out", out, "--progress", "off")
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			if want := strings.Join(tc.console, "\n") + "\n"; !strings.Contains(stdout, want) {
				t.Errorf("console lacks\n%s\nin\n%s", want, stdout)
			}
			if strings.Contains(stdout, "+/- 0.0") {
				t.Errorf("console claims an interval of width 0:\n%s", stdout)
			}
			page, err := os.ReadFile(filepath.Join(out, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			// What a person sees: the page less its scripts (the chart
			// library's code says NaN and Infinity of its own).
			text := html.UnescapeString(regexp.MustCompile(`(?s)<script.*?</script>`).ReplaceAllString(string(page), ""))
			for _, want := range tc.report {
				if !strings.Contains(text, want) {
					t.Errorf("report.html lacks %q", want)
				}
			}
			for _, bad := range []string{"n/a ± n/a", "± 0.0<", "NaN", "Inf"} {
				if strings.Contains(text, bad) {
					t.Errorf("report.html shows %q", bad)
				}
			}
			data, err := os.ReadFile(filepath.Join(out, "results.json"))
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Stats struct {
					Engines []struct {
						Name     string
						PentaElo map[string]any `json:"penta_elo"`
					}
				}
			}
			if err := json.Unmarshal(data, &res); err != nil {
				t.Fatal(err)
			}
			if len(res.Stats.Engines) != 2 {
				t.Fatalf("results.json has %d engines", len(res.Stats.Engines))
			}
			for _, e := range res.Stats.Engines {
				for _, k := range tc.nullKeys {
					if v, ok := e.PentaElo[k]; !ok || v != nil {
						t.Errorf("results.json %s penta_elo.%s = %v, want null (docs/engine-testing.md)", e.Name, k, v)
					}
				}
			}
		})
	}
}
