package main

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// errLocked: another process holds the lock.
var errLocked = errors.New("locked by another process")

// tryLockFile takes an exclusive LockFileEx lock of the whole of f without
// waiting; Windows drops it when the process ends, however it ends, as
// Unix drops a flock.
func tryLockFile(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) {
		lerr = windows.LockFileEx(windows.Handle(fd), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY,
			0, ^uint32(0), ^uint32(0), new(windows.Overlapped))
	}); err != nil {
		return err
	}
	if errors.Is(lerr, windows.ERROR_LOCK_VIOLATION) {
		return fmt.Errorf("%w: %w", errLocked, lerr)
	}
	return lerr
}
