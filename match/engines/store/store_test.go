package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func testEvent(hash string) Event {
	return Event{
		Name: "Test event", ConfigFile: "configs/test.yaml", ConfigHash: hash, Config: "name: Test event\n",
		Variant: "english", TimeControl: "60+1", Planned: 4,
		Engines: []Engine{
			{ID: 0, Name: "alpha", Command: "self engine --level 1", Protocol: "hub", TimeControl: "60+1"},
			{ID: 1, Name: "beta", Command: "self engine --level 2", Protocol: "hub", TimeControl: "60+1"},
		},
		Created: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC),
		SPRT:    `{"elo0":0,"elo1":5}`,
	}
}

func testGame(id int) Game {
	t0 := time.Date(2025, 3, 1, 12, 0, id, 0, time.UTC)
	return Game{
		ID: id, Cycle: 1, Round: 1 + id/2, Board: 1, Pair: id / 2, PairGame: id % 2, White: id % 2, Black: 1 - id%2,
		Opening: "001 09-13 21-17 05-09", OpeningFEN: "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,6,7,8,9",
		Result: "1-0", Termination: "normal", Reason: "black has no legal move", FirstMover: "white",
		PDN:     fmt.Sprintf("[Event \"Test event\"]\n[Round \"%d\"]\n\n1. 22-18 *\n", id),
		Started: t0, Finished: t0.Add(3 * time.Second),
		Moves: []Move{{Text: "22-18", Time: 1500 * time.Microsecond, Clock: 58*time.Second + 500*time.Millisecond, Score: 0.31, HasScore: true,
			Depth: 12, Nodes: 123456789012, PV: "22-18 11-15", Latency: 1600 * time.Microsecond},
			{Text: "11-15", Time: 2 * time.Second, Score: -0.5, HasScore: true}, {Text: "18x11"}},
	}
}

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, FileName))
	ev := testEvent("abc123")
	if err := s.Init(ctx, ev); err != nil {
		t.Fatal(err)
	}
	// The database is a real SQLite file in WAL mode.
	var mode string
	if err := s.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
	for id := 0; id < 3; id++ {
		if err := s.Start(ctx, testGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	for id := 0; id < 2; id++ {
		if err := s.Finish(ctx, testGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	// Reopen: everything is there.
	s = open(t, filepath.Join(dir, FileName))
	got, err := s.Event(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, ev) {
		t.Errorf("event:\n got %+v\nwant %+v", got, ev)
	}
	ids, err := s.FinishedIDs(ctx)
	if err != nil || !reflect.DeepEqual(ids, []int{0, 1}) {
		t.Fatalf("finished = %v, %v; want [0 1]", ids, err)
	}
	counts, _ := s.Count(ctx)
	if counts[Finished] != 2 || counts[Running] != 1 {
		t.Errorf("counts = %v", counts)
	}
	var games []Game
	if err := s.Games(ctx, ReadOptions{Moves: true}, func(g Game) error { games = append(games, g); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Fatalf("read %d games, want 2", len(games))
	}
	for i, g := range games {
		want := testGame(i)
		want.Status = Finished
		want.MoveTimes = []time.Duration{1500 * time.Microsecond, 2 * time.Second, 0}
		want.MoveLatency = []time.Duration{1600 * time.Microsecond, 0, 0}
		want.Plies = 3
		if !reflect.DeepEqual(g, want) {
			t.Errorf("game %d:\n got %+v\nwant %+v", i, g, want)
		}
	}
	// Without moves, the packed times and no PDN.
	var light []Game
	s.Games(ctx, ReadOptions{All: true, NoPDN: true}, func(g Game) error { light = append(light, g); return nil })
	var bare []Game
	s.Games(ctx, ReadOptions{NoPDN: true, NoTimes: true}, func(g Game) error { bare = append(bare, g); return nil })
	if len(bare) != 2 || bare[0].MoveTimes != nil || bare[0].MoveLatency != nil || bare[0].Plies != 3 {
		t.Errorf("bare read: %+v", bare)
	}
	if len(light) != 3 || light[2].Status != Running || light[0].PDN != "" || light[0].Moves != nil ||
		!reflect.DeepEqual(light[0].MoveTimes, []time.Duration{1500 * time.Microsecond, 2 * time.Second, 0}) {
		t.Errorf("light read: %+v", light)
	}
}

func TestConfigMismatchRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", FileName)
	s := open(t, path)
	if err := s.Init(ctx, testEvent("hash-one-0123456789")); err != nil {
		t.Fatal(err)
	}
	// Same config again: accepted (resume).
	if err := s.Init(ctx, testEvent("hash-one-0123456789")); err != nil {
		t.Fatalf("same config refused: %v", err)
	}
	other := testEvent("hash-two-9876543210")
	other.Name = "Other event"
	other.ConfigFile = "configs/other.yaml"
	err := s.Init(ctx, other)
	if !errors.Is(err, ErrConfigMismatch) {
		t.Fatalf("Init with another config = %v, want ErrConfigMismatch", err)
	}
	for _, want := range []string{path, "Test event", "configs/test.yaml", "hash-one-012", "Other event", "configs/other.yaml", "hash-two-987"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// The original event is untouched.
	ev, _ := s.Event(ctx)
	if ev.Name != "Test event" || len(ev.Engines) != 2 {
		t.Errorf("event changed: %+v", ev)
	}
}

func TestFinishedGameIsNeverReplaced(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), FileName))
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	g := testGame(0)
	if err := s.Finish(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx, g); err == nil || !strings.Contains(err.Error(), "already finished") {
		t.Errorf("Start over a finished game = %v", err)
	}
	g.Result = "0-1"
	if err := s.Finish(ctx, g); err == nil {
		t.Error("a finished game was finished twice")
	}
	var res []string
	s.Games(ctx, ReadOptions{}, func(g Game) error { res = append(res, g.Result); return nil })
	if !reflect.DeepEqual(res, []string{"1-0"}) {
		t.Errorf("results = %v", res)
	}
	// A running game (left by a killed run) is replaced by the replay, moves included.
	r := testGame(1)
	r.Moves = append(r.Moves, Move{Text: "stale", Time: time.Second})
	if err := s.Start(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx, testGame(1)); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, testGame(1)); err != nil {
		t.Fatal(err)
	}
	var n int
	s.Games(ctx, ReadOptions{Moves: true}, func(g Game) error {
		if g.ID == 1 {
			n = len(g.Moves)
		}
		return nil
	})
	if n != 3 {
		t.Errorf("game 1 has %d moves, want 3", n)
	}
}

