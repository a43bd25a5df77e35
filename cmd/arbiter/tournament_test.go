package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/internal/testbin"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/reports"
)

// arbiterBin is the real arbiter binary, built once by TestMain for the
// tests that run it as a separate process (and kill it).
var arbiterBin string

func TestMain(m *testing.M) {
	if how := os.Getenv(crashChild); how != "" {
		crashAsAsked(how)
	}
	testbin.Main(m, &arbiterBin, ".", func(code int) int {
		closeBrowser() // browser_shared_test.go
		return code
	})
}

// smallEvent is a round-robin of four sparring engines: 3 rounds x 2 boards
// x 6 games = 36 games.
const smallEvent = `
name: Resume test
variant: english
time_control: "30+0.5"
engines:
  - {name: r1, command: self engine --level random --seed 1}
  - {name: d1, command: self engine --level 1 --seed 2}
  - {name: d2, command: self engine --level 2 --seed 3}
  - {name: g, command: self engine --level greedy --seed 4}
games_per_encounter: 6
openings: {file: openings/3move_english.json, group: standard, order: random, seed: 11}
concurrency: 2
adjudication: {max_moves: 80}
`

const smallPlanned = 36

// arbiter runs the binary and returns stdout, stderr and the exit status.
func runArbiter(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, arbiterBin, testArgs(args)...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// startArbiter starts the binary in the background (for tests that kill or
// interrupt it) and returns it with its collected stderr.
func startArbiter(t *testing.T, dir string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(arbiterBin, testArgs(args)...)
	cmd.Dir = dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &errb
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTournamentResumeAfterKill kills `arbiter tournament` with SIGKILL in
// the middle of the event, runs it again, and checks that exactly the
// planned games are there, none twice, all legal by `arbiter check`.
func TestTournamentResumeAfterKill(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL")
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "event.yaml"), smallEvent)
	out := filepath.Join(dir, "out")
	args := []string{"tournament", "-c", "event.yaml", "--out", out, "--progress", "off", "--log-format", "json"}

	cmd, errb := startArbiter(t, dir, args...)
	// Kill it once some games are committed, before the end: at
	// concurrency 2 the next games are then being played. Their rows may
	// not be in the store yet (a game's running row is written within half
	// a second of its start, one that ends before is written finished
	// only), so the store's running count is not waited for.
	var killedAt int
	if !poll.Until(2*time.Minute, 5*time.Millisecond, func() bool {
		c := gameCounts(filepath.Join(out, store.FileName))
		killedAt = c[store.Finished]
		return killedAt >= 8
	}) {
		cmd.Process.Kill()
		t.Fatalf("no games committed in time; stderr:\n%s", errb.String())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the first run was not killed: %v", err)
	}
	left := gameCounts(filepath.Join(out, store.FileName))
	before := left[store.Finished]
	if before >= smallPlanned {
		t.Fatalf("the first run finished all %d games before the kill (at %d); the test proves nothing", before, killedAt)
	}
	t.Logf("killed with %d finished games and %d in progress", before, left[store.Running])

	stdout, stderr, code := runArbiter(t, dir, args...)
	if code != 0 {
		t.Fatalf("resumed run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, fmt.Sprintf("%d of %d games finished", smallPlanned, smallPlanned)) ||
		!strings.Contains(stdout, fmt.Sprintf("%d earlier", before)) {
		t.Errorf("resumed run says:\n%s", stdout)
	}
	// Exactly the plan in the database: every game once, none left running.
	st, err := store.OpenDir(out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	counts, err := st.Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if counts[store.Finished] != smallPlanned || counts[store.Running] != 0 {
		t.Errorf("database holds %v, want %d finished", counts, smallPlanned)
	}
	seen := map[[4]int]bool{}
	st.Games(context.Background(), store.ReadOptions{NoPDN: true}, func(g store.Game) error {
		k := [4]int{g.Round, g.Board, g.Pair, g.PairGame}
		if seen[k] {
			t.Errorf("game %v played twice", k)
		}
		seen[k] = true
		return nil
	})
	// games.pdn has them all, and every one is legal.
	pdnFile := filepath.Join(out, reports.PDNFile)
	data, err := os.ReadFile(pdnFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "[Event "); n != smallPlanned {
		t.Errorf("games.pdn has %d games, want %d", n, smallPlanned)
	}
	cout, _, ccode := runArbiter(t, dir, "check", pdnFile)
	if want := fmt.Sprintf("games=%d ok=%d illegal=0 unreadable=0", smallPlanned, smallPlanned); ccode != 0 || !strings.Contains(cout, want) {
		t.Errorf("arbiter check: exit %d, want %q in\n%s", ccode, want, lastLines(cout, 5))
	}
	// A third run has nothing left to play and says so.
	stdout, _, code = runArbiter(t, dir, args...)
	if code != 0 || !strings.Contains(stdout, "(0 in this run") {
		t.Errorf("third run: exit %d\n%s", code, stdout)
	}
}

// gameCounts counts games by status through a second connection (WAL lets
// a reader in while the tournament writes); empty while there is no
// database yet.
func gameCounts(db string) map[store.Status]int {
	if _, err := os.Stat(db); err != nil {
		return nil
	}
	st, err := store.Open(db)
	if err != nil {
		return nil
	}
	defer st.Close()
	c, err := st.Count(context.Background())
	if err != nil {
		return nil
	}
	return c
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func TestTournamentUsageAndConfigErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "event.yaml"), smallEvent)
	writeFile(t, filepath.Join(dir, "typo.yaml"), smallEvent+"concurency: 3\n")
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"tournament"}, exitUsage, []string{"-c FILE is required"}},
		{[]string{"tournament", "-c", "missing.yaml"}, exitUsage, []string{"missing.yaml"}},
		{[]string{"tournament", "-c", "typo.yaml"}, exitUsage, []string{"typo.yaml", "concurency", "unknown key"}},
		{[]string{"tournament", "-c", "event.yaml", "--concurrency", "x"}, exitUsage, []string{"--concurrency"}},
		{[]string{"tournament", "-c", "event.yaml", "--concurrency", "0"}, exitUsage, []string{"--concurrency", "concurrency", "1 to 1024"}},
		{[]string{"tournament", "-c", "event.yaml", "--set", "engines.d1.time_control=soon"}, exitUsage, []string{"--set engines.d1.time_control=soon", "engines.1.time_control"}},
		{[]string{"tournament", "-c", "event.yaml", "--rounds", "triple"}, exitUsage, []string{"--rounds", "triple"}},
		{[]string{"tournament", "-c", "event.yaml", "--log-format", "xml"}, exitUsage, []string{"--log-format"}},
		{[]string{"report", filepath.Join(dir, "nowhere")}, exitUsage, []string{"no tournament database", "give the output directory of a match or tournament"}},
	} {
		_, stderr, code := runArbiter(t, dir, tc.args...)
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d\n%s", tc.args, code, tc.code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%q: stderr does not mention %q:\n%s", tc.args, w, stderr)
			}
		}
	}
	// The output directory cannot be made: a runtime failure.
	writeFile(t, filepath.Join(dir, "file"), "")
	_, stderr, code := runArbiter(t, dir, "tournament", "-c", "event.yaml", "--out", filepath.Join(dir, "file", "sub"))
	if code != exitRuntime {
		t.Errorf("unwritable output: exit %d, want %d\n%s", code, exitRuntime, stderr)
	}
}

