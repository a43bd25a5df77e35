package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// hubOutputFirst: a DLL's C runtime takes its stdout from the process's
// standard output handle when the DLL is loaded, so the handle is moved
// before the library is (see cbhost.go).
const hubOutputFirst = true

// hubOutput gives the Hub exchange a handle of its own to stdout and makes
// stderr the process's standard output: what the library prints then
// reaches the engine log as stderr instead of mixing with the protocol.
// It must run before the library is loaded (hubOutputFirst).
func hubOutput() (*os.File, error) {
	cur := windows.CurrentProcess()
	var h windows.Handle
	if err := windows.DuplicateHandle(cur, windows.Handle(os.Stdout.Fd()), cur, &h, 0, false, windows.DUPLICATE_SAME_ACCESS); err != nil {
		return nil, os.NewSyscallError("DuplicateHandle", err)
	}
	if err := windows.SetStdHandle(windows.STD_OUTPUT_HANDLE, windows.Handle(os.Stderr.Fd())); err != nil {
		windows.CloseHandle(h)
		return nil, os.NewSyscallError("SetStdHandle", err)
	}
	return os.NewFile(uintptr(h), "hub-output"), nil
}
