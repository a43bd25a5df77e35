package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// TestEGDBAdjudication follows an engine author: build the English
// database of three pieces with the command, probe a position, then play
// the same match between two random sparring engines without and with
// adjudication.egdb. With it, games that reach three pieces end there with
// the database's result and its reason in the PDN; every such game's last
// position has that value in the database; the event is shorter; the
// report names the rule.
func TestEGDBAdjudication(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	if out, stderr, code := runArbiter(t, dir, "egdb", "build", "--variant", "english", "--pieces", "3", "--dir", db); code != 0 ||
		!strings.Contains(out, "english up to 3 pieces") {
		t.Fatalf("egdb build: exit %d\n%s\n%s", code, out, stderr)
	}
	out, stderr, code := runArbiter(t, dir, "egdb", "probe", "--variant", "english", "--dir", db, "--fen", "W:W18:B14")
	if code != 0 || !strings.Contains(out, "White to move wins") || !strings.Contains(out, "18x9     wins") {
		t.Fatalf("egdb probe: exit %d\n%s\n%s", code, out, stderr)
	}
	base := []string{"match", "--variant", "english", "--time-control", "60+1", "--games-per-encounter", "16", "--progress", "off",
		"--engine", "name=A cmd=self engine --level random --seed 1", "--engine", "name=B cmd=self engine --level random --seed 2"}
	play := func(name string, args ...string) (string, []*pdn.Game) {
		t.Helper()
		outDir := filepath.Join(dir, name)
		stdout, stderr, code := runArbiter(t, dir, append(append(append([]string{}, base...), args...), "--out", outDir)...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", name, code, stdout, stderr)
		}
		f, err := os.Open(filepath.Join(outDir, "games.pdn"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var games []*pdn.Game
		r := pdn.NewReader(f, "games.pdn")
		for {
			g, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			games = append(games, g)
		}
		return stdout, games
	}
	plies := func(gs []*pdn.Game) (n int) {
		for _, g := range gs {
			n += len(g.Moves)
		}
		return n
	}
	_, without := play("without")
	stdout, with := play("with", "--set", "adjudication.egdb={dir: "+db+", pieces: 3}")
	v := rules.MustLookup("english")
	edb, err := egdb.Open(v, db, 0)
	if err != nil {
		t.Fatal(err)
	}
	adjudicated := 0
	for _, g := range with {
		text := strings.Join(strings.Fields(g.Comment+" "+lastComments(g)), " ")
		if !strings.Contains(text, "adjudicated by endgame database") {
			continue
		}
		adjudicated++
		// The reason names the winner as the referee's reasons do.
		if !egdbReason.MatchString(text) {
			t.Errorf("game %d: the reason does not say who wins as the referee does (White, Black, a draw): %s", g.Number, text)
		}
		rp, err := pdn.Replay(g, v)
		if err != nil {
			t.Fatal(err)
		}
		final := rp.Final()
		val, err := edb.Probe(final)
		if err != nil || val == egdb.Unknown {
			t.Fatalf("game %d ends at %s, which the database does not hold (%v)", g.Number, final.FEN(), err)
		}
		if want := val.Outcome(final.Turn()).PDN(false); g.Result != want {
			t.Errorf("game %d: result %s, but the database says %s for %s", g.Number, g.Result, want, final.FEN())
		}
		if n := egdb.MaterialOf(final).Pieces(); n > 3 {
			t.Errorf("game %d adjudicated with %d pieces", g.Number, n)
		}
	}
	if adjudicated == 0 {
		t.Fatalf("no game adjudicated by the database:\n%s", stdout)
	}
	results, err := os.ReadFile(filepath.Join(dir, "with", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(results), `"termination": "adjudication by endgame database"`) && !strings.Contains(string(results), `"termination":"adjudication by endgame database"`) {
		t.Errorf("results.json does not count the database's adjudications apart")
	}
	if a, b := plies(with), plies(without); a >= b {
		t.Errorf("with the database %d plies, without %d: the event is not shorter", a, b)
	}
	t.Logf("%d of %d games adjudicated by the database; %d plies against %d", adjudicated, len(with), plies(with), plies(without))
	// A directory without the database stops the event before its first
	// game, naming the key and what to do.
	_, stderr, code = runArbiter(t, dir, append(append([]string{}, base...), "--set", "adjudication.egdb={dir: "+filepath.Join(dir, "none")+"}", "--out", filepath.Join(dir, "bad"))...)
	if code == 0 || !strings.Contains(stderr, "adjudication.egdb.dir") || !strings.Contains(stderr, "arbiter egdb build") {
		t.Errorf("missing database: exit %d\n%s", code, stderr)
	}
}

// egdbReason is the database's adjudication as a result's reason says it.
var egdbReason = regexp.MustCompile(`adjudicated by endgame database: (White wins|Black wins|a draw) \(\d+ pieces\)`)

// lastComments is the text of every comment of the game's moves.
func lastComments(g *pdn.Game) string {
	var b strings.Builder
	for _, m := range g.Moves {
		b.WriteString(m.Comment)
		b.WriteByte(' ')
	}
	return b.String()
}

// TestEGDBVerifySample follows an arbiter checking a database too large to
// check whole: only the two-piece tables of a three-piece database (--from
// 2 --to 2), one position in five; each
// table's counts are printed in the build's order; a zero sample is a usage
// error that says what to give.
func TestEGDBVerifySample(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	if out, stderr, code := runArbiter(t, dir, "egdb", "build", "--variant", "english", "--pieces", "3", "--dir", db); code != 0 {
		t.Fatalf("egdb build: exit %d\n%s\n%s", code, out, stderr)
	}
	out, stderr, code := runArbiter(t, dir, "egdb", "verify", "--variant", "english", "--dir", db, "--from", "2", "--to", "2", "--every", "5")
	if code != 0 || !strings.Contains(out, "every position checked (one in 5) agrees with its moves") {
		t.Fatalf("egdb verify: exit %d\n%s\n%s", code, out, stderr)
	}
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		if f := strings.Fields(line); len(f) == 4 {
			rows = append(rows, f[0])
		}
	}
	var want []string
	for _, m := range egdb.Materials(3) {
		if m.Pieces() == 2 {
			want = append(want, m.String())
		}
	}
	if strings.Join(rows, " ") != strings.Join(want, " ") {
		t.Errorf("tables printed %v, want the two-piece ones in order %v", rows, want)
	}
	_, stderr, code = runArbiter(t, dir, "egdb", "verify", "--variant", "english", "--dir", db, "--every", "0")
	if code == 0 || !strings.Contains(stderr, "--every must be 1 or more") {
		t.Errorf("--every 0: exit %d, stderr %q", code, stderr)
	}
}
