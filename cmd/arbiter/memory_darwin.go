package main

import "golang.org/x/sys/unix"

// totalMemory is the machine's RAM in bytes (sysctl hw.memsize), 0 when
// unknown.
func totalMemory() uint64 {
	n, err := unix.SysctlUint64("hw.memsize")
	if err != nil {
		return 0
	}
	return n
}