func TestEventMissing(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), FileName))
	if _, err := s.Event(context.Background()); !errors.Is(err, ErrNoEvent) {
		t.Errorf("Event on an empty database = %v", err)
	}
}

func TestStopped(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), FileName))
	s.Init(ctx, testEvent("h"))
	if err := s.SetStopped(ctx, "SPRT: H1 accepted"); err != nil {
		t.Fatal(err)
	}
	ev, _ := s.Event(ctx)
	if ev.Stopped != "SPRT: H1 accepted" {
		t.Errorf("stopped = %q", ev.Stopped)
	}
	// Discard drops a running game, never a finished one.
	s.Start(ctx, testGame(0))
	s.Finish(ctx, testGame(1))
	if err := s.Discard(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Discard(ctx, 1); err != nil {
		t.Fatal(err)
	}
	c, _ := s.Count(ctx)
	if c[Running] != 0 || c[Finished] != 1 {
		t.Errorf("after Discard: %v", c)
	}
}

// A directory name may hold characters that mean something in a URI (a
// "?" or "#"): the database is still the file at that path, not a file
// named after the part before them.
func TestPathWithURICharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run?1#a%20b")
	st, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.Init(ctx, testEvent("h1")); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := os.Stat(filepath.Join(dir, FileName)); err != nil {
		t.Errorf("database not at %s: %v", filepath.Join(dir, FileName), err)
	}
	st = open(t, filepath.Join(dir, FileName))
	if ev, err := st.Event(ctx); err != nil || ev.ConfigHash != "h1" {
		t.Errorf("reopened: %+v, %v", ev, err)
	}
}

