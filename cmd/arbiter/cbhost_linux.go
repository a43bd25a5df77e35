package main

import (
	"os"
	"syscall"
)

// hubOutputFirst: the descriptor can move after the library is loaded (its
// C library writes to descriptor 1, whatever it points at then).
const hubOutputFirst = false

// hubOutput gives the Hub exchange a file descriptor of its own and points
// descriptor 1 at stderr: what the library prints (printf to stdout) then
// reaches the engine log as stderr instead of mixing with the protocol.
func hubOutput() (*os.File, error) {
	fd, err := syscall.Dup(1)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(fd)
	if err := syscall.Dup3(2, 1, 0); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "hub-output"), nil
}
