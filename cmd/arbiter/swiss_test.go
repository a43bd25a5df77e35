package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/reports"
)

// swissEvent64 is the check: a Swiss of 64 sparring engines over 9
// rounds, 2 games an encounter (576 games). The engines play at random (an
// instant move) and a game is a draw after 12 moves each, so that the
// event takes seconds; most engines make an illegal move (a loss under the
// strict policy) at their own K-th move of every game, 2 to 12, so the
// encounters are decided (the engine with the larger K wins) and the
// rounds have score groups to pair, as in a real event.
func swissEvent64() string {
	var b strings.Builder
	b.WriteString(`name: Swiss 64
variant: english
time_control: "10+0.1"
tournament: swiss
rounds: 9
games_per_encounter: 2
openings: {file: openings/3move_english.json, group: standard, order: random, seed: 3}
concurrency: 2
illegal_move_policy: strict
adjudication: {max_moves: 12}
pdn: {annotations: none}
engines:
`)
	for i := 1; i <= 64; i++ {
		fault := fmt.Sprintf(" --fault illegal-at=%d", 2+i*7%11)
		if i%8 == 0 {
			fault = ""
		}
		fmt.Fprintf(&b, "  - {name: s%02d, command: self engine --level random --seed %d%s}\n", i, i, fault)
	}
	return b.String()
}

