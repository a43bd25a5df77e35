package match_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Sparring engines play a complete game in every preset.
func TestEveryPresetPlaysAGame(t *testing.T) {
	for i, name := range rules.Presets() {
		t.Run(name, func(t *testing.T) {
			white := sparring(t, "w-"+name, "--level", "random", "--seed", "1")
			black := sparring(t, "b-"+name, "--level", "1", "--seed", "2")
			cfg := config(name, "10+0.1", arbiter.PolicyStrict)
			cfg.MaxMoves = 40 + i
			rec := play(t, cfg, white, black, match.Options{})
			if len(rec.Moves) == 0 {
				t.Fatal("no move was played")
			}
			switch rec.Result.Termination {
			case arbiter.IllegalMove, arbiter.EngineCrashed, arbiter.EngineStalled, arbiter.TimeForfeit:
				t.Fatalf("sound engines ended with %s", rec.Result)
			}
			// The variant reached the engine: its moves were legal in it.
			if white.Name() != "w-"+name || rec.White != "w-"+name {
				t.Errorf("names: %q / %q", white.Name(), rec.White)
			}
			if len(rec.Wait) != len(rec.Moves) || len(rec.Info) != len(rec.Moves) {
				t.Errorf("per-move data: %d waits, %d infos for %d moves", len(rec.Wait), len(rec.Info), len(rec.Moves))
			}
		})
	}
}

// Each fault switch of the sparring engine gives the right result.
func TestFaults(t *testing.T) {
	tests := []struct {
		name        string
		policy      arbiter.Policy
		tc          string
		faults      []string
		faulty      rules.Color
		termination arbiter.Termination // of a lost game; "" = the game goes on
		warnings    int
		plies       int // plies before the game ended, -1: not checked (white K-th move follows ply 2K-2, black's ply 2K-1)
	}{
		{"crash", arbiter.PolicyWCDF, "10+0.1", []string{"crash-at=3"}, rules.Black, arbiter.EngineCrashed, 0, 5},
		{"crash at the first move", arbiter.PolicyWCDF, "10+0.1", []string{"crash-at=1"}, rules.White, arbiter.EngineCrashed, 0, 0},
		{"hang", arbiter.PolicyWCDF, "1+0", []string{"hang-at=2"}, rules.Black, arbiter.EngineStalled, 0, 3},
		{"slow", arbiter.PolicyWCDF, "1+0", []string{"slow-at=2"}, rules.White, arbiter.TimeForfeit, 0, 2},
		{"illegal under wcdf: warning", arbiter.PolicyWCDF, "10+0.1", []string{"illegal-at=2"}, rules.Black, "", 1, -1},
		{"illegal under strict", arbiter.PolicyStrict, "10+0.1", []string{"illegal-at=2"}, rules.Black, arbiter.IllegalMove, 0, 3},
		{"two illegal moves under wcdf", arbiter.PolicyWCDF, "10+0.1", []string{"illegal-at=2", "illegal-at=4"}, rules.White, arbiter.IllegalMove, 1, -1},
		{"garbage under wcdf: warning", arbiter.PolicyWCDF, "10+0.1", []string{"garbage-at=3"}, rules.White, "", 1, -1},
		{"garbage under strict", arbiter.PolicyStrict, "10+0.1", []string{"garbage-at=3"}, rules.White, arbiter.IllegalMove, 0, 4},
		{"garbage twice under wcdf", arbiter.PolicyWCDF, "10+0.1", []string{"garbage-at=1,garbage-at=2"}, rules.Black, arbiter.IllegalMove, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.name, "hang") || strings.HasPrefix(tt.name, "slow") {
				t.Parallel()
			}
			var args []string
			for _, f := range tt.faults {
				args = append(args, "--fault", f)
			}
			// International: white moves first, so white's K-th move is ply 2K-1.
			good := sparring(t, "good", "--level", "random", "--seed", "7")
			bad := sparring(t, "bad", append([]string{"--level", "random", "--seed", "8"}, args...)...)
			white, black := match.Player(good), match.Player(bad)
			if tt.faulty == rules.White {
				white, black = bad, good
			}
			cfg := config("international", tt.tc, tt.policy)
			start := time.Now()
			rec := play(t, cfg, white, black, match.Options{})
			took := time.Since(start)
			res := rec.Result
			if tt.termination == "" {
				switch res.Termination {
				case arbiter.IllegalMove, arbiter.EngineCrashed, arbiter.EngineStalled, arbiter.TimeForfeit:
					t.Errorf("the game should have gone on after the warning, got %s", res)
				}
			} else {
				if res.Termination != tt.termination || res.Outcome != rules.WinFor(tt.faulty.Opponent()) {
					t.Errorf("result %s, want %s losing by %q", res, tt.faulty, tt.termination)
				}
			}
			if len(rec.Warnings) != tt.warnings {
				t.Errorf("%d warnings, want %d: %+v", len(rec.Warnings), tt.warnings, rec.Warnings)
			}
			for _, w := range rec.Warnings {
				if w.Color != tt.faulty {
					t.Errorf("warning to %s, want %s", w.Color, tt.faulty)
				}
			}
			if tt.plies >= 0 && len(rec.Moves) != tt.plies {
				t.Errorf("%d plies, want %d", len(rec.Moves), tt.plies)
			}
			// A hang or a slow engine ends the game within its time, the
			// margin, the stop handshake and a little scheduling noise.
			if tt.tc == "1+0" && took > 10*time.Second {
				t.Errorf("the game took %v", took)
			}
		})
	}
}

