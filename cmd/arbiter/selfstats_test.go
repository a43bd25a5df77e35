package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
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

// The commands that play engine games collect at gamesGCPercent, unless
// the user chose a GOGC; the collector's own CPU count (gc_cpu_ns of the
// self-stats line) is a figure, not nothing.
func TestGCForGames(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tt := range []struct {
		env  string
		want int
	}{{"", gamesGCPercent}, {"150", 100}} {
		t.Setenv("GOGC", tt.env)
		debug.SetGCPercent(100)
		tuneGCForGames()
		if got := debug.SetGCPercent(100); got != tt.want {
			t.Errorf("GOGC=%q: the collector at %d after tuneGCForGames, want %d", tt.env, got, tt.want)
		}
	}
	runtime.GC()
	if gcCPU() <= 0 {
		t.Errorf("gcCPU() = %v after a collection, want the collector's CPU", gcCPU())
	}
}
