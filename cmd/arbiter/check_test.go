package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runCheck runs the command in-process and returns its output and the exit
// status run() would give.
func runCheck(t *testing.T, args ...string) (string, int) {
	t.Helper()
	root := newRoot()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(append([]string{"check"}, args...))
	err := root.Execute()
	code := exitOK
	var ee exitError
	var ue usageError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.code
	case errors.As(err, &ue) || isCobraUsage(err):
		code = exitUsage
		out.WriteString("error: " + err.Error() + "\n")
	default:
		code = exitRuntime
		out.WriteString("error: " + err.Error() + "\n")
	}
	return out.String(), code
}

// shippedPDN are the sample files of rules/pdn/testdata.
func shippedPDN(t *testing.T) []string {
	files, err := filepath.Glob("../../rules/pdn/testdata/wiegerw-*.pdn")
	if err != nil || len(files) != 4 {
		t.Fatalf("sample PDN files: %v %v", files, err)
	}
	return files
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestCheckShippedFiles(t *testing.T) {
	files := shippedPDN(t)
	out, code := runCheck(t, files...)
	if code != exitOK {
		t.Errorf("exit %d", code)
	}
	if got := lastLine(out); got != "games=310 ok=310 illegal=0 unreadable=0" {
		t.Errorf("last line %q", got)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 311 {
		t.Fatalf("%d lines, want one per game and the totals", len(lines))
	}
	// OCA, Tricks (English) and ussr1947 (Russian) have no GameType tag:
	// the moves decide, and the line says so. wk2003 has [GameType "20"].
	decided := map[string]string{
		files[0]: " (variant: english (no GameType; legal as english, not as international))",
		files[1]: " (variant: english (no GameType; legal as english, not as international))",
		files[2]: " (variant: russian (no GameType; legal as russian, not as international))",
		files[3]: "",
	}
	for _, l := range lines[:310] {
		file, _, _ := strings.Cut(l, ": game ")
		if !strings.HasSuffix(l, "): ok"+decided[file]) {
			t.Errorf("line %q", l)
		}
	}
	if want := files[0] + ": game 1 (White: Wyllie, J., Black: Moorhead, W.): ok" + decided[files[0]]; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
}

// TestCheckVariantFallback: --variant stands in for the missing GameType
// of the OCA file's English games, so international rules make every first
// move illegal, and the report shows why; it does not override a GameType
// tag: the international games of wk2003 stay international.
func TestCheckVariantFallback(t *testing.T) {
	file := shippedPDN(t)[0] // OCA, English checkers
	out, code := runCheck(t, "--variant", "international", file)
	if code != exitFailed {
		t.Errorf("exit %d", code)
	}
	if got := lastLine(out); got != "games=43 ok=0 illegal=43 unreadable=0" {
		t.Errorf("last line %q", got)
	}
	want := file + ": game 1 (White: Wyllie, J., Black: Moorhead, W., Event: Manchester 1841): illegal move 1. 11-15 (line 7): " +
		"the piece on 11 is black's, and it is white's move (FMJD rules, art. 3.3); FEN W:W31-50:B1-20 legal moves: 31-26, 31-27, 32-27, 32-28, 33-28, 33-29, 34-29, 34-30, 35-30"
	if first := strings.Split(out, "\n")[0]; first != want {
		t.Errorf("first line\n%q\nwant\n%q", first, want)
	}
	out, code = runCheck(t, "--variant", "english", shippedPDN(t)[3])
	if code != exitOK || lastLine(out) != "games=23 ok=23 illegal=0 unreadable=0" {
		t.Errorf("GameType 20 games under --variant english: exit %d, %s", code, lastLine(out))
	}
}

// TestCheckMissingFile: a file that cannot be opened is an I/O error (exit
// 3), named, and not counted as a game; the other files are still checked.
func TestCheckMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.pdn")
	out, code := runCheck(t, missing, shippedPDN(t)[3])
	if code != exitRuntime {
		t.Errorf("exit %d, want %d", code, exitRuntime)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if want := missing + ": cannot read the file: open " + missing + ": no such file or directory"; lines[0] != want {
		t.Errorf("first line\n%q\nwant\n%q", lines[0], want)
	}
	if got := lastLine(out); got != "games=23 ok=23 illegal=0 unreadable=0" {
		t.Errorf("last line %q", got)
	}
	// On stderr the error reads as every command's does ("arbiter: COMMAND:
	// ..."); it read "error: check: ...".
	_, stderr, _ := runArbiter(t, t.TempDir(), "check", missing)
	if !strings.HasPrefix(stderr, "arbiter: check: open "+missing) {
		t.Errorf("stderr %q, want it to begin %q", stderr, "arbiter: check: open "+missing)
	}
}

// TestCheckEmptyFile: a file with no game in it (empty, or a text that is
// not PDN at all) is said to hold none, where the count line alone read
// like a file that passed.
func TestCheckEmptyFile(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.pdn")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCheck(t, empty, shippedPDN(t)[3])
	if code != 0 || !strings.Contains(out, empty+": no game in the file (empty, or not PDN)\n") || lastLine(out) != "games=23 ok=23 illegal=0 unreadable=0" {
		t.Errorf("an empty file beside a good one: exit %d\n%s", code, out)
	}
	if strings.Count(out, "no game in the file") != 1 {
		t.Errorf("a file with games said to have none:\n%s", out)
	}
}

func TestCheckProblems(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "games.pdn")
	text := `[White "Good"]
[Black "Game"]
1. 11-15 23-19 2. 8-11 22-17 1-0

[White "Illegal"]
[Black "Game"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17x10 *

[White "Broken"]
[Black "Tag
1. 11-15 *

[White "Unknown"]
[GameType "99"]
1. 11-15 *

[White "Bad FEN"]
[FEN "W:W99:B1"]
1. 11-15 *
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCheck(t, file)
	if code != exitFailed {
		t.Errorf("exit %d", code)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	want := []string{
		file + ": game 1 (White: Good, Black: Game): ok",
		file + ": game 2 (White: Illegal, Black: Game): illegal move 3... 17x10 (line 7): 10 is occupied; FEN W:W17,19,21,24-32:B1-7,10-13,15 legal moves: ",
		file + `: game 3 (White: Broken, Black: ?): unreadable at line 10 near "[Black \"Tag": syntax error: tag Black: value not closed with " on its line`,
		file + `: game 4 (White: Unknown, Black: ?): unreadable at line 14: GameType "99": unknown variant: no preset has game type 99`,
		file + `: game 5 (White: Bad FEN, Black: ?): unreadable at line 18: FEN tag: FEN "W:W99:B1": syntax error: square 99 is off the board (1-72)`, // 99 > 50: detected as canadian
		"games=5 ok=1 illegal=1 unreadable=3",
	}
	if len(lines) != len(want) {
		t.Fatalf("output:\n%s", out)
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("line %d\n%q\nwant\n%q", i+1, lines[i], want[i])
		}
	}
	if !strings.HasSuffix(lines[1], "legal moves: 17-14, 19-16, 24-20, 25-22, 26-22, 26-23, 27-23 (variant: english (no GameType; legal under no preset, english reads furthest))") {
		t.Errorf("legal moves missing in %q", lines[1])
	}
}

func TestCheckUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"--variant", "chess", "x.pdn"}, {"--bogus", "x.pdn"}} {
		out, code := runCheck(t, args...)
		if code != exitUsage {
			t.Errorf("check %q: exit %d, output %q", args, code, out)
		}
	}
}

// TestCheckForms: the files of rules/pdn/testdata written in the forms
// people use (padded squares, no GameType, a3b4, "?" FEN, a man on its king
// row) all replay, and the variants taken by the moves are named.
func TestCheckForms(t *testing.T) {
	files, err := filepath.Glob("../../rules/pdn/testdata/form-*.pdn")
	if err != nil || len(files) != 11 {
		t.Fatalf("form files: %v %v", files, err)
	}
	out, code := runCheck(t, files...)
	if code != exitOK || lastLine(out) != "games=21 ok=21 illegal=0 unreadable=0" {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	for _, want := range []string{
		"form-no-gametype-international.pdn: game 2 (White: Engine B, Black: Engine A): ok (variant: international (no GameType; legal as international, not as english))",
		"form-alphanumeric.pdn: game 1 (White: Petrov, Black: Ivanov): ok (variant: russian (no GameType; legal as russian, not as international))",
		"form-cp1251.pdn: game 1 (White: Иванов И.И., Black: Семёнов П.): ok",
		"form-cp1251.pdn: read as Windows-1251 (Cyrillic): the file is not UTF-8",
		"form-koi8r.pdn: game 1 (White: Лебедев А., Black: Борисова Н.): ok",
		"form-koi8r.pdn: read as KOI8-R (Cyrillic)",
		"form-utf16.pdn: game 1 (White: Орлов В., Black: Гусев К.): ok",
		"form-utf16.pdn: read as UTF-16 (little-endian), from its first bytes",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no line ending %q in\n%s", want, out)
		}
	}
}

