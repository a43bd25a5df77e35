package main

import (
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// consoleArgs is a small match whose console shows the standings every 2
// games.
func consoleArgs(out string) []string {
	return []string{"match", "--engine", "name=A cmd=self engine --level 2", "--engine", "name=B cmd=self engine --level random",
		"--time-control", "10+0.1", "--games-per-encounter", "8", "--out", out}
}

// On a terminal (a pseudo-terminal) the standings are redrawn in place:
// the block is cleared with cursor codes and drawn again, under a progress
// bar, so the screen holds one table, not one per few games; the log has
// its colours.
func TestConsoleOnATerminal(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(arbiterBin, consoleArgs(filepath.Join(dir, "out"))...)
	cmd.Dir = dir
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	tty, err := pty.Start(cmd) // stdin, stderr: the terminal (stdout: set above)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer tty.Close()
	var screen bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&screen, tty); close(done) }()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("match on a terminal: %v\n%s", err, screen.String())
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
	}
	s := screen.String()
	if !strings.Contains(s, "\x1b[J") || !regexp.MustCompile(`\x1b\[\d+A`).MatchString(s) {
		t.Errorf("no redraw in place on the terminal:\n%q", s)
	}
	if !strings.Contains(s, "games [") || !strings.Contains(s, " 8/8 100%") {
		t.Errorf("no progress bar reaching 8/8:\n%q", s)
	}
	if !strings.Contains(s, "\x1b[") || !strings.Contains(s, "INF") {
		t.Errorf("no coloured log:\n%q", s)
	}
	// What the screen shows at the end: the last block, once.
	if !strings.Contains(stdout.String(), "Score of A vs B: ") {
		t.Errorf("stdout: %s", stdout.String())
	}
}

// Off a terminal (a pipe) the console is a plain line every few games with
// the score so far, and nothing on stderr has a colour or cursor code.
func TestConsoleOnAPipe(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runArbiter(t, dir, consoleArgs(filepath.Join(dir, "out"))...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if strings.Contains(stderr, "\x1b") || strings.Contains(stderr, "\r") {
		t.Errorf("escape codes on a pipe:\n%q", stderr)
	}
	lines := regexp.MustCompile(`(?m)^games \d+/8: (A|B) [0-9.]+/\d+, (A|B) [0-9.]+/\d+$`).FindAllString(stderr, -1)
	if len(lines) != 4 || !strings.HasPrefix(lines[3], "games 8/8: ") {
		t.Errorf("want a line every 2 games, the last at 8/8; got %q in\n%s", lines, stderr)
	}
	// The same command again resumes a finished event: no progress line
	// (it read "games 0: A 5/8, B 3/8"), the summary says why.
	stdout, stderr, code = runArbiter(t, dir, consoleArgs(filepath.Join(dir, "out"))...)
	if code != 0 {
		t.Fatalf("resumed: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if regexp.MustCompile(`(?m)^games `).MatchString(stderr) || !strings.Contains(stdout+stderr, "(0 in this run, 8 earlier)") {
		t.Errorf("resumed with nothing to play: want no progress line and the summary's count\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}
