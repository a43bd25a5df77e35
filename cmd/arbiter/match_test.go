package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/match/engines/dxp"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

func TestParseEngineSpec(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]any
	}{
		{"name=A cmd=./scan hub", map[string]any{"name": "A", "command": "./scan hub"}},
		{`name='My Engine' dir=/opt/e option.book=false option.threads=2 cmd=/opt/my\ engine/run --opt "a b" 'c d'`,
			map[string]any{"name": "My Engine", "dir": "/opt/e", "command": `/opt/my\ engine/run --opt "a b" 'c d'`,
				"options": map[string]any{"book": "false", "threads": "2"}}},
		{"proto=dxp addr=127.0.0.1:27531", map[string]any{"name": "127.0.0.1:27531", "protocol": "dxp", "address": "127.0.0.1:27531"}},
		{"name=D proto=DXP addr=127.0.0.1:0 listen=true cmd=engine --dxp-connect {addr}",
			map[string]any{"name": "D", "protocol": "dxp", "address": "127.0.0.1:0", "listen": true, "command": "engine --dxp-connect {addr}"}},
		{"cmd=/usr/bin/scan hub", map[string]any{"name": "scan", "command": "/usr/bin/scan hub"}},
		{"cmd=self engine --level 2", map[string]any{"name": "engine --level 2", "command": "self engine --level 2"}},
		{"name=K init=2m30s tc=10+0.1 cmd=kr hub", map[string]any{"name": "K", "init_timeout": "2m30s", "time_control": "10+0.1", "command": "kr hub"}},
		{"name=K protocol=hub init_timeout=1s command=kr", map[string]any{"name": "K", "protocol": "hub", "init_timeout": "1s", "command": "kr"}},
		// The command alone, as a newcomer types it.
		{"./scan hub", map[string]any{"name": "scan", "command": "./scan hub"}},
		{"/opt/kr/kr --level=3", map[string]any{"name": "kr", "command": "/opt/kr/kr --level=3"}},
	}
	for _, tt := range tests {
		got, err := parseEngineSpec(tt.in)
		if err != nil {
			t.Errorf("parseEngineSpec(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseEngineSpec(%q) =\n %v, want\n %v", tt.in, got, tt.want)
		}
	}
	for _, in := range []string{"", "name=A", "cmd=", "proto=dxp cmd=", "bogus=1 cmd=x",
		"name='A cmd=x", `cmd=x "y`, "name A cmd=x"} {
		if _, err := parseEngineSpec(in); err == nil {
			t.Errorf("parseEngineSpec(%q) accepted", in)
		}
	}
}

// pairEvent is a two-engine event as a config file; pairFlags is the same
// event as match flags: the one runner must play the very same games.
const pairEvent = `
name: Pair
variant: english
time_control: "10+0.1"
engines:
  - {name: Deep, command: self engine --level 2 --seed 1}
  - {name: Rand, command: self engine --level random --seed 2}
games_per_encounter: 6
openings: {file: ballot.json}
concurrency: 2
`

var pairFlags = []string{"match", "--name", "Pair", "--variant", "english", "--time-control", "10+0.1",
	"--engine", "name=Deep cmd=self engine --level 2 --seed 1",
	"--engine", "name=Rand cmd=self engine --level random --seed 2",
	"--games-per-encounter", "6", "--openings-file", "ballot.json", "--concurrency", "2"}

const testBallot = `{"all": {"b": "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,6,7,8,9",
                    "a": "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,5,7,8,9"},
            "standard": {"a": "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,5,7,8,9"}}`

