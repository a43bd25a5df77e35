package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/internal/testbin"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

// syncBuffer collects an output a test reads while the process writes it.
type syncBuffer = testbin.SyncBuffer

// startWatched starts the binary with both outputs collected.
func startWatched(t *testing.T, dir string, args ...string) (*exec.Cmd, *syncBuffer, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(arbiterBin, testArgs(args)...)
	cmd.Dir = dir
	var out, errb syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out, &errb
}

// waitFor polls cond until it holds; it kills the process and fails after
// two minutes (a generous bound for a loaded machine, not a timing).
func waitFor(t *testing.T, cmd *exec.Cmd, what string, cond func() bool, errb *syncBuffer) {
	t.Helper()
	if !poll.Until(2*time.Minute, 5*time.Millisecond, cond) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("no %s in time; stderr:\n%s", what, errb.String())
	}
}

// exitStatus waits for the process and returns its exit status (-1 when a
// signal killed it).
func exitStatus(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return 0
}

var stopSignalsTable = []struct {
	name string
	sig  syscall.Signal
}{{"SIGINT", syscall.SIGINT}, {"SIGTERM", syscall.SIGTERM}, {"SIGHUP", syscall.SIGHUP}}

// A first stop signal ends a match gently: no game starts after it, the
// games in progress are finished and stored, the summary and the report
// are written, and the exit status is 3 with the way to resume. A second
// signal exits at once, leaving the games in progress for the next run.
func TestMatchStopSignals(t *testing.T) {
	for _, tt := range stopSignalsTable {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			cmd, stdout, errb := startWatched(t, dir, "match", "--variant", "english", "--games-per-encounter", "200", "--time-control", "30+0.5",
				"--engine", "name=A cmd=self engine --level 5 --seed 1", "--concurrency", "2",
				"--engine", "name=B cmd=self engine --level 5 --seed 2", "--out", out, "--progress", "off")
			waitFor(t, cmd, "second game", func() bool { return strings.Contains(stdout.String(), "game 2: ") }, errb)
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			if code := exitStatus(t, cmd); code != exitRuntime {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, exitRuntime, stdout.String(), errb.String())
			}
			if !strings.Contains(stdout.String(), "Ptnml(0-2): [") || !strings.Contains(stdout.String(), "report: ") {
				t.Errorf("no summary and report of the finished games in:\n%s", stdout.String())
			}
			if !strings.Contains(errb.String(), "match stopped by "+tt.name+" after finishing the games in progress") || !strings.Contains(errb.String(), "--out "+out+" to resume") {
				t.Errorf("stderr does not name %s and how to resume:\n%s", tt.name, errb.String())
			}
			c := gameCounts(filepath.Join(out, store.FileName))
			if c[store.Finished] < 2 || c[store.Running] != 0 || c[store.Finished] >= 200 {
				t.Errorf("games %v: want every game started finished, and not all 200", c)
			}
		})
	}
	t.Run("twice", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		out := filepath.Join(dir, "out")
		cmd, stdout, errb := startWatched(t, dir, "match", "--games-per-encounter", "200", "--time-control", "600+5",
			"--engine", "name=A cmd=self engine --level 7 --seed 1", "--engine", "name=B cmd=self engine --level 7 --seed 2",
			"--out", out, "--progress", "off")
		waitFor(t, cmd, "first game", func() bool { return strings.Contains(stdout.String(), "game 1: ") }, errb)
		cmd.Process.Signal(syscall.SIGINT)
		waitFor(t, cmd, "the first signal's note", func() bool { return strings.Contains(errb.String(), "finishing the games in progress") }, errb)
		cmd.Process.Signal(syscall.SIGINT)
		if code := exitStatus(t, cmd); code != exitRuntime || !strings.Contains(errb.String(), "arbiter: interrupted by SIGINT") {
			t.Fatalf("exit %d, want %d at once\n%s", code, exitRuntime, errb.String())
		}
	})
}

