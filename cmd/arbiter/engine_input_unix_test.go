//go:build unix

package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestEngineInputPollsPipesOnly: the sparring engine's input is put in
// the runtime's poller when it is a pipe (how every GUI and the arbiter
// start an engine), reads the same lines through it, and is blocking again
// once restored; a regular file (or a terminal) is left as it is.
func TestEngineInputPollsPipesOnly(t *testing.T) {
	// A blocking pipe, as a child's inherited standard input is (os.Pipe's
	// ends are non-blocking already).
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(p[0]), "stdin"), os.NewFile(uintptr(p[1]), "gui")
	defer w.Close()
	// Both r and the file engineInput makes hold the descriptor, as
	// os.Stdin does in the engine: neither may be collected and close it.
	keptInputs = append(keptInputs, r)
	in, restore := engineInput(r)
	if restore == nil || in == r {
		t.Fatalf("a pipe: engineInput = %v, restore %v; want a new pollable file", in, restore != nil)
	}
	flags, err := fcntl(p[0])
	if err != nil {
		t.Fatal(err)
	}
	if flags&syscall.O_NONBLOCK == 0 {
		t.Error("the pipe was not made non-blocking")
	}
	go func() {
		w.WriteString("hub\nping\n")
		w.Close()
	}()
	var lines []string
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil || strings.Join(lines, "|") != "hub|ping" {
		t.Errorf("read through the poller: %q, %v; want hub, ping", lines, err)
	}
	restore()
	if flags, err := fcntl(p[0]); err != nil || flags&syscall.O_NONBLOCK != 0 {
		t.Errorf("after restore: flags %#x, %v; want the pipe blocking again", flags, err)
	}

	file := filepath.Join(t.TempDir(), "commands")
	if err := os.WriteFile(file, []byte("hub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if in, restore := engineInput(f); restore != nil || in != f {
		t.Errorf("a regular file: engineInput = %v, restore %v; want it as it is", in, restore != nil)
	}
}

func fcntl(fd int) (int, error) {
	flags, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if e != 0 {
		return 0, e
	}
	return int(flags), nil
}
