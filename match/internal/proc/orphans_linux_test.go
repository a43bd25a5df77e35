package proc

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMarkedFindsAMarkerPastTheBuffer: the scan reads each environment
// into a buffer it grows; a marker behind 100 KB of other variables, far
// past the buffer's first size, is found all the same, and a process
// without one is not named.
func TestMarkedFindsAMarkerPastTheBuffer(t *testing.T) {
	const value = "test:marker:7"
	big := exec.Command("sleep", "60")
	big.Env = []string{"FILLER=" + strings.Repeat("x", 100<<10), markerVar + "=" + value}
	plain := exec.Command("sleep", "60")
	plain.Env = []string{"FILLER=y"}
	for _, c := range []*exec.Cmd{big, plain} {
		if err := c.Start(); err != nil {
			t.Skipf("no sleep(1) to start: %v", err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	}
	found := map[int]string{}
	marked(func(pid int, v string) { found[pid] = v })
	if got := found[big.Process.Pid]; got != value {
		t.Errorf("marker of the process with a 100 KB environment: %q, want %q", got, value)
	}
	if v, ok := found[plain.Process.Pid]; ok {
		t.Errorf("a process without a marker named with %q", v)
	}
	if _, ok := found[os.Getpid()]; ok {
		t.Error("the scan names its own process")
	}
}
