package cluster_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

// proc is an arbiter process of the test.
type proc struct {
	name     string
	cmd      *exec.Cmd
	out, err syncBuffer // read while the process runs
	done     chan struct{}
}

func start(t *testing.T, name, dir string, args ...string) *proc {
	t.Helper()
	return startEnv(t, name, dir, nil, args...)
}

// startEnv is start with more environment variables.
func startEnv(t *testing.T, name, dir string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.cmd.Dir = dir
	if env != nil {
		p.cmd.Env = append(os.Environ(), env...)
	}
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.err
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("%s stderr:\n%s", p.name, p.err.String())
		}
	})
	return p
}

// wait waits for the process to exit and returns its status.
func (p *proc) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(d):
		t.Fatalf("%s still running after %v; stderr:\n%s", p.name, d, p.err.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

func (p *proc) kill(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.wait(t, time.Minute)
}

// standings is the standings table a tournament prints: its header and
// its rows (a rank, then the engine), nothing else of its output.
func standings(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		if _, err := strconv.Atoi(f[0]); err == nil || f[0] == "#" {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// One event over three worker processes: one worker is killed (SIGKILL)
// mid-event and a third joins late; the coordinator is killed and started
// again. At the end the store holds every planned game exactly once, all
// legal, and the standings are those of the same event played locally
// (the sparring engines replay their games move for move).
func TestClusterSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 60 games over processes")
	}
	dir := t.TempDir()
	evFile := writeEvent(t, dir, 10) // 60 games
	const planned = 60
	srv := startServer(t, filepath.Join(dir, "nats"), -1)
	defer srv.Shutdown()
	url := srv.URL()

	local := start(t, "local run", dir, "tournament", "-c", evFile, "--out", filepath.Join(dir, "local"), "--progress", "off", "--no-report")
	if code := local.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("local run: exit %d\n%s", code, local.err.String())
	}
	want := standings(local.out.String())

	out := filepath.Join(dir, "cluster")
	db := filepath.Join(out, store.FileName)
	coordArgs := []string{"tournament", "-c", evFile, "--out", out, "--nats", url, "--nats-ack-wait", "2s", "--progress", "off", "--log-level", "warn"}
	coord := start(t, "coordinator", dir, coordArgs...)
	worker := func(name string, n int) *proc {
		return start(t, name, dir, "worker", "--nats", url, "--engines", evFile, "--name", name, "--concurrency", fmt.Sprint(n), "--log-level", "warn")
	}
	w1 := worker("w1", 2)
	w2 := worker("w2", 1)

	waitFor(t, time.Minute, "8 games", func() bool { return finished(t, db) >= 8 })
	w1.kill(t) // with games in progress: they go to w2 after the ack wait
	waitFor(t, time.Minute, "16 games", func() bool { return finished(t, db) >= 16 })
	coord.kill(t)
	atKill := finished(t, db)
	w3 := worker("w3", 2) // joins late, while no coordinator runs
	coord2 := start(t, "coordinator (restarted)", dir, coordArgs...)
	if code := coord2.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("restarted coordinator: exit %d", code)
	}
	for _, w := range []*proc{w2, w3} {
		w.cmd.Process.Signal(syscall.SIGTERM)
		if code := w.wait(t, time.Minute); code != 0 {
			t.Errorf("%s: exit %d after SIGTERM", w.name, code)
		}
	}
	t.Logf("games finished when the coordinator was killed: %d of %d", atKill, planned)

	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seen := map[int]int{}
	byWorker := map[string]int{}
	err = st.Games(context.Background(), store.ReadOptions{All: true, NoPDN: true}, func(g store.Game) error {
		seen[g.ID]++
		byWorker[g.Worker]++
		if g.Status != store.Finished {
			t.Errorf("game %d is %s", g.ID+1, g.Status)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != planned {
		t.Errorf("the store holds %d games; want %d", len(seen), planned)
	}
	for id := range planned {
		if seen[id] != 1 {
			t.Errorf("game %d is in the store %d times", id+1, seen[id])
		}
	}
	for w := range byWorker {
		if w != "w1" && w != "w2" && w != "w3" {
			t.Errorf("a game played by %q", w)
		}
	}
	t.Logf("games by worker: %v", byWorker)
	check := start(t, "check", dir, "check", filepath.Join(out, "games.pdn"))
	if code := check.wait(t, time.Minute); code != 0 || !strings.Contains(check.out.String(), fmt.Sprintf("games=%d ok=%d ", planned, planned)) {
		t.Errorf("arbiter check: exit %d\n%s", code, lastLines(check.out.String(), 3))
	}
	if got := standings(coord2.out.String()); got != want {
		t.Errorf("standings of the cluster run:\n%s\nwant (the local run's):\n%s", got, want)
	}
	if !strings.Contains(coord2.out.String(), "workers: w") {
		t.Errorf("the coordinator does not say which workers played:\n%s", coord2.out.String())
	}
	if b, err := os.ReadFile(filepath.Join(out, "results.json")); err != nil || !strings.Contains(string(b), `"worker":"w`) {
		t.Errorf("results.json names no worker (%v)", err)
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}

// A server that wants a token: the coordinator gives it (ConnOptions), a
// worker process takes it from $ARBITER_NATS_TOKEN, and the event is
// played; a connection without it is refused.
func TestTokenAuth(t *testing.T) {
	dir := t.TempDir()
	evFile := writeEvent(t, dir, 2) // 12 games
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: filepath.Join(dir, "nats"),
		Authorization: "s3cret", NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(30 * time.Second) {
		t.Fatal("server not ready")
	}
	defer s.Shutdown()
	url := s.ClientURL()
	if nc, err := nats.Connect(url, nats.Timeout(5*time.Second)); err == nil {
		nc.Close()
		t.Fatal("a connection without the token was accepted")
	}
	startEnv(t, "worker", dir, []string{"ARBITER_NATS_TOKEN=s3cret"}, "worker", "--nats", url, "--engines", evFile, "--name", "tok", "--log-level", "warn")
	c := coordinateWith(t, context.Background(), url, evFile, filepath.Join(dir, "cluster"), zerolog.Nop(), 2*time.Second, "s3cret")
	sum := c.wait(t)
	if sum.Finished != 12 {
		t.Errorf("%d games finished; want 12", sum.Finished)
	}
}

// A game that comes back from the server to the worker that is playing it
// (its news reached the server after the ack wait: a loaded machine, a
// slow link) goes on there and is not started a second time: the worker
// says so, the engines play it once, and the event stores one result.
// Here the server is made to deliver the game again at once, as its ack
// wait passing would: the test sends a negative acknowledgement for the
// worker's first news (the NAK the server's own timer amounts to). Before,
// the worker's free slot started the game again (TestLongGameKeptAlive
// caught it once, under load: "game started 2 times").
func TestRedeliveredGameNotPlayedTwice(t *testing.T) {
	dir := t.TempDir()
	evFile := filepath.Join(dir, "long.yaml")
	// The slow engine thinks past its 3 s clock on its second move: the
	// game lasts its clock, time for the redelivery to reach the worker.
	if err := os.WriteFile(evFile, []byte(`
name: Delivered twice
variant: english
time_control: "3+0"
engines:
  - {name: slow, command: self engine --level random --seed 1 --fault slow-at=2}
  - {name: r, command: self engine --level random --seed 2}
games_per_encounter: 2
`), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, filepath.Join(dir, "nats"), -1)
	defer srv.Shutdown()
	nc, err := nats.Connect(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// The worker's news about a game goes to its delivery's reply subject,
	// $JS.ACK.<stream>.<consumer>.<delivery>...; a NAK there hands the game
	// out again.
	news := make(chan string, 64)
	sub, err := nc.Subscribe("$JS.ACK.>", func(m *nats.Msg) {
		if string(m.Data) == "+WPI" {
			select {
			case news <- m.Subject:
			default:
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "cluster")
	// An ack wait the games outlast (news every second), and a slot free
	// to take a game that comes back.
	coord := start(t, "coordinator", dir, "tournament", "-c", evFile, "--out", out, "--nats", srv.URL(), "--nats-ack-wait", "3s", "--progress", "off", "--no-report")
	w := start(t, "worker", dir, "worker", "--nats", srv.URL(), "--engines", evFile, "--name", "w", "--concurrency", "3", "--log-level", "debug")
	var first string
	select {
	case first = <-news:
	case <-coord.done:
		t.Fatalf("the event ended before the worker sent news of its game; coordinator: %s", coord.err.String())
	case <-time.After(2 * time.Minute):
		t.Fatal("no news of the game from the worker in 2 minutes")
	}
	if err := nc.Publish(first, []byte("-NAK")); err != nil {
		t.Fatal(err)
	}
	if code := coord.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("coordinator: exit %d\n%s", code, coord.err.String())
	}
	w.cmd.Process.Signal(syscall.SIGTERM)
	if code := w.wait(t, time.Minute); code != 0 {
		t.Errorf("worker: exit %d after SIGTERM", code)
	}
	log := w.err.String()
	for _, game := range []string{"game=1 ", "game=2 "} {
		started := 0
		for _, l := range strings.Split(log, "\n") {
			if strings.Contains(l, " DBG playing ") && strings.Contains(l, game) {
				started++
			}
		}
		if started != 1 {
			t.Errorf("the worker started %s%d times; want once. Its log:\n%s", game, started, log)
		}
	}
	if want := "a game this worker is playing came back from the server"; !strings.Contains(log, want) {
		t.Errorf("the worker's log does not say %q:\n%s", want, log)
	}
	st, err := store.Open(filepath.Join(out, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	n := 0
	err = st.Games(context.Background(), store.ReadOptions{All: true, NoPDN: true}, func(g store.Game) error {
		n++
		if g.Status != store.Finished || g.Termination != "time forfeit" || g.Worker != "w" {
			t.Errorf("game %d: %s, %s, by %q; want the slow engine's time forfeit, by w", g.ID+1, g.Status, g.Termination, g.Worker)
		}
		return nil
	})
	if err != nil || n != 2 {
		t.Errorf("the store holds %d games (%v); want 2", n, err)
	}
}
