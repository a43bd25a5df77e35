package proc

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
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

// A child that leaves the engine's process group and session (setsid)
// is killed with the engine all the same.
func TestStopKillsDetachedChildren(t *testing.T) {
	marker := strconv.Itoa(300000 + os.Getpid()%100000)
	p := start(t, `setsid sleep `+marker+` & echo started; sleep 1000`)
	if got, err := p.ReadLine(time.Now().Add(5 * time.Second)); err != nil || got != "started" {
		t.Fatalf("ReadLine = %q, %v", got, err)
	}
	waitFor(t, func() bool { return len(sleepers(marker)) > 0 }, "the detached child to start")
	p.Stop(0)
	waitFor(t, func() bool { return len(sleepers(marker)) == 0 }, "the detached child to be killed")
}

// Under HoldScans, Stop leaves what an engine detached alive until the
// release, which kills what every engine stopped meanwhile left behind.
func TestHeldScansKillAtRelease(t *testing.T) {
	base := 400000 + os.Getpid()%100000
	markers := []string{strconv.Itoa(base), strconv.Itoa(base + 1)}
	var ps []*Process
	for _, m := range markers {
		p := start(t, `setsid sleep `+m+` & echo started; sleep 1000`)
		if got, err := p.ReadLine(time.Now().Add(5 * time.Second)); err != nil || got != "started" {
			t.Fatalf("ReadLine = %q, %v", got, err)
		}
		waitFor(t, func() bool { return len(sleepers(m)) > 0 }, "the detached child to start")
		ps = append(ps, p)
	}
	release := HoldScans()
	for _, p := range ps {
		p.Stop(0)
	}
	for _, m := range markers {
		if len(sleepers(m)) == 0 {
			t.Fatalf("sleep %s was killed before the release", m)
		}
	}
	release()
	release() // a second call does nothing
	for _, m := range markers {
		waitFor(t, func() bool { return len(sleepers(m)) == 0 }, "sleep "+m+" to be killed at the release")
	}
}

// sleepers lists the live processes running "sleep arg".
func sleepers(arg string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && string(cmdline) == "sleep\x00"+arg+"\x00" && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}