// An engine's identity is kept per engine; a partial update (the program
// known at the start of a run, the engine's own name once it has said it)
// keeps the fields it leaves empty.
func TestIdentity(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), FileName))
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	if ids, err := s.Identities(ctx); err != nil || len(ids) != 0 {
		t.Fatalf("new event: %v, %v; want none", ids, err)
	}
	steps := []struct {
		engine int
		set    Identity
	}{
		{0, Identity{Program: "/bin/a", Checksum: "c1"}},
		{0, Identity{Name: "Alpha", Version: "1.0"}},
		{1, Identity{Name: "Beta"}},
		{0, Identity{Checksum: "c2"}},
	}
	for _, st := range steps {
		if err := s.SetIdentity(ctx, st.engine, st.set); err != nil {
			t.Fatal(err)
		}
	}
	want := map[int]Identity{0: {Program: "/bin/a", Checksum: "c2", Name: "Alpha", Version: "1.0"}, 1: {Name: "Beta"}}
	if ids, err := s.Identities(ctx); err != nil || !reflect.DeepEqual(ids, want) {
		t.Errorf("Identities = %+v, %v; want %+v", ids, err, want)
	}
	if err := s.SetIdentity(ctx, 7, Identity{Name: "ghost"}); err == nil {
		t.Error("an identity for an engine that is not in the event was accepted")
	}
}

// A database of schema version 1 (before engine identities) is migrated
// when opened: its event and games read as before, and identities can be
// recorded.
func TestMigrateFromVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	s := open(t, path)
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, testGame(0)); err != nil {
		t.Fatal(err)
	}
	// Version 1 is version 2 without the engine_identity table, version 2
	// version 3 without games.worker, version 3 version 4 without the
	// moves' annotations.
	toVersion7(t, s)
	if _, err := s.db.Exec("DROP TABLE engine_identity; ALTER TABLE games DROP COLUMN worker; " + dropAnnotations + dropPacked + "PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path)
	var v int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != schemaVersion {
		t.Fatalf("user_version = %d, %v; want %d", v, err, schemaVersion)
	}
	ev, err := s.Event(ctx)
	if err != nil || ev.Name != "Test event" || len(ev.Engines) != 2 {
		t.Errorf("event after the migration: %+v, %v", ev, err)
	}
	var n int
	if err := s.Games(ctx, ReadOptions{Moves: true}, func(g Game) error { n += len(g.Moves); return nil }); err != nil || n != 3 {
		t.Errorf("moves after the migration: %d, %v; want 3", n, err)
	}
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Errorf("resuming the migrated event: %v", err)
	}
	if err := s.SetIdentity(ctx, 1, Identity{Name: "Beta"}); err != nil {
		t.Error(err)
	}
	if ids, err := s.Identities(ctx); err != nil || ids[1].Name != "Beta" {
		t.Errorf("Identities = %+v, %v", ids, err)
	}
}

// A database of schema version 2 (before games.worker) is migrated when
// opened, by two stores at once as by one: its games read with no worker,
// and a game played by a worker keeps its name.
func TestMigrateFromVersion2(t *testing.T) {
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
	if _, err := s.db.Exec("ALTER TABLE games DROP COLUMN worker; " + dropAnnotations + dropPacked + "PRAGMA user_version = 2"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	stores := make([]*Store, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = Open(path) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("open %d of 2 at once: %v", i+1, err)
		}
		defer stores[i].Close()
	}
	s = stores[0]
	g := testGame(1)
	g.Worker = "w1"
	if err := s.Finish(ctx, g); err != nil {
		t.Fatal(err)
	}
	workers := map[int]string{}
	if err := stores[1].Games(ctx, ReadOptions{}, func(g Game) error { workers[g.ID] = g.Worker; return nil }); err != nil {
		t.Fatal(err)
	}
	if want := map[int]string{0: "", 1: "w1"}; !reflect.DeepEqual(workers, want) {
		t.Errorf("workers after the migration = %v; want %v", workers, want)
	}
}

// dropAnnotations makes version 4's moves table version 3's.
const dropAnnotations = "ALTER TABLE moves DROP COLUMN clock_ms; ALTER TABLE moves DROP COLUMN score; ALTER TABLE moves DROP COLUMN depth; " +
	"ALTER TABLE moves DROP COLUMN nodes; ALTER TABLE moves DROP COLUMN pv; ALTER TABLE moves DROP COLUMN latency_ms; "

