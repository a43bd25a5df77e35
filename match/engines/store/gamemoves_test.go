package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
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

// TestGamesInParts: read in two parts at once, the games are those of one
// read, in ID order, running ones left out; an error of fn stops the read
// and is returned.
func TestGamesInParts(t *testing.T) {
	defer func(n int) { partsFrom = n }(partsFrom)
	partsFrom = 2
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), FileName))
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int{9, 0, 3, 4, 5, 11, 7, 2} {
		g := testGame(id)
		g.Record = fmt.Sprintf("record %d", id)
		if err := s.Finish(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Start(ctx, testGame(6)); err != nil {
		t.Fatal(err)
	}
	read := func(opt ReadOptions) (out []Game) {
		if err := s.Games(ctx, opt, func(g Game) error { out = append(out, g); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	one, parts := read(ReadOptions{}), read(ReadOptions{Parallel: true})
	if len(one) != 8 || !reflect.DeepEqual(one, parts) {
		t.Fatalf("in parts read %d games, in one %d, or they differ", len(parts), len(one))
	}
	for i := 1; i < len(parts); i++ {
		if parts[i].ID <= parts[i-1].ID {
			t.Fatalf("games out of order: %d after %d", parts[i].ID, parts[i-1].ID)
		}
	}
	if all := read(ReadOptions{Parallel: true, All: true}); len(all) != 9 {
		t.Errorf("all games in parts: %d, want 9", len(all))
	}
	stop := errors.New("stop")
	for _, at := range []int{2, 7} { // in the lower part, in the upper
		n := 0
		err := s.Games(ctx, ReadOptions{Parallel: true}, func(g Game) error {
			if n++; n == at {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) || n != at {
			t.Errorf("fn's error at game %d: %v after %d games", at, err, n)
		}
	}
}
