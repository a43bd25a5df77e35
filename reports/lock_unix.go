//go:build unix

package reports

import "os"

// The temporary files' primitives on Unix (see writeFile; lock_windows.go
// for Windows).

// createTemp is os.CreateTemp.
func createTemp(dir, pattern string) (*os.File, error) { return os.CreateTemp(dir, pattern) }

// openTemp opens a temporary file that may be stale, to try its lock.
func openTemp(name string) (*os.File, error) { return os.Open(name) }

// replaceFile is os.Rename: it replaces newpath even while it is open.
func replaceFile(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }
