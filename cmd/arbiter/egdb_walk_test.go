package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
)

// buildCommandIn is the `arbiter egdb build ...` command an error message
// quotes between backticks, as the words a user would paste ("" when the
// message quotes none).
func buildCommandIn(msg string) []string {
	m := regexp.MustCompile("`arbiter (egdb build [^`]*)`").FindStringSubmatch(msg)
	if m == nil {
		return nil
	}
	return strings.Fields(m[1])
}

// TestEGDBProbeSaysWhatToBuild follows an arbiter who probes a recorded
// ending before there is a database, then one with more pieces than the
// database holds: each error quotes the build command that holds the
// position, and running that very command (pasted from the message) makes
// the same probe answer. A position where a side has no pieces is the end
// of the game, not a position "of 1 pieces" beyond the database.
func TestEGDBProbeSaysWhatToBuild(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	probe := func(fen string) (string, string, int) {
		return runArbiter(t, dir, "egdb", "probe", "--variant", "english", "--dir", db, "--fen", fen)
	}
	for _, c := range []struct {
		fen, want string // want: the command the error quotes
	}{
		{"W:W18:B14", "egdb build --variant english --pieces 2 --dir " + db},    // no database yet
		{"W:W18:B14,K1", "egdb build --variant english --pieces 3 --dir " + db}, // one piece more than built
		{"B:WK18,K27:BK1", ""},                      // held now
		{"W:W9,10,11,12,13,14,15,16,17:B1,2,3", ""}, // no database holds 12 pieces
	} {
		out, stderr, code := probe(c.fen)
		if c.want == "" {
			if strings.Contains(c.fen, "9,10,11") {
				if code != 3 || !strings.Contains(stderr, "no endgame database holds more than 8") {
					t.Errorf("probe %s: exit %d, stderr %q; want exit 3 saying no database holds 12 pieces", c.fen, code, stderr)
				}
				continue
			}
			if code != 0 || !strings.Contains(out, c.fen+": Black to move loses") {
				t.Errorf("probe %s: exit %d\n%s\n%s", c.fen, code, out, stderr)
			}
			continue
		}
		cmd := buildCommandIn(stderr)
		if code != 3 || strings.Join(cmd, " ") != c.want {
			t.Fatalf("probe %s: exit %d, stderr %q; want exit 3 quoting `arbiter %s`", c.fen, code, stderr, c.want)
		}
		if out, stderr, code := runArbiter(t, dir, cmd...); code != 0 {
			t.Fatalf("the quoted command: exit %d\n%s\n%s", code, out, stderr)
		}
		if out, stderr, code := probe(c.fen); code != 0 || !strings.Contains(out, ": White to move") {
			t.Fatalf("probe %s after the quoted build: exit %d\n%s\n%s", c.fen, code, out, stderr)
		}
	}
	for _, c := range []struct{ fen, want string }{
		{"W:W10:B", "W:W10:B: White to move wins\n  the game is over: Black has no pieces left\n"},
		{"B:W10,11,12,13,14,15:B", "B:W10,11,12,13,14,15:B: Black to move loses\n  the game is over: Black has no pieces left\n"},
	} {
		if out, stderr, code := probe(c.fen); code != 0 || out != c.want {
			t.Errorf("probe %s: exit %d, stdout %q (stderr %q); want %q", c.fen, code, out, stderr, c.want)
		}
	}
}