// TestCheckClaims audits the handmade claim records: every claim and draw of
// valid.pdn holds, and each game of invalid.pdn records one the moves do not
// support.
func TestCheckClaims(t *testing.T) {
	out, code := runCheck(t, "--claims", "testdata/claims/valid.pdn")
	if code != exitOK || lastLine(out) != "claims=5 draws=3 wrong=0" || strings.Contains(out, "WRONG") {
		t.Errorf("valid.pdn: exit %d\n%s", code, out)
	}
	for _, want := range []string{
		"game 1: threefold repetition first claimable after 5. 5-1: the position occurs for the third time, at the start and at moves 3. and 5.",
		"game 1: Black's claim of threefold repetition after 4... 28-32 (recorded refused): invalid, and rightly refused: the position has occurred twice",
		"game 2: Black's claim of threefold repetition after 5. 5-1 (recorded accepted): valid",
		"game 3: the 40-move rule first claimable after 41. 6-1: each player has made 40 moves",
		"game 4: threefold repetition first due after 4... 9-4 (declared by the arbiter in international):",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("valid.pdn: output lacks %q\n%s", want, out)
		}
	}
	out, code = runCheck(t, "--claims", "testdata/claims/invalid.pdn")
	if code != exitFailed || lastLine(out) != "claims=3 draws=2 wrong=5" {
		t.Errorf("invalid.pdn: exit %d\n%s", code, out)
	}
	for _, want := range []string{
		// A game's verdict line says WRONG with its first such finding...
		"game 1 (White: Early, A., Black: Early, B.): WRONG: Black's claim of threefold repetition after 4... 28-32 (recorded accepted): INVALID: the position has occurred twice, at moves 2... and 4...",
		// ... and the others follow.
		"game 1: WRONG: draw by threefold repetition recorded (Termination tag)",
		"game 2 (White: Hasty, A., Black: Hasty, B.): WRONG: White's claim of the 40-move rule after 7. 6-1 (no verdict recorded): INVALID: 12 of the 80 moves",
		"game 3 (White: Refused, A., Black: Refused, B.): WRONG: Black's claim of threefold repetition with 5-1 after 4... 28-32 (recorded refused): valid, but recorded refused",
		"game 4 (White: Broken, A., Black: Broken, B.): WRONG: draw by 40-move rule recorded (Termination tag) at the end, after 42... 15-19: INVALID: 40 of the 80 moves (40 each) needed have been played with no uncrowned man advanced and no capture, counted from 23. 1-5 (22... 28x19 was a capture)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("invalid.pdn: output lacks %q\n%s", want, out)
		}
	}
	// Not "ok" and then WRONG: every game of invalid.pdn has a wrong record.
	if strings.Contains(out, "): ok") {
		t.Errorf("invalid.pdn: a game with a wrong record is called ok:\n%s", out)
	}
	// Without --claims the same files are only replayed: all games are ok.
	if out, code := runCheck(t, "testdata/claims/invalid.pdn"); code != exitOK || strings.Contains(out, "claims=") {
		t.Errorf("plain check: exit %d\n%s", code, out)
	}
}

