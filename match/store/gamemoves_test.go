package store

import (
	"context"
	"path/filepath"
	"testing"
)

// TestGameMoves reads every game's plies in one pass, in game order, with
// what the engine said of them.
func TestGameMoves(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), FileName))
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int{2, 0, 1} {
		g := testGame(id)
		if id == 1 {
			g.Moves = g.Moves[:1]
		}
		if err := s.Finish(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	var got []int
	var counts []int
	err := s.GameMoves(ctx, func(id int, ms []MoveText) error {
		got = append(got, id)
		counts = append(counts, len(ms))
		if ms[0].Text != "22-18" || !ms[0].HasScore || ms[0].Score != 0.31 || ms[0].Depth != 12 {
			t.Errorf("game %d ply 1: %+v", id, ms[0])
		}
		if len(ms) == 3 && ms[2].HasScore {
			t.Errorf("game %d ply 3 has a score it was not given", id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != 0 || got[1] != 1 || got[2] != 2 || counts[0] != 3 || counts[1] != 1 || counts[2] != 3 {
		t.Errorf("games %v with %v plies, want 0, 1, 2 with 3, 1, 3", got, counts)
	}
}