// TestTournamentOtherConfigAndReport: a finished event's directory refuses
// another config (exit 2, naming both), and `arbiter report` rewrites the
// report from the database alone.
func TestTournamentOtherConfigAndReport(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "event.yaml"), smallEvent)
	out := filepath.Join(dir, "out")
	base := []string{"tournament", "-c", "event.yaml", "--out", out, "--progress", "off", "--games-per-encounter", "2"}
	stdout, stderr, code := runArbiter(t, dir, base...)
	if code != 0 || !strings.Contains(stdout, "12 of 12 games finished") || !strings.Contains(stdout, "report: ") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	_, stderr, code = runArbiter(t, dir, append(base, "--time-control", "20+0.2")...)
	if code != exitUsage || !strings.Contains(stderr, "another configuration") || !strings.Contains(stderr, "event.yaml") {
		t.Errorf("other config: exit %d\n%s", code, stderr)
	}
	// The concurrency may change between runs of the same event.
	_, stderr, code = runArbiter(t, dir, append(base, "--concurrency", "1")...)
	if code != 0 {
		t.Errorf("same event at another concurrency: exit %d\n%s", code, stderr)
	}
	for _, f := range []string{reports.HTMLFile, reports.ResultsFile, reports.PDNFile} {
		os.Remove(filepath.Join(out, f))
	}
	stdout, stderr, code = runArbiter(t, dir, "report", out)
	if code != 0 || !strings.Contains(stdout, filepath.Join(out, reports.HTMLFile)) {
		t.Fatalf("report: exit %d\n%s\n%s", code, stdout, stderr)
	}
	res, err := reports.ReadResults(filepath.Join(out, reports.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Games) != 12 {
		t.Errorf("results.json has %d games, want 12", len(res.Games))
	}
	for _, f := range []string{reports.HTMLFile, reports.PDNFile} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not rewritten: %v", f, err)
		}
	}
}

