package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// dropGuard makes version 7's games table version 6's.
const dropGuard = "ALTER TABLE games DROP COLUMN host_guard; "

// A finished game's host guard (what each side's CheckerBoard host did)
// reads back as written; a game without one reads back zero.
func TestHostGuardRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), FileName))
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	g := testGame(0)
	g.HostGuard = [2]HostGuard{{Stopped: 3, Moves: 20, Overshoot: 1.375}, {Moves: 19, Overshoot: 1.1}}
	if err := s.Finish(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, testGame(1)); err != nil {
		t.Fatal(err)
	}
	var got [][2]HostGuard
	if err := s.Games(ctx, ReadOptions{}, func(g Game) error { got = append(got, g.HostGuard); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != g.HostGuard || got[1] != ([2]HostGuard{}) {
		t.Errorf("host guards read back %v; want [%v {}]", got, g.HostGuard)
	}
}

// A database of schema version 6 (before games.host_guard) opens, its
// games read with no host guard, and a game with one is stored.
func TestMigrateFromVersion6(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	s := open(t, path)
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, testGame(0)); err != nil {
		t.Fatal(err)
	}
	toVersion7(t, s)
	if _, err := s.db.Exec(dropGuard + "PRAGMA user_version = 6"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path)
	g := testGame(1)
	g.HostGuard[1] = HostGuard{Stopped: 1, Moves: 2, Overshoot: 2}
	if err := s.Finish(ctx, g); err != nil {
		t.Fatal(err)
	}
	var got [][2]HostGuard
	if err := s.Games(ctx, ReadOptions{}, func(g Game) error { got = append(got, g.HostGuard); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != ([2]HostGuard{}) || got[1] != g.HostGuard {
		t.Errorf("host guards after the migration %v; want [{} %v]", got, g.HostGuard)
	}
}

// A host_guard column that is not what Finish writes is an error naming
// the game, not a report with made-up numbers.
func TestHostGuardCorrupt(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), FileName))
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, testGame(0)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`UPDATE games SET host_guard = '3 x' WHERE id = 0`); err != nil {
		t.Fatal(err)
	}
	err := s.Games(ctx, ReadOptions{}, func(Game) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "game 1: host guard") {
		t.Errorf("corrupt host guard: %v; want an error naming game 1", err)
	}
}
