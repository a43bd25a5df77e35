package cb_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/internal/testbin"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/cb"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/rules"
)

// bin is the arbiter binary: its cb-host subcommand loads the libraries.
var bin string

func TestMain(m *testing.M) { testbin.Main(m, &bin, "../../../cmd/arbiter", nil) }

// library builds testdata/cbtest.c into a shared library with the -D
// switches given (none: a sound engine). Without a C compiler the test is
// skipped, except under CI=true, where .ci/run installs gcc.
func library(t *testing.T, name string, defs ...string) string {
	t.Helper()
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if cc, err = exec.LookPath("cc"); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatal("no C compiler (gcc) under CI=true: .ci/run should have installed it")
			}
			t.Skip("skipped: no C compiler (gcc) to build the CheckerBoard test library (apt-get install gcc)")
		}
	}
	out := filepath.Join(t.TempDir(), name+".so")
	args := []string{"-shared", "-fPIC", "-O1", "-o", out, "testdata/cbtest.c", `-DNAME_SUFFIX="` + name + `"`}
	for _, d := range defs {
		args = append(args, "-D"+d)
	}
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, msg)
	}
	return out
}

// player is a Hub player running the library through `arbiter cb-host`.
func player(t *testing.T, lib string) (*hub.Player, string) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "engine.log")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	p := hub.New(hub.Options{Command: []string{bin, "cb-host", lib}, Log: zerolog.New(f), InitTimeout: 10 * time.Second})
	t.Cleanup(func() { p.Close() })
	return p, logPath
}

func play(t *testing.T, tc string, policy arbiter.Policy, white, black match.Player) *match.GameRecord {
	t.Helper()
	tcv, err := arbiter.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	cfg := arbiter.Config{Variant: rules.MustLookup("english"), TimeControl: [2]arbiter.TimeControl{tcv, tcv}, Policy: policy,
		AutoClaim: true, MaxMoves: 60, Margin: 100 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rec, err := match.PlayGameOptions(ctx, cfg, white, black, zerolog.Nop(), match.Options{})
	if err != nil {
		t.Fatalf("PlayGame: %v", err)
	}
	if rec.Result.Outcome == rules.Ongoing {
		t.Fatalf("game not finished: %+v", rec.Result)
	}
	return rec
}

// CheckerBoard engines play complete games through the host, against each
// other and against the sparring engine, and are reused between games.
func TestCBPlaysGames(t *testing.T) {
	lib := library(t, "ok")
	a, logPath := player(t, lib)
	// It prints to stdout as it plays: the host keeps that off the protocol.
	b, _ := player(t, library(t, "noisy", "NOISY=1"))
	sp := hub.New(hub.Options{Command: []string{bin, "engine", "--level", "1"}, InitTimeout: 10 * time.Second})
	t.Cleanup(func() { sp.Close() })
	for i, pair := range [][2]match.Player{{a, b}, {sp, a}, {a, sp}} {
		tc := []string{"10+0.1", "move=0.2", "40/60"}[i]
		rec := play(t, tc, arbiter.PolicyStrict, pair[0], pair[1])
		switch rec.Result.Termination {
		case arbiter.IllegalMove, arbiter.EngineCrashed, arbiter.EngineStalled, arbiter.TimeForfeit, arbiter.EngineFault:
			t.Fatalf("game %d (%s): sound engines ended with %s: %s", i+1, tc, rec.Result, rec.Result.Reason)
		}
		if len(rec.Moves) < 20 {
			t.Errorf("game %d: only %d plies (%s)", i+1, len(rec.Moves), rec.Result)
		}
	}
	if a.Name() != "cbtest ok" {
		t.Errorf("name %q, want the engine's own (enginecommand name)", a.Name())
	}
	pid := a.Pid()
	play(t, "10+0.1", arbiter.PolicyStrict, b, a)
	if a.Pid() != pid {
		t.Error("the host was restarted between games")
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`param name=variant value=english`, `message=\"depth 1 moves`, `done move=`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("log lacks %s", want)
		}
	}
}