// TestTournamentDXPAndHub plays an event between a Hub engine and a DXP
// engine (the arbiter listens, the sparring engine connects), both real
// processes, at concurrency 2 (one DXP process per game slot).
func TestTournamentDXPAndHub(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "event.yaml"), `
name: dxp and hub
variant: english
time_control: "30+0.5"
engines:
  - {name: hub1, command: self engine --level 1}
  - {name: dxp2, protocol: dxp, listen: true, address: "127.0.0.1:0", command: "self engine --variant english --level 2 --dxp-connect {addr}"}
games_per_encounter: 6
concurrency: 2
openings: {file: openings/3move_english.json, group: standard}
`)
	out := filepath.Join(dir, "out")
	stdout, stderr, code := runArbiter(t, dir, "tournament", "-c", "event.yaml", "--out", out, "--progress", "off")
	if code != 0 || !strings.Contains(stdout, "6 of 6 games finished") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, reports.PDNFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `[Termination "engine`); n != 0 {
		t.Errorf("%d games ended by an engine fault:\n%s", n, data)
	}
	cout, _, ccode := runArbiter(t, dir, "check", filepath.Join(out, reports.PDNFile))
	if ccode != 0 || !strings.Contains(cout, "games=6 ok=6") {
		t.Errorf("arbiter check: exit %d\n%s", ccode, lastLines(cout, 3))
	}
}

// SIGINT, SIGTERM and SIGHUP: see TestTournamentStopSignalsAndResume.

// An interrupt that comes before the runner has a summary (here: before it
// could even read the database) is reported as an interruption, not a
// nil-pointer panic, and starts no engine. The command runs in this
// process, where "self" would be the test binary: the engines are a script
// that notes it was started.
func TestTournamentInterruptedAtStart(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "event.yaml")
	started := filepath.Join(dir, "started")
	engine := filepath.Join(dir, "engine.sh")
	writeFile(t, engine, "#!/bin/sh\n: > "+started+"\nexec sleep 30\n")
	if err := os.Chmod(engine, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, cfg, strings.NewReplacer("self engine --level random --seed 1", engine, "self engine --level 1 --seed 2", engine,
		"self engine --level 2 --seed 3", engine, "self engine --level greedy --seed 4", engine).Replace(smallEvent))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	root := newRoot()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs([]string{"tournament", "-c", cfg, "--out", filepath.Join(dir, "out"), "--progress", "off"})
	err := root.ExecuteContext(ctx)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("err = %v, want an interruption\n%s", err, errb.String())
	}
	if _, err := os.Stat(started); err == nil {
		t.Error("an engine was started by an event interrupted before it began")
	}
}

