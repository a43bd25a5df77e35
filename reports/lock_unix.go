//go:build unix

package reports

import (
	"os"
	"syscall"
)

// The temporary files' primitives on Unix (see writeFile; lock_windows.go
// for Windows).

// createTemp is os.CreateTemp.
func createTemp(dir, pattern string) (*os.File, error) { return os.CreateTemp(dir, pattern) }

// openTemp opens a temporary file that may be stale, to try its lock.
func openTemp(name string) (*os.File, error) { return os.Open(name) }

// tryLock takes an exclusive flock of f without waiting.
func tryLock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }

// replaceFile is os.Rename: it replaces newpath even while it is open.
func replaceFile(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }
