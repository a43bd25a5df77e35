package web

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/match/engines"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/internal/testbin"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/engines/tournament"
)

// The live tests run real tournaments of the sparring engine (`arbiter
// engine`, a process per engine): the binary is built once, on first use,
// and removed after the tests (TestMain).
var liveBin struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func arbiterBinary(t *testing.T) string {
	t.Helper()
	liveBin.once.Do(func() {
		liveBin.dir, liveBin.err = os.MkdirTemp("", "arbiter-web-live-")
		if liveBin.err != nil {
			return
		}
		liveBin.path = filepath.Join(liveBin.dir, "arbiter")
		liveBin.err = testbin.Build(liveBin.path, "../../cmd/arbiter")
	})
	if liveBin.err != nil {
		t.Fatal(liveBin.err)
	}
	return liveBin.path
}

// removeLiveBinary is called by TestMain after the tests.
func removeLiveBinary() {
	if liveBin.dir != "" {
		os.RemoveAll(liveBin.dir)
	}
}

// slowPlayer is a sparring engine that waits before each move, so that a
// game lasts long enough to be watched (the engine answers at once).
type slowPlayer struct {
	match.Player
	wait time.Duration
}

func (p slowPlayer) Play(ctx context.Context, req match.Request) (match.Reply, error) {
	select {
	case <-time.After(p.wait):
	case <-ctx.Done():
		return match.Reply{}, ctx.Err()
	}
	return p.Player.Play(ctx, req)
}

// liveTournament is an English round robin of two random sparring engines:
// games games of at most 2*maxMoves plies, each move taking at least wait.
func liveTournament(t *testing.T, games, maxMoves int, wait time.Duration) tournament.Options {
	t.Helper()
	bin := arbiterBinary(t)
	text := fmt.Sprintf(`
name: live test
variant: english
time_control: "120+1"
engines:
  - {name: random-1, command: self engine --level random --seed 1}
  - {name: random-2, command: self engine --level random --seed 2}
games_per_encounter: %d
openings: {file: openings/3move_english.json, group: standard}
concurrency: 1
adjudication: {max_moves: %d}
`, games, maxMoves)
	ev, err := configs.Parse([]byte(text), "live.yaml", "", configs.Options{Self: bin})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ev.Out = dir
	st, err := store.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return tournament.Options{Event: ev, Store: st, Log: zerolog.Nop(),
		NewPlayer: func(spec configs.EngineSpec, log zerolog.Logger) match.Player {
			return slowPlayer{Player: engines.Player(spec, log, nil), wait: wait}
		}}
}

// runInBackground runs the event until it ends or the test does; wait
// returns its error.
func runInBackground(t *testing.T, opt tournament.Options) (wait func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := tournament.Run(ctx, opt)
		errc <- err
	}()
	var once sync.Once
	var err error
	wait = func() error {
		once.Do(func() { err = <-errc })
		return err
	}
	t.Cleanup(func() {
		cancel()
		if err := wait(); err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("the tournament: %v", err)
		}
	})
	return wait
}

// `serve --watch`: a live view fed from the store of an event that another
// runner writes (its own connection, as another process has) sees the
// games in progress with their moves, and every game's end, with the
// standings of the stored results.
func TestLiveWatchStore(t *testing.T) {
	// Beside the browser tests: its own store and engines, and most of its
	// time is the engines' waits (slowPlayer).
	t.Parallel()
	opt := liveTournament(t, 4, 12, 40*time.Millisecond)
	watched, err := store.Open(opt.Store.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer watched.Close()
	h := NewLive()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go WatchStore(ctx, watched, h, 50*time.Millisecond, zerolog.Nop())

	wait := runInBackground(t, opt)
	maxPlies := 0
	waitUntil(t, "a running game with moves read from the store", func() bool {
		for _, g := range h.Snapshot().Games {
			maxPlies = max(maxPlies, g.Plies)
			if g.Plies > 0 && len(g.Pieces) > 0 && g.Unreadable == "" && g.Clocks.Timed {
				return true
			}
		}
		return false
	})
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	var results []store.Game
	if err := opt.Store.Games(ctx, store.ReadOptions{}, func(g store.Game) error { results = append(results, g); return nil }); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "every game finished in the live view", func() bool {
		s := h.Snapshot()
		return s.Event.Finished == len(results) && s.Event.Running == 0 && s.Standings != nil && s.Standings.Games == len(results)
	})
	s := h.Snapshot()
	points := map[string]float64{}
	for _, g := range results {
		w, b := opt.Event.Engines[g.White].Name, opt.Event.Engines[g.Black].Name
		switch g.Result {
		case "1-0":
			points[w]++
		case "0-1":
			points[b]++
		default:
			points[w] += 0.5
			points[b] += 0.5
		}
	}
	for _, r := range s.Standings.Rows {
		if r.Points != points[r.Name] {
			t.Errorf("%s has %v points in the live view, %v in the store", r.Name, r.Points, points[r.Name])
		}
	}
	if len(s.Recent) != len(results) || s.Event.Planned != 4 {
		t.Errorf("%d last results, %d planned; want %d and 4", len(s.Recent), s.Event.Planned, len(results))
	}
}
