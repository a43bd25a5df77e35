//go:build !linux

package proc

import (
	"os"
	"syscall"
	"time"
)

// waker: see poll_linux.go; elsewhere there is none and readers wait in
// the runtime's poller.
type waker struct{ f *os.File }

type pollFd struct{}

func newWaker() *waker { return nil }

func (w *waker) wake()  {}
func (w *waker) close() {}

func (w *waker) wait(uintptr, time.Duration, bool, *[2]pollFd) (bool, syscall.Errno) {
	return false, syscall.ENOSYS
}

func outputPipe(*waker) (r, w *os.File, err error) { return enginePipe(false) }
