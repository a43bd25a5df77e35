package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// Each move's annotation (the engine's score, depth and pv from its info
// line, the time used, the clock after it, the latency) is stored in the
// database and, with pdn.annotations full (the default), written to
// games.pdn, from which the PDN reader and ParseAnnotation read the very
// same values; clock writes only the clocks, none neither.
func TestAnnotatedRecords(t *testing.T) {
	dir := t.TempDir()
	play := func(name string, extra ...string) (string, []store.Game) {
		out := filepath.Join(dir, name)
		args := append([]string{"match", "--engine", "name=D cmd=self engine --level 2", "--engine", "name=R cmd=self engine --level random",
			"--time-control", "10+0.1", "--out", out, "--progress", "off"}, extra...)
		if stdout, stderr, code := runArbiter(t, dir, args...); code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", name, code, stdout, stderr)
		}
		data, err := os.ReadFile(filepath.Join(out, "games.pdn"))
		if err != nil {
			t.Fatal(err)
		}
		st, err := store.OpenDir(out)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var games []store.Game
		if err := st.Games(context.Background(), store.ReadOptions{Moves: true}, func(g store.Game) error { games = append(games, g); return nil }); err != nil {
			t.Fatal(err)
		}
		return string(data), games
	}
	text, games := play("full")
	r := pdn.NewReader(strings.NewReader(text), "games.pdn")
	for _, g := range games {
		pg, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if len(pg.Moves) != len(g.Moves) || len(g.Moves) == 0 {
			t.Fatalf("game %d: %d moves in the PDN, %d stored", g.ID+1, len(pg.Moves), len(g.Moves))
		}
		for i, m := range g.Moves {
			if !m.HasScore || m.PV == "" || m.Clock <= 0 || m.Latency < 0 {
				t.Errorf("game %d move %d stored without its annotation: %+v", g.ID+1, i+1, m)
			}
			a, ok := arbiter.ParseAnnotation(pg.Moves[i].Comment)
			clock, cok := arbiter.ParseClock(pg.Moves[i].Comment)
			if !ok || !cok || a.Score != m.Score || a.Depth != m.Depth || a.PV != m.PV || clock != m.Clock.Truncate(1e9) {
				t.Errorf("game %d move %d: PDN comment %q reads %+v, clock %v; stored %+v", g.ID+1, i+1, pg.Moves[i].Comment, a, clock, m)
			}
		}
	}
	text, _ = play("clock", "--pdn-annotations", "clock")
	if !strings.Contains(text, "{[%clock 0:00:") || strings.Contains(text, "[%pv") {
		t.Errorf("annotations clock: %s", text[:min(len(text), 800)])
	}
	text, _ = play("none", "--set", "pdn.annotations=none")
	if strings.Contains(text, "[%clock") || strings.Contains(text, "[%pv") {
		t.Errorf("annotations none: %s", text[:min(len(text), 800)])
	}
	if _, stderr, code := runArbiter(t, dir, "match", "--engine", "cmd=self engine", "--engine", "cmd=self engine", "--pdn-annotations", "all"); code != exitUsage || !strings.Contains(stderr, "pdn.annotations") {
		t.Errorf("bad annotations: exit %d\n%s", code, stderr)
	}
}
