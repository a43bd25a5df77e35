//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// errLocked: another process holds the lock.
var errLocked = errors.New("locked by another process")

// tryLockFile takes an exclusive flock of f without waiting; the system
// drops it when the process ends, however it ends.
func tryLockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return fmt.Errorf("%w: %w", errLocked, err)
	}
	return err
}
