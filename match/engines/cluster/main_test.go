package cluster_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/internal/testbin"
	"github.com/draughts-arbiter/arbiter/match/engines/cluster"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

// bin is the arbiter binary: the workers and coordinators the process
// test runs, and the sparring engine of every test ("self").
var bin string

func TestMain(m *testing.M) { testbin.Main(m, &bin, "../../../cmd/arbiter", nil) }

// eventText is a round-robin of four sparring engines, 6 games per
// encounter: 36 games, each a fraction of a second.
const eventText = `
name: Cluster test
variant: english
time_control: "30+0.5"
engines:
  - {name: r1, command: self engine --level random --seed 1}
  - {name: d1, command: self engine --level 1 --seed 2}
  - {name: d2, command: self engine --level 2 --seed 3}
  - {name: g, command: self engine --level greedy --seed 4}
games_per_encounter: %d
openings: {file: openings/3move_english.json, group: standard, order: random, seed: 11}
concurrency: 2
adjudication: {max_moves: 80}
`

// writeEvent writes the event (games per encounter gpe) into dir and
// returns its path.
func writeEvent(t *testing.T, dir string, gpe int) string {
	t.Helper()
	p := filepath.Join(dir, "event.yaml")
	if err := os.WriteFile(p, []byte(fmt.Sprintf(eventText, gpe)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func loadEvent(t *testing.T, path, out string) *configs.Event {
	t.Helper()
	ev, err := configs.Load(path, configs.Options{Self: bin, Overrides: []configs.Override{{Key: "out", Value: out, Source: "test"}}})
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// portOf is the port a server started on port -1 listens on: chosen by its
// own listener (never a port found free and closed again, which another
// process may take in between), for a server that must come back on the
// same one.
func portOf(t *testing.T, s *cluster.Server) int {
	t.Helper()
	u, err := url.Parse(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatalf("the server's URL %s: %v", s.URL(), err)
	}
	return p
}

func startServer(t *testing.T, dir string, port int) *cluster.Server {
	t.Helper()
	s, err := cluster.StartServer(dir, "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// finished counts the finished games of the store at path (0 while it
// does not exist).
func finished(t *testing.T, path string) int {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		return 0
	}
	st, err := store.Open(path)
	if err != nil {
		t.Logf("opening %s: %v", path, err)
		return 0
	}
	defer st.Close()
	n, err := st.Count(context.Background())
	if err != nil {
		return 0
	}
	return n[store.Finished]
}

// waitFor polls cond until it holds, failing the test after d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	if !poll.Until(d, 50*time.Millisecond, cond) {
		t.Fatalf("timed out after %v waiting for %s", d, what)
	}
}

// syncBuffer is a log sink safe for concurrent writers.
type syncBuffer = testbin.SyncBuffer
