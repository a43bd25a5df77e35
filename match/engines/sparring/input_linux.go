package sparring

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// fdLines reads the GUI's lines straight from the input's descriptor with
// raw system calls, on the goroutine that answers them. Through the
// runtime (a goroutine reading, another answering, the poller between
// them) every command woke two or three threads of the engine; this way a
// command is what it is in a C engine: the wait, the read, the answer's
// write. Over 200 instant games the engines' CPU a move halved and the
// arbiter's fell 9 % (the engines' extra thread wake-ups landed on its
// processor too).
type fdLines struct {
	f          *os.File // kept: its finalizer would close fd
	fd         uintptr
	buf        []byte
	start, end int       // buf[start:end] is read and not yet returned
	err        error     // the end of the input (io.EOF) or a read error
	yielded    time.Time // the last yield before a wait (see fill)
}

// directSource is an fdLines when in is a pipe or a socket.
func directSource(in io.Reader) (lineSource, bool) {
	f, ok := in.(*os.File)
	if !ok {
		return nil, false
	}
	// Not f.Fd(): it would put a non-blocking descriptor, which the
	// process that gave it may share, into blocking mode.
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, false
	}
	var fd uintptr
	if rc.Control(func(d uintptr) { fd = d }) != nil {
		return nil, false
	}
	var st syscall.Stat_t
	if syscall.Fstat(int(fd), &st) != nil {
		return nil, false
	}
	if mode := st.Mode & syscall.S_IFMT; mode != syscall.S_IFIFO && mode != syscall.S_IFSOCK {
		return nil, false // a terminal or a file: the portable way
	}
	return &fdLines{f: f, fd: fd, buf: make([]byte, 4096)}, true
}

func (s *fdLines) next() (string, error) {
	for {
		if line, ok := s.line(); ok {
			return line, nil
		}
		if s.err != nil {
			if s.err == io.EOF && s.start < s.end { // a last line without its end
				line := string(dropCR(s.buf[s.start:s.end]))
				s.start = s.end
				return line, nil
			}
			return "", s.err
		}
		s.fill(-1)
	}
}

func (s *fdLines) ready(wait time.Duration) bool {
	if s.complete() || s.err != nil {
		return true
	}
	s.fill(wait)
	return s.complete() || s.err != nil
}

// complete reports whether a whole line is buffered.
func (s *fdLines) complete() bool { return bytes.IndexByte(s.buf[s.start:s.end], '\n') >= 0 }

// line returns the next buffered whole line.
func (s *fdLines) line() (string, bool) {
	i := bytes.IndexByte(s.buf[s.start:s.end], '\n')
	if i < 0 {
		return "", false
	}
	line := string(dropCR(s.buf[s.start : s.start+i]))
	s.start += i + 1
	return line, true
}

// fill reads what the descriptor has, waiting up to timeout (negative: as
// long as it takes) for it to be readable.
func (s *fdLines) fill(timeout time.Duration) {
	if s.start > 0 {
		s.end = copy(s.buf, s.buf[s.start:s.end])
		s.start = 0
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= maxLine {
			s.err = errLongLine
			return
		}
		s.buf = append(s.buf, make([]byte, len(s.buf))...)
	}
	if now := time.Now(); now.Sub(s.yielded) >= yieldEvery {
		// Waits that keep the processor never pass through the
		// scheduler: the runtime's monitor would take the goroutine for
		// one computing without a break and preempt it every 10 ms with
		// a signal, interrupting the wait. A yield now and then is a
		// reschedule only (the arbiter's readers do the same).
		s.yielded = now
		runtime.Gosched()
	}
	if !waitReadable(s.fd, timeout) {
		return
	}
	b := s.buf[s.end:]
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, s.fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	switch {
	case e == syscall.EINTR || e == syscall.EAGAIN:
	case e != 0:
		s.err = os.NewSyscallError("read", e)
	case n == 0:
		s.err = io.EOF
	default:
		s.end += int(n)
	}
}

// rawWait is how long a wait for input holds the engine's processor, as
// the arbiter's own waits for its engines do (match/internal/proc, whose
// rawWait says why 10 ms): a quick command then costs no hand-off of the
// processor and no wake-up of the runtime's monitor thread. A longer wait
// is a blocking system call the scheduler knows of, so that the runtime's
// other goroutines (the collector's) get the processor meanwhile.
const rawWait = 10 * time.Millisecond

// yieldEvery is how often fill yields: within the runtime's time slice.
const yieldEvery = rawWait / 2

// waitReadable waits until fd is readable or at its end, or timeout
// (negative: none) has passed; false on a timeout or a signal.
func waitReadable(fd uintptr, timeout time.Duration) bool {
	short := timeout
	if short < 0 || short > rawWait {
		short = rawWait
	}
	if ppoll(fd, true, short) {
		return true
	}
	if timeout >= 0 && timeout <= rawWait {
		return false
	}
	if timeout > 0 {
		timeout -= short
	}
	return ppoll(fd, false, timeout)
}

// ppoll is ppoll(2) on fd alone, raw (the runtime not told: the goroutine
// keeps its processor) or not; timeout negative: none.
func ppoll(fd uintptr, raw bool, timeout time.Duration) bool {
	pfd := struct {
		fd      int32
		events  int16
		revents int16
	}{fd: int32(fd), events: 0x1} // POLLIN (POLLHUP and POLLERR come unasked)
	var ts *syscall.Timespec
	if timeout >= 0 {
		t := syscall.NsecToTimespec(int64(timeout))
		ts = &t
	}
	var n uintptr
	var e syscall.Errno
	if raw {
		n, _, e = syscall.RawSyscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(ts)), 0, 0, 0)
	} else {
		n, _, e = syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(ts)), 0, 0, 0)
	}
	return e == 0 && n > 0
}

// dropCR drops a line's carriage return, as bufio.ScanLines does.
func dropCR(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\r' {
		return b[:len(b)-1]
	}
	return b
}
