package cluster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/cluster"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/engines/tournament"
	"github.com/draughts-arbiter/arbiter/match/schedule"
)

// BenchmarkGamesPerMinute plays the same event locally with k games at
// once and over a cluster of k workers of one game each (in this process,
// through an embedded server), k = 1, 2, 4: games per minute for both.
func BenchmarkGamesPerMinute(b *testing.B) {
	dir := b.TempDir()
	evFile := writeEventB(b, dir, 10) // 60 games
	srv, err := cluster.StartServer(filepath.Join(dir, "nats"), "127.0.0.1", -1)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Shutdown()
	specs, err := configs.LoadEngines(evFile, configs.Options{Self: bin})
	if err != nil {
		b.Fatal(err)
	}
	run := 0
	for _, k := range []int{1, 2, 4} {
		for _, mode := range []string{"local", "cluster"} {
			b.Run(fmt.Sprintf("%s-%d", mode, k), func(b *testing.B) {
				var games int
				var elapsed time.Duration
				for range b.N {
					run++
					out := filepath.Join(dir, fmt.Sprint(run))
					ev, err := configs.Load(evFile, configs.Options{Self: bin, Overrides: []configs.Override{{Key: "out", Value: out}, {Key: "concurrency", Value: k}}})
					if err != nil {
						b.Fatal(err)
					}
					st, err := store.OpenDir(out)
					if err != nil {
						b.Fatal(err)
					}
					opt := tournament.Options{Event: ev, Store: st}
					stop := func() {}
					if mode == "cluster" {
						coord, nc := newCoordinator(b, srv.URL(), ev, st)
						defer nc.Close()
						defer coord.Close()
						opt.Executor = coord
						stop = startWorkers(b, srv.URL(), specs, k)
					}
					sum, err := tournament.Run(context.Background(), opt)
					stop()
					st.Close()
					if err != nil {
						b.Fatal(err)
					}
					games += sum.Played
					elapsed += sum.Elapsed
				}
				b.ReportMetric(float64(games)/elapsed.Minutes(), "games/min")
			})
		}
	}
}

// BenchmarkCoordinator is the coordinator's side alone: 2000 games whose
// "workers" (8 goroutines here) answer at once with a one-move result, so
// the figure is what the coordinator, its store and the server sustain
// (all in this process: the CPU per game is the whole cluster's: the
// coordinator, its store, the server and the fake workers).
func BenchmarkCoordinator(b *testing.B) {
	dir := b.TempDir()
	evFile := writeEventB(b, dir, 334) // 2004 games
	srv, err := cluster.StartServer(filepath.Join(dir, "nats"), "127.0.0.1", -1)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Shutdown()
	var games int
	var elapsed, cpu time.Duration
	for i := range b.N {
		out := filepath.Join(dir, fmt.Sprint(i))
		ev, err := configs.Load(evFile, configs.Options{Self: bin, Overrides: []configs.Override{{Key: "out", Value: out}}})
		if err != nil {
			b.Fatal(err)
		}
		st, err := store.OpenDir(out)
		if err != nil {
			b.Fatal(err)
		}
		coord, nc := newCoordinator(b, srv.URL(), ev, st)
		stop := fakeWorkers(b, srv.URL(), coord.ID(), ev, 8)
		cpu0 := cpuTime()
		sum, err := tournament.Run(context.Background(), tournament.Options{Event: ev, Store: st, Executor: coord})
		cpu += cpuTime() - cpu0
		stop()
		coord.Close()
		nc.Close()
		st.Close()
		if err != nil {
			b.Fatal(err)
		}
		games += sum.Played
		elapsed += sum.Elapsed
	}
	b.ReportMetric(float64(games)/elapsed.Seconds(), "games/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(max(1, games)), "cpu-µs/game")
}

// cpuTime is this process's CPU time so far (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func writeEventB(b *testing.B, dir string, gpe int) string {
	p := filepath.Join(dir, "event.yaml")
	if err := os.WriteFile(p, fmt.Appendf(nil, eventText, gpe), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

func planOfB(b *testing.B, ev *configs.Event) int {
	sched, err := schedule.New(ev.Schedule)
	if err != nil {
		b.Fatal(err)
	}
	return len(sched.All())
}

func newCoordinator(b *testing.B, url string, ev *configs.Event, st *store.Store) (*cluster.Coordinator, *nats.Conn) {
	ctx := context.Background()
	if err := st.Init(ctx, tournament.EventRecord(ev, planOfB(b, ev))); err != nil {
		b.Fatal(err)
	}
	nc, err := cluster.Connect(cluster.ConnOptions{URL: url})
	if err != nil {
		b.Fatal(err)
	}
	coord, err := cluster.NewCoordinator(ctx, nc, ev, st, cluster.CoordinatorOptions{Log: zerolog.Nop()})
	if err != nil {
		b.Fatal(err)
	}
	return coord, nc
}

func startWorkers(b *testing.B, url string, specs []configs.EngineSpec, n int) func() {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range n {
		nc, err := cluster.Connect(cluster.ConnOptions{URL: url})
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() {
			defer nc.Close()
			cluster.RunWorker(ctx, nc, cluster.WorkerOptions{Name: fmt.Sprintf("w%d", i), Concurrency: 1, Engines: specs, Log: zerolog.Nop()})
		})
	}
	return func() { cancel(); wg.Wait() }
}

// fakeWorkers answer every game of event id at once with a one-move
// result.
func fakeWorkers(b *testing.B, url, id string, ev *configs.Event, n int) func() {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range n {
		nc, err := cluster.Connect(cluster.ConnOptions{URL: url})
		if err != nil {
			b.Fatal(err)
		}
		js, _ := jetstream.New(nc)
		cons, err := js.Consumer(ctx, cluster.GamesStream, cluster.WorkersConsumer)
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() {
			defer nc.Close()
			for ctx.Err() == nil {
				batch, err := cons.Fetch(50, jetstream.FetchMaxWait(200*time.Millisecond))
				if err != nil {
					continue
				}
				for m := range batch.Messages() {
					var gm cluster.GameMsg
					json.Unmarshal(m.Data(), &gm)
					p := gm.Pairing
					op := ev.Openings[p.Opening]
					g := store.Game{ID: p.Index, Cycle: p.Cycle, Round: p.Round, Board: p.Board, Pair: p.Pair, PairGame: p.PairGame,
						White: p.White, Black: p.Black, Opening: op.Name, OpeningFEN: op.FEN, Result: "1-0", Termination: "normal",
						PDN: "1. 22-18 1-0\n", Moves: []store.Move{{Text: "22-18", Time: time.Millisecond}}, Started: time.Now(), Finished: time.Now()}
					data, _ := json.Marshal(cluster.ResultMsg{Event: id, Worker: fmt.Sprintf("fake%d", i), Game: g})
					if _, err := nc.Request("arbiter.result."+id, data, 30*time.Second); err == nil {
						m.Ack()
					}
				}
			}
		})
	}
	return func() { cancel(); wg.Wait() }
}