// TestEGDBInterruptedBuild follows the docs' "an interrupted build (Ctrl-C)
// keeps the tables it finished and the same command goes on from there":
// SIGINT a four-piece build once a four-piece table is written.
// The build says how to go on; probe and verify, meanwhile, say that the
// four-piece tables are half built and quote the command that finishes
// them (a four-piece probe is refused with it); that command then reports
// the tables it found and the ones it solved, and the probe answers.
func TestEGDBInterruptedBuild(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGINT")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	build := []string{"egdb", "build", "--variant", "english", "--pieces", "4", "--dir", db}
	cmd, errb := startArbiter(t, dir, build...)
	upTo3 := len(egdb.Materials(3))
	if !poll.Until(3*time.Minute, time.Millisecond, func() bool {
		tables, _ := filepath.Glob(filepath.Join(db, "english", "*.wdl"))
		return len(tables) > upTo3
	}) {
		cmd.Process.Kill()
		t.Fatalf("no four-piece table written; stderr:\n%s", errb)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	four, _ := filepath.Glob(filepath.Join(db, "english", "*.wdl"))
	if err == nil {
		t.Skipf("the build finished (%d tables) before the interruption reached it; nothing half built to test", len(four))
	}
	if !strings.Contains(errb.String(), "interrupted: the tables solved so far are kept; run the same command to go on") {
		t.Fatalf("interrupted build: %v, stderr:\n%s", err, errb)
	}

	finish := "egdb build --variant english --pieces 4 --dir " + db
	_, stderr, code := runArbiter(t, dir, "egdb", "probe", "--variant", "english", "--dir", db, "--fen", "W:WK18,K27:BK1,K3")
	if code != 3 || !strings.Contains(stderr, fmt.Sprintf("of the %d tables of 4 pieces built (an interrupted build)", len(egdb.Materials(4))-upTo3)) ||
		strings.Join(buildCommandIn(stderr), " ") != finish {
		t.Errorf("four-piece probe of a half-built database: exit %d, stderr %q; want exit 3 quoting `arbiter %s`", code, stderr, finish)
	}
	out, stderr, code := runArbiter(t, dir, "egdb", "verify", "--variant", "english", "--dir", db, "--every", "50")
	if code != 0 || !strings.Contains(stderr, "note: ") || strings.Join(buildCommandIn(stderr), " ") != finish {
		t.Errorf("verify of a half-built database: exit %d\n%s\nstderr %q; want a note quoting `arbiter %s`", code, out, stderr, finish)
	}

	out, stderr, code = runArbiter(t, dir, strings.Fields(finish)...)
	m := regexp.MustCompile(`english up to 4 pieces in \S+: (\d+) tables? solved, (\d+) already built`).FindStringSubmatch(out)
	if code != 0 || m == nil || m[2] == "0" || m[1] == "0" {
		t.Fatalf("the resumed build: exit %d\n%s\n%s", code, out, stderr)
	}
	out, stderr, code = runArbiter(t, dir, "egdb", "probe", "--variant", "english", "--dir", db, "--fen", "W:WK18,K27:BK1,K3")
	if code != 0 || !strings.HasPrefix(out, "W:WK18,K27:BK1,K3: White to move ") || strings.Contains(stderr, "note:") {
		t.Errorf("probe after the resumed build: exit %d\n%s\n%s", code, out, stderr)
	}
}

// TestEGDBAdjudicationPiecesBeyondTheDatabase follows an engine author who
// asks adjudication.egdb for more pieces than the database was built for:
// the event stops before its first game naming the key, what the
// directory holds and both ways on (the build command, or the pieces it
// holds); pieces: 1, which the message's own range excludes, is refused
// too rather than adjudicating nothing.
func TestEGDBAdjudicationPiecesBeyondTheDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	if out, stderr, code := runArbiter(t, dir, "egdb", "build", "--variant", "english", "--pieces", "3", "--dir", db); code != 0 {
		t.Fatalf("egdb build: exit %d\n%s\n%s", code, out, stderr)
	}
	base := []string{"match", "--variant", "english", "--time-control", "60+1", "--games-per-encounter", "2", "--progress", "off",
		"--engine", "name=A cmd=self engine --level random --seed 1", "--engine", "name=B cmd=self engine --level random --seed 2",
		"--out", filepath.Join(dir, "out")}
	for _, c := range []struct {
		pieces string
		want   []string
	}{
		{"4", []string{"adjudication.egdb.pieces", "holds every table up to 3 pieces, not 4",
			"`arbiter egdb build --variant english --pieces 4 --dir " + db + "`", "or set adjudication.egdb.pieces to 3"}},
		{"1", []string{"adjudication.egdb.pieces: 1; want 0 (all the database holds) or 2 to 8"}},
	} {
		args := append(append([]string{}, base...), "--set", "adjudication.egdb={dir: "+db+", pieces: "+c.pieces+"}")
		out, stderr, code := runArbiter(t, dir, args...)
		for _, w := range c.want {
			if code != 2 || !strings.Contains(stderr, w) {
				t.Errorf("pieces %s: exit %d, stderr %q; want exit 2 and %q\n%s", c.pieces, code, stderr, w, out)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "out", "games.pdn")); err == nil {
			t.Errorf("pieces %s: games were played", c.pieces)
		}
	}
}

