//go:build unix

package proc

import (
	"errors"
	"io"
	"os"
	"syscall"
	"time"
)

// The pipes' primitives on Unix: reads and writes on the descriptor
// itself through its RawConn, so that a read allocates nothing and a write
// that fits the pipe arms no deadline (see pipe_windows.go for Windows).

// enginePipe is a pipe between the arbiter and an engine (toEngine: the
// engine's stdin). On Unix both ends are ordinary pipe descriptors.
func enginePipe(toEngine bool) (r, w *os.File, err error) { return os.Pipe() }

// rest is fill once the process has exited: what the pipe holds now, then
// io.EOF.
func (lr *lineReader) rest(b []byte, deadline time.Time) (int, error) {
	if !deadline.IsZero() && !time.Now().Before(deadline) {
		return 0, os.ErrDeadlineExceeded // a grandchild still writing has no say
	}
	lr.f.SetReadDeadline(time.Time{})
	rc, err := lr.f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var rerr error
	if err := rc.Read(func(fd uintptr) bool {
		n, rerr = syscall.Read(int(fd), b)
		return true // never wait for more
	}); err != nil {
		return 0, err
	}
	if n > 0 {
		return n, nil
	}
	if rerr != nil && !errors.Is(rerr, syscall.EAGAIN) {
		return 0, rerr
	}
	return 0, io.EOF
}

// read is f.Read (waiting in the poller until the deadline) with the read
// itself done by rawRead; the callback and its data live in lr, so that
// a read allocates nothing.
func (lr *lineReader) read(b []byte) (int, error) {
	if lr.rc == nil {
		rc, err := lr.f.SyscallConn()
		if err != nil {
			return lr.f.Read(b)
		}
		lr.rc, lr.readFn = rc, lr.readNow
	}
	lr.rbuf, lr.rn, lr.rerr = b, 0, 0
	err := lr.rc.Read(lr.readFn)
	lr.rbuf = nil
	switch {
	case err != nil:
		return 0, err
	case lr.rerr != 0:
		return 0, &os.PathError{Op: "read", Path: lr.f.Name(), Err: lr.rerr}
	case lr.rn == 0:
		return 0, io.EOF
	}
	return lr.rn, nil
}

// tryWrite writes what the pipe takes now of b, without waiting, and
// returns how much that was (0 on any error: the ordinary write that
// follows reports it).
func (p *Process) tryWrite(b []byte) int {
	if p.wrc == nil {
		rc, err := p.stdin.SyscallConn()
		if err != nil {
			return 0
		}
		p.wrc, p.writeFn = rc, p.writeNow
	}
	// The callback and its data live in p: a closure would be allocated
	// for every write.
	p.wbuf, p.wn = b, 0
	err := p.wrc.Write(p.writeFn)
	p.wbuf = nil
	if err != nil {
		return 0
	}
	return p.wn
}

// writeNow is tryWrite's callback: one non-blocking write of p.wbuf.
func (p *Process) writeNow(fd uintptr) bool {
	n, e := rawWrite(fd, p.wbuf)
	if e != 0 || n < 0 {
		n = 0
	}
	p.wn = n
	return true // never wait here
}
