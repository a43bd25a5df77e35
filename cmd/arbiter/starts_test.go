package main

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// More games at once than processors (times an engine's threads option) is
// refused before anything starts, unless --force-concurrency; a time
// control PDN and cutechess read differently gets a warning naming both
// readings; every game's latency (what the engines did not report as
// thinking) is reported.
func TestConcurrencyTimeControlAndLatency(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: the other tests run with --force-concurrency (see testArgs)")
	}
	dir := t.TempDir()
	engines := []string{"--engine", "name=A cmd=self engine --level 1", "--engine", "name=B cmd=self engine --level random"}
	over := fmt.Sprint(runtime.NumCPU() + 1)
	args := append([]string{"match", "--concurrency", over, "--out", filepath.Join(dir, "over"), "--progress", "off"}, engines...)
	_, stderr, code := runArbiter(t, dir, args...)
	if code != exitUsage || !strings.Contains(stderr, fmt.Sprintf("concurrency %s needs %s processors and this machine has %d", over, over, runtime.NumCPU())) ||
		!strings.Contains(stderr, "--force-concurrency") {
		t.Errorf("concurrency above the CPUs: exit %d\n%s", code, stderr)
	}
	threads := []string{"match", "--out", filepath.Join(dir, "threads"), "--engine", "name=T option.threads=" + over + " cmd=self engine", "--engine", "name=B cmd=self engine"}
	if _, stderr, code := runArbiter(t, dir, threads...); code != exitUsage || !strings.Contains(stderr, "threads (engine T) needs") {
		t.Errorf("threads above the CPUs: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := runArbiter(t, dir, append(args, "--force-concurrency", "--time-control", "40/1:30")...)
	if code != 0 {
		t.Fatalf("--force-concurrency: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, `warning: time_control "40/1:30" is read as PDN reads it: 40 moves in 1 s, then 30 s for the rest of the game; cutechess would read 40 moves in 1 min 30 s (write 40/90 for that)`) {
		t.Errorf("no warning about 40/1:30:\n%s", stderr)
	}
	if strings.Count(stdout, " latency=") != 2 || !strings.Contains(stdout, "latency not reported as thinking: ") {
		t.Errorf("no latency per game and in all:\n%s", stdout)
	}
}

// testArgs are the arguments of a run of the binary in a test: the events
// of the tests play two games at once, which a machine with one CPU
// refuses without --force-concurrency.
func testArgs(args []string) []string {
	if runtime.NumCPU() >= 2 || len(args) == 0 {
		return args
	}
	switch args[0] {
	case "tournament", "match", "demo":
		return append(append([]string{}, args...), "--force-concurrency")
	}
	return args
}