// TestEGDBBuildLogOffATerminal follows a build whose stderr is a log file
// (nohup, CI, `2> build.log`): a line per table, in words, no progress bar
// (its carriage returns made the log one line of bars), then the summary.
func TestEGDBBuildLogOffATerminal(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	out, stderr, code := runArbiter(t, dir, "egdb", "build", "--variant", "english", "--pieces", "3", "--dir", db)
	if code != 0 || !strings.Contains(out, "english up to 3 pieces in "+db+": 16 tables solved, 0 already built") {
		t.Fatalf("egdb build: exit %d\n%s\n%s", code, out, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if strings.Contains(stderr, "\r") || len(lines) != len(egdb.Materials(3)) || !strings.Contains(lines[len(lines)-1], "solved (16 of 16 tables, ") {
		t.Errorf("stderr off a terminal: %q; want a line per table, the last \"... solved (16 of 16 tables, TIME)\"", stderr)
	}
	_, stderr, code = runArbiter(t, dir, "egdb", "build", "--variant", "english", "--pieces", "3", "--dir", db)
	if code != 0 || !strings.Contains(stderr, "already built (16 of 16 tables, ") {
		t.Errorf("the same build again: exit %d, stderr %q; want each table \"already built\"", code, stderr)
	}
}

// TestEGDBProbeRecordedGames follows an arbiter asking whether the endings
// of recorded games were won or drawn: `egdb probe --pdn FILE` on a club's
// records (one entering the database by a capture and recorded a draw, one
// starting in it with a result the database contradicts, one never in it)
// gives each game's first position in the database and its last, with
// their results with perfect play, and says when the record differs.
func TestEGDBProbeRecordedGames(t *testing.T) {
	dir := t.TempDir()
	if out, stderr, code := runArbiter(t, dir, "egdb", "build", "--variant", "english", "--pieces", "3"); code != 0 {
		t.Fatalf("egdb build: exit %d\n%s\n%s", code, out, stderr)
	}
	writeFile(t, filepath.Join(dir, "club.pdn"), clubGames)
	out, stderr, code := runArbiter(t, dir, "egdb", "probe", "--pdn", "club.pdn")
	if code != 0 || out != clubValues {
		t.Errorf("probe --pdn: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, stderr, out, clubValues)
	}
	_, stderr, code = runArbiter(t, dir, "egdb", "probe", "--pdn", "club.pdn", "--fen", "W:W18:B14")
	if code != 2 || !strings.Contains(stderr, "give --fen or --pdn, not both") {
		t.Errorf("--pdn and --fen: exit %d, stderr %q", code, stderr)
	}
}

const clubGames = `[Event "club"]
[White "Ann"]
[Black "Bob"]
[Result "1/2-1/2"]
[GameType "21"]
[FEN "W:W22:B18,K1,K28"]

1... 22x15 2. 28-24 15-11 3. 24-20 1/2-1/2

[Event "club"]
[White "Cy"]
[Black "Di"]
[Result "0-1"]
[GameType "21"]
[FEN "B:WK18,K27:BK1"]

1. 1-5 18-14 2. 5-1 14-9 0-1

[Event "club"]
[White "Ed"]
[Black "Flo"]
[Result "*"]
[GameType "21"]

1. 11-15 23-19 *
`

const clubValues = `game 1: Ann - Bob 1/2-1/2 (recorded)
  from 1... 22x15 (3 pieces, B:W15:BK1,K28): Black wins with perfect play (0-1)
  at the end (3 pieces, W:W11:BK1,K20): Black wins with perfect play (0-1)
  the recorded 1/2-1/2 is not the last position's result with perfect play (0-1): a draw by repetition or a move-count rule (which the database ignores), a resignation, a time forfeit or a mistake would explain it
game 2: Cy - Di 0-1 (recorded)
  from the start (3 pieces, B:WK18,K27:BK1): White wins with perfect play (1-0)
  at the end (3 pieces, B:WK9,K27:BK1): White wins with perfect play (1-0)
  the recorded 0-1 is not the last position's result with perfect play (1-0): a draw by repetition or a move-count rule (which the database ignores), a resignation, a time forfeit or a mistake would explain it
game 3: Ed - Flo * (recorded)
  never in the database: the last position has 24 pieces, the database holds up to 3
`

// TestEGDBVerifyNothingToCheck follows an arbiter who asks verify for a
// range of sizes the database does not have (--from 5 on a three-piece
// one, or --from above --to): a usage error saying what the database
// holds, not "every position agrees with its moves" over no table; and a
// build of more pieces than any database holds is a usage error too.
func TestEGDBVerifyNothingToCheck(t *testing.T) {
	dir := t.TempDir()
	if out, stderr, code := runArbiter(t, dir, "egdb", "build", "--variant", "english", "--pieces", "3"); code != 0 {
		t.Fatalf("egdb build: exit %d\n%s\n%s", code, out, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"egdb", "verify", "--variant", "english", "--from", "5"}, "--from 5 --to 3 selects no table: the database in egdb holds tables of 2 to 3 pieces"},
		{[]string{"egdb", "verify", "--variant", "english", "--from", "3", "--to", "2"}, "--from 3 --to 2 selects no table"},
		{[]string{"egdb", "build", "--variant", "english", "--pieces", "9"}, "--pieces must be 2 to 8, not 9"},
	} {
		out, stderr, code := runArbiter(t, dir, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(out, "agrees") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, stderr, c.want)
		}
	}
}

// TestEGDBVariantWithoutDatabase follows an arbiter of a Frisian or a
// Turkish game who asks for an endgame database: no database of this kind
// can hold such a variant's endings, and the command says so with the
// variants that can have one, as a usage error (2). The probe said
// "builds the tables" and quoted a build command that then failed with
// status 3.
func TestEGDBVariantWithoutDatabase(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"egdb", "probe", "--variant", "frisian", "--fen", "W:W10:B40"}, "frisian keeps state beyond the board"},
		{[]string{"egdb", "build", "--variant", "frisian", "--pieces", "2"}, "frisian keeps state beyond the board"},
		{[]string{"egdb", "build", "--variant", "turkish", "--pieces", "2"}, "turkish is not played on the dark squares"},
	} {
		out, stderr, code := runArbiter(t, dir, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "no endgame database can be built for it") ||
			!strings.Contains(stderr, "can have one: ") || !strings.Contains(stderr, "english") || strings.Contains(stderr, "egdb build --variant") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, %q and the variants that can have one", c.args, code, out, stderr, c.want)
		}
	}
}

