package main

import (
	"errors"

	"golang.org/x/sys/windows"
)

// addrInUse says whether err is a listen's "address already in use"
// (Winsock's own error: syscall.EADDRINUSE never comes on Windows).
func addrInUse(err error) bool { return errors.Is(err, windows.WSAEADDRINUSE) }
