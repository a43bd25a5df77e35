//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// mountSmall mounts a tmpfs of size bytes at a new directory; it skips
// (but fails under CI=true) where it cannot mount one. resize changes its
// size.
func mountSmall(t *testing.T, size int) (dir string, resize func(int)) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)); err != nil {
		msg := "a full disk is tested on a small tmpfs, which only root can mount: " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir, func(n int) {
		t.Helper()
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT, "size="+strconv.Itoa(n)); err != nil {
			t.Fatal(err)
		}
	}
}

// A match whose disk fills up stops with the games it finished kept and
// says what to do; once there is room, the same command goes on from
// there. A report that does not fit says how to write it later. The 1 MiB
// disk fills in some 45 games of the 100 (a first run that finishes fails
// the test); their report (over 1 MB) does not fit in the 256 KiB left.
func TestMatchOnAFullDisk(t *testing.T) {
	disk, resize := mountSmall(t, 1<<20)
	out := filepath.Join(disk, "ev")
	args := []string{"match", "--engine", "name=a cmd=self engine --level random", "--engine", "name=b cmd=self engine --level random --seed 2",
		"--time-control", "10+0.1", "--games-per-encounter", "100", "--out", out, "--progress", "off"}
	stdout, stderr, code := runArbiter(t, t.TempDir(), args...)
	if code != exitRuntime || !strings.Contains(stderr, "database or disk is full") ||
		!strings.Contains(stderr, "match stopped: disk full; the ") || !strings.Contains(stderr, " games finished are kept in "+out+": make room") {
		t.Fatalf("on a full disk: exit %d, want %d and what to do\n%s\n%s", code, exitRuntime, lastLines(stdout, 3), stderr)
	}
	resize(64 << 20)
	stdout, stderr, code = runArbiter(t, t.TempDir(), append(args, "--no-report")...)
	if code != 0 || !strings.Contains(stdout, "100 of 100 games finished") || strings.Contains(stdout, ", 0 earlier)") {
		t.Fatalf("resumed with room: exit %d\n%s\n%s", code, lastLines(stdout, 8), stderr)
	}
	// Room for the database, not for the report.
	var fs syscall.Statfs_t
	if err := syscall.Statfs(disk, &fs); err != nil {
		t.Fatal(err)
	}
	resize(int(fs.Blocks-fs.Bfree)*int(fs.Bsize) + 256<<10)
	_, stderr, code = runArbiter(t, t.TempDir(), args...)
	if code == 0 || !strings.Contains(stderr, "the report was not written (disk full); the games are safe in "+out+`: make room and run "arbiter report `+out+`" to write it`) {
		t.Errorf("a report without room: exit %d\n%s", code, stderr)
	}
}