// A database of schema version 3 (before the moves' annotations) opens: its
// moves read with no score, clock or latency, and a new game keeps them.
func TestMigrateFromVersion3(t *testing.T) {
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
	if _, err := s.db.Exec(dropAnnotations + dropPacked + "PRAGMA user_version = 3"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path)
	if err := s.Finish(ctx, testGame(1)); err != nil {
		t.Fatal(err)
	}
	moves := map[int][]Move{}
	if err := s.Games(ctx, ReadOptions{Moves: true}, func(g Game) error { moves[g.ID] = g.Moves; return nil }); err != nil {
		t.Fatal(err)
	}
	if old := moves[0]; len(old) != 3 || old[0] != (Move{Text: "22-18", Time: 1500 * time.Microsecond}) {
		t.Errorf("old game's moves after the migration: %+v", old)
	}
	if !reflect.DeepEqual(moves[1], testGame(1).Moves) {
		t.Errorf("new game's moves: %+v\nwant %+v", moves[1], testGame(1).Moves)
	}
}

// dropPacked makes version 5's games table version 4's.
const dropPacked = dropLive + "ALTER TABLE games DROP COLUMN record; ALTER TABLE games DROP COLUMN move_latency; "

// A database of schema version 4 (before the games' packed record and
// latencies) opens: its games read with no record and no packed latencies
// (nil, not empty: unknown), their latencies are in the moves table
// (GameMovesOf), and a new game keeps its record and latencies in its row.
func TestMigrateFromVersion4(t *testing.T) {
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
	if _, err := s.db.Exec(dropPacked + "PRAGMA user_version = 4"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path)
	g1 := testGame(1)
	g1.Record = "|ab,cd|"
	if err := s.Finish(ctx, g1); err != nil {
		t.Fatal(err)
	}
	empty := testGame(2)
	empty.Moves = nil
	if err := s.Finish(ctx, empty); err != nil {
		t.Fatal(err)
	}
	games := map[int]Game{}
	if err := s.Games(ctx, ReadOptions{}, func(g Game) error { games[g.ID] = g; return nil }); err != nil {
		t.Fatal(err)
	}
	if old := games[0]; old.Record != "" || old.MoveLatency != nil || len(old.MoveTimes) != 3 {
		t.Errorf("old game after the migration: record %q, latency %v, times %v", old.Record, old.MoveLatency, old.MoveTimes)
	}
	if g := games[1]; g.Record != "|ab,cd|" || !reflect.DeepEqual(g.MoveLatency, []time.Duration{1600 * time.Microsecond, 0, 0}) {
		t.Errorf("new game: record %q, latency %v", g.Record, g.MoveLatency)
	}
	if g := games[2]; g.MoveLatency == nil || len(g.MoveLatency) != 0 {
		t.Errorf("a new game of no moves: latency %#v, want known and empty", g.MoveLatency)
	}
	var seen []int
	err := s.GameMovesOf(ctx, []int{0}, func(id int, ms []MoveText) error {
		seen = append(seen, id)
		if len(ms) != 3 || ms[0].Latency != 1600*time.Microsecond || ms[0].Text != "22-18" || ms[0].Depth != 12 {
			t.Errorf("old game's moves: %+v", ms)
		}
		return nil
	})
	if err != nil || !reflect.DeepEqual(seen, []int{0}) {
		t.Errorf("GameMovesOf([0]) read games %v, %v", seen, err)
	}
}

// A move whose engine reported no search time keeps its latency unknown
// through the store, in the packed column and in the moves alike; known
// ones (zero included) stay as they were.
func TestUnknownLatencyKept(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ev := testEvent("unknown latency")
	if err := s.Init(ctx, ev); err != nil {
		t.Fatal(err)
	}
	lat := []time.Duration{1600 * time.Microsecond, UnknownLatency, 0, UnknownLatency}
	g := Game{ID: 0, Cycle: 1, Round: 1, Board: 1, White: 0, Black: 1, Result: "1-0", Termination: "normal"}
	for i, l := range lat {
		g.Moves = append(g.Moves, Move{Text: fmt.Sprint("m", i), Time: time.Millisecond, Latency: l})
	}
	if err := s.Finish(ctx, g); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []ReadOptions{{Moves: true}, {}} {
		var got Game
		if err := s.Games(ctx, opt, func(g Game) error { got = g; return nil }); err != nil {
			t.Fatal(err)
		}
		if !opt.Moves && !reflect.DeepEqual(got.MoveLatency, lat) {
			t.Errorf("packed latency read back %v, want %v", got.MoveLatency, lat)
		}
		if opt.Moves {
			var ms []time.Duration
			for _, m := range got.Moves {
				ms = append(ms, m.Latency)
			}
			if !reflect.DeepEqual(ms, lat) {
				t.Errorf("the moves' latency read back %v, want %v", ms, lat)
			}
		}
	}
}
