package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// match without --time-control plays with no clock: --help states the
// default, the run's first line warns and names what to give, and a run
// with a clock neither warns nor hides it.
func TestMatchStatesTheTimeControl(t *testing.T) {
	dir := t.TempDir()
	help, _, code := runArbiter(t, dir, "match", "--help")
	if code != 0 || !strings.Contains(help, "default: none, no clock") || !strings.Contains(help, "Without --time-control there is no clock") {
		t.Errorf("match --help does not state the default time control (exit %d):\n%s", code, help)
	}
	engines := []string{"--engine", "name=A cmd=self engine --level 1 --seed 1", "--engine", "name=B cmd=self engine --level 2 --seed 2",
		"--games-per-encounter", "2"}
	out, errOut, code := runArbiter(t, dir, append([]string{"match", "--out", filepath.Join(dir, "none")}, engines...)...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	first, _, _ := strings.Cut(errOut, "\n")
	if !strings.HasPrefix(first, "warning: no time control (the default): the engines play without a clock") ||
		!strings.Contains(first, "--time-control") {
		t.Errorf("the first line of a run without a clock is %q", first)
	}
	if !strings.Contains(errOut, `time_control="none (no clock)"`) {
		t.Errorf("the run's log line does not say there is no clock:\n%s", errOut)
	}
	out, errOut, code = runArbiter(t, dir, append([]string{"match", "--time-control", "30+0.5", "--out", filepath.Join(dir, "timed")}, engines...)...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, "no time control") || !strings.Contains(errOut, "time_control=30+0.5") {
		t.Errorf("a run with a clock:\n%s", errOut)
	}
}
