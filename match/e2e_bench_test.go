package match_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// selfStats is one line the arbiter writes at exit under
// ARBITER_SELF_STATS (cmd/arbiter/selfstats.go).
type selfStats struct {
	cmd                                   string
	userNs, sysNs, nvcsw, nivcsw          int64
	syscr, syscw, mallocs, numGC, alloced int64
	minflt, gcCPUNs                       int64
}

func readSelfStats(tb testing.TB, path, cmd string) selfStats {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		var s selfStats
		for _, f := range strings.Fields(line) {
			k, v, _ := strings.Cut(f, "=")
			if k == "cmd" {
				s.cmd = v
				continue
			}
			n, _ := strconv.ParseInt(v, 10, 64)
			switch k {
			case "user_ns":
				s.userNs = n
			case "sys_ns":
				s.sysNs = n
			case "nvcsw":
				s.nvcsw = n
			case "nivcsw":
				s.nivcsw = n
			case "syscr":
				s.syscr = n
			case "syscw":
				s.syscw = n
			case "mallocs":
				s.mallocs = n
			case "num_gc":
				s.numGC = n
			case "total_alloc":
				s.alloced = n
			case "minflt":
				s.minflt = n
			case "gc_cpu_ns":
				s.gcCPUNs = n
			}
		}
		if s.cmd == cmd {
			return s
		}
	}
	tb.Fatalf("%s: no line of %q in:\n%s", path, cmd, data)
	return selfStats{}
}

// pingPongCPU builds testdata/pingpong.c and runs it: the CPU (all its
// processes) of one round trip of a line between C processes over pipes,
// 0 without a C compiler. With children 1 it is the plain ping-pong of two
// processes, the floor the goal is set against; with 2 the parent
// alternates between two children, as an arbiter does between a game's
// two engines. pin, if given, is the command line it runs under (taskset).
func pingPongCPU(tb testing.TB, trips, children int, pin ...string) float64 {
	tb.Helper()
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			return 0
		}
	}
	exe := filepath.Join(tb.TempDir(), "pingpong")
	if out, err := exec.Command(cc, "-O2", "-o", exe, "testdata/pingpong.c").CombinedOutput(); err != nil {
		tb.Fatalf("building the ping-pong: %v\n%s", err, out)
	}
	argv := slices.Concat(pin, []string{exe, strconv.Itoa(trips), strconv.Itoa(children)})
	out, err := exec.Command(argv[0], argv[1:]...).Output()
	if err != nil {
		tb.Fatal(err)
	}
	ns, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		tb.Fatal(err)
	}
	return ns
}