// An arbiter checks a record with an illegal move: the line names the rule
// it breaks in the referee's words (arbiter.Explain, as the web referee
// tells a player), before the position and the legal moves.
func TestCheckNamesTheRule(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ moves, want string }{
		{"1. 11-15 22-18 2. 9-13 *", "illegal move 2. 9-13 (line 7): capturing is compulsory: 15 can capture (15x22) (WCDF rules, 1.20); FEN B:W18,21,23-32:B1-10,12,15 legal moves: 15x22"},
		{"1. 11-15 23-19 2. 15-11 *", "illegal move 2. 15-11 (line 7): men move forward only, and 15-11 goes backward (WCDF rules, 1.15); FEN"},
		{"1. 11-15 23-19 2. 15-24 *", "illegal move 2. 15-24 (line 7): 24 is occupied; FEN"},
	} {
		file := filepath.Join(dir, "game.pdn")
		text := "[Event \"test\"]\n[White \"W\"]\n[Black \"B\"]\n[GameType \"21\"]\n[Result \"*\"]\n\n" + tt.moves + "\n"
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, code := runCheck(t, file)
		if code != exitFailed || !strings.Contains(out, "game 1 (White: W, Black: B, Event: test): "+tt.want) {
			t.Errorf("%s: exit %d, want a line with %q:\n%s", tt.moves, code, tt.want, out)
		}
	}
}