// The whole protocol exchange and the engine's stderr reach the log.
func TestEngineLog(t *testing.T) {
	log, path := engineLog(t, "logged")
	p := newHub(bin, log, "--level", "random", "--fault", "crash-at=2")
	t.Cleanup(func() { closeAndCheck(t, p) })
	other := sparring(t, "other")
	rec := play(t, config("english", "10+0.1", arbiter.PolicyWCDF), other, p, match.Options{})
	// The crash report quotes the engine's last words, and they are in the
	// log by the time the game is over (not only after the engine is closed).
	if rec.Result.Termination != arbiter.EngineCrashed || !strings.Contains(rec.Result.Reason, `last stderr line: "arbiter engine: planned crash"`) {
		t.Errorf("result %s, want a crash quoting the engine's stderr", rec.Result)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"line":"hub"`, `"line":"wait"`, `"line":"init"`, `"line":"ready"`, `"line":"go think"`, `"line":"done move=`, `"line":"level time=`, `"dir":"stderr"`, "planned crash"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("log lacks %s", want)
		}
	}
}

// Without a clock (depth limit) a hung engine is found by ping.
func TestUntimedHangIsFoundByPing(t *testing.T) {
	log, _ := engineLog(t, "hung")
	bad := hub.New(hub.Options{Name: "hung", Command: []string{bin, "engine", "--fault", "hang-at=2"}, Log: log,
		PingInterval: 200 * time.Millisecond, PingTimeout: 300 * time.Millisecond})
	t.Cleanup(func() { closeAndCheck(t, bad) })
	good := sparring(t, "good")
	cfg := config("english", "depth=2", arbiter.PolicyWCDF)
	rec := play(t, cfg, bad, good, match.Options{})
	if rec.Result.Termination != arbiter.EngineStalled || rec.Result.Outcome != rules.BlackWins {
		t.Errorf("result %s, want white stalled", rec.Result)
	}
	if !strings.Contains(rec.Result.Reason, "no pong") {
		t.Errorf("reason %q", rec.Result.Reason)
	}
}

// Engines are reused from game to game; after a fault the engine is
// restarted for the next game.
func TestEngineRestartAfterFault(t *testing.T) {
	bad := sparring(t, "bad", "--fault", "crash-at=2")
	good := sparring(t, "good")
	cfg := config("english", "10+0.1", arbiter.PolicyWCDF)
	for i := range 2 {
		rec := play(t, cfg, good, bad, match.Options{})
		if rec.Result.Termination != arbiter.EngineCrashed {
			t.Errorf("game %d: %s", i+1, rec.Result)
		}
	}
	pid := good.Pid()
	play(t, cfg, good, bad, match.Options{})
	if good.Pid() != pid {
		t.Error("a sound engine was restarted between games")
	}
}

// The presets of RULES.md section 8 play complete games (to the end the
// rules give, no move limit) between sparring engines, and their PDN
// passes `check` (play does that).
func TestSection8PresetsPlayCompleteGames(t *testing.T) {
	for _, name := range []string{"turkish", "frisian", "frysk", "breakthrough", "killer", "dameo", "gothic", "alquerque", "corner", "hawaii", "parachute"} {
		t.Run(name, func(t *testing.T) {
			white := sparring(t, "w-"+name, "--level", "1", "--seed", "3")
			black := sparring(t, "b-"+name, "--level", "greedy", "--seed", "4")
			cfg := config(name, "60+1", arbiter.PolicyStrict)
			cfg.MaxMoves = 1000 // a bound for a broken rule set, not expected to be reached
			rec := play(t, cfg, white, black, match.Options{})
			switch rec.Result.Termination {
			case arbiter.IllegalMove, arbiter.EngineCrashed, arbiter.EngineStalled, arbiter.TimeForfeit, arbiter.Adjudication:
				t.Fatalf("ended with %s (%s) after %d plies", rec.Result, rec.Result.Reason, len(rec.Moves))
			}
			t.Logf("%s: %s (%s) after %d plies", name, rec.Result, rec.Result.Reason, len(rec.Moves))
		})
	}
}
