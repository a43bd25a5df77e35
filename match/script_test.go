package match_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/enginelog"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/rules"
)

func newHub(bin string, log zerolog.Logger, args ...string) *hub.Player {
	return hub.New(hub.Options{Command: append([]string{bin, "engine"}, args...), Log: log, InitTimeout: 10 * time.Second})
}

// handshake is the part of a scripted engine that answers the handshake.
const handshake = `
while read -r line; do
  case "$line" in
    hub) echo "id name=script"; echo "param name=variant value=english type=enum values=\"english\""; echo wait ;;
    init) echo ready ;;
    ping) echo pong ;;
    quit) exit 0 ;;
    go*) answer ;;
  esac
done
`

// Scripted engines cover what the sparring engine does not do.
func TestScriptedEngines(t *testing.T) {
	tests := []struct {
		name        string
		answer      string // body of the shell function "answer"
		policy      arbiter.Policy
		termination arbiter.Termination
		plies       int
		why         string // in the warning or the reason
	}{
		{"bare done", `echo done`, arbiter.PolicyStrict, arbiter.IllegalMove, 0, "done without a move"},
		// The engine is black and moves first in English: 9-13 is legal once.
		// Output that is not a Hub answer is ignored whether it parses or
		// not: a banner, a malformed info line (stray quote in a PV), a
		// stray line with a quote.
		{"noise is ignored, then a repeated move is illegal", `echo "hello world"; echo "info depth=1 nodes=5"; echo 'info pv="11-15 23-19'; echo "copyright x"; echo 'copyright "2026'; echo 'load "book'; echo "done move=9-13"`,
			arbiter.PolicyStrict, arbiter.IllegalMove, 2, "Black played 9-13: there is no piece on 9"},
		// A plain move on the board is explained by the referee, as a
		// person's is (the reason said "not a legal move for Black in
		// FEN: illegal move: 21-17").
		{"move for the other side", `echo "done move=21-17"`, arbiter.PolicyStrict, arbiter.IllegalMove, 0, "Black played 21-17: the piece on 21 is white's, and it is black's move"},
		{"unknown square", `echo "done move=9-99"`, arbiter.PolicyStrict, arbiter.IllegalMove, 0, "bad square"},
		{"unreadable done", `echo 'done move="9-13'`, arbiter.PolicyWCDF, arbiter.IllegalMove, 0, "a done line that breaks the Hub syntax"},
		{"exit during search", `exit 5`, arbiter.PolicyWCDF, arbiter.EngineCrashed, 0, "it exited during its search (exit status 5)"},
		// An oversized line is the engine's fault, named as such, whatever
		// the line: not an illegal move (no retry under WCDF).
		{"info line over the limit", `printf 'info pv='; head -c 70000 /dev/zero | tr '\0' x; echo; echo "done move=9-13"`,
			arbiter.PolicyWCDF, arbiter.EngineFault, 0, "Black's engine was stopped by the arbiter: it sent a line longer than 65536 bytes"},
		{"junk line over the limit", `head -c 70000 /dev/zero | tr '\0' x; echo; echo "done move=9-13"`,
			arbiter.PolicyStrict, arbiter.EngineFault, 0, "line longer than 65536 bytes"},
		{"silent, answers ping", `:`, arbiter.PolicyWCDF, arbiter.TimeForfeit, 0, "no move after stop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body := "answer() { " + tt.answer + "; }\n" + handshake
			black := script(t, "script", body)
			white := sparring(t, "white")
			cfg := config("english", "1+0", tt.policy)
			rec := play(t, cfg, white, black, match.Options{Slack: time.Second})
			res := rec.Result
			if res.Termination != tt.termination || res.Outcome != rules.WhiteWins {
				t.Fatalf("result %s, want black losing by %q", res, tt.termination)
			}
			if len(rec.Moves) != tt.plies {
				t.Errorf("%d plies, want %d", len(rec.Moves), tt.plies)
			}
			text := res.Reason
			for _, w := range rec.Warnings {
				text += " " + w.Why
			}
			if !strings.Contains(text, tt.why) {
				t.Errorf("reason %q does not mention %q", text, tt.why)
			}
		})
	}
}

// An engine that fails during the handshake loses without a move.
func TestEngineFailsToStart(t *testing.T) {
	tests := []struct {
		name, body  string
		termination arbiter.Termination
	}{
		{"exits at once", "exit 0", arbiter.EngineCrashed},
		{"never ready", `while read -r l; do case "$l" in hub) echo wait;; esac; done`, arbiter.EngineStalled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			white := script(t, "broken", tt.body)
			black := sparring(t, "black")
			rec := play(t, config("english", "10+0", arbiter.PolicyWCDF), white, black, match.Options{})
			if rec.Result.Termination != tt.termination || rec.Result.Outcome != rules.BlackWins || len(rec.Moves) != 0 {
				t.Errorf("result %s after %d plies, want white losing by %q", rec.Result, len(rec.Moves), tt.termination)
			}
		})
	}
	if _, err := match.PlayGame(t.Context(), config("english", "10", ""), hub.New(hub.Options{Command: []string{filepath.Join(t.TempDir(), "no-such-engine")}}),
		sparring(t, "x"), zerolog.Nop()); err == nil {
		t.Error("an engine that cannot be run did not stop the game with an error")
	}
}

// An engine that answers "go" with endless info lines and no move is
// stopped and flagged as one that says nothing would be: the flood of lines
// the arbiter has read but not yet looked at holds off neither the stop at
// the deadline nor the flag (the referee's clock, not the reader, decides).
func TestInfoFloodDoesNotHoldOffTheFlag(t *testing.T) {
	p := script(t, "flood", `answer() { yes 'info depth=1 score=0.00 pv=9-13'; }`+handshake)
	white := sparring(t, "white")
	rec := play(t, config("english", "1+0", arbiter.PolicyWCDF), white, p, match.Options{Slack: 500 * time.Millisecond})
	res := rec.Result
	if res.Outcome != rules.WhiteWins || (res.Termination != arbiter.TimeForfeit && res.Termination != arbiter.EngineStalled) {
		t.Fatalf("result %s (%s, %s) after %d plies; want black's loss on time", res, res.Termination, res.Reason, len(rec.Moves))
	}
}

// Killing reaches the engine's own children (process group).
func TestCloseKillsGrandchildren(t *testing.T) {
	marker := fmt.Sprintf("%d", 100000+os.Getpid()%100000)
	body := "sleep " + marker + " & \n" + `answer() { sleep 1000; }` + handshake
	p := script(t, "parent", body)
	white := sparring(t, "white")
	rec := play(t, config("english", "1+0", arbiter.PolicyWCDF), white, p, match.Options{Slack: 500 * time.Millisecond})
	if rec.Result.Termination != arbiter.TimeForfeit && rec.Result.Termination != arbiter.EngineStalled {
		t.Errorf("result %s", rec.Result)
	}
	p.Close()
	// The engine's script names the marker in its own command line, its
	// sleeping child as an argument (cmdline separates them with NUL bytes).
	waitGone(t, "sleep "+marker, "sleep\x00"+marker)
}

// An unreadable done leaves the search open: before the next request the
// arbiter sends stop and ping and drops everything up to the pong, so a late
// "done" of the engine's for the abandoned search is not taken as its answer
// to the retry (which would misplace every later answer by one request).
func TestGarbageLeavesNoStaleAnswer(t *testing.T) {
	body := `n=0
answer() {
  n=$((n+1))
  case $n in
    1) echo 'done "unterminated'; sleep 0.3; echo "done move=12-16" ;;
    2) echo "done move=9-13" ;;
    *) exit 0 ;;
  esac
}
` + handshake
	black := script(t, "script", body)
	white := sparring(t, "white")
	rec := play(t, config("english", "10+0.1", arbiter.PolicyWCDF), white, black, match.Options{Slack: time.Second})
	if len(rec.Warnings) != 1 || len(rec.Moves) < 1 {
		t.Fatalf("warnings %+v, moves %d", rec.Warnings, len(rec.Moves))
	}
	if got := rec.Moves[0].Move; got.From != 9 || got.To != 13 {
		t.Errorf("first move %d-%d: the late answer to the abandoned search was taken", got.From, got.To)
	}
	if rec.Result.Termination != arbiter.EngineCrashed {
		t.Errorf("result %s, want the script's exit as a crash", rec.Result)
	}
}

