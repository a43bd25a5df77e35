package sparring

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/rules"
)

// inputKinds are the GUI's two kinds of input: an in-process pipe (read
// through a goroutine) and an OS pipe, which a GUI or the arbiter gives
// (read directly on Linux).
var inputKinds = []struct {
	name string
	pipe func(t *testing.T) (io.Reader, io.WriteCloser)
}{
	{"io.Pipe", func(*testing.T) (io.Reader, io.WriteCloser) { return io.Pipe() }},
	{"os.Pipe", func(t *testing.T) (io.Reader, io.WriteCloser) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r, w
	}},
}

// Both sources read the same lines: CR LF and LF ends, an empty line, a
// last line without its end; then the end of the input, every time asked.
func TestLineSources(t *testing.T) {
	for _, k := range inputKinds {
		t.Run(k.name, func(t *testing.T) {
			r, w := k.pipe(t)
			src := newLineSource(r)
			if src.ready(0) {
				t.Error("ready before anything was written")
			}
			go func() {
				io.WriteString(w, "hub\r\nping\n\n")
				io.WriteString(w, "la")
				io.WriteString(w, "st")
				w.Close()
			}()
			if !src.ready(time.Minute) { // returns as soon as a line is there
				t.Fatal("not ready after a line was written")
			}
			var got []string
			for {
				l, err := src.next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, l)
			}
			if want := []string{"hub", "ping", "", "last"}; strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("lines %q, want %q", got, want)
			}
			if _, err := src.next(); !errors.Is(err, io.EOF) {
				t.Errorf("after the end: %v, want io.EOF again", err)
			}
			if !src.ready(0) {
				t.Error("at the end: not ready (next would return at once)")
			}
		})
	}
}

// A line past maxLine ends the input with an error that says so.
func TestLineSourcesLongLine(t *testing.T) {
	for _, k := range inputKinds {
		t.Run(k.name, func(t *testing.T) {
			r, w := k.pipe(t)
			src := newLineSource(r)
			go func() {
				io.WriteString(w, "hub\n"+strings.Repeat("x", maxLine+10)+"\n")
				w.Close()
			}()
			if l, err := src.next(); l != "hub" || err != nil {
				t.Fatalf("first line: %q, %v", l, err)
			}
			if _, err := src.next(); !errors.Is(err, errLongLine) {
				t.Errorf("a %d-byte line: %v, want errLongLine", maxLine+10, err)
			}
		})
	}
}

