package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

// TestRulesReasonNamesSide: a match from a position where White's capture
// takes Black's last piece. The console's game lines and the SQLite
// store's Reason say "Black has no pieces left", naming the side as the
// referee's own reasons do ("Black played 9-13: ...", "White used ...");
// they said "black has no pieces left".
func TestRulesReasonNamesSide(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "last.fen"), []byte("W:W18:B14\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	stdout, stderr, code := runArbiter(t, dir, "match", "--variant", "english", "--progress", "off",
		"--engine", "name=A cmd=self engine --level 1", "--engine", "name=B cmd=self engine --level 1",
		"--games-per-encounter", "2", "--openings-file", "last.fen", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := strings.Count(stdout, "1-0 (normal: Black has no pieces left)"); n != 2 || strings.Contains(stdout, "black has no pieces left") {
		t.Errorf("the console names the side %d times of 2 as a reason does:\n%s", n, stdout)
	}
	st, err := store.OpenDir(out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	n := 0
	if err := st.Games(context.Background(), store.ReadOptions{NoPDN: true}, func(g store.Game) error {
		n++
		if g.Reason != "Black has no pieces left" {
			t.Errorf("game %d: the store's reason is %q", g.ID, g.Reason)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("the store holds %d games, want 2", n)
	}
}

// TestEngineFaultReasonNamesSide: an engine that crashes at its second
// move, once with White and once with Black. The console's game lines and
// the record's notes (games.pdn) say "White's engine crashed: ..." and
// "Black's engine crashed: ...", as the referee names the sides; they said
// "white engine crashed".
func TestEngineFaultReasonNamesSide(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	stdout, stderr, code := runArbiter(t, dir, "match", "--variant", "english", "--progress", "off", "--time-control", "5+0.1",
		"--engine", "name=Crash cmd=self engine --fault crash-at=2", "--engine", "name=Ok cmd=self engine --level 1",
		"--games-per-encounter", "2", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	pdnText, err := os.ReadFile(filepath.Join(out, "games.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []string{"White", "Black"} {
		want := "(engine crashed: " + side + "'s engine crashed: it exited during its search"
		if !strings.Contains(stdout, want) {
			t.Errorf("the console lacks %q:\n%s", want, stdout)
		}
		if !strings.Contains(strings.Join(strings.Fields(string(pdnText)), " "), side+"'s engine crashed: it exited") {
			t.Errorf("games.pdn does not say %q", side+"'s engine crashed")
		}
	}
}
