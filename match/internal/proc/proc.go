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

	lines chan string // stdout lines; closed at EOF
	done  chan struct{}
	err   error // exit status, valid after done is closed

	killOnce sync.Once
	mu       sync.Mutex
}

// Line is an output line; Long marks a line that exceeded MaxLine.
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
	p := &Process{cmd: cmd, stdin: inW, stdout: outR, lines: make(chan string, 64), done: make(chan struct{})}
	go p.readLines(outR)
	go func() {
		sc := bufio.NewScanner(errR)
		sc.Buffer(make([]byte, 4096), MaxLine)
		for sc.Scan() {
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

func (p *Process) readLines(r *os.File) {
	defer close(p.lines)
	defer r.Close()
	br := bufio.NewReaderSize(r, 4096)
	for {
		line, err := readLine(br)
		if line != "" || err == nil {
			p.lines <- line
		}
		if err != nil {
			return
		}
	}
}

// readLine reads one line without its end (\n or \r\n); a line longer than
// MaxLine is returned cut, prefixed with a marker that no engine can send.
func readLine(br *bufio.Reader) (string, error) {
	var buf []byte
	long := false
	for {
		frag, isPrefix, err := br.ReadLine()
		if len(buf)+len(frag) > MaxLine {
			long = true
			frag = frag[:max(0, MaxLine-len(buf))]
		}
		buf = append(buf, frag...)
		if err != nil {
			if len(buf) > 0 {
				return string(buf), nil
			}
			return "", err
		}
		if !isPrefix {
			break
		}
	}
	if long {
		return longMark + string(buf), nil
	}
	return string(buf), nil
}

// IsLong reports whether a line read from Lines was cut at MaxLine, and
// returns the line without the marker.
func IsLong(line string) (string, bool) {
	if len(line) >= len(longMark) && line[:len(longMark)] == longMark {
		return line[len(longMark):], true
	}
	return line, false
}

// Lines delivers the child's stdout lines; it is closed at EOF.
func (p *Process) Lines() <-chan string { return p.lines }

// Exited is closed when the child has exited and been reaped.
func (p *Process) Exited() <-chan struct{} { return p.done }

// ExitErr is the child's exit status; valid after Exited is closed.
func (p *Process) ExitErr() error {
	<-p.done
	return p.err
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
	// Drain stdout so the reader goroutine finishes.
	for range p.lines {
	}
	return p.err
}