// A library that crashes in getmove takes only its host down: the game is
// the crash's, and the engine is started afresh for the next game.
func TestCBCrash(t *testing.T) {
	crash, _ := player(t, library(t, "crash", "CRASH_AT=3"))
	good, _ := player(t, library(t, "good"))
	for i := range 2 {
		rec := play(t, "10+0.1", arbiter.PolicyStrict, good, crash)
		// English: black moves first, so black's third move is ply 5.
		if rec.Result.Termination != arbiter.EngineCrashed || rec.Result.Outcome != rules.WhiteWins || len(rec.Moves) != 4 {
			t.Errorf("game %d: %s (%s) after %d plies, want black's crash at its third move", i+1, rec.Result, rec.Result.Reason, len(rec.Moves))
		}
		t.Logf("game %d: %s: %s", i+1, rec.Result, rec.Result.Reason)
		if !strings.Contains(rec.Result.Reason, "exited") {
			t.Errorf("reason %q", rec.Result.Reason)
		}
	}
}

// An illegal move is passed through to the referee, which rules on it.
func TestCBIllegalMove(t *testing.T) {
	bad, _ := player(t, library(t, "illegal", "ILLEGAL_AT=2"))
	good, _ := player(t, library(t, "good"))
	rec := play(t, "10+0.1", arbiter.PolicyStrict, bad, good)
	if rec.Result.Termination != arbiter.IllegalMove || rec.Result.Outcome != rules.BlackWins {
		t.Fatalf("%s (%s), want white's illegal move", rec.Result, rec.Result.Reason)
	}
	if len(rec.Moves) != 3 {
		t.Errorf("%d plies, want 3", len(rec.Moves))
	}
}

// "stop" sets *playnow: an engine that thinks until told answers after the
// stop instead of being lost as silent. With the host's guard (the
// default) the host raises *playnow itself before the arbiter's stop.
func TestCBStopSetsPlayNow(t *testing.T) {
	for _, guarded := range []bool{false, true} {
		slow, logPath := hostPlayer(t, library(t, "slow", "SLOW_AT=2"), !guarded)
		good, _ := player(t, library(t, "good"))
		rec := play(t, "move=0.3", arbiter.PolicyStrict, slow, good)
		if rec.Result.Termination == arbiter.EngineStalled || strings.Contains(rec.Result.Reason, "no move") {
			t.Fatalf("guarded %v: %s (%s): the engine never answered the stop", guarded, rec.Result, rec.Result.Reason)
		}
		t.Logf("guarded %v: %s: %s after %d plies", guarded, rec.Result, rec.Result.Reason, len(rec.Moves))
		data, _ := os.ReadFile(logPath)
		log := string(data)
		if guarded {
			if rec.Result.Termination == arbiter.TimeForfeit || !strings.Contains(log, "call 2\\\" maxtime=") || !strings.Contains(log, "stopped=host") {
				t.Errorf("the log does not show the host stopping the second move in time:\n%s", log)
			}
			continue
		}
		if !strings.Contains(log, `"line":"stop"`) || !strings.Contains(log, "call 2") || strings.Contains(log, "stopped=host") {
			t.Errorf("the log does not show a stop by the arbiter answered by the second move:\n%s", log)
		}
	}
}

func TestSquareNumbering(t *testing.T) {
	for _, gt := range []int{cb.GTEnglish, cb.GTItalian, cb.GTSpanish, cb.GTRussian, cb.GTCzech} {
		seen := map[[2]int]bool{}
		for n := 1; n <= 32; n++ {
			x, y := cb.NumberToCoor(n, gt)
			if x < 0 || x > 7 || y < 0 || y > 7 || (x+y)%2 != 0 && gt == cb.GTEnglish {
				t.Errorf("gametype %d: square %d at (%d,%d)", gt, n, x, y)
			}
			if seen[[2]int{x, y}] {
				t.Errorf("gametype %d: square %d at (%d,%d) twice", gt, n, x, y)
			}
			seen[[2]int{x, y}] = true
			if back := cb.CoorToNumber(x, y, gt); back != n {
				t.Errorf("gametype %d: %d -> (%d,%d) -> %d", gt, n, x, y, back)
			}
		}
	}
	// CheckerBoard's English board: square 1 is board[6][0], 4 is board[0][0], 5 is board[7][1].
	for _, c := range []struct{ n, x, y int }{{1, 6, 0}, {4, 0, 0}, {5, 7, 1}, {32, 1, 7}} {
		if x, y := cb.NumberToCoor(c.n, cb.GTEnglish); x != c.x || y != c.y {
			t.Errorf("square %d at (%d,%d), want (%d,%d)", c.n, x, y, c.x, c.y)
		}
	}
}
