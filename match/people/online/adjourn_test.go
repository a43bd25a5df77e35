package online

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// A game whose clock runs is never adjourned: its flag ends it.
func TestRunningClockNotAdjourned(t *testing.T) {
	h, ft := testHall(t, Config{IdleAfter: time.Hour})
	c := create(t, h, Setup{Variant: "international", TimeControl: "40/7200:3600"})
	play(t, h, c.ID, "32-28") // black's clock runs
	ft.advance(90 * time.Minute)
	if n := h.AdjournIdle(); n != 0 || !h.Live(c.ID) {
		t.Fatalf("a game with a running clock was adjourned (%d)", n)
	}
}

// An adjourned game stays adjourned over a restart (it does not count as
// running) and its link takes it up where it stood (issue 24, finding 1).
func TestAdjournAndTakeUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	h, ft := testHall(t, Config{Path: path, IdleAfter: time.Hour, MaxGames: 1})
	c := create(t, h, Setup{Variant: "international"}) // untimed: no clock
	play(t, h, c.ID, "32-28")
	if _, err := h.Create(context.Background(), Setup{Variant: "international"}); err == nil {
		t.Fatal("a second game beyond MaxGames 1 was created")
	}
	ft.advance(2 * time.Hour)
	if n := h.AdjournIdle(); n != 1 || h.Live(c.ID) {
		t.Fatalf("adjourned %d, live %v", n, h.Live(c.ID))
	}
	h.Close()
	h2, _ := testHall(t, Config{Path: path, IdleAfter: time.Hour, MaxGames: 2})
	if h2.Live(c.ID) {
		t.Fatal("the adjourned game is running after a restart")
	}
	other := create(t, h2, Setup{Variant: "international"})
	s, err := h2.Snapshot(c.ID, RoleBlack)
	if err != nil || s.State.Status != "running" || len(s.Moves) != 1 || !h2.Live(c.ID) {
		t.Fatalf("taken up after the restart: %v %+v live %v", err, s.State, h2.Live(c.ID))
	}
	play(t, h2, c.ID, "19-23")
	if _, err := h2.Create(context.Background(), Setup{Variant: "international"}); err == nil {
		t.Fatalf("a third game beyond MaxGames 2 (the taken-up game counts again; %s)", other.ID)
	}
}
