//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// engineInput is the sparring engine's standard input, made cheap to wait
// on; restore is nil when it was left as it is, else the caller runs the
// engine on one processor (GOMAXPROCS 1) and calls restore when it is done
// with its input.
//
// The engine reads its commands in one goroutine and answers them in
// another. With its input a blocking descriptor and two processors, every
// command woke a second thread (a futex wake, often on the arbiter's
// processor) and kept the runtime's monitor busy. A pipe or socket is
// switched to non-blocking mode, so that the runtime's poller waits on it,
// and with one processor a command is a goroutine switch on the same
// thread (the search is single-threaded; a ping during one is answered
// when it ends, or within the runtime's 10 ms time slice). Over 200 instant
// games: the engines' CPU a move 68-70 µs -> 59-64, the arbiter's 45-48 ->
// 41-47. Either change alone was worse.
//
// The mode belongs to the pipe, not to the engine: another process that
// reads the same pipe after the engine (a shell's "{ arbiter engine; cat; }
// < fifo") would find it non-blocking. restore puts it back. A terminal is
// left as it is: a shell shares it, and a killed engine could not restore.
func engineInput(in io.Reader) (_ io.Reader, restore func()) {
	f, ok := in.(*os.File)
	if !ok {
		return in, nil
	}
	fd := int(f.Fd())
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return in, nil
	}
	if mode := st.Mode & syscall.S_IFMT; mode != syscall.S_IFIFO && mode != syscall.S_IFSOCK {
		return in, nil
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		return in, nil
	}
	polled := os.NewFile(uintptr(fd), f.Name()) // non-blocking: in the poller
	keptInputs = append(keptInputs, polled)     // never collected: its finalizer would close fd
	return polled, func() { syscall.SetNonblock(fd, false) }
}

// keptInputs keeps engineInput's files alive for the life of the process.
var keptInputs []*os.File