// TestSwiss64ResumeAfterKill runs the 64-engine Swiss, kills the arbiter
// with SIGKILL in the middle of a round, runs it again, and checks the
// event: every game once, no two engines meeting twice, one bye at most
// per engine, and the Swiss standings after 9 rounds in the console,
// report.html and results.json.
func TestSwiss64ResumeAfterKill(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL")
	}
	if testing.Short() {
		t.Skip("a 576-game event killed and resumed: make test runs it, -short does not")
	}
	const planned = 9 * 32 * 2
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "swiss.yaml"), swissEvent64())
	out := filepath.Join(dir, "out")
	args := []string{"tournament", "-c", "swiss.yaml", "--out", out, "--progress", "off", "--log-format", "json"}
	t0 := time.Now()
	cmd, errb := startArbiter(t, dir, args...)
	var killedAt int
	// In round 4 or later: three rounds to rebuild on resume.
	if !poll.Until(3*time.Minute, 5*time.Millisecond, func() bool {
		killedAt = gameCounts(filepath.Join(out, store.FileName))[store.Finished]
		return killedAt >= 3*64+10
	}) {
		cmd.Process.Kill()
		t.Fatalf("not 3 rounds in time; stderr:\n%s", errb.String())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil || cmd.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the first run was not killed: %v", err)
	}
	first := time.Since(t0)
	before := gameCounts(filepath.Join(out, store.FileName))[store.Finished]
	if before >= planned {
		t.Fatalf("the first run finished the event before the kill (at %d); the test proves nothing", killedAt)
	}
	t1 := time.Now()
	stdout, stderr, code := runArbiter(t, dir, args...)
	t.Logf("64 engines, 9 rounds, %d games: killed after %s with %d stored, resumed in %s", planned, first.Round(time.Millisecond), before, time.Since(t1).Round(time.Millisecond))
	if code != 0 {
		t.Fatalf("resumed run: exit %d\n%s\n%s", code, stdout, lastLines(stderr, 20))
	}
	if !strings.Contains(stdout, fmt.Sprintf("%d of %d games finished", planned, planned)) || !strings.Contains(stdout, fmt.Sprintf("%d earlier", before)) {
		t.Errorf("resumed run says:\n%s", lastLines(stdout, 70))
	}
	if !strings.Contains(stdout, "BH-C1") || !strings.Contains(stdout, "bye") {
		t.Errorf("no Swiss standings in the console:\n%s", lastLines(stdout, 70))
	}

	st, err := store.OpenDir(out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	counts, err := st.Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if counts[store.Finished] != planned || counts[store.Running] != 0 {
		t.Errorf("database holds %v, want %d finished", counts, planned)
	}
	type enc struct{ round, board int }
	boards := map[enc][2]int{}
	n := 0
	st.Games(context.Background(), store.ReadOptions{NoPDN: true, NoTimes: true}, func(g store.Game) error {
		if g.ID != n {
			t.Errorf("game %d has id %d", n, g.ID)
		}
		n++
		p := [2]int{min(g.White, g.Black), max(g.White, g.Black)}
		if q, ok := boards[enc{g.Round, g.Board}]; ok && q != p {
			t.Errorf("round %d board %d holds %v and %v", g.Round, g.Board, q, p)
		}
		boards[enc{g.Round, g.Board}] = p
		return nil
	})
	met := map[[2]int]bool{}
	for r := 1; r <= 9; r++ {
		on := map[int]bool{}
		for b := 1; b <= 32; b++ {
			p, ok := boards[enc{r, b}]
			if !ok || on[p[0]] || on[p[1]] || met[p] {
				t.Fatalf("round %d board %d: %v (missing, an engine twice in the round, or a repeat pairing)", r, b, p)
			}
			on[p[0]], on[p[1]], met[p] = true, true, true
		}
	}

	html, err := os.ReadFile(filepath.Join(out, reports.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"<h2>Swiss standings</h2>", "After 9 of 9 rounds", `<th title="buchholz-cut1">BH-C1</th>`, "<th>R9</th>"} {
		if !strings.Contains(string(html), w) {
			t.Errorf("report.html has no %q", w)
		}
	}
	res, err := reports.ReadResults(filepath.Join(out, reports.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	sw := res.Stats.Swiss
	if sw == nil || sw.Complete != 9 || len(sw.Rows) != 64 {
		t.Fatalf("results.json: Swiss standings %+v", sw)
	}
	points := 0.0
	for _, r := range sw.Rows {
		points += r.Points
		if len(r.Rounds) != 9 || r.Byes != 0 {
			t.Errorf("results.json: %s has %d rounds and %d byes", r.Name, len(r.Rounds), r.Byes)
		}
	}
	if points != 9*32 {
		t.Errorf("results.json: the Swiss standings hold %v points for 9 rounds of 32 encounters", points)
	}
	if top, bottom := sw.Rows[0].Points, sw.Rows[63].Points; top < 6 || bottom > 3 {
		t.Errorf("results.json: the Swiss standings run from %v to %v points; the encounters were not decided", top, bottom)
	}
}

// TestSwissRefusals: a Swiss event is not played on a cluster, nor with
// an SPRT, nor without its number of rounds (exit 2, naming why), and a
// refused command leaves no file behind (no output directory, no
// arbiter.db).
func TestSwissRefusals(t *testing.T) {
	dir := t.TempDir()
	const event = `variant: english
tournament: swiss
engines:
  - {name: a, command: self engine --level random --seed 1}
  - {name: b, command: self engine --level random --seed 2}
  - {name: c, command: self engine --level random --seed 3}
`
	writeFile(t, filepath.Join(dir, "swiss.yaml"), event+"rounds: 2\n")
	writeFile(t, filepath.Join(dir, "norounds.yaml"), event)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "-c", "swiss.yaml", "--nats", "embedded"}, "a Swiss event (tournament: swiss) is played on this machine only"},
		{[]string{"tournament", "-c", "swiss.yaml", "--set", "sprt={elo0: 0, elo1: 5}"}, "sprt: an SPRT is for a two-engine match, not a Swiss event"},
		{[]string{"tournament", "-c", "norounds.yaml"}, "norounds.yaml: rounds: a Swiss event needs its number of rounds"},
		{[]string{"tournament", "-c", "swiss.yaml", "--rounds", "4"}, "--rounds: rounds: 4 rounds; a Swiss of 3 engines has 1 to 3"},
	} {
		out := filepath.Join(dir, "out")
		_, stderr, code := runArbiter(t, dir, append(tc.args, "--out", out, "--progress", "off")...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, want %d and %q in\n%s", tc.args, code, exitUsage, tc.want, lastLines(stderr, 5))
		}
		if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
			entries, _ := os.ReadDir(out)
			t.Errorf("%q: refused, but left %s behind (stat: %v; %d entries)", tc.args, out, err, len(entries))
			os.RemoveAll(out)
		}
	}
}

