//go:build !linux && !darwin && !windows

package main

// totalMemory is the machine's RAM in bytes, 0 when unknown.
func totalMemory() uint64 { return 0 }
