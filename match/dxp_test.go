package match_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/internal/testbin"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/dxp"
	"github.com/draughts-arbiter/arbiter/rules"
)

// dxpSparring returns a DXP player running the sparring engine: the engine
// listens and the arbiter connects, or (listen) the arbiter listens and the
// engine connects. The engine is started and connected here, before the
// game: between testbin.UnboundAddr's check and the engine's bind another program on
// the machine may take the port (fresh clones' runs twice met "something
// already answers", the player's own refusal to play whoever holds the
// port); that is the machine, not the code under test, so another port is
// tried.
func dxpSparring(t *testing.T, name string, listen bool, args ...string) *dxp.Player {
	t.Helper()
	log, _ := engineLog(t, name)
	opts := dxp.Options{Name: name, Log: log, ConnectTimeout: 10 * time.Second}
	if listen {
		opts.Addr, opts.Listen = "127.0.0.1:0", true
		opts.Command = append([]string{bin, "engine", "--dxp-connect", "{addr}"}, args...)
		p := dxp.New(opts)
		t.Cleanup(func() { p.Close() })
		return p
	}
	return dxpListening(t, opts, args...)
}

// dxpListening starts the sparring engine with args listening at a free
// address and connects opts' player to it (see dxpSparring).
func dxpListening(t *testing.T, opts dxp.Options, args ...string) *dxp.Player {
	t.Helper()
	// NewGame here only starts the engine and connects; the game calls it
	// again with its own variant and clock.
	v := rules.MustLookup("international")
	for range 5 {
		opts.Addr = testbin.UnboundAddr(t)
		opts.Command = append([]string{bin, "engine", "--dxp", opts.Addr}, args...)
		p := dxp.New(opts)
		err := p.NewGame(t.Context(), v, rules.NewPosition(v), arbiter.TimeControl{})
		if err == nil {
			t.Cleanup(func() { p.Close() })
			return p
		}
		p.Close()
		if !strings.Contains(err.Error(), "already answers") {
			t.Fatalf("starting the DXP engine: %v", err)
		}
		t.Logf("%v; held by %s; another port", err, portHolder(opts.Addr))
	}
	t.Fatal("five ports taken between the check and the engine's start")
	return nil
}

// portHolder names the processes with a socket listening at addr, read
// from /proc (Linux), for the log of a port taken under the test.
func portHolder(addr string) string {
	_, port, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(port)
	data, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	var inodes []string
	for _, line := range strings.Split(string(data), "\n")[1:] {
		f := strings.Fields(line)
		// local_address is IP:PORT in hex; state 0A is LISTEN.
		if len(f) > 9 && strings.HasSuffix(f[1], fmt.Sprintf(":%04X", n)) {
			inodes = append(inodes, f[3]+" inode "+f[9])
			if pids := socketPIDs(f[9]); pids != "" {
				inodes[len(inodes)-1] += " pid " + pids
			}
		}
	}
	if len(inodes) == 0 {
		return "no socket in /proc/net/tcp"
	}
	return strings.Join(inodes, "; ")
}

// socketPIDs lists "pid (command)" of the processes holding socket inode.
func socketPIDs(inode string) string {
	target := "socket:[" + inode + "]"
	fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	var out []string
	for _, fd := range fds {
		if l, err := os.Readlink(fd); err == nil && l == target {
			pid := strings.Split(fd, "/")[2]
			cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline")
			out = append(out, pid+" ("+strings.ReplaceAll(strings.TrimRight(string(cmd), "\x00"), "\x00", " ")+")")
		}
	}
	return strings.Join(out, ", ")
}

// DXP over real localhost sockets, both directions, both colours, and two
// games on one connection.
func TestDXPGames(t *testing.T) {
	for _, listen := range []bool{false, true} {
		name := "arbiter connects"
		if listen {
			name = "arbiter listens"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := dxpSparring(t, "dxp", listen, "--variant", "international", "--level", "1", "--seed", "3")
			h := sparring(t, "hub", "--level", "random", "--seed", "4")
			cfg := config("international", "10+0.1", arbiter.PolicyStrict)
			for g, pair := range [][2]match.Player{{d, h}, {h, d}} {
				rec := play(t, cfg, pair[0], pair[1], match.Options{})
				if len(rec.Moves) < 2 {
					t.Errorf("game %d: only %d plies", g+1, len(rec.Moves))
				}
				switch rec.Result.Termination {
				case arbiter.IllegalMove, arbiter.EngineCrashed, arbiter.EngineStalled, arbiter.TimeForfeit, arbiter.Resignation:
					t.Errorf("game %d: sound engines ended with %s", g+1, rec.Result)
				}
				if !strings.HasPrefix(d.Name(), "dxp") {
					t.Errorf("name %q", d.Name())
				}
			}
		})
	}
}

// A game from a set-up position goes with GAMEREQ start "B"; an 8x8
// variant uses 32-square positions.
func TestDXPCustomStartEnglish(t *testing.T) {
	d := dxpSparring(t, "dxp8", false, "--variant", "english", "--level", "random")
	h := sparring(t, "hub8")
	cfg := config("english", "10+0.1", arbiter.PolicyStrict)
	start, err := rules.ParseFEN(cfg.Variant, "W:W21,22,23,24,K30:B1,2,3,K10")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Start = &start
	rec := play(t, cfg, h, d, match.Options{})
	if rec.Game.Tag("FEN") == "" || len(rec.Moves) == 0 {
		t.Errorf("FEN tag %q, %d plies", rec.Game.Tag("FEN"), len(rec.Moves))
	}
	if rec.Result.Termination == arbiter.IllegalMove {
		t.Errorf("result %s", rec.Result)
	}
}

func TestDXPFaults(t *testing.T) {
	tests := []struct {
		name        string
		policy      arbiter.Policy
		args        []string
		termination arbiter.Termination // "" = the game goes on
		warnings    int
	}{
		{"illegal under wcdf: BACKREQ and play on", arbiter.PolicyWCDF, []string{"--fault", "illegal-at=2"}, "", 1},
		{"garbage under wcdf: play on", arbiter.PolicyWCDF, []string{"--fault", "garbage-at=2"}, "", 1},
		{"two illegal moves", arbiter.PolicyWCDF, []string{"--fault", "illegal-at=2,illegal-at=3"}, arbiter.IllegalMove, 1},
		{"illegal under strict", arbiter.PolicyStrict, []string{"--fault", "illegal-at=2"}, arbiter.IllegalMove, 0},
		{"crash", arbiter.PolicyWCDF, []string{"--fault", "crash-at=2"}, arbiter.EngineCrashed, 0},
		{"hang: the flag falls (DXP cannot tell a hang from slowness)", arbiter.PolicyWCDF, []string{"--fault", "hang-at=2"}, arbiter.TimeForfeit, 0},
		{"slow", arbiter.PolicyWCDF, []string{"--fault", "slow-at=2", "--slow-time", "2200ms"}, arbiter.TimeForfeit, 0},
		// Past the slack too: still a time forfeit, not a stall (it was).
		{"slow past the slack", arbiter.PolicyWCDF, []string{"--fault", "slow-at=2", "--slow-time", "8s"}, arbiter.TimeForfeit, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := dxpSparring(t, "dxp", false, append([]string{"--variant", "international", "--level", "random", "--seed", "5"}, tt.args...)...)
			h := sparring(t, "hub", "--level", "random", "--seed", "6")
			cfg := config("international", "1+0", tt.policy)
			if tt.termination == "" {
				cfg = config("international", "10+0.1", tt.policy)
			}
			rec := play(t, cfg, h, d, match.Options{Slack: 4 * time.Second})
			res := rec.Result
			if tt.termination == "" {
				switch res.Termination {
				case arbiter.IllegalMove, arbiter.EngineCrashed, arbiter.EngineStalled, arbiter.TimeForfeit, arbiter.Resignation:
					t.Errorf("the game should have gone on, got %s", res)
				}
			} else if res.Termination != tt.termination || res.Outcome != rules.WhiteWins {
				t.Errorf("result %s, want black (DXP) losing by %q", res, tt.termination)
			}
			if len(rec.Warnings) != tt.warnings {
				t.Errorf("%d warnings, want %d: %+v", len(rec.Warnings), tt.warnings, rec.Warnings)
			}
		})
	}
}

// DXP has no liveness probe: in a game without a clock (depth limit only) a
// silent engine is declared stalled after UntimedWait instead of holding
// the game for ever.
func TestDXPUntimedHang(t *testing.T) {
	log, _ := engineLog(t, "dxp-hang")
	d := dxpListening(t, dxp.Options{Name: "dxp", Log: log, ConnectTimeout: 10 * time.Second,
		UntimedWait: 1500 * time.Millisecond}, "--variant", "international", "--fault", "hang-at=2")
	h := sparring(t, "hub", "--level", "random", "--seed", "6")
	cfg := config("international", "depth=2", arbiter.PolicyWCDF)
	t0 := time.Now()
	rec := play(t, cfg, h, d, match.Options{})
	if rec.Result.Termination != arbiter.EngineStalled || rec.Result.Outcome != rules.WhiteWins ||
		!strings.Contains(rec.Result.Reason, "no move within 1.5s in a game without a clock") {
		t.Errorf("result %s (%s), want black (DXP) stalled", rec.Result, rec.Result.Reason)
	}
	if took := time.Since(t0); took > 20*time.Second {
		t.Errorf("the game took %v", took)
	}
}