// TestEGDBDamagedTable follows an arbiter whose table was cut short (a full
// disk, a copy interrupted): the probe names the file and quotes the build
// command, and that command, run as quoted, solves that table again and
// keeps the others; the probe then answers.
func TestEGDBDamagedTable(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	if out, stderr, code := runArbiter(t, dir, "egdb", "build", "--variant", "english", "--pieces", "3", "--dir", db); code != 0 {
		t.Fatalf("egdb build: exit %d\n%s\n%s", code, out, stderr)
	}
	if err := os.Truncate(filepath.Join(db, "english", "0m1k-0m2k.wdl"), 100); err != nil {
		t.Fatal(err)
	}
	fen := "W:WK1:BK10,K14"
	_, stderr, code := runArbiter(t, dir, "egdb", "probe", "--variant", "english", "--dir", db, "--fen", fen)
	cmd := buildCommandIn(stderr)
	if code != 3 || !strings.Contains(stderr, "0m1k-0m2k.wdl is damaged") || strings.Join(cmd, " ") != "egdb build --variant english --pieces 3 --dir "+db {
		t.Fatalf("probe of a damaged table: exit %d, stderr %q; want exit 3 naming the file and quoting the build", code, stderr)
	}
	out, stderr, code := runArbiter(t, dir, cmd...)
	if code != 0 || !strings.Contains(out, "1 table solved, 15 already built") {
		t.Fatalf("the quoted build: exit %d\n%s\n%s", code, out, stderr)
	}
	if out, stderr, code := runArbiter(t, dir, "egdb", "probe", "--variant", "english", "--dir", db, "--fen", fen); code != 0 || !strings.HasPrefix(out, fen+": White to move") {
		t.Errorf("probe after the build: exit %d\n%s\n%s", code, out, stderr)
	}
}

// TestServeEGDBDirectory follows whoever starts the web referee for an
// arbiter with --egdb: a directory that is not there stops serve (exit 2)
// with the command that makes it; the server says at start which databases
// it found, and when it found none because the directory given is one
// variant's, which directory to give instead (before, nothing was said
// until an arbiter at a board asked and was told there was none).
func TestServeEGDBDirectory(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	if out, stderr, code := runArbiter(t, dir, "egdb", "build", "--variant", "english", "--pieces", "3", "--dir", db); code != 0 {
		t.Fatalf("egdb build: exit %d\n%s\n%s", code, out, stderr)
	}
	_, stderr, code := runArbiter(t, dir, "serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "w.db"), "--egdb", filepath.Join(dir, "nowhere"))
	if code != 2 || !strings.Contains(stderr, "serve: --egdb: ") || !strings.Contains(stderr, "`arbiter egdb build --variant V --pieces N --dir "+filepath.Join(dir, "nowhere")+"` makes it") {
		t.Errorf("serve --egdb nowhere: exit %d, stderr %q", code, stderr)
	}
	for _, c := range []struct{ egdb, want string }{
		{db, "endgame databases: english up to 3 pieces"},
		{filepath.Join(db, "english"), "holds one variant's tables: give the directory above it, --egdb " + db},
	} {
		s := startServe(t, dir, "--db", filepath.Join(dir, "w.db"), "--events-db", filepath.Join(dir, "e.db"), "--egdb", c.egdb)
		if !strings.Contains(s.errb.String(), c.want) {
			t.Errorf("serve --egdb %s: stderr %s; want %q", c.egdb, s.errb, c.want)
		}
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}
