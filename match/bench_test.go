package match_test

import (
	"bufio"
	"context"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/match/internal/proc"
)

// BenchmarkPipeRoundTripRaw is the floor: one line to `cat` and back over
// plain pipes, nothing else.
func BenchmarkPipeRoundTripRaw(b *testing.B) {
	cmd := exec.Command("cat")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Skip("no cat:", err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	br := bufio.NewReader(out)
	line := []byte("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n")
	roundTrips(b, func() {
		if _, err := in.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := br.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	})
}

// floorCPU is the CPU time one round trip of a line over plain pipes costs
// both sides (this process writing and reading, `cat` echoing: its CPU is
// counted once it has exited), averaged over n trips: the floor of a move's
// CPU, measured in the same run as the runner's own because this machine's
// system-call cost changes several times over between runs.
func floorCPU(tb testing.TB, n int) time.Duration {
	tb.Helper()
	cmd := exec.Command("cat")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		tb.Skip("no cat:", err)
	}
	br := bufio.NewReader(out)
	line := []byte("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n")
	self0, child0 := cpuTime(), childCPU()
	for range n {
		if _, err := in.Write(line); err != nil {
			tb.Fatal(err)
		}
		if _, err := br.ReadSlice('\n'); err != nil {
			tb.Fatal(err)
		}
	}
	self := cpuTime() - self0
	in.Close()
	cmd.Wait()
	return (self + childCPU() - child0) / time.Duration(n)
}

// childCPU is the user + system CPU time of this process's children that
// have exited and been waited for.
func childCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPipeRoundTripCPU reports floorCPU: the CPU of one line's round
// trip over plain pipes, both sides.
func BenchmarkPipeRoundTripCPU(b *testing.B) {
	var sum time.Duration
	for range b.N {
		sum += floorCPU(b, tripsPerOp)
	}
	b.ReportMetric(float64(sum.Nanoseconds())/float64(b.N), "cpu-ns/roundtrip")
}

// tripsPerOp round trips make one benchmark op, so that `-benchtime 1x`
// (make bench) still averages over many.
const tripsPerOp = 2000

func roundTrips(b *testing.B, trip func()) {
	for range 100 {
		trip() // warm up
	}
	b.ResetTimer()
	t0 := time.Now()
	for range b.N {
		for range tripsPerOp {
			trip()
		}
	}
	b.ReportMetric(float64(time.Since(t0).Nanoseconds())/float64(b.N*tripsPerOp), "ns/roundtrip")
}

// BenchmarkPipeRoundTripProc is the same round trip through the transport
// the Hub player uses (deadline-capable pipes, reader goroutine, channel).
func BenchmarkPipeRoundTripProc(b *testing.B) {
	p, err := proc.Start([]string{"cat"}, "", nil, nil)
	if err != nil {
		b.Skip("no cat:", err)
	}
	defer func() { p.CloseInput(); p.Stop(time.Second) }()
	line := "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n"
	roundTrips(b, func() {
		if err := p.Write(line, time.Second); err != nil {
			b.Fatal(err)
		}
		if _, err := p.ReadLine(time.Time{}); err != nil {
			b.Fatal(err)
		}
	})
}

// engineTime sums the think time the sparring engine reports in its info
// lines ("time=" in seconds).
func engineTime(rec *match.GameRecord) time.Duration {
	var d time.Duration
	for _, info := range rec.Info {
		l, err := hub.ParseLine(info)
		if err != nil {
			continue
		}
		if s, ok := l.Get("time"); ok {
			f, _ := strconv.ParseFloat(s, 64)
			d += time.Duration(f * float64(time.Second))
		}
	}
	return d
}

