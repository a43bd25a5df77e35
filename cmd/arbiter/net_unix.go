//go:build unix

package main

import (
	"errors"
	"syscall"
)

// addrInUse says whether err is a listen's "address already in use".
func addrInUse(err error) bool { return errors.Is(err, syscall.EADDRINUSE) }
