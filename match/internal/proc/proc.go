// Package proc runs an engine as a child process in its own process group,
// tied to the arbiter's life (parent-death signal) and tracked with its
// descendants (an environment marker),
// with deadline-capable pipes, so that the arbiter can always get rid of it:
// Kill signals the whole group, Wait reaps it, and no goroutine is left
// blocked on a pipe of a dead or hung process. That is Linux; on the other
// Unix systems the group alone (orphans_unix.go), and on Windows a job
// object that holds the engine and every process it starts (tree_windows.go).
//
// Imported by the engine protocols under match/, and by match/engines for
// CloseAll (HoldScans), only (Go's internal rule).
package proc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// MaxLine bounds one line of engine output; longer lines are cut and flagged.
const MaxLine = 64 << 10

// Process is a running child.
type Process struct {
	cmd    *exec.Cmd
	seq    uint64   // the engine's number in this arbiter (see marker)
	stdin  *os.File // write end of the child's stdin
	stdout *os.File // read end of the child's stdout

	rd     lineReader    // stdout, read by one goroutine at a time
	wake   *waker        // the reader's (nil: it waits in the runtime's poller)
	intr   atomic.Uint64 // Interrupt calls so far
	done   chan struct{}
	err    error       // exit status, valid after done is closed
	exited atomic.Bool // set just before done is closed

	stderrDone chan struct{} // closed when the child's stderr reached EOF
	lastErr    string        // last stderr line, valid after stderrDone is closed

	killOnce sync.Once
	tree     tree            // what Kill reaches beyond the child (its group, its job)
	mu       sync.Mutex      // writes
	wrc      syscall.RawConn // stdin's, for writes that must not wait (under mu)
	writeFn  func(fd uintptr) bool
	wbuf     []byte // tryWrite's data and result, under mu
	wn       int
}

// engineSeq numbers the engines this arbiter starts.
var engineSeq atomic.Uint64

// longMark prefixes a line cut at MaxLine; no engine can send a NUL.
const longMark = "\x00long"

// Start runs argv in dir with extra environment env. Every stderr line of the
// child is passed to onStderr (may be nil) from a goroutine of its own.
func Start(argv []string, dir string, env []string, onStderr func(string)) (*Process, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("proc: empty command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	seq := engineSeq.Add(1)
	cmd.Env = append(os.Environ(), env...)
	if m := marker(seq); m != "" {
		cmd.Env = append(cmd.Env, m)
	}
	cmd.SysProcAttr = sysProcAttr()
	inR, inW, err := enginePipe(true)
	if err != nil {
		return nil, fmt.Errorf("proc: stdin pipe: %w", err)
	}
	wake := newWaker()
	outR, outW, err := outputPipe(wake)
	if err != nil {
		wake.close()
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("proc: stdout pipe: %w", err)
	}
	errR, errW, err := enginePipe(false)
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		wake.close()
		return nil, fmt.Errorf("proc: stderr pipe: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := spawn(cmd); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
			f.Close()
		}
		wake.close()
		return nil, fmt.Errorf("proc: start %q: %w", argv[0], err)
	}
	// The child holds its own copies now.
	inR.Close()
	outW.Close()
	errW.Close()
	p := &Process{cmd: cmd, seq: seq, stdin: inW, stdout: outR, done: make(chan struct{}), stderrDone: make(chan struct{})}
	if err := p.tree.attach(cmd); err != nil {
		// Nothing of the engine has run (on Windows it starts suspended
		// until it is in its job): it goes before it could escape.
		cmd.Process.Kill()
		cmd.Wait()
		for _, f := range []*os.File{inW, outR, errR} {
			f.Close()
		}
		wake.close()
		return nil, fmt.Errorf("proc: start %q: %w", argv[0], err)
	}
	p.wake = wake
	p.rd.f, p.rd.exited, p.rd.wk, p.rd.intr = outR, &p.exited, p.wake, &p.intr
	go func() {
		defer close(p.stderrDone)
		defer errR.Close()
		// Only the last line is kept (the crash report quotes it); a line
		// over MaxLine is cut like a stdout line and reading goes on, so
		// the child never blocks on a full pipe.
		er := lineReader{f: errR}
		dump := false // a Go runtime crash report has begun
		for {
			line, err := er.readLine(time.Time{})
			if err != nil {
				return
			}
			line, _ = IsLong(line)
			if line != "" && !dump {
				p.lastErr = line
				// The dump after a Go runtime's crash header (a Go engine's
				// panic, or a signal in a library the CheckerBoard host
				// loaded) ends with stacks and registers: the header says
				// what happened, so it stays the last words.
				dump = runtimeCrash(line)
			}
			if onStderr != nil {
				onStderr(line)
			}
		}
	}()
	go func() {
		p.err = cmd.Wait()
		// The exit of the engine itself ends its output, even when a child
		// it forked still holds the pipe: the reader stops waiting for more
		// than the pipe holds now (see lineReader.fill).
		p.exited.Store(true)
		if p.wake != nil {
			p.wake.wake()
		} else {
			p.stdout.SetReadDeadline(time.Now())
		}
		close(p.done)
	}()
	return p, nil
}