// slowEvent is a two-engine event slow enough (a deeper search) to be
// interrupted three times before its 32 games (each signal lets the games in progress finish) are done.
const slowEvent = `
name: Signal test
variant: english
time_control: "30+0.5"
engines:
  - {name: a, command: self engine --level 5 --seed 1}
  - {name: b, command: self engine --level 5 --seed 2}
games_per_encounter: 32
openings: {file: openings/3move_english.json, group: standard, order: random, seed: 5}
concurrency: 2
adjudication: {max_moves: 80}
`

// finishedGames reads the finished games' PDN by game ID.
func finishedGames(t *testing.T, db string) map[int]string {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	games := map[int]string{}
	if err := st.Games(context.Background(), store.ReadOptions{NoTimes: true}, func(g store.Game) error {
		games[g.ID] = g.PDN
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return games
}

// SIGINT, SIGTERM and SIGHUP in turn stop one tournament three times: each
// run exits with status 3, says what stopped it and how to resume; the
// next run keeps every game already finished (the very same record) and
// plays the rest, so that the last run ends with each planned game once.
func TestTournamentStopSignalsAndResume(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "event.yaml"), slowEvent)
	out := filepath.Join(dir, "out")
	db := filepath.Join(out, store.FileName)
	args := []string{"tournament", "-c", "event.yaml", "--out", out, "--progress", "off", "--no-report"}
	const planned = 32
	kept := map[int]string{}
	for i, tt := range stopSignalsTable {
		cmd, stdout, errb := startWatched(t, dir, args...)
		waitFor(t, cmd, "new finished game", func() bool { return gameCounts(db)[store.Finished] > len(kept) }, errb)
		if i == 0 {
			// While it runs, a second tournament into the same directory
			// (a second coordinator of the same event) is refused, saying
			// what to do.
			_, stderr2, code2 := runArbiter(t, dir, args...)
			if code2 != exitRuntime || !strings.Contains(stderr2, "another tournament is running") || !strings.Contains(stderr2, "wait for it to end, stop it") {
				t.Errorf("second concurrent run: exit %d\n%s", code2, stderr2)
			}
		}
		if err := cmd.Process.Signal(tt.sig); err != nil {
			t.Fatal(err)
		}
		if code := exitStatus(t, cmd); code != exitRuntime {
			t.Fatalf("%s: exit %d, want %d\n%s\n%s", tt.name, code, exitRuntime, stdout.String(), errb.String())
		}
		if !strings.Contains(errb.String(), "tournament stopped by "+tt.name+" after finishing the games in progress") || !strings.Contains(errb.String(), "run the same command again to resume") {
			t.Errorf("%s: stderr does not name the signal and the way to resume:\n%s", tt.name, lastLines(errb.String(), 3))
		}
		games := finishedGames(t, db)
		if len(games) >= planned {
			t.Fatalf("%s: all %d games finished before the signal; the test proves nothing", tt.name, planned)
		}
		for id, pdnText := range kept {
			if games[id] != pdnText {
				t.Errorf("%s: game %d, finished before, was lost or played again", tt.name, id+1)
			}
		}
		kept = games
		if c := gameCounts(db); c[store.Finished] != len(games) || c[store.Running] != 0 {
			t.Errorf("%s: counts %v", tt.name, c)
		}
	}
	stdout, stderr, code := runArbiter(t, dir, args...)
	if code != 0 || !strings.Contains(stdout, fmt.Sprintf("%d of %d games finished (%d in this run, %d earlier)", planned, planned, planned-len(kept), len(kept))) {
		t.Fatalf("last run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	games := finishedGames(t, db)
	for id, pdnText := range kept {
		if games[id] != pdnText {
			t.Errorf("game %d, finished before, was lost or played again", id+1)
		}
	}
	if c := gameCounts(db); len(games) != planned || c[store.Finished] != planned || c[store.Running] != 0 {
		t.Errorf("database holds %v (%d distinct games), want %d finished", c, len(games), planned)
	}
}

// A command that does not watch its context (here the sparring engine,
// waiting for input) stops at once on a signal, with exit status 3.
func TestOtherCommandsStopSignals(t *testing.T) {
	for _, tt := range stopSignalsTable {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(arbiterBin, "engine", "--variant", "english")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			var out, errb syncBuffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The answer to "hub" shows the engine (and its signal handler) is up.
			if _, err := stdin.Write([]byte("hub\n")); err != nil {
				t.Fatal(err)
			}
			waitFor(t, cmd, "hub answer", func() bool { return strings.Contains(out.String(), "wait") }, &errb)
			cmd.Process.Signal(tt.sig)
			if code := exitStatus(t, cmd); code != exitRuntime || !strings.Contains(errb.String(), "interrupted by "+tt.name) {
				t.Errorf("exit %d, want %d with \"interrupted by %s\"; stderr:\n%s", code, exitRuntime, tt.name, errb.String())
			}
		})
	}
}

