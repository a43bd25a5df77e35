package proc

import (
	"os/exec"
	"runtime"
	"sync"
)

// Engines are started from one goroutine locked to its OS thread for the
// life of the arbiter. The parent-death signal (Linux) fires when the
// *thread* that created the child exits, not the process: Go ends a thread
// when a goroutine locked to it returns, so a child started from an
// arbitrary goroutine could be killed in the middle of an event. The
// spawner's thread never exits, so the signal comes only with the arbiter's
// own death (a kill -9, an out-of-memory kill), and then always.
var (
	spawnOnce sync.Once
	spawnReq  chan spawnCall
)

type spawnCall struct {
	cmd  *exec.Cmd
	done chan error
}

// spawn starts cmd on the spawner's thread. The first call first kills the
// engines that dead arbiters left behind (sweepDead).
func spawn(cmd *exec.Cmd) error {
	spawnOnce.Do(func() {
		spawnReq = make(chan spawnCall)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread lives as long as the arbiter
			sweepDead()
			for c := range spawnReq {
				c.done <- c.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	spawnReq <- spawnCall{cmd: cmd, done: done}
	return <-done
}