// lineReader reads lines from a pipe with deadlines, keeping a partial
// line across timeouts. The reading goroutine itself waits (in ppoll(2)
// with a waker, else in the runtime's poller): no extra goroutine or
// channel hop per line.
type lineReader struct {
	f      *os.File
	rc     syscall.RawConn // f's: read and readNow, waitRead and waitNow
	readFn func(fd uintptr) bool
	waitFn func(fd uintptr) bool
	rbuf   []byte
	rn     int
	rerr   syscall.Errno
	exited *atomic.Bool // the writer has exited (nil: never known)
	buf    []byte
	r, w   int // unread data is buf[r:w]

	// With a waker (wk), a read waits in waitNow; deadline and result are
	// its argument and outcome, mark the interrupt count when the
	// ReadLine began (an older Interrupt wakes no one, as a deadline set
	// before the read would not), fds its ppoll set.
	wk        *waker
	intr      *atomic.Uint64
	mark      uint64
	pollFirst atomic.Bool // a request was just written: wait before reading
	deadline  time.Time
	result    waitResult
	fds       [2]pollFd
	yielded   time.Time // the last yield before a raw wait (see waitNow)
}

// yieldEvery is how often a reader yields before a raw wait: within the
// runtime's 10 ms time slice (see rawWait on Linux), so that its monitor
// seldom finds the goroutine running a whole slice; but not much more
// often, as a yield wakes an idle thread to look for work (a futex wake).
// Over 200 instant games (strace): 58 preemption signals, against 262
// with no yield (each a signal, its return and a repeated wait); at 5 ms,
// 25 signals but twice the futex calls.
const yieldEvery = 8 * time.Millisecond

// waitResult is how waitNow ended, beside a read's n and errno.
type waitResult uint8

const (
	waitRead waitResult = iota // lr.rn, lr.rerr
	waitDeadline
	waitExited
)

// fill reads into b, waiting until deadline. Once the process has exited
// it only takes what the pipe already holds and then reports io.EOF: a
// grandchild that inherited the write end must not keep a dead engine's
// output open.
func (lr *lineReader) fill(b []byte, deadline time.Time) (int, error) {
	if lr.wk != nil {
		if n, err, exited := lr.waitRead(b, deadline); !exited {
			return n, err
		}
		return lr.rest(b, deadline)
	}
	lr.f.SetReadDeadline(deadline)
	// Checked after setting the deadline: an exit after the check has its
	// own deadline of now, set after ours (see Start).
	if lr.exited == nil || !lr.exited.Load() {
		n, err := lr.read(b)
		if n > 0 || !errors.Is(err, os.ErrDeadlineExceeded) || lr.exited == nil || !lr.exited.Load() {
			return n, err
		}
	}
	return lr.rest(b, deadline)
}

// waitRead is fill with a waker: one read, waiting in waitNow until the
// deadline, an Interrupt or the process's exit (exited: fill takes the
// rest). The callback and its data live in lr: a read allocates nothing.
func (lr *lineReader) waitRead(b []byte, deadline time.Time) (n int, err error, exited bool) {
	if lr.rc == nil {
		rc, err := lr.f.SyscallConn()
		if err != nil {
			n, err := lr.f.Read(b)
			return n, err, false
		}
		lr.rc, lr.readFn = rc, lr.readNow
	}
	if lr.waitFn == nil {
		lr.waitFn = lr.waitNow
	}
	lr.rbuf, lr.rn, lr.rerr, lr.deadline, lr.result = b, 0, 0, deadline, waitRead
	// The RawConn holds the descriptor open while waitNow uses its number
	// (Close waits for it: the process's exit wakes the wait first).
	err = lr.rc.Read(lr.waitFn)
	lr.rbuf = nil
	switch {
	case err != nil:
		return 0, err, false
	case lr.result == waitExited:
		return 0, nil, true
	case lr.result == waitDeadline:
		return 0, os.ErrDeadlineExceeded, false
	case lr.rerr != 0:
		return 0, &os.PathError{Op: "read", Path: lr.f.Name(), Err: lr.rerr}, false
	case lr.rn == 0:
		return 0, io.EOF, false
	}
	return lr.rn, nil, false
}

