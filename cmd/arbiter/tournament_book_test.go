package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTournamentTakesDefaultBook: a tournament whose config names no book
// takes the variant's default one, as match does, and says so on its first
// line. It only warned, and deterministic engines replayed the same pair
// in every encounter.
func TestTournamentTakesDefaultBook(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "event.yaml"), `
name: No book
variant: english
time_control: "10+0.1"
engines:
  - {name: d1, command: self engine --level 1}
  - {name: d2, command: self engine --level 2}
games_per_encounter: 4
`)
	out := filepath.Join(dir, "out")
	stdout, stderr, code := runArbiter(t, dir, "tournament", "-c", "event.yaml", "--out", out, "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	first, _, _ := strings.Cut(stderr+stdout, "\n")
	if !strings.Contains(first, `openings="3move_english.json group standard (the variant's default; openings.file or --openings-file chooses another)"`) {
		t.Errorf("the first line does not name the book the games start from:\n%s", first)
	}
	if strings.Contains(stderr, "no opening book") {
		t.Errorf("warns of no book though it took one:\n%s", stderr)
	}
	pdnText, err := os.ReadFile(filepath.Join(out, "games.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	// Two pairs, each from its own ballot opening, in the book's order.
	for _, tag := range []string{`[Opening "001 09-13 21-17 05-09"]`, `[Opening "002 09-13 21-17 06-09"]`} {
		if n := strings.Count(string(pdnText), tag); n != 2 {
			t.Errorf("games.pdn has %s %d times, want 2", tag, n)
		}
	}
	page, _ := os.ReadFile(filepath.Join(out, "report.html"))
	if !strings.Contains(string(page), "Opening book</dt><dd>3move_english.json (group standard, sequential)") {
		t.Errorf("report.html does not name the book")
	}
}