// Only a pipe or a socket is read directly (on Linux), and reading it
// leaves its mode as it was: the descriptor is shared with the GUI.
func TestReadsDirectly(t *testing.T) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil { // blocking, as a child's stdin
		t.Fatal(err)
	}
	blocking, w := os.NewFile(uintptr(p[0]), "stdin"), os.NewFile(uintptr(p[1]), "gui")
	defer blocking.Close()
	nonblocking, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer nonblocking.Close()
	file := filepath.Join(t.TempDir(), "commands")
	if err := os.WriteFile(file, []byte("hub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	onLinux := runtime.GOOS == "linux"
	for _, c := range []struct {
		name string
		in   io.Reader
		want bool
	}{
		{"a blocking pipe", blocking, onLinux},
		{"a non-blocking pipe", nonblocking, onLinux},
		{"a regular file", f, false},
		{"a string", strings.NewReader("hub\n"), false},
	} {
		if got := ReadsDirectly(c.in); got != c.want {
			t.Errorf("%s: ReadsDirectly = %v, want %v", c.name, got, c.want)
		}
	}
	// Read a line from each pipe: the modes are what they were.
	for _, c := range []struct {
		r, w *os.File
		nb   bool
	}{{blocking, w, false}, {nonblocking, w2, true}} {
		c.w.WriteString("ping\n")
		c.w.Close()
		if l, err := newLineSource(c.r).next(); l != "ping" || err != nil {
			t.Errorf("%s: %q, %v", c.r.Name(), l, err)
		}
		if runtime.GOOS != "linux" {
			continue
		}
		rc, err := c.r.SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var flags int
		rc.Control(func(fd uintptr) { flags, _ = fcntlFlags(fd) })
		if nb := flags&syscall.O_NONBLOCK != 0; nb != c.nb {
			t.Errorf("%s: non-blocking %v after reading, want %v as before", c.r.Name(), nb, c.nb)
		}
	}
}

func fcntlFlags(fd uintptr) (int, error) {
	flags, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	if e != 0 {
		return 0, e
	}
	return int(flags), nil
}

// A search answers ping while it runs and ends on stop with a legal move:
// at depth 20 in international draughts it would not end by itself within
// the test's life (before the search looked at its input, a stop was
// taken only once it ended).
func TestServeHubInterruptsADeepSearch(t *testing.T) {
	for _, k := range inputKinds {
		t.Run(k.name, func(t *testing.T) {
			in, inW := k.pipe(t)
			outR, outW := io.Pipe()
			errc := make(chan error, 1)
			go func() {
				errc <- ServeHub(in, outW, Config{Level: Level{20}})
				outW.Close()
			}()
			lines := make(chan string)
			go func() {
				defer close(lines)
				sc := bufio.NewScanner(outR)
				for sc.Scan() {
					lines <- sc.Text()
				}
			}()
			// expect waits for a line starting with prefix; the bound only
			// turns a missing line into a failure.
			expect := func(prefix string) string {
				t.Helper()
				bound := time.After(2 * time.Minute)
				for {
					select {
					case l, ok := <-lines:
						if !ok {
							t.Fatalf("the engine's output ended before %q", prefix)
						}
						if strings.HasPrefix(l, prefix) {
							return l
						}
					case <-bound:
						t.Fatalf("no %q from the engine", prefix)
					}
				}
			}
			send := func(s string) { io.WriteString(inW, s+"\n") }
			send("init")
			expect("ready")
			p := rules.NewPosition(rules.MustLookup("international"))
			send("pos pos=" + hub.PosString(p))
			send("level infinite")
			send("go think")
			send("ping")
			expect("pong")
			send("stop")
			done, err := hub.ParseLine(expect("done"))
			if err != nil {
				t.Fatal(err)
			}
			mv, _ := done.Get("move")
			if _, err := p.ParseHubMove(mv); err != nil {
				t.Errorf("done move=%s after stop: %v", mv, err)
			}
			send("quit")
			if err := <-errc; err != nil {
				t.Errorf("ServeHub: %v", err)
			}
			inW.Close()
		})
	}
}

// Lines that come during a search are kept for after it, in order and
// all of them, but at most maxLater at a time: the rest wait in the pipe.
func TestInterruptedKeepsLinesBounded(t *testing.T) {
	for _, k := range inputKinds {
		t.Run(k.name, func(t *testing.T) {
			r, w := k.pipe(t)
			in := newHubInput(r, &lineWriter{w: bufio.NewWriter(io.Discard)})
			const n = 3 * maxLater
			go func() {
				for i := range n {
					fmt.Fprintf(w, "pos %d\n", i)
				}
				w.Close()
			}()
			in.startSearch()
			look := func() { // one of a long search's looks at its input
				t.Helper()
				if in.interrupted(time.Millisecond) {
					t.Fatal("interrupted without a stop")
				}
				if len(in.later) > maxLater {
					t.Fatalf("%d lines kept during the search, want at most %d", len(in.later), maxLater)
				}
			}
			// Until the search has kept all it may (the bound only turns a
			// lost line into a failure), then a few more looks.
			for bound := time.Now().Add(time.Minute); len(in.later) < maxLater && time.Now().Before(bound); {
				look()
			}
			for range 100 {
				look()
			}
			if len(in.later) != maxLater {
				t.Errorf("%d lines kept, want %d (the rest in the pipe)", len(in.later), maxLater)
			}
			for i := range n {
				l, err := in.next()
				if want := fmt.Sprintf("pos %d", i); l != want || err != nil {
					t.Fatalf("after the search, line %d: %q, %v; want %q", i, l, err, want)
				}
			}
			if _, err := in.next(); !errors.Is(err, io.EOF) {
				t.Errorf("after the lines: %v, want io.EOF", err)
			}
		})
	}
}
