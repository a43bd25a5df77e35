package proc

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The pipes' primitives on Windows. The arbiter's end of each pipe is
// opened for overlapped I/O, which the runtime waits on in its I/O
// completion port: reads and writes take deadlines (an anonymous pipe
// from os.Pipe is synchronous and takes none, so a hung engine would hold
// a read forever) and Interrupt and the engine's exit cut a wait short.
// The engine's end is an ordinary synchronous handle, as engines expect of
// their standard handles. A RawConn on Windows waits only for sockets:
// reads and writes go through the os.File.

// pipeBuffer is each pipe's buffer size, as on Linux.
const pipeBuffer = 64 << 10

// enginePipe is a pipe between the arbiter and an engine (toEngine: the
// engine's stdin, which the arbiter writes): a named pipe of a name of
// its own, of which the arbiter holds the server end.
func enginePipe(toEngine bool) (r, w *os.File, err error) {
	access, engineAccess := uint32(windows.PIPE_ACCESS_INBOUND), uint32(windows.GENERIC_WRITE|windows.FILE_READ_ATTRIBUTES)
	if toEngine {
		access, engineAccess = windows.PIPE_ACCESS_OUTBOUND, windows.GENERIC_READ|windows.FILE_WRITE_ATTRIBUTES
	}
	var name string
	var ours windows.Handle
	for range 10 {
		// A name nobody else holds: FIRST_PIPE_INSTANCE fails where another
		// process made the name first, and then another is drawn.
		name = fmt.Sprintf(`\\.\pipe\arbiter-%d-%016x`, os.Getpid(), rand.Uint64())
		p, perr := windows.UTF16PtrFromString(name)
		if perr != nil {
			return nil, nil, perr
		}
		ours, err = windows.CreateNamedPipe(p,
			access|windows.FILE_FLAG_OVERLAPPED|windows.FILE_FLAG_FIRST_PIPE_INSTANCE,
			windows.PIPE_TYPE_BYTE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
			1, pipeBuffer, pipeBuffer, 0, nil)
		if err == nil {
			break
		}
	}
	if err != nil {
		return nil, nil, os.NewSyscallError("CreateNamedPipe", err)
	}
	p, _ := windows.UTF16PtrFromString(name)
	// The engine's end, connected at once (a client may connect before the
	// server listens). Not inheritable: exec gives the child its own copy.
	theirs, err := windows.CreateFile(p, engineAccess, 0, nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		windows.CloseHandle(ours)
		return nil, nil, os.NewSyscallError("CreateFile", err)
	}
	// os.NewFile sees that ours is overlapped and gives it to the runtime's
	// poller (deadlines); theirs stays a plain blocking file.
	if toEngine {
		return os.NewFile(uintptr(theirs), "|0"), os.NewFile(uintptr(ours), "|1"), nil
	}
	return os.NewFile(uintptr(ours), "|0"), os.NewFile(uintptr(theirs), "|1"), nil
}

// read is f.Read, waiting in the runtime's poller until the deadline.
func (lr *lineReader) read(b []byte) (int, error) { return lr.f.Read(b) }

// rest is fill once the process has exited: what the pipe holds now, then
// io.EOF. PeekNamedPipe tells how much that is, so the read never waits
// for a grandchild that still holds the pipe.
func (lr *lineReader) rest(b []byte, deadline time.Time) (int, error) {
	if !deadline.IsZero() && !time.Now().Before(deadline) {
		return 0, os.ErrDeadlineExceeded // a grandchild still writing has no say
	}
	rc, err := lr.f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var avail uint32
	var perr error
	if err := rc.Control(func(fd uintptr) {
		perr = peekNamedPipe(windows.Handle(fd), &avail)
	}); err != nil {
		return 0, err
	}
	switch {
	case errors.Is(perr, windows.ERROR_BROKEN_PIPE):
		return 0, io.EOF // every writer is gone, and the pipe is empty
	case perr != nil:
		return 0, &os.PathError{Op: "PeekNamedPipe", Path: lr.f.Name(), Err: perr}
	case avail == 0:
		return 0, io.EOF
	}
	if int(avail) < len(b) {
		b = b[:avail]
	}
	lr.f.SetReadDeadline(time.Time{})
	return lr.f.Read(b) // the bytes are there: it does not wait
}

// procPeekNamedPipe is kernel32's PeekNamedPipe (x/sys/windows has no
// wrapper of it).
var procPeekNamedPipe = windows.NewLazySystemDLL("kernel32.dll").NewProc("PeekNamedPipe")

// peekNamedPipe stores in avail how many bytes the pipe h holds.
func peekNamedPipe(h windows.Handle, avail *uint32) error {
	r, _, err := procPeekNamedPipe.Call(uintptr(h), 0, 0, 0, uintptr(unsafe.Pointer(avail)), 0)
	if r == 0 {
		return err
	}
	return nil
}

// tryWrite takes nothing on Windows (an overlapped write cannot be tried
// without waiting for it): every write goes through the os.File, with
// its deadline.
func (p *Process) tryWrite([]byte) int { return 0 }
