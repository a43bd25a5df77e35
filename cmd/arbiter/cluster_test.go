package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/internal/testbin"
)

// worker's usage errors name the problem and exit 2, before any
// connection is tried.
func TestWorkerUsage(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "event.yaml"), smallEvent)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"worker", "--engines", "event.yaml"}, "--nats URL is required"},
		{[]string{"worker", "--nats", "nats://127.0.0.1:1"}, "--engines PATH is required"},
		{[]string{"worker", "--nats", "nats://127.0.0.1:1", "--engines", "nothing.yaml"}, "nothing.yaml"},
		{[]string{"worker", "--nats", "nats://127.0.0.1:1", "--engines", "event.yaml", "--concurrency", "0"}, "--concurrency 0"},
		{[]string{"tournament", "-c", "event.yaml", "--nats", "embedded", "--nats-listen", "nowhere"}, `--nats-listen "nowhere"`},
	} {
		_, stderr, code := runArbiter(t, dir, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("arbiter %s: exit %d, stderr %q; want exit 2 with %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}

// tournament --nats embedded starts the server itself; a worker started
// first (it waits for the server) plays the event, and the summary says so.
func TestTournamentEmbeddedNATS(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "event.yaml"), smallEvent)
	addr := testbin.UnboundAddr(t)
	w, werr := startArbiter(t, dir, "worker", "--nats", "nats://"+addr, "--engines", "event.yaml", "--name", "box", "--concurrency", "2")
	defer w.Process.Kill()
	stdout, stderr, code := runArbiter(t, dir, "tournament", "-c", "event.yaml", "--nats", "embedded", "--nats-listen", addr, "--progress", "off")
	if code != 0 {
		t.Fatalf("tournament: exit %d\n%s\nworker:\n%s", code, stderr, werr.String())
	}
	if want := fmt.Sprintf("%d of %d games finished", smallPlanned, smallPlanned); !strings.Contains(stdout, want) || !strings.Contains(stdout, fmt.Sprintf("workers: box %d", smallPlanned)) {
		t.Errorf("stdout:\n%s\nwant %q and every game by worker box", stdout, want)
	}
	w.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- w.Wait() }()
	select {
	case <-done:
		if w.ProcessState.ExitCode() != 0 {
			t.Errorf("worker: exit %d after SIGTERM\n%s", w.ProcessState.ExitCode(), werr.String())
		}
	case <-time.After(time.Minute):
		t.Errorf("the worker did not stop within a minute of SIGTERM")
	}
}

// A wrong --nats (no server there): the worker says at once that no NATS
// server answers at that address and what to do, and keeps trying; the
// coordinator stops with the same advice (exit 3). They said only
// "waiting for a coordinator to set up the games stream
// error=\"context deadline exceeded\"" and "cluster: stream
// ARBITER_GAMES: context deadline exceeded".
func TestWrongNATSURL(t *testing.T) {
	t.Parallel() // a process with its own files, whose tournament waits out a 5 s NATS timeout
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "event.yaml"), smallEvent)
	url := "nats://" + testbin.UnboundAddr(t)
	w := exec.Command(arbiterBin, "worker", "--nats", url, "--engines", "event.yaml", "--name", "box")
	w.Dir = dir
	var werr testbin.SyncBuffer
	w.Stderr = &werr
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { w.Process.Kill(); w.Wait() }()
	want := "no NATS server answers at " + url + ": start one there (arbiter nats-server"
	if !poll.Until(time.Minute, 20*time.Millisecond, func() bool { return strings.Contains(werr.String(), want) }) {
		t.Fatalf("worker's log:\n%s\nwant %q", werr.String(), want)
	}
	if strings.Contains(werr.String(), "waiting for a coordinator") {
		t.Errorf("worker's log:\n%s\nblames the coordinator for a server that does not answer", werr.String())
	}
	_, stderr, code := runArbiter(t, dir, "tournament", "-c", "event.yaml", "--nats", url, "--progress", "off")
	if code != exitRuntime || !strings.Contains(stderr, "arbiter: tournament: "+want) || !strings.Contains(stderr, "--nats embedded starts one") {
		t.Errorf("tournament --nats %s: exit %d, stderr:\n%s\nwant exit 3 and %q", url, code, stderr, want)
	}
}
