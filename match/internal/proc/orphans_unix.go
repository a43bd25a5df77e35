//go:build unix && !linux

package proc

import "syscall"

// On the other Unix systems (macOS, the BSDs) an engine gets its own
// process group (killed on Stop) but no parent-death signal, and
// descendants that leave the group (setsid) are not tracked: they outlive
// a Stop, and the engines of an arbiter killed with -9 outlive it.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func marker(uint64) string { return "" }

func killMarked([]uint64) {}

func sweepDead() {}
