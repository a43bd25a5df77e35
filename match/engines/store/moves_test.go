package store

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// movesTableV7 is the moves table of schema version 7 and before: a row a
// ply, which version 8 packs into games.moves.
const movesTableV7 = `CREATE TABLE moves (
	game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	ply  INTEGER NOT NULL,
	text TEXT NOT NULL,
	ms   REAL NOT NULL,
	clock_ms   REAL NOT NULL DEFAULT 0,
	score      REAL,
	depth      INTEGER NOT NULL DEFAULT 0,
	nodes      INTEGER NOT NULL DEFAULT 0,
	pv         TEXT NOT NULL DEFAULT '',
	latency_ms REAL NOT NULL DEFAULT 0,
	PRIMARY KEY (game, ply)
) WITHOUT ROWID;
`

// toVersion7 makes s's file what version 7 wrote: every game's moves in
// the moves table, games.moves gone. The tests of older versions start
// from it and drop what came after.
func toVersion7(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	var games []Game
	if err := s.Games(ctx, ReadOptions{Moves: true, All: true}, func(g Game) error { games = append(games, g); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(movesTableV7); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		for i, m := range g.Moves {
			var score any
			if m.HasScore {
				score = m.Score
			}
			if _, err := s.db.Exec(`INSERT INTO moves (game, ply, text, ms, clock_ms, score, depth, nodes, pv, latency_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				g.ID, i+1, m.Text, msOf(m.Time), msOf(m.Clock), score, m.Depth, m.Nodes, m.PV, msOf(m.Latency)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.db.Exec(`ALTER TABLE games DROP COLUMN moves; PRAGMA user_version = 7`); err != nil {
		t.Fatal(err)
	}
}

func TestPackMovesRoundTrip(t *testing.T) {
	for name, ms := range map[string][]Move{
		"none":  {},
		"game":  testGame(0).Moves,
		"edges": {{Text: "", Time: -time.Second, Clock: math.MaxInt64, Score: math.Inf(-1), HasScore: true, Depth: -3, Nodes: math.MinInt64, PV: "a b c"}},
		"zero":  {{Text: "9-13", Score: 0, HasScore: true}, {Text: "x", Latency: 1}},
	} {
		got, err := unpackMoves(packMoves(ms))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(ms) == 0 && (got == nil || len(got) != 0) {
			t.Errorf("%s: %#v, want known and empty", name, got)
		} else if len(ms) > 0 && !reflect.DeepEqual(got, ms) {
			t.Errorf("%s: %+v\nwant %+v", name, got, ms)
		}
	}
	if got, err := unpackMoves(nil); got != nil || err != nil {
		t.Errorf("NULL: %v, %v; want nothing", got, err)
	}
}

// A blob cut anywhere, or of another format, is an error that says so,
// never a game with made-up moves.
func TestUnpackMovesCorrupt(t *testing.T) {
	b := packMoves(testGame(0).Moves)
	for n := 0; n < len(b); n++ {
		if got, err := unpackMoves(b[:n]); err == nil {
			t.Errorf("cut at %d of %d: %+v, no error", n, len(b), got)
		} else if err != nil && !errors.Is(err, errCorruptMoves) {
			t.Errorf("cut at %d: %v, not errCorruptMoves", n, err)
		}
	}
	other := append([]byte{2}, b[1:]...)
	if _, err := unpackMoves(other); err == nil {
		t.Error("format 2 read as format 1")
	}
}

// A corrupt moves blob in a file is an error naming the game.
func TestCorruptMovesNameTheGame(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), FileName))
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, testGame(4)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`UPDATE games SET moves = x'0105' WHERE id = 4`); err != nil {
		t.Fatal(err)
	}
	err := s.Games(ctx, ReadOptions{Moves: true}, func(Game) error { return nil })
	if err == nil || !errors.Is(err, errCorruptMoves) || !strings.Contains(err.Error(), "game 5") {
		t.Errorf("Games = %v; want corrupt moves of game 5", err)
	}
	err = s.GameMoves(ctx, func(int, []MoveText) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "game 5") {
		t.Errorf("GameMoves = %v; want corrupt moves of game 5", err)
	}
}

// A database of schema version 7 (the moves table, a row a ply) opens:
// its games' moves are packed into their rows, exactly, with their
// scores, clocks and latencies; a game without moves stays without; the
// table is gone; new games are stored as before.
func TestMigrateFromVersion7(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	s := open(t, path)
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	// Game IDs across more than one of the migration's spans.
	ids := []int{0, 1, 1500, 2999}
	for _, id := range ids {
		if err := s.Finish(ctx, testGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Start(ctx, testGame(7)); err != nil {
		t.Fatal(err)
	}
	toVersion7(t, s)
	s.Close()
	s = open(t, path)
	var v, tables int
	s.db.QueryRow("PRAGMA user_version").Scan(&v)
	s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'moves'`).Scan(&tables)
	if v != schemaVersion || tables != 0 {
		t.Errorf("after the migration: version %d, moves tables %d; want %d, 0", v, tables, schemaVersion)
	}
	if err := s.Finish(ctx, testGame(3)); err != nil {
		t.Fatal(err)
	}
	got := map[int][]Move{}
	if err := s.Games(ctx, ReadOptions{Moves: true, All: true}, func(g Game) error { got[g.ID] = g.Moves; return nil }); err != nil {
		t.Fatal(err)
	}
	for _, id := range append(ids, 3, 7) {
		if want := testGame(id).Moves; !reflect.DeepEqual(got[id], want) {
			t.Errorf("game %d: %+v\nwant %+v", id+1, got[id], want)
		}
	}
}

// FuzzUnpackMoves: whatever a moves blob holds, reading it fails or gives
// moves that pack back to the same blob.
func FuzzUnpackMoves(f *testing.F) {
	f.Add(packMoves(testGame(0).Moves))
	f.Add([]byte{1})
	f.Add([]byte{1, 0, 0, 0, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, err := unpackMoves(b)
		if err != nil || b == nil {
			return
		}
		// Varints have more than one encoding, and a NaN score is not
		// equal to itself: the packed form of what was read is what must
		// come back unchanged.
		again := packMoves(ms)
		back, err := unpackMoves(again)
		if err != nil || string(packMoves(back)) != string(again) || len(back) != len(ms) {
			t.Fatalf("%x read as %+v, packed as %x, read back as %+v, %v", b, ms, again, back, err)
		}
	})
}
