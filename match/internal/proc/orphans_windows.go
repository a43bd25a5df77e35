package proc

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// On Windows the engine's job object (tree_windows.go) does what the
// marker does on Linux: every process the engine starts, however it
// detaches itself, is in the job and dies with it, and the job dies with
// the arbiter (its handle closes however the arbiter ends). So there is
// no marker to set and nothing to search for afterwards.

// sysProcAttr starts the engine suspended, so that it is in its job before
// it runs (see tree.attach), and in a process group of its own: a Ctrl+C
// in the arbiter's console reaches the arbiter alone, which then stops its
// engines in order, as the process group does on Unix.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP}
}

func marker(uint64) string { return "" }

// killMarked has nothing to do: the job was terminated and closed at Stop.
func killMarked([]uint64) {}

// sweepDead has nothing to do: a dead arbiter's jobs died with it.
func sweepDead() {}
