//go:build !linux

package main

import "os"

// hubOutput is stdout where descriptors are not moved (see cbhost_linux.go).
func hubOutput() (*os.File, error) { return os.Stdout, nil }
