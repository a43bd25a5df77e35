//go:build unix && !linux

package proc

import "syscall"

// rawRead and rawWrite: see raw_linux.go; on the other Unix systems the
// ordinary calls.
func rawRead(fd uintptr, b []byte) (int, syscall.Errno) {
	n, err := syscall.Read(int(fd), b)
	return n, errno(err)
}

func rawWrite(fd uintptr, b []byte) (int, syscall.Errno) {
	n, err := syscall.Write(int(fd), b)
	return n, errno(err)
}

func errno(err error) syscall.Errno {
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	if err != nil {
		return syscall.EIO
	}
	return 0
}
