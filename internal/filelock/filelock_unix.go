//go:build unix

package filelock

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// TryLock takes an exclusive flock of f without waiting.
func TryLock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return fmt.Errorf("%w: %w", ErrLocked, err)
	}
	return err
}