// BenchmarkMatchEndToEnd is the whole `arbiter match`, not only the game
// loop: 200 games between two instant sparring engines (English, the
// 3-move ballot, 600+1), the store, the PDN and the report included, run
// as the real binary. It reports the arbiter process's own CPU per ply
// (user + system of every thread of it, not its engines': the process
// writes its getrusage at exit, ARBITER_SELF_STATS) against a bare C
// ping-pong's CPU per round trip of a line between two processes (both
// sides), run just before and just after in the same benchmark (the mean
// of the two), and their ratio
// (e2e-cpu/floor; the aim is at most 1.5), the same beside the C parent
// alternating between two children, as an arbiter does between a game's
// two engines (c-pingpong-2-cpu-ns/roundtrip, e2e-cpu/floor-2: on a
// virtual machine the kernel tends to put the three on different CPUs,
// so that every line is a wake-up across CPUs, and that floor is the
// higher and the more variable), and the machine's load average
// (load-avg-1m) as the match ended; then per ply the voluntary and
// involuntary context switches of the arbiter (its waits and its
// preemptions), its read and write system calls (its threads', not its
// engines': see cmd/arbiter/selfstats.go), its page faults (minor: a
// page touched for the first time, costly on a virtual machine) and its
// Go allocations, and the garbage collections of the run and their CPU by
// the runtime's count (e2e-gc-cpu-ns/ply); and what a ply
// costs beyond the run's fixed part (e2e-marginal-cpu-ns/ply: the warm-up
// run below gives the fixed part), and its ratio to the floor.
// BenchmarkGameRandom's cpu/floor is the game loop's alone.
//
// The match measured is an engine author's next run, not the first after
// a build: a match of two games runs first, unmeasured, as the author's
// previous run. It leaves the binary in the page cache and its checksum
// remembered (match/internal/progsum), as they are for every run but the
// first after a rebuild; that first run pays the hash of the 50 MB
// program once, about 40 ms of CPU. A second match of two games, measured,
// is the run's fixed part (e2e-fixed-cpu-ms): the first one's, which held
// the hash, made the marginal cost of a ply look some 3 µs smaller than
// it was.
func BenchmarkMatchEndToEnd(b *testing.B) {
	const games = 200
	cache := b.TempDir() // the program's checksum, remembered by the warm-up
	run := func(games int, dir string, pin ...string) string {
		stats := filepath.Join(dir, "self.stats")
		out := filepath.Join(dir, "event")
		argv := slices.Concat(pin, []string{bin, "match",
			"--engine", "name=A cmd=self engine --level random --seed 1",
			"--engine", "name=B cmd=self engine --level random --seed 2",
			"--variant", "english", "--time-control", "600+1",
			"--games-per-encounter", strconv.Itoa(games), "--out", out})
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "ARBITER_SELF_STATS="+stats, "XDG_CACHE_HOME="+cache)
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("arbiter match: %v\n%s", err, msg)
		}
		return out
	}
	for b.Loop() {
		// The first warm-up pays the program's checksum; the second, a
		// run as the measured one is, gives the fixed part.
		run(2, b.TempDir())
		warm := b.TempDir()
		warmPlies := resultPlies(b, filepath.Join(run(2, warm), "results.json"), 2)
		warmStats := readSelfStats(b, filepath.Join(warm, "self.stats"), "match")
		before, before2 := pingPongCPU(b, 20000, 1), pingPongCPU(b, 20000, 2)
		dir := b.TempDir()
		stats := filepath.Join(dir, "self.stats")
		out := run(games, dir)
		// The floor is measured before and after the match and averaged:
		// the machine's load moves during the match, and the floor with it.
		floor := (before + pingPongCPU(b, 20000, 1)) / 2
		floor2 := (before2 + pingPongCPU(b, 20000, 2)) / 2
		plies := resultPlies(b, filepath.Join(out, "results.json"), games)
		s := readSelfStats(b, stats, "match")
		per := func(n int64) float64 { return float64(n) / float64(plies) }
		cpu := per(s.userNs + s.sysNs)
		b.ReportMetric(float64(plies), "plies")
		b.ReportMetric(cpu, "e2e-cpu-ns/ply")
		b.ReportMetric(per(s.userNs), "e2e-user-ns/ply")
		b.ReportMetric(per(s.sysNs), "e2e-sys-ns/ply")
		b.ReportMetric(per(s.nvcsw), "e2e-vcsw/ply")
		b.ReportMetric(per(s.nivcsw), "e2e-ivcsw/ply")
		b.ReportMetric(per(s.syscr+s.syscw), "e2e-rw-syscalls/ply")
		b.ReportMetric(per(s.mallocs), "e2e-allocs/ply")
		b.ReportMetric(per(s.alloced), "e2e-alloc-B/ply")
		b.ReportMetric(float64(s.numGC), "e2e-gcs")
		// The runtime's own count of its collector's CPU (see
		// cmd/arbiter/selfstats.go): the collections' share of the ply.
		b.ReportMetric(per(s.gcCPUNs), "e2e-gc-cpu-ns/ply")
		// What a ply costs beyond the run's fixed part (the process's start,
		// the engines' preflight, the report): the CPU of this run less the
		// warm-up's, over the plies of this run less the warm-up's.
		marginal := float64(s.userNs+s.sysNs-warmStats.userNs-warmStats.sysNs) / float64(plies-warmPlies)
		b.ReportMetric(marginal, "e2e-marginal-cpu-ns/ply")
		// The fixed part itself: the warm-up's CPU less its plies'.
		b.ReportMetric((float64(warmStats.userNs+warmStats.sysNs)-marginal*float64(warmPlies))/1e6, "e2e-fixed-cpu-ms")
		b.ReportMetric(per(s.minflt), "e2e-minflt/ply")
		if floor > 0 {
			b.ReportMetric(floor, "c-pingpong-cpu-ns/roundtrip")
			b.ReportMetric(cpu/floor, "e2e-cpu/floor")
			b.ReportMetric(marginal/floor, "e2e-marginal/floor")
		}
		if floor2 > 0 {
			b.ReportMetric(floor2, "c-pingpong-2-cpu-ns/roundtrip")
			b.ReportMetric(cpu/floor2, "e2e-cpu/floor-2")
		}
		if load, ok := loadAverage(); ok {
			// The machine is shared: a figure is read with its load.
			b.ReportMetric(load, "load-avg-1m")
		}
		oneCPU(b, games, run)
	}
}