// waitNow is waitRead's callback: it reads (non-blocking) and, while the
// pipe is empty, waits in ppoll for data, the waker or the deadline. Right
// after a request (pollFirst) the answer cannot be there yet: it waits
// first, saving the read that would fail. A deadline that has passed is
// reported before anything is read, as the runtime's poller does.
func (lr *lineReader) waitNow(fd uintptr) bool {
	poll := lr.pollFirst.Swap(false)
	raw := true // the first wait is short and keeps the P (see waker.wait)
	for {
		if lr.exited != nil && lr.exited.Load() {
			lr.result = waitExited
			return true
		}
		now := time.Now()
		timeout := time.Duration(-1)
		if !lr.deadline.IsZero() {
			if timeout = lr.deadline.Sub(now); timeout <= 0 {
				lr.result = waitDeadline
				return true
			}
		}
		if !poll {
			n, e := rawRead(fd, lr.rbuf)
			switch e {
			case 0:
				lr.rn = n
				return true
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
			default:
				lr.rerr = e
				return true
			}
		}
		poll = false
		if raw && now.Sub(lr.yielded) >= yieldEvery {
			// A goroutine whose waits are all raw never passes through
			// the scheduler: the runtime's monitor takes it for one
			// computing without a break and preempts it every 10 ms with
			// a signal, which interrupts the wait (on a virtual machine a
			// signal, its return and the repeated wait cost tens of µs).
			// A yield now and then is a reschedule only.
			lr.yielded = now
			runtime.Gosched()
		}
		woken, e := lr.wk.wait(fd, timeout, raw, &lr.fds)
		raw = false
		if e != 0 && e != syscall.EINTR {
			lr.rerr = e
			return true
		}
		if woken {
			if lr.intr != nil && lr.intr.Load() != lr.mark {
				lr.result = waitDeadline // Interrupt
				return true
			}
			// The exit (seen above) or an Interrupt older than this read.
		}
	}
}

// readNow is read's callback: false (wait for the poller) while the pipe
// is empty.
func (lr *lineReader) readNow(fd uintptr) bool {
	for {
		n, e := rawRead(fd, lr.rbuf)
		switch e {
		case 0:
			lr.rn = n
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		lr.rerr = e
		return true
	}
}

func (lr *lineReader) readLine(deadline time.Time) (string, error) {
	if lr.buf == nil {
		lr.buf = make([]byte, 8192)
	}
	scanned := lr.r
	for {
		if i := indexNL(lr.buf[scanned:lr.w]); i >= 0 {
			end := scanned + i
			line := lr.buf[lr.r:end]
			lr.r = end + 1
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			return string(line), nil
		}
		scanned = lr.w
		if lr.w-lr.r >= MaxLine {
			// Cut: return what we have, marked, and skip to the line end.
			line := longMark + string(lr.buf[lr.r:lr.w])
			lr.r, lr.w = 0, 0
			lr.skipToNL(deadline)
			return line, nil
		}
		if lr.r > 0 && lr.w == len(lr.buf) {
			n := copy(lr.buf, lr.buf[lr.r:lr.w])
			scanned -= lr.r
			lr.r, lr.w = 0, n
		}
		if lr.w == len(lr.buf) {
			nb := make([]byte, 2*len(lr.buf))
			copy(nb, lr.buf[:lr.w])
			lr.buf = nb
		}
		n, err := lr.fill(lr.buf[lr.w:], deadline)
		lr.w += n
		if err != nil && n == 0 {
			if errors.Is(err, io.EOF) && lr.w > lr.r {
				// A last line without its newline.
				line := string(lr.buf[lr.r:lr.w])
				lr.r = lr.w
				return line, nil
			}
			return "", err
		}
	}
}

// skipToNL drops input up to and including the next newline.
func (lr *lineReader) skipToNL(deadline time.Time) {
	var b [4096]byte
	for {
		n, err := lr.fill(b[:], deadline)
		if i := indexNL(b[:n]); i >= 0 {
			lr.w = copy(lr.buf, b[i+1:n])
			return
		}
		if err != nil {
			return
		}
	}
}

func indexNL(b []byte) int { return bytes.IndexByte(b, '\n') }

// IsLong reports whether a line read from Lines was cut at MaxLine, and
// returns the line without the marker.
func IsLong(line string) (string, bool) {
	if len(line) >= len(longMark) && line[:len(longMark)] == longMark {
		return line[len(longMark):], true
	}
	return line, false
}

// ReadLine reads the next stdout line (without its line end), waiting until
// deadline (zero = no deadline). It returns os.ErrDeadlineExceeded on a
// timeout (a partial line is kept for the next call), io.EOF when the child
// closed its output or exited (what it wrote before its exit is returned
// first, even while a child of its own holds the pipe open). One goroutine at a time may read. A line longer than
// MaxLine is returned cut and marked (see IsLong).
func (p *Process) ReadLine(deadline time.Time) (string, error) {
	p.rd.mark = p.intr.Load()
	return p.rd.readLine(deadline)
}

// Buffered reports whether ReadLine would return a line already read from
// the pipe (a whole line, or one cut at MaxLine) without waiting. ReadLine
// with a deadline in the past returns exactly those lines and then
// os.ErrDeadlineExceeded without reading the pipe; Buffered lets a caller
// that wants only them skip the deadline (a timer) altogether.
func (p *Process) Buffered() bool {
	lr := &p.rd
	return indexNL(lr.buf[lr.r:lr.w]) >= 0 || lr.w-lr.r >= MaxLine
}

// Interrupt makes a pending ReadLine return os.ErrDeadlineExceeded now.
func (p *Process) Interrupt() {
	p.intr.Add(1)
	if p.wake != nil {
		p.wake.wake()
		return
	}
	p.stdout.SetReadDeadline(time.Now())
}

// Exited is closed when the child has exited and been reaped.
func (p *Process) Exited() <-chan struct{} { return p.done }

// ExitErr is the child's exit status; valid after Exited is closed.
func (p *Process) ExitErr() error {
	<-p.done
	return p.err
}

// StderrDone is closed when the child's stderr has reached its end and
// every line of it has been passed to onStderr. A crashed engine's last
// words are on stderr: waiting for this (bounded, since a grandchild may
// keep the pipe open) puts them in the log before the crash is reported.
func (p *Process) StderrDone() <-chan struct{} { return p.stderrDone }

// runtimeCrash reports whether line opens a Go runtime crash report.
func runtimeCrash(line string) bool {
	if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
		return true
	}
	sig, _, ok := strings.Cut(line, ": ")
	return ok && crashSignals[sig]
}

