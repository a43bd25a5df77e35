package main

import (
	"fmt"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
	addr := unboundAddr(t)
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

// unboundAddr is a localhost address nobody listens on, for a server that
// must be named before it starts (here: a worker started first dials it
// until it is up). The port is below the kernel's ephemeral range
// (32768-60999 on Linux), which a listen-close of port 0 would give: there
// an outgoing connection may take the port before the server binds it,
// and the worker's own dials may connect to themselves (TCP's
// simultaneous open, when the kernel picks the destination port as the
// source). Below the range only an explicit bind takes a port.
func unboundAddr(t *testing.T) string {
	t.Helper()
	for range 100 {
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(20000+rand.IntN(12000)))
		if l, err := net.Listen("tcp", addr); err == nil {
			l.Close()
			return addr
		}
	}
	t.Fatal("no free port from 20000 to 31999")
	return ""
}
