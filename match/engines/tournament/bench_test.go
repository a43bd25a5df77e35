package tournament

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/internal/testbin"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/schedule"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// TestMain removes the binary arbiterBinary built (50 MB in the temporary
// directory at every run otherwise).
func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// arbiterBinary builds the real arbiter once: its `engine` command is the
// sparring engine the benchmarks play with.
func arbiterBinary(b testing.TB) string {
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "arbiter-bench-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "arbiter")
		// testbin: under `make test` a copy of bin/arbiter, not a link of its own.
		binErr = testbin.Build(binPath, "../../../cmd/arbiter")
	})
	if binErr != nil {
		b.Fatal(binErr)
	}
	return binPath
}

func cpuTime(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRoundRobinRandom plays a round-robin between four `arbiter
// engine --level random` processes (English, 3-move ballot; 6 encounters x
// 40 games = 240 games) at concurrency 1 and 2, and reports games per
// minute and the CPU time of the runner (this process) against the
// engines' (its children).
func BenchmarkRoundRobinRandom(b *testing.B) {
	bin := arbiterBinary(b)
	for _, conc := range []int{1, 2} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			text := fmt.Sprintf(`
name: bench
variant: english
time_control: "60+1"
engines:
  - {name: r1, command: self engine --level random --seed 1}
  - {name: r2, command: self engine --level random --seed 2}
  - {name: r3, command: self engine --level random --seed 3}
  - {name: r4, command: self engine --level random --seed 4}
games_per_encounter: 40
openings: {file: openings/3move_english.json, group: standard}
concurrency: %d
adjudication: {max_moves: 100}
`, conc)
			ev, err := configs.Parse([]byte(text), "bench.yaml", "", configs.Options{Self: bin})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				st, err := store.OpenDir(b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				self0, child0 := cpuTime(syscall.RUSAGE_SELF), cpuTime(syscall.RUSAGE_CHILDREN)
				t0 := time.Now()
				sum, err := Run(context.Background(), Options{Event: ev, Store: st})
				if err != nil {
					b.Fatal(err)
				}
				el := time.Since(t0)
				self, child := cpuTime(syscall.RUSAGE_SELF)-self0, cpuTime(syscall.RUSAGE_CHILDREN)-child0
				st.Close()
				b.ReportMetric(float64(sum.Played)/el.Minutes(), "games/min")
				b.ReportMetric(self.Seconds(), "runner-cpu-s")
				b.ReportMetric(child.Seconds(), "engines-cpu-s")
			}
		})
	}
}

// benchStoredGames is the size of the "runner with 100,000 games stored"
// benchmark.
const benchStoredGames = 100_000

// BenchmarkRunnerWith100kGamesStored fills a store with 100,000 finished
// games (80 plies each, a 1 kB PDN), then measures the runner resuming over
// it (nothing left to play: it reads the state and reports every result in
// order) and the report built from it: time and peak heap of each.
func BenchmarkRunnerWith100kGamesStored(b *testing.B) {
	ctx := context.Background()
	text := `
name: big
variant: english
engines: [{name: a, command: x}, {name: b, command: y}]
games_per_encounter: 100000
openings: {file: openings/3move_english.json, group: standard}
`
	ev, err := configs.Parse([]byte(text), "big.yaml", "", configs.Options{Self: "/x"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		dir := b.TempDir()
		st, err := store.OpenDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		sched, err := schedule.New(ev.Schedule)
		if err != nil {
			b.Fatal(err)
		}
		plan := sched.All()
		if err := st.Init(ctx, EventRecord(ev, len(plan))); err != nil {
			b.Fatal(err)
		}
		times := make([]time.Duration, 80)
		for i := range times {
			times[i] = time.Duration(i) * time.Millisecond
		}
		pdnText := fmt.Sprintf("[Event \"big\"]\n[Result \"1-0\"]\n\n%01000d 1-0\n", 0)
		results := []string{"1-0", "0-1", "1/2-1/2"}
		t0 := time.Now()
		for _, p := range plan {
			g := store.Game{ID: p.Index, Cycle: p.Cycle, Round: p.Round, Board: p.Board, Pair: p.Pair, PairGame: p.PairGame,
				White: p.White, Black: p.Black, Opening: ev.Openings[p.Opening].Name, OpeningFEN: ev.Openings[p.Opening].FEN,
				Result: results[p.Index%3], Termination: "normal", FirstMover: "white", PDN: pdnText, MoveTimes: times,
				Started: t0, Finished: t0}
			if err := st.Finish(ctx, g); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(time.Since(t0).Seconds(), "fill-s")

		stop := heapPeak()
		t1 := time.Now()
		sum, err := Run(ctx, Options{Event: ev, Store: st, NewPlayer: fakes(0)})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(t1).Seconds(), "resume-s")
		b.ReportMetric(float64(stop())/(1<<20), "resume-peak-heap-MB")
		if sum.Resumed != benchStoredGames || sum.Played != 0 || sum.Finished != benchStoredGames {
			b.Fatalf("resume summary %+v", sum)
		}

		stop = heapPeak()
		t2 := time.Now()
		if err := WriteReport(ctx, st, dir); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(t2).Seconds(), "report-s")
		b.ReportMetric(float64(stop())/(1<<20), "report-peak-heap-MB")
		st.Close()
	}
}

// heapPeak samples the heap in use until stop is called, which returns the
// peak above the level at the start.
func heapPeak() (stop func() uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var mu sync.Mutex
	peak := base
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				mu.Lock()
				peak = max(peak, m.HeapInuse)
				mu.Unlock()
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		mu.Lock()
		defer mu.Unlock()
		peak = max(peak, m.HeapInuse)
		return peak - base
	}
}
