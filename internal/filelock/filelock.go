// Package filelock takes the arbiter's advisory file locks: an exclusive
// lock of a whole open file, taken without waiting, which the system drops
// when the process ends, however it ends (flock on Unix, LockFileEx on
// Windows). The tournament directory's arbiter.lock and the report
// writer's temporary files rest on it.
//
// Imported by reports and cmd/arbiter; it imports only the standard
// library and golang.org/x/sys.
package filelock

import "errors"

// ErrLocked is wrapped by TryLock's error when another open file (another
// process's, most often) holds the lock.
var ErrLocked = errors.New("locked by another process")
