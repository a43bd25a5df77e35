package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// Messages number games from 1, as the PDN and the report do: the game
// with ID 4 is "game 5" (it was "game 4", one off from every other view).
func TestErrorsNumberGamesFromOne(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), FileName))
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	g := testGame(4)
	if err := s.Finish(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, g); err == nil || !strings.Contains(err.Error(), "game 5 is already finished") {
		t.Errorf("finishing game ID 4 twice: %v, want \"game 5 is already finished\"", err)
	}
	// A damaged row is named by the same number.
	if _, err := s.db.ExecContext(ctx, `UPDATE games SET move_times = x'ff' WHERE id = 4`); err != nil {
		t.Fatal(err)
	}
	err := s.Games(ctx, ReadOptions{}, func(Game) error { return nil })
	if err == nil || !strings.Contains(err.Error(), ": game 5: ") {
		t.Errorf("reading a damaged game ID 4: %v, want it named game 5", err)
	}
}