// Some engines stop their search at any input. Under a slow clock a long
// think is not interrupted by an early ping (the first mid-search ping waits
// for three times the engine's share of its clock); under a depth limit the
// ping comes after PingInterval (TestUntimedHangIsFoundByPing).
func TestNoEarlyPingInASlowGame(t *testing.T) {
	body := `n=0
answer() {
  n=$((n+1))
  case $n in
    1) sleep 1; echo "done move=9-13" ;;
    *) exit 0 ;;
  esac
}
` + handshake
	log, path := engineLog(t, "thinker")
	black := hub.New(hub.Options{Name: "thinker", Command: []string{"/bin/sh", "-c", body}, Log: log,
		InitTimeout: 2 * time.Second, PingInterval: 200 * time.Millisecond})
	t.Cleanup(func() { closeAndCheck(t, black) })
	white := sparring(t, "white")
	rec := play(t, config("english", "60+0", arbiter.PolicyWCDF), white, black, match.Options{})
	if len(rec.Moves) < 1 || rec.Moves[0].Move.From != 9 {
		t.Fatalf("the first move was not the thinker's 9-13: %+v", rec.Result)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log1 := string(data)
	done := strings.Index(log1, `"line":"done move=9-13"`)
	if done < 0 {
		t.Fatalf("no done in the log:\n%s", log1)
	}
	if strings.Contains(log1[:done], `"dir":">","line":"ping"`) {
		t.Errorf("the engine was pinged during its first 1 s search under 60+0:\n%s", log1[:done])
	}
}

// An engine whose variant parameter offers none of the event's variant would
// play another game: it is stopped before the game, with the reason; setting
// its variant option (the name it uses) lets it play.
func TestEngineWithoutTheVariant(t *testing.T) {
	body := `while read -r line; do
  case "$line" in
    hub) echo "id name=scan-like"; echo 'param name=variant value=normal type=enum values="normal killer bt"'; echo wait ;;
    init) echo ready ;;
    ping) echo pong ;;
    quit) exit 0 ;;
  esac
done
`
	white := script(t, "scan-like", body)
	black := sparring(t, "black")
	rec := play(t, config("english", "10+0", arbiter.PolicyWCDF), white, black, match.Options{})
	if rec.Result.Outcome != rules.BlackWins || len(rec.Moves) != 0 || !strings.Contains(rec.Result.Reason, `offers "normal killer bt", none of them english`) {
		t.Errorf("result %s (%s) after %d plies", rec.Result, rec.Result.Reason, len(rec.Moves))
	}
}

// Output that is not a Hub answer is logged as read, with one warning per
// game however much of it there is.
func TestJunkIsWarnedOncePerGame(t *testing.T) {
	body := `n=0
answer() {
  n=$((n+1))
  echo "junk $n"; echo 'stray "quote'
  case $n in
    1) echo "done move=9-13" ;;
    *) exit 0 ;;
  esac
}
` + handshake
	log, path := engineLog(t, "junk")
	black := hub.New(hub.Options{Name: "junk", Command: []string{"/bin/sh", "-c", body}, Log: log, InitTimeout: 2 * time.Second})
	t.Cleanup(func() { closeAndCheck(t, black) })
	white := sparring(t, "white")
	rec := play(t, config("english", "10+0", arbiter.PolicyStrict), white, black, match.Options{})
	if len(rec.Moves) < 2 || rec.Result.Termination != arbiter.EngineCrashed {
		t.Fatalf("result %s after %d plies, want the exit after black's second request", rec.Result, len(rec.Moves))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if n := strings.Count(text, `"level":"warn"`); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, text)
	}
	for _, want := range []string{`"line":"junk 1"`, `"line":"junk 2"`, `"line":"stray \"quote"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the log lacks %s", want)
		}
	}
}

// An engine that exits while a child it forked still holds its output has
// crashed, at once: not stalled after the ping timeout.
func TestExitWithChildHoldingThePipeIsACrash(t *testing.T) {
	marker := fmt.Sprintf("%d", 200000+os.Getpid()%100000)
	body := `answer() { sleep ` + marker + ` & echo 'dying' >&2; exit 3; }` + handshake
	black := script(t, "forker", body)
	white := sparring(t, "white")
	// 40 moves in 10 minutes: the stall timeout would be long.
	rec := play(t, config("english", "40/600", arbiter.PolicyWCDF), white, black, match.Options{})
	res := rec.Result
	if res.Termination != arbiter.EngineCrashed || res.Outcome != rules.WhiteWins {
		t.Fatalf("result %s (%s), want black's crash", res, res.Reason)
	}
	if !strings.Contains(res.Reason, "it exited during its search (exit status 3)") {
		t.Errorf("reason %q", res.Reason)
	}
	black.Close()
	waitGone(t, "sleep\x00"+marker)
}

// waitGone waits up to 5 s for the processes whose command line contains
// one of patterns to be gone (a killed process takes a moment to die).
func waitGone(t *testing.T, patterns ...string) {
	t.Helper()
	var pids []int
	if !poll.Until(5*time.Second, 0, func() bool {
		pids = nil
		for _, s := range patterns {
			pids = append(pids, processesOf(s)...)
		}
		return len(pids) == 0
	}) {
		t.Fatalf("processes survived: %v", pids)
	}
}

// A handshake that floods the arbiter with parameters or ids is stopped at
// a bound, with the reason: it does not fill the arbiter's memory.
func TestHandshakeFloodIsBounded(t *testing.T) {
	tests := []struct{ name, flood, why string }{
		{"params", `yes 'param name=x value=y type=string'`, "it declared more than 256 parameters during the handshake"},
		{"ids", `i=0; while :; do i=$((i+1)); echo "id k$i=v"; done`, "it sent more than 64 id arguments during the handshake"},
		{"big params", `v=$(head -c 60000 /dev/zero | tr '\0' v); while :; do echo "param name=p value=$v type=string"; done`,
			"its ids and parameters took more than 1048576 bytes during the handshake"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body := `read -r line; ` + tt.flood
			white := script(t, "flood", body)
			black := sparring(t, "black")
			rec := play(t, config("english", "10+0", arbiter.PolicyWCDF), white, black, match.Options{})
			res := rec.Result
			if res.Termination != arbiter.EngineFault || res.Outcome != rules.BlackWins || len(rec.Moves) != 0 {
				t.Fatalf("result %s (%s) after %d plies, want white's engine fault", res, res.Reason, len(rec.Moves))
			}
			if want := "White's engine was stopped by the arbiter: " + tt.why; res.Reason != want {
				t.Errorf("reason %q, want %q", res.Reason, want)
			}
		})
	}
}

// An engine flooding its output fills the engine log only up to the cap;
// the log says so and ends the game with the engine's last lines.
func TestFloodedLogIsCapped(t *testing.T) {
	body := `answer() {
  i=0
  while [ $i -lt 20000 ]; do echo "info nodes=$i pv=9-13"; echo "debug $i" >&2; i=$((i+1)); done
  # Past the flood (the pipes emptied), the engine's last words.
  sleep 0.5
  echo 'last words' >&2
  exit 4
}
` + handshake
	log, path := engineLog(t, "flood")
	black := hub.New(hub.Options{Name: "flood", Command: []string{"/bin/sh", "-c", body}, Log: log,
		InitTimeout: 2 * time.Second, LogLimits: enginelog.Limits{Game: 100_000, Tail: 20}})
	t.Cleanup(func() { closeAndCheck(t, black) })
	white := sparring(t, "white")
	rec := play(t, config("english", "60+0", arbiter.PolicyWCDF), white, black, match.Options{})
	if rec.Result.Termination != arbiter.EngineCrashed {
		t.Fatalf("result %s", rec.Result)
	}
	// Close first: on a starved machine the stderr reader may still hold
	// the last words when the game ends; Close waits for the process and
	// ends the game's log, so the tail is written whichever came first.
	closeAndCheck(t, black)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if len(data) > 150_000 {
		t.Errorf("the engine log holds %d bytes under a cap of 100000", len(data))
	}
	if !strings.Contains(text, "this game's cap is reached") || !strings.Contains(text, `"dropped_lines"`) {
		t.Errorf("the log does not say it was capped")
	}
	if !strings.Contains(text, `"tail":true,"line":"stderr last words"`) {
		t.Errorf("the engine's last words are not at the end of the log:\n%s", text[max(0, len(text)-3000):])
	}
}
