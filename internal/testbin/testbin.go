// Package testbin builds the arbiter binary for the tests that run it as a
// separate process (the CLI tests, and the match tests whose engines are
// its sparring engine).
//
// Under `make cover` (ARBITER_COVERDIR set to an absolute directory) the
// binary is built with -cover for every package of the module and
// GOCOVERDIR is set for this process's children, so that every run of the
// binary, the sparring engines it starts included, adds its coverage
// there; `go tool covdata` merges it with the unit tests' profile. Without
// it the build is the plain one `make test` has always used.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// CoverDirEnv names the environment variable that turns coverage on.
const CoverDirEnv = "ARBITER_COVERDIR"

// Build builds the main package in pkgDir into dst.
func Build(dst, pkgDir string) error {
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