// gameMoves reads each finished game's moves, by game number.
func gameMoves(t *testing.T, out string) map[int]string {
	t.Helper()
	st, err := store.OpenDir(out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	games := map[int]string{}
	if err := st.Games(context.Background(), store.ReadOptions{NoPDN: true}, func(g store.Game) error {
		var b strings.Builder
		for _, m := range g.Moves {
			b.WriteString(m.Text + " ")
		}
		games[g.ID] = fmt.Sprintf("%d-%d %s %s: %s", g.White, g.Black, g.Opening, g.Result, b.String())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return games
}

// The one runner: `match` and `tournament` of the same event run the same
// code and play the same games (the sparring engine's moves depend only on
// its seed and the position), store them, write the report and print the
// match summary; match adds a line per game.
func TestOneRunnerBothCommands(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "ballot.json"), testBallot)
	writeFile(t, filepath.Join(dir, "pair.yaml"), pairEvent)
	results := map[string]map[int]string{}
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"tournament", []string{"tournament", "-c", "pair.yaml"}},
		{"tournament-file-argument", []string{"tournament", "pair.yaml"}}, // as a newcomer types it
		{"match", pairFlags},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+tt.name)
			args := append(append([]string{}, tt.args...), "--out", out, "--progress", "off")
			stdout, stderr, code := runArbiter(t, dir, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			for _, want := range []string{"Pair: 6 of 6 games finished (6 in this run, 0 earlier)", "Score of Deep vs Rand: ",
				"\nElo: ", ", LOS: ", " %, DrawRatio: ", "\nPtnml(0-2): [", "report: "} {
				if !strings.Contains(stdout, want) {
					t.Errorf("output lacks %q:\n%s", want, stdout)
				}
			}
			// One LOS, cutechess's from wins and losses: the console's
			// summary says what report.html says (it printed the score-based
			// form, 100.0 % beside the report's 99.3 % for six wins).
			los := regexp.MustCompile(`LOS: [0-9.]+ %`)
			page, _ := os.ReadFile(filepath.Join(out, "report.html"))
			if c, r := los.FindString(stdout), los.FindString(string(page)); c == "" || c != r {
				t.Errorf("console says %q, report.html %q", c, r)
			}
			// Every key of results.json is in the guide's reference
			// for scripts (none was documented as a whole).
			for _, key := range resultsKeys(t, filepath.Join(out, "results.json")) {
				if !strings.Contains(resultsDoc, "`"+key+"`") && !strings.Contains(resultsDoc, "`"+key+"[") {
					t.Errorf("results.json key %q is not in docs/engine-testing.md's results.json section", key)
				}
			}
			if games := strings.Count(stdout, "\ngame ") + strings.Count(stdout[:min(5, len(stdout))], "game "); (tt.name == "match") != (games == 6) {
				t.Errorf("%d game lines:\n%s", games, stdout)
			}
			check, _, code := runArbiter(t, dir, "check", filepath.Join(out, "games.pdn"))
			if code != 0 || !strings.Contains(check, "games=6 ok=6") {
				t.Errorf("arbiter check: exit %d\n%s", code, check)
			}
			results[tt.name] = gameMoves(t, out)
			if len(results[tt.name]) != 6 {
				t.Errorf("%d games stored, want 6", len(results[tt.name]))
			}
		})
	}
	for _, other := range []string{"match", "tournament-file-argument"} {
		if !reflect.DeepEqual(results[other], results["tournament"]) {
			t.Errorf("%s and tournament played different games:\n%v\n%v", other, results[other], results["tournament"])
		}
	}
}

// match keeps the old names of its flags (as deprecated aliases of the
// config keys' flags), writes --pdn and the engine log of --log-dir, and
// takes the variant's default book without --openings-file.
func TestMatchOldFlagsAndDefaultBook(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "ballot.json"), testBallot)
	out := filepath.Join(dir, "out")
	stdout, stderr, code := runArbiter(t, dir, "match", "--variant", "english",
		"--engine", "name=Deep cmd=self engine --level 2 --seed 1",
		"--engine", "name=Rand cmd=self engine --level random --seed 2",
		"--tc", "5+0.1", "--games", "4", "--openings", "ballot.json", "--pdn", "games.pdn", "--log-dir", "logs", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for i, want := range []string{"game 1: Deep - Rand", "game 2: Rand - Deep", "game 3: Deep - Rand", "game 4: Rand - Deep"} {
		if lines := strings.Split(stdout, "\n"); !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], want)
		}
	}
	if !strings.Contains(stderr, "--tc has been deprecated, use --time-control") {
		t.Errorf("no deprecation note:\n%s", stderr)
	}
	pdnText, _ := os.ReadFile(filepath.Join(dir, "games.pdn"))
	for _, tag := range []string{`[FEN "W:W17,22`, `[Opening "a"]`, `[Opening "b"]`, `[TimeControl "5+0.1"]`, `[Termination "`, `[PlyCount "`, `[GameType "21"]`} {
		if !bytes.Contains(pdnText, []byte(tag)) {
			t.Errorf("PDN lacks %s", tag)
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, "logs", "engines.log")); err != nil || !bytes.Contains(data, []byte(`"line":"go think"`)) {
		t.Errorf("engine log: %v, %d bytes", err, len(data))
	}

	// No book named: English takes the 3-move ballot's standard group.
	stdout, stderr, code = runArbiter(t, dir, "match", "--engine", "cmd=self engine --level 1", "--engine", "cmd=self engine --level random",
		"--time-control", "5+0.1", "--out", filepath.Join(dir, "book"), "--progress", "off")
	if code != 0 {
		t.Fatalf("default book: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if pdnText, _ := os.ReadFile(filepath.Join(dir, "book", "games.pdn")); !bytes.Contains(pdnText, []byte(`[Opening "001 09-13 21-17 05-09"]`)) {
		t.Errorf("default book: the first opening of the ballot is not played:\n%s", pdnText)
	}
	bookLine := func(out string) string {
		page, _ := os.ReadFile(filepath.Join(out, "report.html"))
		_, after, _ := strings.Cut(string(page), "Opening book</dt><dd>")
		line, _, _ := strings.Cut(after, "</dd>")
		return line
	}
	if got := bookLine(filepath.Join(dir, "book")); got != "3move_english.json (group standard, sequential)" {
		t.Errorf("default book: the report says %q", got)
	}
	// A variant without a book: a warning when the pairs would repeat,
	// and the report says the games started from the start position (it
	// said "the variant's default book").
	_, stderr, code = runArbiter(t, dir, "match", "--variant", "pool", "--engine", "cmd=self engine --level 1", "--engine", "cmd=self engine --level random",
		"--time-control", "5+0.1", "--games-per-encounter", "4", "--out", filepath.Join(dir, "pool"), "--progress", "off")
	if code != 0 || !strings.Contains(stderr, "warning: no opening book (openings.file)") {
		t.Errorf("pool without a book: exit %d, want a warning:\n%s", code, stderr)
	}
	if got := bookLine(filepath.Join(dir, "pool")); got != "none: every game starts from the variant&#39;s start position" {
		t.Errorf("pool without a book: the report says %q", got)
	}
}

