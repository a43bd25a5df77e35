//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// tree is what Kill reaches beyond the engine itself: on Unix its process
// group, made at the start (sysProcAttr: Setpgid), whose id is the
// engine's pid.
type tree struct{ pgid int }

// attach takes the group of the started cmd; it cannot fail on Unix.
func (t *tree) attach(cmd *exec.Cmd) error {
	t.pgid = cmd.Process.Pid
	return nil
}

// kill sends SIGKILL to the whole group.
func (t *tree) kill() { syscall.Kill(-t.pgid, syscall.SIGKILL) }

// close releases nothing on Unix: a group needs no handle.
func (t *tree) close() {}