// TestCheckCitesTheArticle: an arbiter checks the records of a club evening
// (testdata/articles/illegal.pdn) with the real binary. Each game has an
// illegal move that ignores a capture: the international one's line cites
// the FMJD rules' article after the rule in the referee's words, the
// English one's the WCDF rules', and the Russian one's none (no Russian
// rulebook is cited).
func TestCheckCitesTheArticle(t *testing.T) {
	out, err := exec.Command(arbiterBin, "check", "testdata/articles/illegal.pdn").Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitFailed {
		t.Fatalf("exit: %v, want %d\n%s", err, exitFailed, out)
	}
	for _, want := range []string{
		"game 1 (White: Anna, Black: Bram, Event: Club evening): illegal move 2. 33-29 (line 7): capturing is compulsory: 28 can capture (28x19) (FMJD rules, art. 4.2, 4.3); FEN",
		"game 2 (White: Carl, Black: Dora, Event: Club evening): illegal move 2. 9-13 (line 15): capturing is compulsory: 15 can capture (15x22) (WCDF rules, 1.20); FEN",
		"game 3 (White: Egor, Black: Fyodor, Event: Club evening): illegal move 2. a3-b4 (line 23): capturing is compulsory: d4 can capture (d4:f6); FEN",
		"games=3 ok=0 illegal=3 unreadable=0",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckClaimsCiteTheArticle: an arbiter audits the draws of a club
// evening (testdata/articles/claims.pdn) with the real binary's check
// --claims. The English game's refused and accepted repetition claims, and
// where repetition first held, cite the WCDF rules' 1.32.1; the
// international game's repetition, declared by the arbiter and recorded in
// its Termination tag, the FMJD rules' art. 6.1; the Russian game's
// nothing (no Russian rulebook is cited). A draw by agreement cites its
// article too (WCDF 1.32, FMJD 7.3.1): an offer recorded declined, one
// recorded accepted, and one in the Termination tag. The accepted one was
// reported "WRONG ... INVALID: a draw by agreement needs both players
// (Agree)", citing nothing, and the Termination tag's was not audited.
func TestCheckClaimsCiteTheArticle(t *testing.T) {
	out, err := exec.Command(arbiterBin, "check", "--claims", "testdata/articles/claims.pdn").Output()
	if err != nil {
		t.Fatalf("exit: %v\n%s", err, out)
	}
	const since = "since the start of the record"
	for _, want := range []string{
		"game 1: Black's claim of threefold repetition after 4... 28-32 (recorded refused): invalid, and rightly refused: the position has occurred twice, at moves 2... and 4..., " + since + "; a third time is needed (WCDF rules, 1.32.1)\n",
		"game 1: threefold repetition first claimable after 5. 5-1: the position occurs for the third time, at the start and at moves 3. and 5., " + since + " (WCDF rules, 1.32.1)\n",
		"game 1: Black's claim of threefold repetition with 5-1 after 5. 5-1 (recorded accepted): valid: the position occurs for the third time, at the start and at moves 3. and 5., " + since + " (WCDF rules, 1.32.1)\n",
		"game 2: threefold repetition first due after 4... 9-4 (declared by the arbiter in international): the position occurs for the third time, at the start and at moves 2... and 4..., " + since + " (FMJD rules, art. 6.1)\n",
		"game 2: draw by threefold repetition recorded (Termination tag) at the end, after 4... 9-4: valid: the position occurs for the third time, at the start and at moves 2... and 4..., " + since + " (FMJD rules, art. 6.1)\n",
		"game 3: draw by threefold repetition recorded (Termination tag) at the end, after 4... g1-h2: valid: the position occurs for the third time, at the start and at moves 2... and 4..., " + since + "\n",
		"game 4: Black's claim of a draw by agreement after 1... 23-19 (recorded refused): declined: the opponent did not agree to a draw (WCDF rules, 1.32)\n",
		"game 4: White's claim of a draw by agreement after 2. 8-11 (recorded accepted): valid: the players agreed a draw (WCDF rules, 1.32)\n",
		"game 5: draw by agreement recorded (Termination tag) at the end, after 2... 14x23: valid: the players agreed a draw (FMJD rules, art. 7.3.1)\n",
		"games=5 ok=5 illegal=0 unreadable=0\nclaims=4 draws=3 wrong=0\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckLatin1Names: a record saved by an older Windows program (Latin-1
// or Windows-1252, CRLF line ends) names its players as they are called:
// José and Müller, not "Jos\uFFFD".
func TestCheckLatin1Names(t *testing.T) {
	file := filepath.Join(t.TempDir(), "club.pdn")
	text := "[Event \"Clubkampioenschap\"]\r\n[White \"Jos\xe9\"]\r\n[Black \"M\xfcller \x96 \x80\"]\r\n[Result \"*\"]\r\n\r\n1. 32-28 19-23 2. 28x19 14x23 *\r\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCheck(t, file)
	want := file + ": game 1 (White: José, Black: Müller – €): ok"
	if code != exitOK || !strings.HasPrefix(out, want) {
		t.Errorf("exit %d, output:\n%s\nwant a line starting %q", code, out, want)
	}
}

// TestCheckStandardInput: records piped from another program are checked
// when the file is "-", as other Unix tools read it; it said "open -: no
// such file or directory" (exit 3).
func TestCheckStandardInput(t *testing.T) {
	cmd := exec.Command(arbiterBin, "check", "--variant", "international", "-")
	cmd.Stdin = strings.NewReader("1. 32-28 19-23 2. 28x19 14x23 *\n\n1. 32-28 19-23 2. 33-29 *\n")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitFailed {
		t.Fatalf("exit: %v, want %d (one illegal game)\n%s", err, exitFailed, out)
	}
	for _, want := range []string{"stdin: game 1 (White: ?, Black: ?): ok", "stdin: game 2 ", "games=2 ok=1 illegal=1"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckResultTagContradicted: a record whose Result tag and final result
// disagree (the tag 2-0, the text 0-2) does not say who won: the game is ok
// (its moves are legal) with a note naming both, and a record whose two
// agree in another scoring style (2-0, 1-0) has none.
func TestCheckResultTagContradicted(t *testing.T) {
	file := filepath.Join(t.TempDir(), "club.pdn")
	text := `[White "A"]
[Black "B"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 0-2

[White "C"]
[Black "D"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 1-0
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCheck(t, file)
	want := file + ": game 1 (White: A, Black: B): ok (note: the Result tag says 2-0 but the game text ends 0-2)\n" +
		file + ": game 2 (White: C, Black: D): ok\n" +
		"games=2 ok=2 illegal=0 unreadable=0\n"
	if code != exitOK || out != want {
		t.Errorf("exit %d, output:\n%s\nwant\n%s", code, out, want)
	}
}

// TestCheckLegalMovesOnce: where the referee has no rule to name but "not a
// legal move here" (a Turkish king sliding through its own man on c2), the
// report lists the legal moves once; it gave them twice, the referee's
// words and the report's list, in two orders.
func TestCheckLegalMovesOnce(t *testing.T) {
	file := filepath.Join(t.TempDir(), "game.pdn")
	text := "[White \"W\"]\n[Black \"B\"]\n[GameType \"30\"]\n[FEN \"W:WKc4,c2,a3:Bh7,g7\"]\n\n1. c4-c1 *\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCheck(t, file)
	want := "game 1 (White: W, Black: B): illegal move 1. c4-c1 (line 6): FEN W:WKc4,a3,c2:Bg7,h7 legal moves: c4-c8, c4-c7,"
	if code != exitFailed || !strings.Contains(out, want) || strings.Count(out, "c2-d2") != 1 {
		t.Errorf("exit %d, want a line with %q and the legal moves once:\n%s", code, want, out)
	}
}

// TestCheckDirectory: a directory names the .pdn files in it and its
// subdirectories, in name order (a tournament's rounds, a site's
// downloads); it stopped with "read DIR: is a directory". Other files are
// left alone, and a directory with no .pdn file says so.
func TestCheckDirectory(t *testing.T) {
	dir := t.TempDir()
	game := "[White \"W\"]\n[Black \"B\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 *\n"
	for _, name := range []string{"r2.pdn", "a/r1.PDN", "notes.txt"} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(game), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, code := runCheck(t, dir)
	want := filepath.Join(dir, "a/r1.PDN") + ": game 1 (White: W, Black: B): ok\n" +
		filepath.Join(dir, "r2.pdn") + ": game 1 (White: W, Black: B): ok\n" +
		"games=2 ok=2 illegal=0 unreadable=0\n"
	if code != exitOK || out != want {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s", code, out, want)
	}
	empty := filepath.Join(dir, "a")
	os.Remove(filepath.Join(empty, "r1.PDN"))
	if out, code := runCheck(t, empty); code != exitOK || !strings.HasPrefix(out, empty+": no .pdn file in the directory\n") {
		t.Errorf("empty directory: exit %d, output:\n%s", code, out)
	}
}

// TestCheckCyrillicNames follows an arbiter with a file from a Russian
// Windows program: the real binary checks a Windows-1251 file and names
// its players in UTF-8, as they are called, and says which encoding it
// read the file in (they came out as Latin-1 mojibake, "Èâàíîâ È.", before).
// --encoding windows-1252 reads it the old way: the flag wins over the guess.
func TestCheckCyrillicNames(t *testing.T) {
	file := filepath.Join(t.TempDir(), "клуб.pdn")
	// Иванов И., Петров П., Первенство клуба, {Хороший ход} in Windows-1251.
	text := "[White \"\xc8\xe2\xe0\xed\xee\xe2 \xc8.\"]\r\n[Black \"\xcf\xe5\xf2\xf0\xee\xe2 \xcf.\"]\r\n" +
		"[Event \"\xcf\xe5\xf0\xe2\xe5\xed\xf1\xf2\xe2\xee \xea\xeb\xf3\xe1\xe0\"]\r\n[Result \"2-0\"]\r\n[GameType \"25\"]\r\n\r\n" +
		"1. c3-d4 {\xd5\xee\xf0\xee\xf8\xe8\xe9 \xf5\xee\xe4} f6-g5 2. d4-c5 b6:d4 3. e3:c5 d6:b4 4. a3:c5 *\r\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(arbiterBin, "check", file).Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		file + ": game 1 (White: Иванов И., Black: Петров П.): ok",
		file + ": read as Windows-1251 (Cyrillic): the file is not UTF-8 and its letters read as Russian in it; if names look wrong, name the encoding with --encoding",
		"games=1 ok=1 illegal=0 unreadable=0",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, err = exec.Command(arbiterBin, "check", "--encoding", "windows-1252", file).Output()
	if want := file + ": game 1 (White: Èâàíîâ È., Black: Ïåòðîâ Ï.): ok\ngames=1"; err != nil || !strings.Contains(string(out), want) {
		t.Errorf("--encoding windows-1252: %v, output lacks %q:\n%s", err, want, out)
	}
}

// TestCheckEncodingFlag: --encoding takes the encodings' names (any case,
// cp1251 for windows-1251) and refuses others with the list (exit 2).
func TestCheckEncodingFlag(t *testing.T) {
	out, code := runCheck(t, "--encoding", "CP1251", "../../rules/pdn/testdata/form-cp1251.pdn")
	if code != exitOK || !strings.Contains(out, "(White: Иванов И.И., Black: Семёнов П.): ok") || strings.Contains(out, "read as") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	out, code = runCheck(t, "--encoding", "ebcdic", "../../rules/pdn/testdata/form-cp1251.pdn")
	if code != exitUsage || !strings.Contains(out, `check: --encoding: unknown encoding "ebcdic" (known: auto, utf-8, utf-16le, utf-16be, windows-1252, windows-1251, koi8-r)`) {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}
