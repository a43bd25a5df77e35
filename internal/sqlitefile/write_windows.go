package sqlitefile

import (
	"errors"

	"golang.org/x/sys/windows"
)

// systemCannotWrite is CannotWrite for the system's own errors (Windows,
// whose errors are not Unix's: syscall.ENOSPC never comes from a write
// there).
func systemCannotWrite(err error) (reason string, ok bool) {
	switch {
	case errors.Is(err, windows.ERROR_DISK_FULL), errors.Is(err, windows.ERROR_HANDLE_DISK_FULL),
		errors.Is(err, windows.ERROR_DISK_QUOTA_EXCEEDED):
		return "disk full", true
	case errors.Is(err, windows.ERROR_FILE_TOO_LARGE):
		return "file size limit reached", true
	case errors.Is(err, windows.ERROR_WRITE_PROTECT):
		return "the disk is read-only", true
	}
	return "", false
}
