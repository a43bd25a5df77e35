package match_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/internal/testbin"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// bin is the arbiter binary built once for the tests; its "engine"
// subcommand is the sparring engine every test plays with.
var bin string

func TestMain(m *testing.M) {
	testbin.Main(m, &bin, "../cmd/arbiter", func(code int) int {
		// No engine process of any test may survive.
		if pids := processesOf(bin); len(pids) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: engine processes left behind: %v\n", pids)
			return 1
		}
		return code
	})
}

// processesOf lists the live processes whose argv[0] is path or whose
// command line contains it (zombies have an empty command line).
func processesOf(path string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(cmdline) == 0 {
			continue
		}
		if bytes.Contains(cmdline, []byte(path)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// engineLog returns a logger writing to a file in the test's directory.
func engineLog(t *testing.T, name string) (zerolog.Logger, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return zerolog.New(f).With().Str("engine", name).Logger(), path
}

// sparring returns a Hub player running the sparring engine with args.
func sparring(t *testing.T, name string, args ...string) *hub.Player {
	t.Helper()
	log, _ := engineLog(t, name)
	p := hub.New(hub.Options{Name: name, Command: append([]string{bin, "engine"}, args...), Log: log, InitTimeout: 10 * time.Second})
	t.Cleanup(func() { closeAndCheck(t, p) })
	return p
}

// script returns a Hub player running a /bin/sh script as the engine.
func script(t *testing.T, name, body string) *hub.Player {
	t.Helper()
	log, _ := engineLog(t, name)
	p := hub.New(hub.Options{Name: name, Command: []string{"/bin/sh", "-c", body}, Log: log, InitTimeout: 2 * time.Second})
	t.Cleanup(func() { closeAndCheck(t, p) })
	return p
}

// closeAndCheck closes p and checks that its process is gone.
func closeAndCheck(t *testing.T, p *hub.Player) {
	pid := p.Pid()
	p.Close()
	if pid != 0 && alive(pid) {
		t.Errorf("engine process %d survived Close", pid)
	}
}

func config(v string, tc string, policy arbiter.Policy) arbiter.Config {
	t, err := arbiter.ParseTimeControl(tc)
	if err != nil {
		panic(err)
	}
	return arbiter.Config{Variant: rules.MustLookup(v), TimeControl: [2]arbiter.TimeControl{t, t}, Policy: policy,
		AutoClaim: true, MaxMoves: 80, Margin: 100 * time.Millisecond}
}

func play(t *testing.T, cfg arbiter.Config, white, black match.Player, opts match.Options) *match.GameRecord {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rec, err := match.PlayGameOptions(ctx, cfg, white, black, zerolog.Nop(), opts)
	if err != nil {
		t.Fatalf("PlayGame: %v", err)
	}
	if rec.Result.Outcome == rules.Ongoing {
		t.Fatalf("game not finished: %+v", rec.Result)
	}
	checkPDN(t, rec)
	return rec
}

// checkPDN replays the PDN of rec as `arbiter check` does.
func checkPDN(t *testing.T, rec *match.GameRecord) {
	t.Helper()
	text, err := rec.PDN()
	if err != nil {
		t.Fatal(err)
	}
	g, err := pdn.NewReader(strings.NewReader(text), "game.pdn").Next()
	if err != nil {
		t.Fatalf("reading our own PDN: %v\n%s", err, text)
	}
	var override *rules.Variant
	if rec.Variant.GameType() == 0 {
		override = rec.Variant // antidraughts and giveaway have no GameType
	}
	rep := pdn.Check(g, override)
	if rep.Status != pdn.OK {
		t.Fatalf("arbiter check: %s\n%s", rep, text)
	}
	// arbiter check --claims: every claim and draw the referee recorded holds.
	for _, f := range arbiter.AuditClaims(g, rep.Replayed) {
		if f.Wrong {
			t.Errorf("arbiter check --claims: %s\n%s", f.Text, text)
		}
	}
	for _, tag := range []string{"Event", "Site", "Date", "Round", "White", "Black", "Result", "TimeControl", "Termination", "PlyCount"} {
		if g.Tag(tag) == "" {
			t.Errorf("PDN has no %s tag", tag)
		}
	}
	if got, want := g.Tag("PlyCount"), strconv.Itoa(len(rec.Moves)); got != want {
		t.Errorf("PlyCount = %s, want %s", got, want)
	}
	if got, want := g.Tag("Termination"), string(rec.Result.Termination); got != want {
		t.Errorf("Termination = %q, want %q", got, want)
	}
}

func mustVariant(name string) *rules.Variant { return rules.MustLookup(name) }
