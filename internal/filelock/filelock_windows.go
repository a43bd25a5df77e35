package filelock

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// TryLock takes an exclusive LockFileEx lock of the whole of f without
// waiting. Unlike flock the lock is mandatory: other handles can neither
// read nor write the file while it is held (the arbiter's locked files are
// its own lock file and its temporary files, which nobody else reads).
func TryLock(f *os.File) error {
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
		return fmt.Errorf("%w: %w", ErrLocked, lerr)
	}
	return lerr
}
