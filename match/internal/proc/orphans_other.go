//go:build !linux

package proc

import "syscall"

// Elsewhere an engine gets its own process group (killed on Stop) but no
// parent-death signal, and detached descendants are not tracked.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func marker(uint64) string { return "" }

func killMarked([]uint64) {}

func sweepDead() {}
