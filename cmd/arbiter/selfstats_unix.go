//go:build unix

package main

import (
	"syscall"
	"time"
)

// ownUsage is getrusage(RUSAGE_SELF): this process alone, not its
// waited-for children.
func ownUsage() (usage, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return usage{}, false
	}
	return usage{
		user: time.Duration(ru.Utime.Nano()), sys: time.Duration(ru.Stime.Nano()),
		nvcsw: int64(ru.Nvcsw), nivcsw: int64(ru.Nivcsw), minflt: int64(ru.Minflt),
	}, true
}
