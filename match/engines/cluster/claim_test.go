package cluster_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

// processTest skips, in the short pass (make test's race pass), a test
// whose coordinator and workers are processes of the binary: the race
// detector sees nothing of them, and the full pass has run the test.
func processTest(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("the coordinator and workers are processes of the binary, which the race detector does not see into: run in the full pass")
	}
}

// slowEvent writes an event of games games of the slow engine, which
// thinks past its clock (clock seconds) on its second move: each game
// lasts its clock.
func slowEvent(t *testing.T, dir, clock string, games int) string {
	t.Helper()
	p := filepath.Join(dir, "slow.yaml")
	text := fmt.Sprintf(`
name: Claimed games
variant: english
time_control: "%s+0"
engines:
  - {name: slow, command: self engine --level random --seed 1 --fault slow-at=2}
  - {name: r, command: self engine --level random --seed 2}
games_per_encounter: %d
`, clock, games)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startWorker starts a worker process of concurrency n, logging at debug
// level (each game it starts: "playing").
func startWorker(t *testing.T, dir, url, engines, name, n string) *proc {
	t.Helper()
	return start(t, name, dir, "worker", "--nats", url, "--engines", engines, "--name", name, "--concurrency", n, "--log-level", "debug")
}

// started counts the games a worker's log says it started, by number.
func started(log string) map[string]int {
	n := map[string]int{}
	for _, l := range strings.Split(log, "\n") {
		if !strings.Contains(l, " DBG playing ") {
			continue
		}
		for _, f := range strings.Fields(l) {
			if g, ok := strings.CutPrefix(f, "game="); ok {
				n[g]++
			}
		}
	}
	return n
}

// stopWorkers stops worker processes with SIGTERM, as their owner would.
func stopWorkers(t *testing.T, ws ...*proc) {
	t.Helper()
	for _, w := range ws {
		w.cmd.Process.Signal(syscall.SIGTERM)
		if code := w.wait(t, time.Minute); code != 0 {
			t.Errorf("%s: exit %d after SIGTERM", w.name, code)
		}
	}
}

// A game that the server hands out again to ANOTHER worker while the
// first plays it (its news reached the server after the ack wait: a
// loaded machine, a slow link) is left to the first: the other worker asks
// the coordinator for it, hears which worker plays it, says so once and
// does not start it. The engines play each game once. Here the server is
// made to hand the game out again at once, as its ack wait passing would:
// the test sends a negative acknowledgement for the first news (see
// TestRedeliveredGameNotPlayedTwice). The first worker has one slot, busy
// with the game; the second starts after the NAK, and the server gives a
// game handed out again before a new one. Before, the second worker played
// the game too (game 1 "playing" in both logs), and the first result was
// stored.
func TestRedeliveredToAnotherWorkerNotPlayedTwice(t *testing.T) {
	processTest(t)
	dir := t.TempDir()
	evFile := slowEvent(t, dir, "6", 2) // two games, each lasting its 6 s clock
	srv := startServer(t, filepath.Join(dir, "nats"), -1)
	defer srv.Shutdown()
	heard := firstNews(t, srv.URL())
	w1 := startWorker(t, dir, srv.URL(), evFile, "w1", "1")
	c := coordinateWith(t, context.Background(), srv.URL(), evFile, filepath.Join(dir, "cluster"), zerolog.Nop(), 3*time.Second, "")
	var first news
	select {
	case first = <-heard:
	case <-c.done:
		t.Fatal("the event ended before a worker sent news of its game")
	case <-time.After(2 * time.Minute):
		t.Fatal("no news of the game from a worker in 2 minutes")
	}
	if err := first.nc.Publish(first.subject, []byte("-NAK")); err != nil {
		t.Fatal(err)
	}
	w2 := startWorker(t, dir, srv.URL(), evFile, "w2", "1")
	sum := c.wait(t)
	stopWorkers(t, w1, w2)
	if sum.Finished != 2 {
		t.Fatalf("%d games finished; want 2", sum.Finished)
	}
	n1, n2 := started(w1.err.String()), started(w2.err.String())
	for _, g := range []string{"1", "2"} {
		if n1[g]+n2[g] != 1 {
			t.Errorf("game %s was started %d times by w1, %d by w2; want once in all", g, n1[g], n2[g])
		}
	}
	if n1["1"] != 1 {
		t.Errorf("w1 did not play the game it took first (game 1)")
	}
	want := "the game is being played by worker w1"
	if got := strings.Count(w2.err.String(), want); got != 1 {
		t.Errorf("w2's log says %q %d times; want once", want, got)
	}
	games(t, c.st, func(g store.Game) {
		if g.Termination != "time forfeit" || (g.ID == 0 && g.Worker != "w1") {
			t.Errorf("game %d: %s, by %q; want the slow engine's time forfeit, game 1 by w1", g.ID+1, g.Termination, g.Worker)
		}
	})
	if t.Failed() {
		t.Logf("w1:\n%s\nw2:\n%s", w1.err.String(), w2.err.String())
	}
}

// A worker killed (SIGKILL) while it plays games holds their claims no
// longer than two ack waits without news: another worker, which declines
// them while the claims last, then takes them over, and the event ends
// with every game once, played by it. The coordinator says which worker
// took over from which.
func TestKilledWorkersGamesTakenOver(t *testing.T) {
	processTest(t)
	dir := t.TempDir()
	evFile := slowEvent(t, dir, "3", 2) // two games, each lasting its 3 s clock
	srv := startServer(t, filepath.Join(dir, "nats"), -1)
	defer srv.Shutdown()
	var logs syncBuffer
	w1 := startWorker(t, dir, srv.URL(), evFile, "w1", "2")
	c := coordinateWith(t, context.Background(), srv.URL(), evFile, filepath.Join(dir, "cluster"), zerolog.New(&logs), 2*time.Second, "")
	waitFor(t, 2*time.Minute, "w1 playing both games", func() bool {
		n := started(w1.err.String())
		return n["1"] == 1 && n["2"] == 1
	})
	w2 := startWorker(t, dir, srv.URL(), evFile, "w2", "2")
	w1.kill(t)
	sum := c.wait(t)
	stopWorkers(t, w2)
	if sum.Finished != 2 {
		t.Fatalf("%d games finished; want 2", sum.Finished)
	}
	if n := started(w2.err.String()); n["1"] != 1 || n["2"] != 1 {
		t.Errorf("w2 started the games %v times; want each once:\n%s", n, w2.err.String())
	}
	seen := map[int]int{}
	games(t, c.st, func(g store.Game) {
		seen[g.ID]++
		if g.Worker != "w2" {
			t.Errorf("game %d stored from %q; want w2, which took it over", g.ID+1, g.Worker)
		}
	})
	if len(seen) != 2 || seen[0] != 1 || seen[1] != 1 {
		t.Errorf("the store holds games %v; want games 1 and 2 once each", seen)
	}
	if want := `"was":"w1"`; strings.Count(logs.String(), want) != 2 || !strings.Contains(logs.String(), "takes over a game") {
		t.Errorf("the coordinator's log does not say twice that w2 took over from w1 (%s):\n%s", want, logs.String())
	}
}

// news is the reply subject of a worker's first news of a game
// ("in progress"), and the connection that heard it.
type news struct {
	nc      *nats.Conn
	subject string
}

// firstNews listens for the first news any worker sends of a game: it
// goes to the game's delivery's reply subject, $JS.ACK.<stream>...; a NAK
// there has the server hand the game out again at once.
func firstNews(t *testing.T, url string) <-chan news {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	out := make(chan news, 1)
	sub, err := nc.Subscribe("$JS.ACK.>", func(m *nats.Msg) {
		if string(m.Data) == "+WPI" {
			select {
			case out <- news{nc: nc, subject: m.Subject}:
			default:
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sub.Unsubscribe() })
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return out
}

// games calls f with every game of st.
func games(t *testing.T, st *store.Store, f func(store.Game)) {
	t.Helper()
	err := st.Games(context.Background(), store.ReadOptions{All: true, NoPDN: true}, func(g store.Game) error {
		f(g)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A worker stalled while it plays a game (SIGSTOP: a laptop's lid shut,
// a paused VM) longer than two ack waits loses the game to another worker;
// woken, it learns so from its claim's next renewal (or from the refusal
// of its result, whichever comes first), stops the game, says which
// worker holds it now, and sends no result: the game is stored once, from
// the worker that took it over. Before, the woken worker finished its copy
// at once (its clock had run through the stall: a time forfeit) and that
// result was the first, so it was stored, and nothing was said.
func TestStalledWorkerStopsTakenOverGame(t *testing.T) {
	processTest(t)
	dir := t.TempDir()
	evFile := slowEvent(t, dir, "6", 2) // two games, each lasting its 6 s clock
	srv := startServer(t, filepath.Join(dir, "nats"), -1)
	defer srv.Shutdown()
	out := filepath.Join(dir, "cluster")
	w1 := startWorker(t, dir, srv.URL(), evFile, "w1", "1")
	coord := start(t, "coordinator", dir, "tournament", "-c", evFile, "--out", out, "--nats", srv.URL(), "--nats-ack-wait", "2s",
		"--progress", "off", "--no-report", "--log-level", "warn")
	waitFor(t, 2*time.Minute, "w1 playing game 1", func() bool { return started(w1.err.String())["1"] == 1 })
	if err := w1.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	w2 := startWorker(t, dir, srv.URL(), evFile, "w2", "2")
	waitFor(t, 2*time.Minute, "the coordinator's log of w2 taking game 1 over from w1", func() bool {
		return strings.Contains(coord.err.String(), "takes over a game") && strings.Contains(coord.err.String(), "was=w1")
	})
	if err := w1.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if code := coord.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("coordinator: exit %d", code)
	}
	stopWorkers(t, w1, w2)
	want := "the game was taken over by worker w2 while this worker was stalled"
	if got := strings.Count(w1.err.String(), want); got != 1 {
		t.Errorf("w1's log says %q %d times; want once:\n%s", want, got, w1.err.String())
	}
	st, err := store.Open(filepath.Join(out, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seen := map[int]int{}
	games(t, st, func(g store.Game) {
		seen[g.ID]++
		if g.ID == 0 && g.Worker != "w2" {
			t.Errorf("game 1 stored from %q (%s); want from w2, which took it over", g.Worker, g.Termination)
		}
	})
	if len(seen) != 2 || seen[0] != 1 || seen[1] != 1 {
		t.Errorf("the store holds games %v; want games 1 and 2 once each", seen)
	}
	if t.Failed() {
		t.Logf("coordinator:\n%s\nw2:\n%s", coord.err.String(), w2.err.String())
	}
}

// The coordinator killed (SIGKILL) while a game is being handed out again
// (the server redelivered it to w2 while w1 plays it, and w2 declined it)
// and started again with the same command: it knows no claims, and the
// workers' next news claims their games again. No game is lost or played
// to its end twice: every game is stored once, and the event finishes.
// Here w1's first news is refused (a NAK) to have the server hand game 1
// out again at once, as a late news would after its ack wait.
func TestCoordinatorRestartWhileGameRedelivered(t *testing.T) {
	processTest(t)
	dir := t.TempDir()
	evFile := slowEvent(t, dir, "6", 2) // two games, each lasting its 6 s clock
	srv := startServer(t, filepath.Join(dir, "nats"), -1)
	defer srv.Shutdown()
	heard := firstNews(t, srv.URL())
	out := filepath.Join(dir, "cluster")
	args := []string{"tournament", "-c", evFile, "--out", out, "--nats", srv.URL(), "--nats-ack-wait", "2s", "--progress", "off", "--no-report", "--log-level", "warn"}
	w1 := startWorker(t, dir, srv.URL(), evFile, "w1", "1")
	coord := start(t, "coordinator", dir, args...)
	var first news
	select {
	case first = <-heard:
	case <-coord.done:
		t.Fatal("the event ended before a worker sent news of its game")
	case <-time.After(2 * time.Minute):
		t.Fatal("no news of the game from a worker in 2 minutes")
	}
	if err := first.nc.Publish(first.subject, []byte("-NAK")); err != nil {
		t.Fatal(err)
	}
	w2 := startWorker(t, dir, srv.URL(), evFile, "w2", "2")
	waitFor(t, 2*time.Minute, "w2 declining game 1, handed out again", func() bool {
		return strings.Contains(w2.err.String(), "the game is being played by worker w1")
	})
	coord.kill(t)
	coord2 := start(t, "coordinator (restarted)", dir, args...)
	if code := coord2.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("restarted coordinator: exit %d", code)
	}
	stopWorkers(t, w1, w2)
	ended := map[string]int{}
	for _, w := range []*proc{w1, w2} {
		for _, l := range strings.Split(w.err.String(), "\n") {
			if strings.Contains(l, " DBG game over ") {
				for _, f := range strings.Fields(l) {
					if g, ok := strings.CutPrefix(f, "game="); ok {
						ended[g]++
					}
				}
			}
		}
	}
	if ended["1"] != 1 || ended["2"] != 1 {
		t.Errorf("the workers played games 1 and 2 to their end %d and %d times; want once each", ended["1"], ended["2"])
	}
	st, err := store.Open(filepath.Join(out, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seen := map[int]int{}
	games(t, st, func(g store.Game) { seen[g.ID]++ })
	if len(seen) != 2 || seen[0] != 1 || seen[1] != 1 {
		t.Errorf("the store holds games %v; want games 1 and 2 once each", seen)
	}
	if t.Failed() {
		t.Logf("w1:\n%s\nw2:\n%s\ncoordinators:\n%s\n%s", w1.err.String(), w2.err.String(), coord.err.String(), coord2.err.String())
	}
}