// A panic in the command's goroutine is reported as a bug with its stack,
// with exit status 3 (Go's own status for it, 2, means a usage error here).
func TestPanicGivesExitStatus3(t *testing.T) {
	subcommands = append(subcommands, func() *cobra.Command {
		return &cobra.Command{Use: "test-panic", Hidden: true, RunE: func(*cobra.Command, []string) error {
			var m map[string]int
			m["x"] = 1 // a nil map: a run-time panic, as a bug would cause
			return nil
		}}
	})
	defer func() { subcommands = subcommands[:len(subcommands)-1] }()
	var errb bytes.Buffer
	if code := runWith([]string{"test-panic"}, &errb); code != exitRuntime {
		t.Errorf("exit %d, want %d", code, exitRuntime)
	}
	if s := errb.String(); !strings.Contains(s, "internal error") || !strings.Contains(s, "assignment to entry in nil map") || !strings.Contains(s, "signals_test.go") {
		t.Errorf("stderr lacks the panic and its stack:\n%s", s)
	}
}

// crashChild is set (to "fatal" or "goroutine") in the environment of the
// test binary run by TestRuntimeCrashIsNotAUsageError: TestMain then sets
// the binary's traceback and crashes as asked.
const crashChild = "ARBITER_TEST_CRASH"

// crashAsAsked is called by TestMain in the child: a runtime fatal error or
// an unrecovered panic in a goroutine of its own, after the same setup as
// main.
func crashAsAsked(how string) {
	setCrashTraceback()
	switch how {
	case "fatal":
		var mu sync.Mutex
		mu.Unlock() // "fatal error: sync: unlock of unlocked mutex": no recover can catch it
	case "goroutine":
		go panic("a goroutine without recover")
		time.Sleep(time.Minute)
	}
	os.Exit(0)
}

// What neither main nor a worker can recover (a Go runtime fatal error, a
// panic in another goroutine) kills the process with SIGABRT after the
// stack dump: never exit status 2, which means a usage error.
func TestRuntimeCrashIsNotAUsageError(t *testing.T) {
	for _, how := range []string{"fatal", "goroutine"} {
		t.Run(how, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), crashChild+"="+how, "GOTRACEBACK=")
			var errb bytes.Buffer
			cmd.Stderr = &errb
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("the child did not crash: %v\n%s", err, errb.String())
			}
			ws := ee.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != syscall.SIGABRT {
				t.Errorf("exit %d (signal %v), want death by SIGABRT", ee.ExitCode(), ws.Signal())
			}
			if want := map[string]string{"fatal": "fatal error: sync: unlock of unlocked mutex", "goroutine": "panic: a goroutine without recover"}[how]; !strings.Contains(errb.String(), want) {
				t.Errorf("stderr lacks %q:\n%s", want, lastLines(errb.String(), 10))
			}
		})
	}
}
