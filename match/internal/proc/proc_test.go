//go:build unix

// The tests of every Unix system: shell scripts as engines. What needs
// Linux (/proc, the marker) is in orphans_linux_test.go; Windows has
// proc_windows_test.go.

package proc

import (
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/poll"
)

func start(t *testing.T, script string) *Process {
	t.Helper()
	p, err := Start([]string{"/bin/sh", "-c", script}, "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(time.Second) })
	return p
}

// startStderr is start with the child's stderr lines collected; lines
// returns them once StderrDone is closed (failing the test if it is not
// closed within 5 s).
func startStderr(t *testing.T, script string) (p *Process, lines func() []string) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	p, err := Start([]string{"/bin/sh", "-c", script}, "", nil, func(s string) {
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(time.Second) })
	return p, func() []string {
		t.Helper()
		select {
		case <-p.StderrDone():
		case <-time.After(5 * time.Second):
			t.Fatal("stderr not done 5 s after the child exited")
		}
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

func TestReadLine(t *testing.T) {
	p := start(t, `printf 'a\nb\r\n\nc'`)
	for _, want := range []string{"a", "b", "", "c"} {
		got, err := p.ReadLine(time.Now().Add(5 * time.Second))
		if err != nil || got != want {
			t.Fatalf("ReadLine = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := p.ReadLine(time.Now().Add(5 * time.Second)); !errors.Is(err, io.EOF) {
		t.Errorf("at the end: %v, want EOF", err)
	}
}

func TestReadLineKeepsPartialLineAcrossTimeouts(t *testing.T) {
	p := start(t, `printf ab; sleep 0.5; printf 'cd\n'`)
	if _, err := p.ReadLine(time.Now().Add(100 * time.Millisecond)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("first read: %v, want a timeout", err)
	}
	got, err := p.ReadLine(time.Now().Add(5 * time.Second))
	if err != nil || got != "abcd" {
		t.Errorf("ReadLine = %q, %v; want abcd", got, err)
	}
}

func TestLongLineIsCut(t *testing.T) {
	p := start(t, `head -c 200000 /dev/zero | tr '\0' x; echo; echo next`)
	got, err := p.ReadLine(time.Now().Add(5 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	line, long := IsLong(got)
	if !long || len(line) < MaxLine || len(line) > 2*MaxLine || strings.Trim(line, "x") != "" {
		t.Errorf("long line: long=%v, %d bytes", long, len(line))
	}
	if got, err := p.ReadLine(time.Now().Add(5 * time.Second)); err != nil || got != "next" {
		t.Errorf("after the long line: %q, %v", got, err)
	}
}

func TestStopKillsTheGroupAndWriteTimesOut(t *testing.T) {
	p := start(t, `sleep 1000 & sleep 1000`)
	// Nobody reads stdin: writes fill the pipe and then time out.
	big := strings.Repeat("x", 1<<20)
	if err := p.Write(big, 200*time.Millisecond); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("write to a child that does not read: %v, want a timeout", err)
	}
	t0 := time.Now()
	err := p.Stop(100 * time.Millisecond)
	if err == nil {
		t.Error("a killed child reported exit status 0")
	}
	if time.Since(t0) > 5*time.Second {
		t.Errorf("Stop took %v", time.Since(t0))
	}
	select {
	case <-p.Exited():
	default:
		t.Error("not reaped after Stop")
	}
}

func TestStartErrors(t *testing.T) {
	if _, err := Start(nil, "", nil, nil); err == nil {
		t.Error("empty argv accepted")
	}
	if _, err := Start([]string{"/no/such/program"}, "", nil, nil); err == nil {
		t.Error("missing program accepted")
	}
}

func TestStderrIsPassedOn(t *testing.T) {
	got := make(chan string, 4)
	p, err := Start([]string{"/bin/sh", "-c", "echo oops >&2"}, "", nil, func(s string) { got <- s })
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(time.Second)
	select {
	case s := <-got:
		if s != "oops" {
			t.Errorf("stderr line %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Error("no stderr line")
	}
}

// Buffered says exactly when a ReadLine with a deadline in the past still
// returns a line: lines read from the pipe, not a partial one.
func TestBuffered(t *testing.T) {
	p := start(t, `printf 'one\ntwo\npart'`)
	if p.Buffered() {
		t.Fatal("Buffered before anything was read")
	}
	if got, err := p.ReadLine(time.Now().Add(5 * time.Second)); err != nil || got != "one" {
		t.Fatalf("ReadLine = %q, %v", got, err)
	}
	// printf wrote the three lines at once: "two" came with "one".
	if !p.Buffered() {
		t.Fatal("Buffered = false with \"two\" read")
	}
	if got, err := p.ReadLine(time.Now()); err != nil || got != "two" {
		t.Fatalf("ReadLine(now) = %q, %v, want the buffered line", got, err)
	}
	if p.Buffered() {
		t.Fatal("Buffered = true with only a partial line")
	}
	if _, err := p.ReadLine(time.Now()); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("ReadLine(now) on a partial line: %v, want a timeout", err)
	}
}

// Every stderr line has been handed over once StderrDone is closed, and the
// last non-empty one is kept for the crash report.
func TestStderrDone(t *testing.T) {
	p, lines := startStderr(t, `echo one >&2; echo 'last words' >&2; echo >&2; exit 3`)
	if got := lines(); strings.Join(got, "|") != "one|last words|" {
		t.Errorf("stderr lines %q", got)
	}
	if p.LastStderr() != "last words" {
		t.Errorf("LastStderr = %q, want %q", p.LastStderr(), "last words")
	}
}

// A grandchild that keeps stderr open keeps StderrDone open: callers must
// bound their wait.
func TestStderrHeldOpenByGrandchild(t *testing.T) {
	p := start(t, `sleep 30 & echo started >&2; exit 0`)
	<-p.Exited()
	select {
	case <-p.StderrDone():
		t.Fatal("stderr done while a grandchild holds it")
	case <-time.After(200 * time.Millisecond):
	}
	p.Stop(0)
	select {
	case <-p.StderrDone():
	case <-time.After(5 * time.Second):
		t.Fatal("stderr not done after the group was killed")
	}
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	if !poll.Until(5*time.Second, 10*time.Millisecond, cond) {
		t.Fatalf("timed out waiting for %s", what)
	}
}

// A stderr line over MaxLine is cut and reading goes on: what is kept for
// the crash report stays bounded, and the lines after it are not lost.
func TestLongStderrLineIsCut(t *testing.T) {
	p, lines := startStderr(t, `head -c 300000 /dev/zero | tr '\0' e >&2; echo >&2; echo after >&2`)
	if got := lines(); len(got) != 2 || len(got[0]) > 2*MaxLine || got[1] != "after" {
		sizes := make([]int, len(got))
		for i, l := range got {
			sizes[i] = len(l)
		}
		t.Fatalf("stderr lines of %v bytes, want the cut line and \"after\"", sizes)
	}
	if p.LastStderr() != "after" {
		t.Errorf("LastStderr = %q", p.LastStderr())
	}
}

// After a Go runtime crash header, the dump that follows does not replace
// the last words: the header is what the crash report quotes.
func TestRuntimeCrashHeaderIsTheLastWords(t *testing.T) {
	tests := []struct{ script, want string }{
		{`echo starting >&2; echo 'SIGSEGV: segmentation violation' >&2; echo 'goroutine 1 [running]:' >&2; echo 'gs     0x0' >&2`, "SIGSEGV: segmentation violation"},
		{`echo 'panic: index out of range' >&2; echo '' >&2; echo 'goroutine 1' >&2`, "panic: index out of range"},
		{`echo 'fatal error: all goroutines are asleep' >&2; echo 'more' >&2`, "fatal error: all goroutines are asleep"},
		{`echo 'SIGNAL: not a header' >&2; echo last >&2`, "last"},
		{`echo 'Some Words: lower case' >&2; echo last >&2`, "last"},
	}
	for _, tt := range tests {
		p, lines := startStderr(t, tt.script)
		lines()
		if got := p.LastStderr(); got != tt.want {
			t.Errorf("%s: last words %q, want %q", tt.script, got, tt.want)
		}
	}
}

// Interrupt wakes a ReadLine that has no deadline; one that came before the
// read began wakes no one (as a deadline of now set before it would not),
// and the read after it still gets the line.
func TestInterrupt(t *testing.T) {
	p := start(t, `read x; echo "got $x"`)
	p.Interrupt() // before any read: dropped
	if got, err := p.ReadLine(time.Now().Add(100 * time.Millisecond)); !errors.Is(err, os.ErrDeadlineExceeded) || got != "" {
		t.Fatalf("ReadLine after an earlier Interrupt = %q, %v; want a timeout at its deadline", got, err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := p.ReadLine(time.Time{})
		errc <- err
	}()
	// Interrupt until the read returns: one that comes before the read has
	// begun is dropped, by design.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var err error
wait:
	for {
		select {
		case err = <-errc:
			break wait
		case <-tick.C:
			p.Interrupt()
		case <-time.After(5 * time.Second):
			t.Fatal("ReadLine without a deadline not woken by Interrupt")
		}
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("interrupted ReadLine: %v, want os.ErrDeadlineExceeded", err)
	}
	if err := p.Write("x\n", time.Second); err != nil {
		t.Fatal(err)
	}
	if got, err := p.ReadLine(time.Now().Add(5 * time.Second)); err != nil || got != "got x" {
		t.Errorf("ReadLine after the interrupt = %q, %v; want \"got x\"", got, err)
	}
}

// The child's exit ends a ReadLine without a deadline, even while a
// grandchild holds stdout open: what the child wrote first, then EOF.
func TestExitEndsReadWhileGrandchildHoldsStdout(t *testing.T) {
	p := start(t, `sleep 1000 & echo last; sleep 0.2; exit 0`)
	if got, err := p.ReadLine(time.Time{}); err != nil || got != "last" {
		t.Fatalf("ReadLine = %q, %v; want \"last\"", got, err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := p.ReadLine(time.Time{})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, io.EOF) {
			t.Errorf("ReadLine after the exit: %v, want EOF", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadLine not ended by the child's exit")
	}
}
