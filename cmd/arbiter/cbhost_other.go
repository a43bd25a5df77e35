//go:build !linux && !windows

package main

import "os"

// hubOutputFirst: see cbhost_linux.go.
const hubOutputFirst = false

// hubOutput is stdout where descriptors are not moved (see cbhost_linux.go).
func hubOutput() (*os.File, error) { return os.Stdout, nil }
