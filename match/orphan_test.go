package match_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/poll"
)

// A runner killed with SIGKILL takes its engines with it (parent-death
// signal), even one that ignores the end of its input; the child such an
// engine detached (setsid) is killed by the next arbiter that starts an
// engine (the resumed event), so that no stale engine is played.
func TestKilledRunnerLeavesNoEngine(t *testing.T) {
	dir := t.TempDir()
	marker := strconv.Itoa(400000 + os.Getpid()%100000)
	engine := filepath.Join(dir, "stubborn.sh")
	body := `trap '' HUP TERM
setsid sleep ` + marker + ` &
while read -r line; do
  case "$line" in
    hub) echo "id name=stubborn"; echo wait ;;
    init) echo ready ;;
    ping) echo pong ;;
  esac
done
# End of input: keep running anyway.
while :; do sleep 1; done
`
	if err := os.WriteFile(engine, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	runner := exec.Command(bin, "match", "--variant", "english", "--tc", "600+0", "--games", "2",
		"--engine", "name=stubborn cmd=/bin/sh "+engine, "--engine", "name=s cmd=self engine")
	runner.Dir = dir
	if err := runner.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { runner.Process.Kill(); runner.Wait() })
	until(t, func() bool { return len(processesOf(engine)) > 0 && len(processesOf("sleep\x00"+marker)) > 0 }, "the engine and its detached child")
	enginePids := processesOf(engine)

	runner.Process.Signal(syscall.SIGKILL)
	runner.Wait()
	until(t, func() bool {
		for _, pid := range enginePids {
			if alive(pid) {
				return false
			}
		}
		return true
	}, "the engine to die with its runner")

	// The detached child outlived both; the next arbiter removes it
	// before it starts an engine of its own.
	if len(processesOf("sleep\x00"+marker)) == 0 {
		t.Log("the detached child is already gone")
	}
	next := exec.Command(bin, "match", "--variant", "english", "--tc", "1+0", "--games", "2",
		"--engine", "name=a cmd=self engine --level random", "--engine", "name=b cmd=self engine --level random")
	next.Dir = dir
	if out, err := next.CombinedOutput(); err != nil {
		t.Fatalf("the next match: %v\n%s", err, out)
	}
	until(t, func() bool { return len(processesOf("sleep\x00"+marker)) == 0 }, "the detached child to be killed by the next arbiter")
}

// until waits up to 10 s for cond.
func until(t *testing.T, cond func() bool, what string) {
	t.Helper()
	if !poll.Until(10*time.Second, 0, cond) {
		t.Fatalf("timed out waiting for %s", what)
	}
}