// BenchmarkGameRandom plays full games (ten per op) between two `--level random`
// engines (international draughts, at most 100 moves each) and reports the
// moves per second and, per move: the whole cycle (wall-ns/move); the time
// not spent thinking inside the engines (overhead-ns/move: the arbiter, the
// pipes and the engines' own I/O); the time between request written and
// reply read (latency-ns/move: pipes plus engine); the arbiter's own time
// (arbiter-ns/move = wall - latency: protocol code and referee); the
// referee's share (referee-ns/move, time outside Play); and the CPU time
// of the arbiter's process (cpu-ns/move: user + system time of every
// thread, the GC's included, the engines' not), which unlike the wall
// times does not depend on how fast the machine wakes a sleeping process;
// beside it, floor-cpu-ns/roundtrip (floorCPU, measured in the same run)
// and their ratio, cpu/floor (the aim is at most 1.5). Where the CPU goes:
// user-ns/move and sys-ns/move split it (the kernel splits by sampling, so
// only over many moves), vcsw/move counts the arbiter's voluntary context
// switches (its waits: one per move at best) and ivcsw/move the times it
// was preempted (the machine's load, mostly).
func BenchmarkGameRandom(b *testing.B) {
	mk := func(seed string) *hub.Player {
		return hub.New(hub.Options{Command: []string{bin, "engine", "--level", "random", "--seed", seed}})
	}
	white, black := mk("1"), mk("2")
	defer white.Close()
	defer black.Close()
	tc, _ := arbiter.ParseTimeControl("600+1")
	cfg := arbiter.Config{Variant: mustVariant("international"), TimeControl: [2]arbiter.TimeControl{tc, tc},
		AutoClaim: true, MaxMoves: 100, Margin: 100 * time.Millisecond}
	// Start the engines outside the measurement.
	if _, err := match.PlayGame(context.Background(), cfg, white, black, zerolog.Nop()); err != nil {
		b.Fatal(err)
	}
	var moves int
	var wall, overhead, referee, latency time.Duration
	var infos []string
	cpu0 := cpuTime()
	ru0 := rusage()
	b.ResetTimer()
	// gamesPerOp games make one op, so that `-benchtime 1x` (make bench)
	// measures over a thousand moves or so.
	const gamesPerOp = 10
	for range b.N * gamesPerOp {
		t0 := time.Now()
		rec, err := match.PlayGame(context.Background(), cfg, white, black, zerolog.Nop())
		if err != nil {
			b.Fatal(err)
		}
		w := time.Since(t0)
		wall += w
		// The engines' think time is read from their info lines after the
		// CPU is measured: parsing them is the benchmark's work, not the
		// runner's.
		infos = append(infos, rec.Info...)
		referee += rec.Overhead
		for _, l := range rec.Latency {
			latency += l
		}
		moves += len(rec.Moves)
	}
	b.StopTimer()
	cpu := cpuTime() - cpu0
	ru1 := rusage()
	overhead = wall - engineTime(&match.GameRecord{Info: infos})
	if moves == 0 {
		b.Fatal("no moves")
	}
	b.ReportMetric(float64(moves)/wall.Seconds(), "moves/s")
	b.ReportMetric(float64(wall.Nanoseconds())/float64(moves), "wall-ns/move")
	b.ReportMetric(float64(overhead.Nanoseconds())/float64(moves), "overhead-ns/move")
	b.ReportMetric(float64(referee.Nanoseconds())/float64(moves), "referee-ns/move")
	b.ReportMetric(float64((wall-latency).Nanoseconds())/float64(moves), "arbiter-ns/move")
	b.ReportMetric(float64(latency.Nanoseconds())/float64(moves), "latency-ns/move")
	if cpu > 0 {
		perMove := float64(cpu.Nanoseconds()) / float64(moves)
		b.ReportMetric(perMove, "cpu-ns/move")
		b.ReportMetric(float64(ru1.Utime.Nano()-ru0.Utime.Nano())/float64(moves), "user-ns/move")
		b.ReportMetric(float64(ru1.Stime.Nano()-ru0.Stime.Nano())/float64(moves), "sys-ns/move")
		b.ReportMetric(float64(ru1.Nvcsw-ru0.Nvcsw)/float64(moves), "vcsw/move")
		b.ReportMetric(float64(ru1.Nivcsw-ru0.Nivcsw)/float64(moves), "ivcsw/move")
		if floor := floorCPU(b, tripsPerOp); floor > 0 {
			b.ReportMetric(float64(floor.Nanoseconds()), "floor-cpu-ns/roundtrip")
			b.ReportMetric(perMove/float64(floor.Nanoseconds()), "cpu/floor")
		}
	}
}

// cpuTime is the user + system CPU time this process has used so far, 0
// where getrusage is not available.
func cpuTime() time.Duration {
	ru := rusage()
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rusage is this process's resource usage so far (zero where getrusage is
// not available).
func rusage() syscall.Rusage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return syscall.Rusage{}
	}
	return ru
}

// BenchmarkHubLine measures the Hub codec on a typical info line.
func BenchmarkHubLine(b *testing.B) {
	s := `info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 pv="32-28 17-22 28x17x22 12x21x17 33-28 7-12"`
	b.ReportAllocs()
	for range b.N {
		if _, err := hub.ParseLine(s); err != nil {
			b.Fatal(err)
		}
	}
}