// TestSwissBurstein: an engine author writes `swiss: {system: burstein}`
// and gets a Burstein event (FIDE C.04.4.2): the report says so, the two
// seeding rounds (art. 1.6: min(5/2, 4)) are those of the same event
// paired by the Dutch system, and the rounds after them are paired
// otherwise, with no rematch in either.
func TestSwissBurstein(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`variant: english
time_control: "10+0.1"
tournament: swiss
rounds: 5
games_per_encounter: 2
openings: {file: openings/3move_english.json, group: standard, order: sequential}
illegal_move_policy: strict
adjudication: {max_moves: 12}
engines:
`)
	// Each engine makes an illegal move at its own K-th move (none for the
	// last two): the games are decided, the later rounds have score groups.
	for i := 1; i <= 10; i++ {
		fault := fmt.Sprintf(" --fault illegal-at=%d", 1+i*3%10)
		if i > 8 {
			fault = ""
		}
		fmt.Fprintf(&b, "  - {name: e%02d, command: self engine --level random --seed %d%s}\n", i, i, fault)
	}
	writeFile(t, filepath.Join(dir, "dutch.yaml"), b.String())
	writeFile(t, filepath.Join(dir, "burstein.yaml"), b.String()+"swiss: {system: burstein}\n")
	pairings := map[string]map[[2]int][2]int{} // system -> (round, board) -> engines
	for _, system := range []string{"dutch", "burstein"} {
		out := filepath.Join(dir, system)
		stdout, stderr, code := runArbiter(t, dir, "tournament", "-c", system+".yaml", "--out", out, "--progress", "off")
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", system, code, lastLines(stdout, 20), lastLines(stderr, 20))
		}
		html, err := os.ReadFile(filepath.Join(out, reports.HTMLFile))
		if err != nil {
			t.Fatal(err)
		}
		if said := strings.Contains(string(html), "Burstein system"); said != (system == "burstein") {
			t.Errorf("%s: report.html says \"Burstein system\": %v", system, said)
		}
		st, err := store.OpenDir(out)
		if err != nil {
			t.Fatal(err)
		}
		pairings[system] = map[[2]int][2]int{}
		met := map[[2]int]int{} // engines -> round
		games := 0
		st.Games(context.Background(), store.ReadOptions{NoPDN: true, NoTimes: true, NoRecord: true}, func(g store.Game) error {
			games++
			p := [2]int{min(g.White, g.Black), max(g.White, g.Black)}
			if r, ok := met[p]; ok && r != g.Round {
				t.Errorf("%s: engines %v meet in rounds %d and %d", system, p, r, g.Round)
			}
			met[p] = g.Round
			pairings[system][[2]int{g.Round, g.Board}] = p
			return nil
		})
		st.Close()
		if games != 5*5*2 {
			t.Errorf("%s: %d games, want 50", system, games)
		}
	}
	later := 0
	for k, p := range pairings["dutch"] {
		q := pairings["burstein"][k]
		switch {
		case k[0] <= 2 && p != q:
			t.Errorf("seeding round %d board %d: Dutch pairs %v, Burstein %v; art. 1.6 pairs them alike", k[0], k[1], p, q)
		case k[0] > 2 && p != q:
			later++
		}
	}
	if later == 0 {
		t.Error("rounds 3-5 paired alike by both systems: the event was not paired by Burstein")
	}
}
