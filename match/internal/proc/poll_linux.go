package proc

import (
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// waker is the second descriptor a reader waits on beside the pipe: an
// eventfd that Interrupt and the engine's exit write to. A read then waits
// in one ppoll(2) in its own goroutine instead of in the runtime's poller:
// no read that fails with EAGAIN first, no park and wake-up of the
// goroutine through the scheduler and epoll, no timer per deadline.
type waker struct {
	f  *os.File // for wake: safe after close
	fd int      // for the reader, under mu
	// mu is read-held by the reader while it uses fd, so that close cannot
	// free the number under it (a reader in ppoll has been woken by the
	// exit before Stop closes the waker).
	mu     sync.RWMutex
	closed bool
}

// newWaker returns the waker of a new process, nil where eventfd is not
// available (the reader then waits in the runtime's poller).
func newWaker() *waker {
	fd, _, e := syscall.RawSyscall(syscall.SYS_EVENTFD2, 0, syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if e != 0 {
		return nil
	}
	return &waker{f: os.NewFile(fd, "eventfd"), fd: int(fd)}
}

// wake makes the reader's wait return.
func (w *waker) wake() {
	one := [8]byte{1}
	w.f.Write(one[:]) // fails only once closed, when nobody waits
}

// close releases the eventfd (nil: nothing to do).
func (w *waker) close() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	w.f.Close()
}

// pollFd is struct pollfd.
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

const pollIn = 0x1

// rawWait is how long a wait may hold its P (see wait): the time slice
// the runtime gives a running goroutine before it preempts it (its
// forcePreemptNS), so that a wait holds its P no longer than a goroutine
// computing would. It was 1 ms: a timer that short is, on a kernel ticking
// at 250 Hz, most often the CPU's next timer event, and arming and
// cancelling it reprogrammed the timer hardware (a VM exit each on a
// virtual machine): 4 µs of CPU a move on the project's machine (a bare
// Go round trip of a line: 16.3 µs with a 1 ms timeout, 12.6 with 5 ms or
// more, 12.0 with none); the whole match 3 % less CPU a ply.
const rawWait = 10 * time.Millisecond

// wait blocks until fd is readable (or at its end: POLLHUP, POLLERR), the
// waker is woken, or timeout (negative: none) has passed. woken reports a
// wake, which it has reset.
//
// A short wait (raw: at most rawWait, whatever timeout says; the caller
// waits again for the rest) keeps its P, as a running goroutine does: an
// engine's quick answer then costs no hand-off, no wake-up of the
// runtime's monitor thread and no move of the goroutine to another
// thread, which is most of a move's CPU when moves are fast. Other
// goroutines run on the other Ps meanwhile, and a signal (preemption, a
// stop of the world for the collector) ends the wait early with EINTR.
// A longer wait is a blocking system call the scheduler knows of: the P
// goes to other goroutines.
func (w *waker) wait(fd uintptr, timeout time.Duration, raw bool, fds *[2]pollFd) (woken bool, e syscall.Errno) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		return false, syscall.EBADF
	}
	*fds = [2]pollFd{{fd: int32(fd), events: pollIn}, {fd: int32(w.fd), events: pollIn}}
	switch {
	case raw:
		if timeout < 0 || timeout > rawWait {
			timeout = rawWait
		}
		ts := syscall.NsecToTimespec(int64(timeout))
		_, _, e = syscall.RawSyscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), 2, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	case timeout < 0:
		_, _, e = syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), 2, 0, 0, 0, 0)
	default:
		ts := syscall.NsecToTimespec(int64(timeout))
		_, _, e = syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), 2, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	}
	if fds[1].revents == 0 {
		return false, e
	}
	var b [8]byte
	rawRead(uintptr(w.fd), b[:])
	return true, e
}

// outputPipe is the pipe of the child's stdout. With a waker its read end
// stays out of the runtime's poller: registered there (os.Pipe), every
// line the engine writes would also wake the thread waiting in epoll,
// which no goroutine needs; the end is non-blocking for waitNow all the
// same. Without one, os.Pipe.
func outputPipe(w *waker) (r, wr *os.File, err error) {
	if w == nil {
		return os.Pipe()
	}
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	// Blocking descriptors: os.NewFile keeps them out of the poller.
	r, wr = os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1")
	if err := syscall.SetNonblock(p[0], true); err != nil {
		r.Close()
		wr.Close()
		return nil, nil, os.NewSyscallError("setnonblock", err)
	}
	return r, wr, nil
}
