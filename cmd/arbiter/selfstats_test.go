package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// The end-to-end benchmark's read and write system calls are the
// arbiter's own: a child's, once reaped, are in /proc/self/io but not in
// ownIO.
func TestOwnIOLeavesOutChildren(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/task")
	}
	dd, err := exec.LookPath("dd")
	if err != nil {
		t.Skip("no dd")
	}
	const n = 20000 // the child's reads, and as many writes
	r0, w0 := ownIO()
	all0 := procSelfIO(t)
	if out, err := exec.Command(dd, "if=/dev/zero", "of=/dev/null", "bs=1", fmt.Sprint("count=", n)).CombinedOutput(); err != nil {
		t.Fatalf("dd: %v\n%s", err, out)
	}
	r1, w1 := ownIO()
	all1 := procSelfIO(t)
	if all1-all0 < 2*n {
		t.Skipf("/proc/self/io grew by %d over the child's %d calls: this kernel does not add a reaped child's", all1-all0, 2*n)
	}
	if r1 <= 0 || w1 < 0 {
		t.Fatalf("ownIO = %d reads, %d writes; want this process's", r1, w1)
	}
	if own := (r1 - r0) + (w1 - w0); own >= n {
		t.Errorf("ownIO grew by %d calls over the child's run (%d of its own); want the arbiter's few", own, 2*n)
	}
}

// procSelfIO is syscr + syscw of /proc/self/io.
func procSelfIO(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skip(err)
	}
	var sum int64
	for _, l := range strings.Split(string(data), "\n") {
		var n int64
		if _, err := fmt.Sscanf(l, "syscr: %d", &n); err == nil {
			sum += n
		}
		if _, err := fmt.Sscanf(l, "syscw: %d", &n); err == nil {
			sum += n
		}
	}
	return sum
}

// The commands that play engine games collect at gamesGCPercent and run
// Go code on no more processors than games at once, unless the user chose
// GOGC or GOMAXPROCS; the collector's own CPU count (gc_cpu_ns of the
// self-stats line) is a figure, not nothing.
func TestRuntimeForGames(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const machine = 8 // the processors the runtime would use by default
	for _, tt := range []struct {
		gogc, gomaxprocs string
		games            int
		wantGC, wantP    int
	}{
		{"", "", 1, gamesGCPercent, 1},
		{"", "", 3, gamesGCPercent, 3},
		{"", "", 20, gamesGCPercent, machine}, // never more than the machine's
		{"", "", 0, gamesGCPercent, machine},  // a coordinator: its workers play
		{"150", "", 1, 100, 1},
		{"", "6", 1, gamesGCPercent, machine}, // the user's choice stands
	} {
		t.Setenv("GOGC", tt.gogc)
		t.Setenv("GOMAXPROCS", tt.gomaxprocs)
		debug.SetGCPercent(100)
		runtime.GOMAXPROCS(machine)
		tuneRuntimeForGames(tt.games)
		if got := debug.SetGCPercent(100); got != tt.wantGC {
			t.Errorf("GOGC=%q: the collector at %d, want %d", tt.gogc, got, tt.wantGC)
		}
		if got := runtime.GOMAXPROCS(0); got != tt.wantP {
			t.Errorf("GOMAXPROCS=%q, %d games at once: %d processors for Go code, want %d", tt.gomaxprocs, tt.games, got, tt.wantP)
		}
	}
	runtime.GC()
	if gcCPU() <= 0 {
		t.Errorf("gcCPU() = %v after a collection, want the collector's CPU", gcCPU())
	}
}

// An engine author's match, one game at a time (the default): the arbiter
// runs its Go code on one processor, as its self-stats line says; a
// GOMAXPROCS the author set is kept.
func TestMatchRunsOnOneProcessor(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		env  string
		want string
	}{{"", "procs=1"}, {"2", "procs=2"}} {
		stats := filepath.Join(dir, "self"+tt.env+".stats")
		t.Setenv("ARBITER_SELF_STATS", stats)
		t.Setenv("GOMAXPROCS", tt.env)
		out := filepath.Join(dir, "out"+tt.env)
		if stdout, stderr, code := runArbiter(t, dir, "match", "--engine", "name=A cmd=self engine --level random",
			"--engine", "name=B cmd=self engine --level random --seed 2", "--time-control", "60+1", "--out", out, "--progress", "off"); code != 0 {
			t.Fatalf("GOMAXPROCS=%q: exit %d\n%s\n%s", tt.env, code, stdout, stderr)
		}
		data, err := os.ReadFile(stats)
		if err != nil {
			t.Fatal(err)
		}
		var line string
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "cmd=match ") {
				line = l
			}
		}
		if !slices.Contains(strings.Fields(line), tt.want) {
			t.Errorf("GOMAXPROCS=%q: the match's self-stats line is %q; want %s", tt.env, line, tt.want)
		}
	}
}
