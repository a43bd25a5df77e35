package main

import (
	"time"

	"golang.org/x/sys/windows"
)

// ownUsage is GetProcessTimes of this process. Windows counts no context
// switches or minor faults per process where a program can read them as
// getrusage does: those figures stay 0 (the end-to-end benchmark, their
// only reader, is run on Linux).
func ownUsage() (usage, bool) {
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &created, &exited, &kernel, &user); err != nil {
		return usage{}, false
	}
	// A FILETIME counts 100 ns steps.
	ticks := func(t windows.Filetime) time.Duration {
		return time.Duration(int64(t.HighDateTime)<<32|int64(t.LowDateTime)) * 100
	}
	return usage{user: ticks(user), sys: ticks(kernel)}, true
}
