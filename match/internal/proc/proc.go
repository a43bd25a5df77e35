// Package proc runs an engine as a child process in its own process group,
// with deadline-capable pipes, so that the arbiter can always get rid of it:
// Kill signals the whole group, Wait reaps it, and no goroutine is left
// blocked on a pipe of a dead or hung process.
package proc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// MaxLine bounds one line of engine output; longer lines are cut and flagged.
const MaxLine = 64 << 10

// Process is a running child.
type Process struct {
	cmd    *exec.Cmd
	stdin  *os.File // write end of the child's stdin
	stdout *os.File // read end of the child's stdout

	rd   lineReader // stdout, read by one goroutine at a time
	done chan struct{}
	err  error // exit status, valid after done is closed

	stderrDone chan struct{} // closed when the child's stderr reached EOF
	lastErr    string        // last stderr line, valid after stderrDone is closed

	killOnce sync.Once
	mu       sync.Mutex
}

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
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	// Its own process group: a kill reaches the engine's children too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("proc: stdin pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("proc: stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("proc: stderr pipe: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
			f.Close()
		}
		return nil, fmt.Errorf("proc: start %q: %w", argv[0], err)
	}
	// The child holds its own copies now.
	inR.Close()
	outW.Close()
	errW.Close()
	p := &Process{cmd: cmd, stdin: inW, stdout: outR, done: make(chan struct{}), stderrDone: make(chan struct{})}
	p.rd.f = outR
	go func() {
		defer close(p.stderrDone)
		sc := bufio.NewScanner(errR)
		sc.Buffer(make([]byte, 4096), MaxLine)
		for sc.Scan() {
			if line := sc.Text(); line != "" {
				p.lastErr = line
			}
			if onStderr != nil {
				onStderr(sc.Text())
			}
		}
		// A very long line stops the scanner: drain the rest so the child never blocks.
		io.Copy(io.Discard, errR)
		errR.Close()
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// lineReader reads lines from a pipe with deadlines, keeping a partial
// line across timeouts. The reading goroutine itself waits in the poller:
// no extra goroutine or channel hop per line.
type lineReader struct {
	f    *os.File
	buf  []byte
	r, w int // unread data is buf[r:w]
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
		lr.f.SetReadDeadline(deadline)
		n, err := lr.f.Read(lr.buf[lr.w:])
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
		lr.f.SetReadDeadline(deadline)
		n, err := lr.f.Read(b[:])
		if i := indexNL(b[:n]); i >= 0 {
			lr.w = copy(lr.buf, b[i+1:n])
			return
		}
		if err != nil {
			return
		}
	}
}

func indexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

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
// closed its output. One goroutine at a time may read. A line longer than
// MaxLine is returned cut and marked (see IsLong).
func (p *Process) ReadLine(deadline time.Time) (string, error) {
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
func (p *Process) Interrupt() { p.stdout.SetReadDeadline(time.Now()) }

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

// LastStderr is the last non-empty stderr line; valid after StderrDone is
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
	return nil
}

// WriteBytes is Write for a byte slice.
func (p *Process) WriteBytes(b []byte, timeout time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if timeout > 0 {
		p.stdin.SetWriteDeadline(time.Now().Add(timeout))
	}
	_, err := p.stdin.Write(b)
	if err != nil {
		return fmt.Errorf("write to engine: %w", err)
	}
	return nil
}

// CloseInput closes the child's stdin (engines quit on EOF).
func (p *Process) CloseInput() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stdin.Close()
}

// Kill sends SIGKILL to the child's whole process group.
func (p *Process) Kill() {
	p.killOnce.Do(func() {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		p.cmd.Process.Kill()
	})
}

// Stop ends the child: it waits up to grace for the child to exit on its own
// (after the caller has sent its quit command), then kills the group, reaps
// the child and closes the pipes. It returns the exit status.
func (p *Process) Stop(grace time.Duration) error {
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
	}
	// Kill the group even after a clean exit: grandchildren must not survive.
	p.Kill()
	<-p.done
	p.CloseInput()
	p.stdout.Close()
	return p.err
}
