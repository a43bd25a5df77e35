package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
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
	// Some games only, across more than one query's worth of IDs.
	far := testGame(gamesPerQuery + 10)
	if err := s.Finish(ctx, far); err != nil {
		t.Fatal(err)
	}
	ids := []int{1}
	for id := 3; id <= far.ID; id++ {
		ids = append(ids, id) // but the last not in the file: no moves
	}
	got = got[:0]
	err = s.GameMovesOf(ctx, ids, func(id int, ms []MoveText) error {
		got = append(got, id)
		if ms[0].Latency != 1600*time.Microsecond {
			t.Errorf("game %d ply 1 latency %v, want 1.6ms", id, ms[0].Latency)
		}
		return nil
	})
	if err != nil || len(got) != 2 || got[0] != 1 || got[1] != far.ID {
		t.Errorf("GameMovesOf read games %v, %v; want 1, %d", got, err, far.ID)
	}
}
