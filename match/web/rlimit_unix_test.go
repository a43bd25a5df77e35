//go:build unix

package web

import "syscall"

// openFileLimit is the process's limit on open files (as raised by the Go
// runtime at start-up).
func openFileLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 1 << 62
	}
	return uint64(lim.Cur)
}