// Checked before the first game, by both commands: an engine that cannot
// play (a missing program, a crash at start-up with its last words, one
// that does not speak Hub) and an opening book of another board are
// configuration errors (exit 2) naming the engine or the file and line;
// nothing is written.
func TestPreflightErrors(t *testing.T) {
	dir := t.TempDir()
	event := func(bad string) string {
		return `
variant: english
time_control: "30+0.5"
engines:
  - {name: good, command: self engine --level 1}
  - {name: bad, init_timeout: 2s, command: "` + bad + `"}
`
	}
	noexec := filepath.Join(dir, "engine.sh")
	if err := os.WriteFile(noexec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, command string
		want          []string
	}{
		{"missing", "/no/such/engine", []string{"engine bad (engines.1) cannot play", `"/no/such/engine"`, "no such file"}},
		{"crash", "/bin/sh -c 'echo no endgame database >&2; exit 1'", []string{"engine bad (engines.1) cannot play", "no endgame database"}},
		{"not hub", "sleep 30", []string{"engine bad (engines.1) cannot play", `no "wait" from it within 2s`, "can be given longer: init=5m in its --engine spec, init_timeout: 5m in a config file"}},
		// The author's first typos: a script not made executable, a path
		// relative to another directory, a Windows path (its backslashes
		// were eaten as escapes: "C:Enginesscanscan.exe").
		{"not executable", noexec, []string{"engine bad (engines.1) cannot play", "the file is not executable (chmod +x " + noexec + ")"}},
		{"relative", "./my-engine hub", []string{"engine bad (engines.1) cannot play", "a relative path is looked up from the working directory, "}},
		{"windows path", `C:\Engines\scan\scan.exe hub`, []string{"engine bad (engines.1) cannot play", `"C:\\Engines\\scan\\scan.exe"`}},
	} {
		for _, command := range []string{"tournament", "match"} {
			t.Run(tt.name+"/"+command, func(t *testing.T) {
				// Each case is a process of its own, with its own files
				// in dir; the two "not hub" cases wait out the 2 s init.
				t.Parallel()
				out := filepath.Join(dir, tt.name+"-"+command)
				var args []string
				if command == "tournament" {
					file := filepath.Join(dir, tt.name+".yaml")
					writeFile(t, file, event(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(tt.command)))
					args = []string{"tournament", "-c", file}
				} else {
					args = []string{"match", "--time-control", "30+0.5", "--engine", "name=good cmd=self engine --level 1",
						"--engine", "name=bad init=2s cmd=" + tt.command}
				}
				_, stderr, code := runArbiter(t, dir, append(args, "--out", out)...)
				if code != exitUsage {
					t.Errorf("exit %d, want %d\n%s", code, exitUsage, stderr)
				}
				for _, w := range tt.want {
					if !strings.Contains(stderr, w) {
						t.Errorf("stderr lacks %q:\n%s", w, stderr)
					}
				}
				if strings.Contains(stderr, "engine good") {
					t.Errorf("the good engine is named:\n%s", stderr)
				}
				if _, err := os.Stat(out); err == nil {
					t.Errorf("%s was created", out)
				}
			})
		}
	}
	// An 8x8 ballot for a 10x10 event: the file and the line of the first
	// bad opening.
	_, stderr, code := runArbiter(t, dir, "match", "--variant", "international", "--openings-file", "3move_english.json",
		"--engine", "cmd=self engine", "--engine", "cmd=self engine --level random", "--out", filepath.Join(dir, "book"))
	if code != exitUsage || !strings.Contains(stderr, "openings/3move_english.json:2: group \"all\", opening \"001 09-13 21-17 05-09\": no piece stands above square 32") {
		t.Errorf("8x8 ballot in a 10x10 event: exit %d\n%s", code, stderr)
	}
}

// A finished event whose engine's command changed (the program moved)
// resumes when the engine is the same one (its Hub id and version), and is
// refused, naming the engine and --force, when it is not; --force resumes
// it anyway.
func TestResumeAfterCommandChange(t *testing.T) {
	dir := t.TempDir()
	event := func(cmd string) string {
		return `
name: moved
variant: english
time_control: "30+0.5"
engines:
  - {name: a, command: self engine --level 1 --seed 1}
  - {name: b, command: "` + cmd + `"}
games_per_encounter: 2
`
	}
	writeFile(t, filepath.Join(dir, "moved.sh"), "exec "+arbiterBin+" engine --level random --seed 2\n")
	writeFile(t, filepath.Join(dir, "other.sh"), `while read -r line; do case "$line" in
hub) echo "id name=other version=9"; echo wait ;; init) echo ready ;; ping) echo pong ;; quit) exit 0 ;; esac; done
`)
	out := filepath.Join(dir, "out")
	run := func(cmd string, extra ...string) (string, int) {
		writeFile(t, filepath.Join(dir, "event.yaml"), event(cmd))
		_, stderr, code := runArbiter(t, dir, append([]string{"tournament", "-c", "event.yaml", "--out", out, "--progress", "off", "--no-report"}, extra...)...)
		return stderr, code
	}
	if stderr, code := run("self engine --level random --seed 2"); code != 0 {
		t.Fatalf("first run: exit %d\n%s", code, stderr)
	}
	if stderr, code := run("/bin/sh moved.sh"); code != 0 || !strings.Contains(stderr, `resuming with another command: engine b: command was "self engine --level random --seed 2", now "/bin/sh moved.sh" (the same engine: "sparring" version "1.0")`) {
		t.Errorf("moved engine: exit %d\n%s", code, stderr)
	}
	if stderr, code := run("/bin/sh other.sh"); code != exitUsage || !strings.Contains(stderr, `engine b: command was "/bin/sh moved.sh", now "/bin/sh other.sh" (was "sparring" version "1.0", now "other" version "9"); give --force`) {
		t.Errorf("another engine: exit %d\n%s", code, stderr)
	}
	if stderr, code := run("/bin/sh other.sh", "--force"); code != 0 || !strings.Contains(stderr, "(--force: was") {
		t.Errorf("another engine with --force: exit %d\n%s", code, stderr)
	}
	// Anything else changed is still another event.
	writeFile(t, filepath.Join(dir, "event.yaml"), event("/bin/sh other.sh")+"adjudication: {max_moves: 40}\n")
	if _, stderr, code := runArbiter(t, dir, "tournament", "-c", "event.yaml", "--out", out, "--force"); code != exitUsage || !strings.Contains(stderr, "another configuration") {
		t.Errorf("another configuration: exit %d\n%s", code, stderr)
	}
}

