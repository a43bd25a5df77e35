package store

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// dropLive makes version 6's games table version 5's (dropPacked, which
// makes version 4's, drops it too).
const dropLive = dropGuard + "ALTER TABLE games DROP COLUMN live; "

// A running game's live moves are read back as written, with its row; a
// game that is finished, or started again, has none, and a late SetLive
// for a finished game changes nothing.
func TestLiveMoves(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), FileName))
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	g0, g1 := testGame(0), testGame(1)
	for _, g := range []Game{g0, g1} {
		g.Moves = nil
		if err := s.Start(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)
	live := Live{Moves: testGame(1).Moves, Clocks: [2]time.Duration{59 * time.Second, 58500 * time.Millisecond}, Updated: at}
	if err := s.SetLive(ctx, 1, live); err != nil {
		t.Fatal(err)
	}
	live.Moves[0].Latency = 0 // not kept: a diagnostic of the finished game
	read := func() map[int]Live {
		t.Helper()
		out := map[int]Live{}
		if err := s.RunningGames(ctx, func(g Game, l Live) error {
			if g.Status != Running || g.Plies != len(l.Moves) {
				t.Errorf("running game %d: status %q, %d plies for %d moves", g.ID, g.Status, g.Plies, len(l.Moves))
			}
			out[g.ID] = l
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	got := read()
	if len(got) != 2 || len(got[0].Moves) != 0 {
		t.Fatalf("running games = %+v; want games 0 (no moves yet) and 1", got)
	}
	if !reflect.DeepEqual(got[1], live) {
		t.Errorf("live moves of game 1 = %+v\nwant %+v", got[1], live)
	}
	// Finished: gone from the running games, and a late write is ignored.
	if err := s.Finish(ctx, testGame(1)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLive(ctx, 1, live); err != nil {
		t.Fatal(err)
	}
	if got := read(); len(got) != 1 || got[0].Moves != nil && len(got[0].Moves) != 0 {
		t.Errorf("running games after game 1 finished = %+v; want game 0 only", got)
	}
	// Started again (a killed run's game replayed): no moves.
	if err := s.SetLive(ctx, 0, live); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx, Game{ID: 0, White: 0, Black: 1, Started: at}); err != nil {
		t.Fatal(err)
	}
	if got := read(); len(got[0].Moves) != 0 {
		t.Errorf("game 0 started again has live moves %+v", got[0].Moves)
	}
	// From skips the games below it.
	var ids []int
	if err := s.Games(ctx, ReadOptions{All: true, From: 1}, func(g Game) error { ids = append(ids, g.ID); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids, []int{1}) {
		t.Errorf("games from 1 = %v; want [1]", ids)
	}
}

// A database of schema version 5 (before games.live) opens, and its
// running games read with no live moves.
func TestMigrateFromVersion5(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	s := open(t, path)
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx, testGame(0)); err != nil {
		t.Fatal(err)
	}
	toVersion7(t, s)
	if _, err := s.db.Exec(dropLive + "PRAGMA user_version = 5"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path)
	n := 0
	if err := s.RunningGames(ctx, func(g Game, l Live) error { n++; return nil }); err != nil || n != 1 {
		t.Errorf("running games after the migration: %d, %v; want 1", n, err)
	}
	if err := s.SetLive(ctx, 0, Live{Moves: testGame(0).Moves}); err != nil {
		t.Error(err)
	}
}

// A live column that is not what SetLive writes is an error naming the game.
func TestLiveMovesCorrupt(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), FileName))
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx, testGame(0)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`UPDATE games SET live = '{"m": 3}' WHERE id = 0`); err != nil {
		t.Fatal(err)
	}
	err := s.RunningGames(ctx, func(Game, Live) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "game 1: live moves") {
		t.Errorf("corrupt live moves: %v; want an error naming game 1", err)
	}
}

// FuzzDecodeLive: whatever the live column holds, reading it fails or
// gives moves that write back and read again the same.
func FuzzDecodeLive(f *testing.F) {
	good, err := encodeLive(Live{Moves: testGame(0).Moves, Clocks: [2]time.Duration{time.Second, 2 * time.Second}, Updated: time.Unix(5, 6).UTC()})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{string(good), "", "{}", `{"m":[{"t":"1-5","s":null}]}`, `{"m": 3}`, `{"u":"yesterday"}`, `{"c":[1e308,-1]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		l, err := decodeLive(text)
		if err != nil {
			return
		}
		again, err := encodeLive(l)
		if err != nil {
			t.Fatalf("%q read, but does not write: %v", text, err)
		}
		l2, err := decodeLive(string(again))
		if err != nil || len(l2.Moves) != len(l.Moves) {
			t.Fatalf("%q: written as %s, read back %d moves of %d: %v", text, again, len(l2.Moves), len(l.Moves), err)
		}
	})
}