// A match killed with SIGKILL resumes with the same command and --out: the
// games it finished are kept, the rest are played, none twice.
func TestMatchResumeAfterKill(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	args := []string{"match", "--engine", "name=A cmd=self engine --level 4 --seed 1", "--engine", "name=B cmd=self engine --level 4 --seed 2",
		"--time-control", "30+0.5", "--games-per-encounter", "16", "--concurrency", "2", "--out", out, "--progress", "off", "--adjudication-max-moves", "80"}
	cmd, errb := startArbiter(t, dir, args...)
	if !poll.Until(2*time.Minute, 5*time.Millisecond, func() bool { return gameCounts(filepath.Join(out, store.FileName))[store.Finished] >= 3 }) {
		cmd.Process.Kill()
		t.Fatalf("no games committed in time; stderr:\n%s", errb.String())
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	before := finishedGames(t, filepath.Join(out, store.FileName))
	if len(before) >= 16 {
		t.Fatalf("all games finished before the kill; the test proves nothing")
	}
	stdout, stderr, code := runArbiter(t, dir, args...)
	if code != 0 || !strings.Contains(stdout, fmt.Sprintf("16 of 16 games finished (%d in this run, %d earlier)", 16-len(before), len(before))) {
		t.Fatalf("resumed: exit %d\n%s\n%s", code, stdout, stderr)
	}
	after := finishedGames(t, filepath.Join(out, store.FileName))
	for id, g := range before {
		if after[id] != g {
			t.Errorf("game %d, finished before the kill, was played again", id+1)
		}
	}
	if !strings.Contains(stdout, "Ptnml(0-2): [") || strings.Count(stdout, "\ngame ")+1 != 16 {
		t.Errorf("resumed match does not report all 16 games and the summary:\n%s", stdout)
	}
}

// An SPRT stops a match as it stops a tournament, and the summary ends
// with its line as cutechess prints it; a match that ends undecided
// prints the line too (it printed nothing about its SPRT).
func TestMatchStopsOnSPRT(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runArbiter(t, dir, "match", "--engine", "name=A cmd=self engine --level 3 --seed 1", "--engine", "name=R cmd=self engine --level random",
		"--time-control", "10+0.1", "--games-per-encounter", "400", "--concurrency", "2", "--out", filepath.Join(dir, "out"), "--progress", "off",
		"--sprt-elo0", "0", "--sprt-elo1", "50")
	if code != 0 || !strings.Contains(stdout, "stopped early: SPRT accepted H1") {
		t.Fatalf("exit %d, want an SPRT stop\n%s\n%s", code, lastLines(stdout, 12), stderr)
	}
	if n := strings.Count(stdout, "\ngame ") + 1; n >= 400 {
		t.Errorf("%d games played", n)
	}
	if !regexp.MustCompile(`\nSPRT: llr [0-9.]+ \(1\d\d\.\d%\), lbound -2\.94, ubound 2\.94 - H1 was accepted\n`).MatchString(stdout) {
		t.Errorf("no SPRT line with the decision in the summary:\n%s", lastLines(stdout, 8))
	}
	stdout, stderr, code = runArbiter(t, dir, "match", "--engine", "name=A cmd=self engine --level 3 --seed 1", "--engine", "name=R cmd=self engine --level random",
		"--time-control", "10+0.1", "--games-per-encounter", "4", "--out", filepath.Join(dir, "short"), "--progress", "off",
		"--sprt-elo0", "0", "--sprt-elo1", "50")
	if code != 0 || !regexp.MustCompile(`\nSPRT: llr [0-9.]+ \([0-9.]+%\), lbound -2\.94, ubound 2\.94\n`).MatchString(stdout) {
		t.Errorf("an undecided SPRT: exit %d, want its line without a decision\n%s\n%s", code, lastLines(stdout, 8), stderr)
	}
}

// A faulty engine's games end with the right termination in the output.
func TestMatchCommandFaultsAndDXP(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := runArbiter(t, dir, "match", "--variant", "international", "--games-per-encounter", "2", "--illegal-move-policy", "strict",
		"--engine", "name=Bad cmd=self engine --fault illegal-at=2",
		"--engine", "name=Net proto=dxp addr=127.0.0.1:0 listen=true cmd=self engine --dxp-connect {addr} --level 1",
		"--time-control", "5+0.1", "--out", filepath.Join(dir, "out"))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if strings.Count(out, "(illegal move:") != 2 || !strings.Contains(out, "Score of Bad vs Net: 0 - 2 - 0") {
		t.Errorf("output:\n%s", out)
	}
	// The reason names the side as a sentence does ("black played" read
	// as a word left in from a log), and the record's note ends as one.
	if n := len(regexp.MustCompile(`\(illegal move: (White|Black) played `).FindAllString(out, -1)); n != 2 {
		t.Errorf("%d reasons name the side White or Black, want 2:\n%s", n, out)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out", "games.pdn")); err != nil || strings.Count(strings.Join(strings.Fields(string(b)), " "), " (strict policy).}") != 2 {
		t.Errorf("the record's notes of the two illegal moves (%v):\n%s", err, b)
	}
	if check, _, code := runArbiter(t, dir, "check", filepath.Join(dir, "out", "games.pdn")); code != 0 {
		t.Errorf("arbiter check: exit %d\n%s", code, check)
	}
}

func TestMatchUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"match", "--engine", "cmd=x"}, "exactly two --engine"},
		{[]string{"match", "--engine", "cmd=x", "--engine", "cmd=y", "--variant", "chess"}, "variant"},
		{[]string{"match", "--engine", "cmd=x", "--engine", "cmd=y", "--time-control", "fast"}, "--time-control: time_control"},
		{[]string{"match", "--engine", "cmd=x", "--engine", "oops", "--tc", "5"}, "oops"},
		{[]string{"match", "--engine", "cmd=x", "--engine", "cmd=y", "--openings-file", "missing.txt"}, "missing.txt"},
		{[]string{"match", "--engine", "name=A proto=uci cmd=x", "--engine", "cmd=y"}, "engines.0.protocol"},
		{[]string{"match", "--engine", "init=soon cmd=x", "--engine", "cmd=y"}, "engines.0.init_timeout"},
		{[]string{"match", "--engine", "cmd=self engine", "--engine", "cmd=self engine", "--margin", "-1s"}, "margin"},
		{[]string{"match", "--engine", "cmd=self engine", "--engine", "cmd=self engine", "--max-moves", "-1"}, "adjudication.max_moves"},
		{[]string{"match", "--engine", "cmd=self engine", "--engine", "cmd=self engine", "--policy", "opponent-decides"}, "illegal_move_policy"},
		{[]string{"match", "--engine", "cmd=self engine", "--engine", "cmd=self engine", "--games-per-encounter", "3"}, "games_per_encounter"},
		{[]string{"engine", "--level", "99"}, "level"},
		{[]string{"engine", "--fault", "explode-at=1"}, "explode"},
	} {
		if _, errs, code := runArbiter(t, dir, tt.args...); code != exitUsage || !strings.Contains(errs, tt.want) {
			t.Errorf("%q: exit %d, want 2 naming %q (%s)", tt.args, code, tt.want, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Errorf("a usage error left an output directory")
	}
}

// refusingDXP is a DXP engine on a real socket (a test double) that answers
// every GAMEREQ with GAMEACC code 2 (refused), or never answers when silent.
func refusingDXP(t *testing.T, silent bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					raw, err := dxp.ReadMessage(br)
					if err != nil {
						return
					}
					if m, err := dxp.Parse(raw); err == nil && m.Type == dxp.GameReq && !silent {
						s, _ := dxp.Message{Type: dxp.GameAcc, Name: "refuser", Code: '2'}.Encode()
						c.Write([]byte(s + "\x00"))
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// A DXP engine that refuses GAMEREQ, or never answers it, never gets a game
// going: its games are recorded as losses, and the match ends with exit
// status 3 naming the engine and the reason. The cases run in parallel
// (each is a process with its own files): the silent one waits out four
// 1 s start-up timeouts.
func TestMatchDXPEngineThatNeverStarts(t *testing.T) {
	for _, tt := range []struct {
		name   string
		silent bool
		want   string
	}{
		{"refuses", false, "engine refused the game: GAMEACC code 2"},
		{"silent", true, "no GAMEACC in answer to GAMEREQ within 1s (the start-up timeout, init=)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			addr := refusingDXP(t, tt.silent)
			out, errs, code := runArbiter(t, dir, "match", "--variant", "international", "--games-per-encounter", "4", "--out", filepath.Join(dir, "out"),
				"--engine", "name=ok cmd=self engine", "--engine", "name=R proto=dxp init=1s addr="+addr)
			if code != exitRuntime || !strings.Contains(errs, "no game got going with: R (4 attempts)") || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, want %d after 2 games naming %q\n%s\n%s", code, exitRuntime, tt.want, out, errs)
			}
		})
	}
}

// The sparring engine whose GUI closed its output says so on stderr and
// exits with status 3 (it used to die of SIGPIPE without a word, or carry
// on writing into the void).
func TestEngineWriteErrorExits(t *testing.T) {
	cmd := exec.Command(arbiterBin, "engine")
	cmd.Stdin = strings.NewReader("hub\n")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // nobody reads the engine's output
	cmd.Stdout = w
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	w.Close()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitRuntime || !strings.Contains(errb.String(), "writing to the GUI") {
		t.Errorf("engine with a closed output: %v, stderr %q; want exit %d naming the write", err, errb.String(), exitRuntime)
	}
}

// resultsDoc is docs/engine-testing.md's section on results.json.
var resultsDoc = func() string {
	data, _ := os.ReadFile(filepath.Join("..", "..", "docs", "engine-testing.md"))
	_, sec, _ := strings.Cut(string(data), "## results.json, for scripts")
	sec, _, _ = strings.Cut(sec, "\n## ")
	return sec
}()

// resultsKeys lists the object keys of a results.json file, at any depth.
func resultsKeys(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				seen[k] = true
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return slices.Sorted(maps.Keys(seen))
}

// A DXP engine reports its thinking in whole seconds at most, so the
// arbiter cannot tell its thinking from the machine's share of a round
// trip: its moves' latency is unknown, not the round trip (which read as
// a slow machine, and flagged a DXP engine searching 0.7 s a move as held
// back by the arbiter). The Hub engine's is measured as before.
func TestMatchDXPLatencyUnknown(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := runArbiter(t, dir, "match", "--variant", "international", "--games-per-encounter", "2",
		"--engine", "name=Hub cmd=self engine --level 2",
		"--engine", "name=Net proto=dxp addr=127.0.0.1:0 listen=true cmd=self engine --dxp-connect {addr} --level 2",
		"--time-control", "20+0.2", "--out", filepath.Join(dir, "out"))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	data, err := os.ReadFile(filepath.Join(dir, "out", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Games []struct {
			White, Black string
			WhiteLatency *struct{ Moves int } `json:"white_latency"`
			BlackLatency *struct{ Moves int } `json:"black_latency"`
		} `json:"games"`
		Stats struct {
			Engines []struct {
				Name    string
				Latency *struct{ Moves int }
			}
		}
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	for i, g := range res.Games {
		net, hub := g.BlackLatency, g.WhiteLatency
		if g.White == "Net" {
			net, hub = g.WhiteLatency, g.BlackLatency
		}
		if net != nil || hub == nil || hub.Moves == 0 {
			t.Errorf("game %d (%s - %s): the DXP side's latency %+v (want unknown), the Hub side's %+v (want measured)", i+1, g.White, g.Black, net, hub)
		}
	}
	for _, e := range res.Stats.Engines {
		if (e.Name == "Net") != (e.Latency == nil) {
			t.Errorf("engine %s: latency %+v", e.Name, e.Latency)
		}
	}
	if !strings.Contains(out, "latency not reported as thinking:") {
		t.Errorf("no latency line for the Hub engine's moves:\n%s", out)
	}
	html, err := os.ReadFile(filepath.Join(dir, "out", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `<p class="note" id="latency-unmeasured">Not measured: Net. Its moves came without a search time`) {
		t.Error("the report's latency section does not say why Net has no latency")
	}
}