// crashSignals open the runtime's report of a fatal signal ("SIGSEGV:
// segmentation violation").
var crashSignals = map[string]bool{"SIGSEGV": true, "SIGBUS": true, "SIGILL": true, "SIGFPE": true, "SIGABRT": true,
	"SIGTRAP": true, "SIGQUIT": true, "SIGSYS": true}

// LastStderr is the last non-empty stderr line (or the header of a Go
// runtime crash report: "panic: ...", "fatal error: ...", "SIGSEGV: ..."); valid after StderrDone is
// closed ("" before).
func (p *Process) LastStderr() string {
	select {
	case <-p.stderrDone:
		return p.lastErr
	default:
		return ""
	}
}

// Pid is the child's process id (also its process group id).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Write sends s to the child's stdin, giving up after timeout (a hung child
// that stopped reading must not block the arbiter).
func (p *Process) Write(s string, timeout time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if timeout > 0 {
		p.stdin.SetWriteDeadline(time.Now().Add(timeout))
	}
	_, err := io.WriteString(p.stdin, s)
	if err != nil {
		return fmt.Errorf("write to engine: %w", err)
	}
	p.rd.pollFirst.Store(true)
	return nil
}

// WriteBytes is Write for a byte slice.
func (p *Process) WriteBytes(b []byte, timeout time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	// A pipe with room takes the request at once: only a write that would
	// wait arms the write deadline (a timer change per move otherwise).
	b = b[p.tryWrite(b):]
	if len(b) == 0 {
		p.rd.pollFirst.Store(true)
		return nil
	}
	if timeout > 0 {
		p.stdin.SetWriteDeadline(time.Now().Add(timeout))
	}
	_, err := p.stdin.Write(b)
	if err != nil {
		return fmt.Errorf("write to engine: %w", err)
	}
	p.rd.pollFirst.Store(true)
	return nil
}

// CloseInput closes the child's stdin (engines quit on EOF).
func (p *Process) CloseInput() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stdin.Close()
}

// Kill ends the child and what it started at once: SIGKILL to its whole
// process group on Unix, the termination of its job on Windows.
func (p *Process) Kill() {
	p.killOnce.Do(func() {
		p.tree.kill()
		p.cmd.Process.Kill()
	})
}

// Stop ends the child: it waits up to grace for the child to exit on its own
// (after the caller has sent its quit command), then kills the group, reaps
// the child, kills what it left outside its group (under HoldScans: at the
// release) and closes the pipes. It returns the exit status.
func (p *Process) Stop(grace time.Duration) error {
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
	}
	// Kill the group even after a clean exit: grandchildren must not
	// survive, nor those that left the group (setsid).
	p.Kill()
	<-p.done
	p.tree.close()
	scans.stopped(p.seq)
	p.CloseInput()
	// A read in progress (woken by the exit) keeps the descriptor until it
	// returns; the waker's close waits for it.
	p.stdout.Close()
	p.wake.close()
	return p.err
}
