//go:build unix

package sqlitefile

import (
	"errors"
	"syscall"
)

// systemCannotWrite is CannotWrite for the system's own errors (Unix).
func systemCannotWrite(err error) (reason string, ok bool) {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return "disk full", true
	case errors.Is(err, syscall.EFBIG):
		return "file size limit reached", true
	case errors.Is(err, syscall.EROFS):
		return "the disk is read-only", true
	}
	return "", false
}
