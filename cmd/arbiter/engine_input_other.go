//go:build !unix

package main

import "io"

// engineInput is the sparring engine's standard input as it is (see the
// Unix version).
func engineInput(in io.Reader) (_ io.Reader, restore func()) { return in, nil }
