// Package testbin builds the arbiter binary for the tests that run it as a
// separate process (the CLI tests, and the match tests whose engines are
// its sparring engine): Main is their TestMain, SyncBuffer collects what
// a child process or goroutine writes while the test reads it.
//
// Under `make cover` (ARBITER_COVERDIR set to an absolute directory) the
// binary is built with -cover for every package of the module and
// GOCOVERDIR is set for this process's children, so that every run of the
// binary, the sparring engines it starts included, adds its coverage
// there; `go tool covdata` merges it with the unit tests' profile. Without
// it the build is the plain one `make test` has always used.
//
// Imported by tests only.
package testbin

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// CoverDirEnv names the environment variable that turns coverage on.
const CoverDirEnv = "ARBITER_COVERDIR"

// PrebuiltEnv names the environment variable that gives an arbiter binary
// already built from this tree (`make test` sets it to bin/arbiter, built
// just before): Build copies it instead of linking its own. Six test
// binaries build the arbiter, in the plain and the race run, and each link
// of it took 5-6 s on 2 cores. Ignored under coverage (that binary differs).
const PrebuiltEnv = "ARBITER_TEST_BIN"

// Build builds the main package in pkgDir into dst, or copies the binary
// PrebuiltEnv names there. dst stays a path of the caller's own: a test
// that looks for its leftover processes by the binary's path sees none of
// another package's running at the same time.
func Build(dst, pkgDir string) error {
	if src := os.Getenv(PrebuiltEnv); src != "" && os.Getenv(CoverDirEnv) == "" && isArbiter(pkgDir) {
		if err := copyFile(dst, src); err != nil {
			return fmt.Errorf("%s: %w", PrebuiltEnv, err)
		}
		return nil
	}
	args := []string{"build", "-o", dst}
	if dir := os.Getenv(CoverDirEnv); dir != "" {
		if !filepath.IsAbs(dir) {
			return fmt.Errorf("%s=%q: want an absolute directory", CoverDirEnv, dir)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		args = append(args, "-cover", "-coverpkg=github.com/draughts-arbiter/arbiter/...")
		// Children inherit it: the binary and the engines it runs.
		os.Setenv("GOCOVERDIR", dir)
	}
	out, err := exec.Command("go", append(args, pkgDir)...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkgDir, err, out)
	}
	return nil
}

// isArbiter reports whether pkgDir is cmd/arbiter, the package PrebuiltEnv
// is a build of; another main package is built as ever.
func isArbiter(pkgDir string) bool {
	abs, err := filepath.Abs(pkgDir)
	return err == nil && strings.HasSuffix(abs, string(filepath.Separator)+filepath.Join("cmd", "arbiter"))
}

// copyFile makes dst an executable copy of src (a copy, not a hard link:
// a test that rewrote its binary would rewrite bin/arbiter for the others).
func copyFile(dst, src string) error {
	if !filepath.IsAbs(src) {
		return fmt.Errorf("%q: want an absolute path", src)
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying %s: %w", src, err)
	}
	return out.Close()
}

// Main is the body of a TestMain whose tests run the arbiter as a separate
// process: it builds the main package in pkgDir into a temporary directory,
// sets *bin to the binary, runs the tests and exits with their status.
// XDG_CACHE_HOME is a directory of its own for the run.
// after, when not nil, runs once the tests are done (the binary still
// there) and returns the status to exit with, given theirs: a package
// checks there what its tests must leave behind. The directory is removed
// before the exit.
func Main(m *testing.M, bin *string, pkgDir string, after func(code int) int) {
	dir, err := os.MkdirTemp("", "arbiter-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*bin = filepath.Join(dir, "arbiter")
	// What the arbiter remembers between runs (its engines' checksums)
	// stays with the tests, not in the user's cache.
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	if err := Build(*bin, pkgDir); err != nil {
		fmt.Fprintf(os.Stderr, "building the arbiter: %v\n", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	if after != nil {
		code = after(code)
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// SyncBuffer is a buffer that a test may read while a process or other
// goroutines write to it: a log sink, or the stdout and stderr of a child.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