// oneCPU measures the match and the floor again with every process on one
// CPU (taskset; the engines inherit it), where nothing depends on the
// kernel's placement: unpinned, a quiet machine puts the ping-pong's two
// processes on two CPUs, each line a wake-up across CPUs (20-26 µs a round
// trip on a 2-core virtual machine), and a loaded one keeps them on one
// (5-9 µs), so that e2e-cpu/floor moves with the load more than with the
// arbiter. Reported as e2e-1cpu-cpu-ns/ply, c-pingpong-1cpu-cpu-ns/roundtrip
// and their ratio, e2e-1cpu/floor-1cpu; nothing without taskset.
func oneCPU(b *testing.B, games int, run func(int, string, ...string) string) {
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		b.Log("no taskset (util-linux): the one-CPU figures are left out")
		return
	}
	// The first CPU this process may run on (a container may not have 0).
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		b.Logf("the CPUs allowed: %v: the one-CPU figures are left out", err)
		return
	}
	cpu := 0
	for !set.IsSet(cpu) {
		cpu++
	}
	pin := []string{taskset, "-c", strconv.Itoa(cpu)}
	floor := pingPongCPU(b, 20000, 1, pin...)
	dir := b.TempDir()
	out := run(games, dir, pin...)
	floor = (floor + pingPongCPU(b, 20000, 1, pin...)) / 2
	plies := resultPlies(b, filepath.Join(out, "results.json"), games)
	s := readSelfStats(b, filepath.Join(dir, "self.stats"), "match")
	perPly := float64(s.userNs+s.sysNs) / float64(plies)
	b.ReportMetric(perPly, "e2e-1cpu-cpu-ns/ply")
	if floor > 0 {
		b.ReportMetric(floor, "c-pingpong-1cpu-cpu-ns/roundtrip")
		b.ReportMetric(perPly/floor, "e2e-1cpu/floor-1cpu")
	}
}

// resultPlies is the number of engine moves of the games in results.json,
// which must hold want games.
func resultPlies(tb testing.TB, path string, want int) int {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var r struct {
		Games []struct {
			Plies int `json:"plies"`
		} `json:"games"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		tb.Fatal(err)
	}
	if len(r.Games) != want {
		tb.Fatalf("%s: %d games, want %d", path, len(r.Games), want)
	}
	n := 0
	for _, g := range r.Games {
		n += g.Plies
	}
	if n == 0 {
		tb.Fatal(fmt.Errorf("%s: no plies", path))
	}
	return n
}

// loadAverage is the machine's load average over the last minute
// (/proc/loadavg), ok false where there is none.
func loadAverage() (float64, bool) {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0, false
	}
	load, err := strconv.ParseFloat(f[0], 64)
	return load, err == nil
}
