//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Issue 24, finding 7: `arbiter serve --db` on something that is no
// database file names the real problem and exits at once (a FIFO used to
// block the start until a second SIGTERM; a directory was called "damaged").
func TestServeDBNamesTheProblem(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe.db")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, flag, path, want string
	}{
		{"a directory", "--db", filepath.Join(dir, "adir"), "is a directory, not a database file"},
		{"a missing directory", "--db", filepath.Join(dir, "nowhere", "games.db"), "does not exist; create it first"},
		{"a FIFO", "--db", fifo, "is a named pipe (FIFO), not a regular file"},
		{"a character device", "--db", "/dev/null", "is a character device, not a regular file"},
		{"the events' store in a directory", "--events-db", filepath.Join(dir, "adir"), "is a directory, not a database file"},
	}
	if ro := readOnlyDir(t); ro != "" {
		cases = append(cases, struct{ name, flag, path, want string }{"a read-only directory", "--db", filepath.Join(ro, "games.db"), "is not writable"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "ok.db"), "--events-db", filepath.Join(dir, "ok-events.db")}
			args = append(args, c.flag, c.path)
			cmd, _, errb := startWatched(t, dir, args...)
			if code := exitStatus(t, cmd); code == 0 || !strings.Contains(errb.String(), c.want) || strings.Contains(errb.String(), "damaged") {
				t.Errorf("exit %d; stderr %q should say %q", code, errb.String(), c.want)
			}
		})
	}
}

// readOnlyDir is a directory nobody may write in: a read-only tmpfs when
// the test runs as root (root writes through permission bits), else a
// directory without write permission. "" (the case is skipped) when
// neither can be had.
func readOnlyDir(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return dir
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_RDONLY, "size=64k"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("cannot mount a read-only tmpfs as root: %v", err)
		}
		t.Logf("the read-only directory case is skipped: as root, a read-only tmpfs is needed and mount failed: %v", err)
		return ""
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	return dir
}