// A script engine changed between two runs of an event: the resumed run
// warns on stderr, naming the engine and what changed.
func TestTournamentWarnsAboutARebuiltEngine(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "engine.sh")
	writeFile(t, script, "#!/bin/sh\nexec "+arbiterBin+" engine --level random \"$@\"\n")
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "event.yaml"), `
name: rebuilt
variant: english
time_control: "10+0.1"
engines:
  - {name: s, command: ./engine.sh}
  - {name: r, command: self engine --level random --seed 2}
games_per_encounter: 2
adjudication: {max_moves: 30}
`)
	args := []string{"tournament", "-c", "event.yaml", "--out", "out", "--progress", "off", "--no-report"}
	if out, errs, code := runArbiter(t, dir, args...); code != 0 || strings.Contains(errs, "warning: engine") {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errs)
	}
	writeFile(t, script, "#!/bin/sh\n# rebuilt\nexec "+arbiterBin+" engine --level random \"$@\"\n")
	out, errs, code := runArbiter(t, dir, args...)
	if code != 0 || !strings.Contains(errs, "warning: engine s is not what it was in this event's earlier games (program checksum (SHA-256)") {
		t.Errorf("resumed run: exit %d, want 0 and a warning naming engine s\n%s\n%s", code, out, errs)
	}
}

// A large engine's checksum is remembered between runs (in
// $XDG_CACHE_HOME/arbiter/checksums) but never hides a rebuild: an engine
// of 50 MB (a copy of the arbiter) rebuilt in place with the same size,
// only its contents and times changed, is still named when the event
// resumes.
func TestRememberedChecksumSeesARebuild(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	program, err := os.ReadFile(arbiterBin)
	if err != nil {
		t.Fatal(err)
	}
	engine := filepath.Join(dir, "engine")
	build := func(mark byte) {
		// Trailing bytes after the ELF image: the program runs the same.
		if err := os.WriteFile(engine, append(program, 'b', 'u', 'i', 'l', 'd', mark), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	build('1')
	writeFile(t, filepath.Join(dir, "event.yaml"), `
name: rebuilt
variant: english
time_control: "10+0.1"
engines:
  - {name: big, command: ./engine engine --level random --seed 1}
  - {name: r, command: self engine --level random --seed 2}
games_per_encounter: 2
adjudication: {max_moves: 30}
`)
	// A file changed a moment ago is not remembered (its next change could
	// keep its times): the first run waits until the copy has settled.
	if fi, err := os.Stat(engine); err == nil {
		if young := 300*time.Millisecond - time.Since(fi.ModTime()); young > 0 {
			time.Sleep(young)
		}
	}
	args := []string{"tournament", "-c", "event.yaml", "--out", "out", "--progress", "off", "--no-report"}
	if out, errs, code := runArbiter(t, dir, args...); code != 0 {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errs)
	}
	remembered, err := os.ReadFile(filepath.Join(cache, "arbiter", "checksums"))
	if err != nil || !strings.Contains(string(remembered), " "+engine+"\n") {
		t.Fatalf("the cache holds %q, %v; want the engine's line", remembered, err)
	}
	build('2')
	out, errs, code := runArbiter(t, dir, args...)
	if code != 0 || !strings.Contains(errs, "warning: engine big is not what it was in this event's earlier games (program checksum (SHA-256)") {
		t.Errorf("resumed run: exit %d, want 0 and a warning naming engine big\n%s\n%s", code, out, errs)
	}
}
