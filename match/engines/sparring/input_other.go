//go:build !linux

package sparring

import "io"

// directSource: elsewhere the engine reads through a goroutine (chanLines).
func directSource(io.Reader) (lineSource, bool) { return nil, false }
