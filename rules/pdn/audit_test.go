package pdn

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// shipped are the PDN files of testdata/ (copied from github.com/wiegerw/pdn)
// and the variant each must be detected as.
var shipped = []struct {
	file    string
	variant string
}{
	{"wiegerw-pdn_OCA_2.0.pdn", "english"},
	{"wiegerw-pdn_Tricks_traps_and_shots.pdn", "english"},
	{"wiegerw-pdn_ussr1947.pdn", "russian"},
	{"wiegerw-pdn_wk2003.pdn", "international"},
}

// countTagLines counts the lines starting with the given tag, an
// independent count of the games in a file (every game there has a Black tag).
func countTagLines(t *testing.T, path, tag string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "["+tag+" ") {
			n++
		}
	}
	return n
}

// TestShippedFilesAudit replays every game of the shipped files through
// Audit, the code path of `arbiter check`: all must be legal.
func TestShippedFilesAudit(t *testing.T) {
	for _, tc := range shipped {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			want := countTagLines(t, path, "Black")
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			games, plies := 0, 0
			err = Audit(f, tc.file, nil, func(rep Report) {
				games++
				if rep.Number != games {
					t.Errorf("report %d has game number %d", games, rep.Number)
				}
				if rep.Status != OK {
					t.Errorf("%s", rep)
					return
				}
				if got := rep.Replayed.Variant.Name(); got != tc.variant {
					t.Errorf("game %d: variant %s, want %s", rep.Number, got, tc.variant)
				}
				if len(rep.Replayed.Moves) != len(rep.Game.Moves) || len(rep.Replayed.Positions) != len(rep.Game.Moves)+1 {
					t.Errorf("game %d: replayed %d moves / %d positions of %d", rep.Number, len(rep.Replayed.Moves), len(rep.Replayed.Positions), len(rep.Game.Moves))
				}
				plies += len(rep.Game.Moves)
			})
			if err != nil {
				t.Fatal(err)
			}
			if games != want {
				t.Errorf("read %d games, the file has %d Black tags", games, want)
			}
			if plies < 10*games {
				t.Errorf("only %d plies in %d games: moves are being lost", plies, games)
			}
		})
	}
}

func readFile(t *testing.T, name string) []*Game {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games []*Game
	r := NewReader(f, name)
	for {
		g, err := r.Next()
		if err != nil {
			if err.Error() == "EOF" {
				return games
			}
			t.Fatalf("%v", err)
		}
		games = append(games, g)
	}
}

// TestUSSR1947 checks the Russian file: no GameType tag, Cyrillic tags, CRLF,
// a numeric FEN with a trailing dot, algebraic moves with ':' captures.
func TestUSSR1947(t *testing.T) {
	games := readFile(t, "wiegerw-pdn_ussr1947.pdn")
	g := games[0]
	if g.Tag("GameType") != "" {
		t.Fatalf("unexpected GameType %q", g.Tag("GameType"))
	}
	if g.Tag("White") != "Блиндер Б." || g.Tag("Black") != "Миротин Б." || g.Result != "1-0" {
		t.Errorf("tags: White %q Black %q result %q", g.Tag("White"), g.Tag("Black"), g.Result)
	}
	v, err := VariantOf(g, nil)
	if err != nil || v.Name() != "russian" {
		t.Fatalf("VariantOf = %v, %v; want russian", v, err)
	}
	// "1. c3-d4 d6-e5 ... 6. d4:b6 ... 31. h4:f6   1-0"
	if len(g.Moves) != 61 || g.Moves[0].Text != "c3-d4" || g.Moves[10].Text != "d4:b6" || g.Moves[60].Text != "h4:f6" {
		t.Fatalf("moves: %d, first %q, 11th %q, last %+v", len(g.Moves), g.Moves[0].Text, g.Moves[10].Text, g.Moves[len(g.Moves)-1])
	}
	if m := g.Moves[60]; m.Label() != "31." || m.Line != 15 {
		t.Errorf("last move label %s line %d, want 31. on line 15", m.Label(), m.Line)
	}
	rep, err := Replay(g, v)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Positions[0] != rules.NewPosition(v) {
		t.Errorf("the FEN tag (the start position with a trailing dot) gave %s", rep.Positions[0])
	}
	// 6. d4:b6 is a capture of the man on c5.
	if m := rep.Moves[10]; m.Captured != rules.SetOf(mustSquare(t, v, "c5")) {
		t.Errorf("d4:b6 captured %v", m.Captured.Squares())
	}
}

func mustSquare(t *testing.T, v *rules.Variant, s string) rules.Square {
	t.Helper()
	sq, err := v.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

// TestTricksFENs checks the set-up positions of the Tricks file, several of
// which end with a dot.
func TestTricksFENs(t *testing.T) {
	games := readFile(t, "wiegerw-pdn_Tricks_traps_and_shots.pdn")
	dotted := 0
	for _, g := range games {
		fen := g.Tag("FEN")
		if fen == "" {
			continue
		}
		if g.Tag("Setup") != "1" {
			t.Errorf("game %d: FEN without Setup 1", g.Number)
		}
		v, _ := VariantOf(g, nil)
		rep, err := Replay(g, v)
		if err != nil {
			t.Errorf("game %d: %v", g.Number, err)
			continue
		}
		if strings.HasSuffix(fen, ".") {
			dotted++
		}
		back, err := rules.ParseFEN(v, rep.Positions[0].FEN())
		if err != nil || back != rep.Positions[0] {
			t.Errorf("game %d: FEN %q does not round-trip: %v", g.Number, fen, err)
		}
	}
	if dotted < 5 {
		t.Errorf("only %d FENs with a trailing dot; the file has more", dotted)
	}
	// Example 2: [FEN "W:W29,25,21,18,15:B13,8,6,5,4."]
	g := games[1]
	v, _ := VariantOf(g, nil)
	rep, err := Replay(g, v)
	if err != nil {
		t.Fatal(err)
	}
	want := rules.Setup(v, rules.White, rules.SetOf(29, 25, 21, 18, 15), rules.SetOf(13, 8, 6, 5, 4), rules.Set{})
	if rep.Positions[0] != want {
		t.Errorf("example 2 starts from %s, want %s", rep.Positions[0], want)
	}
}

// TestAmbiguousMoveSettledByContinuation: in the Tricks file, game 57 has
// "19. 10x26", which matches two captures (over 14 and 22, or over 15 and
// 23). The scoresheet is not illegal: the next move, 18-14, is only legal
// after the first reading, and Replay takes it.
func TestAmbiguousMoveSettledByContinuation(t *testing.T) {
	games := readFile(t, "wiegerw-pdn_Tricks_traps_and_shots.pdn")
	g := games[56]
	i := 36 // 19. 10x26
	if g.Number != 57 || g.Moves[i].Text != "10x26" || g.Moves[i+1].Text != "18-14" {
		t.Fatalf("game %d move %d is %q then %q", g.Number, i, g.Moves[i].Text, g.Moves[i+1].Text)
	}
	v := rules.MustLookup("english")
	rep, err := Replay(g, v)
	if err != nil {
		t.Fatal(err)
	}
	before := rep.Positions[i]
	if _, err := before.ParseMove("10x26"); !errors.Is(err, rules.ErrAmbiguous) {
		t.Fatalf("10x26 in %s: %v, want ambiguous", before, err)
	}
	cands, _ := before.MatchMoves("10x26")
	if len(cands) != 2 {
		t.Fatalf("candidates %v", cands)
	}
	for _, c := range cands {
		_, err := before.Play(c).ParseMove("18-14")
		takes14 := c.Captured == rules.SetOf(14, 22)
		if takes14 != (err == nil) {
			t.Errorf("after %s (captures %v): 18-14 gives %v", before.LongMoveText(c), c.Captured.Squares(), err)
		}
	}
	if got := rep.Moves[i].Captured; got != rules.SetOf(14, 22) {
		t.Errorf("Replay chose the capture of %v", got.Squares())
	}
}

// TestAmbiguousMoveBothFit: when every reading of a short capture is legal
// and fits the rest of the game, no move of the record is illegal whichever
// was played; the record only does not say which. The game is ok, with a
// note naming the readings and the one checked on (it was "illegal":
// wiegerw/pdn's Campionato Assoluto 2005, game 46, ends 13... 3x26 over
// 3x10x17x26 or 3x10x19x26). A reading that breaks the rest of the game is
// dropped (TestAmbiguousMoveSettledByContinuation); none fitting is illegal.
func TestAmbiguousMoveBothFit(t *testing.T) {
	const fen = `[FEN "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13"]` + "\n"
	tests := []struct {
		name, moves string
		status      Status
		want        string
	}{
		{"last move", "1... 10x26 *", OK,
			"ok (note: 1... 10x26 can be read as 10x17x26 or 10x19x26, each legal and each fitting the rest of the game: the record does not say which (the long form would); checked on as 10x17x26)"},
		{"the next move settles it", "1... 10x26 30x23 *", OK, "ok (variant: english"}, // 30x23 only after 10x19x26
		{"neither goes on", "1... 10x26 30-26 *", Illegal, "illegal move 2. 30-26 (line 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewReader(strings.NewReader(fen+tt.moves+"\n"), "t.pdn").Next()
			if err != nil {
				t.Fatal(err)
			}
			rep := Check(g, nil)
			_, verdict, _ := strings.Cut(rep.String(), "): ")
			if rep.Status != tt.status || !strings.HasPrefix(verdict, tt.want) {
				t.Errorf("got %v %q, want %v %q", rep.Status, verdict, tt.status, tt.want)
			}
		})
	}
}

// TestIllegalMoveReport checks every field of the report on an illegal move.
func TestIllegalMoveReport(t *testing.T) {
	text := "[White \"W. Hand\"]\n[Black \"B. Foot\"]\n[GameType \"21\"]\n\n1. 11-15 23-19 2. 8-11 22-17\n3. 9-13 17x10 4. 15x24 *\n"
	g, err := NewReader(strings.NewReader(text), "t.pdn").Next()
	if err != nil {
		t.Fatal(err)
	}
	rep := Check(g, nil)
	var me *MoveError
	if rep.Status != Illegal || !errors.As(rep.Err, &me) {
		t.Fatalf("got %v %v", rep.Status, rep.Err)
	}
	// After 3. 9-13, white has no capture 17x10 (17 only touches 13 and 14).
	want := MoveError{Index: 5, Label: "3...", Text: "17x10", Line: 6,
		FEN: "W:W17,19,21,24-32:B1-7,10-13,15"}
	if me.Index != want.Index || me.Label != want.Label || me.Text != want.Text || me.Line != want.Line || me.FEN != want.FEN {
		t.Errorf("error %+v", me)
	}
	p, err := rules.ParseFEN(rules.MustLookup("english"), me.FEN)
	if err != nil {
		t.Fatal(err)
	}
	if p != rep.Replayed.Final() {
		t.Errorf("FEN %s is not the position before the move, %s", me.FEN, rep.Replayed.Final())
	}
	if !errors.Is(me, rules.ErrIllegal) {
		t.Errorf("error does not wrap ErrIllegal: %v", me.Err)
	}
	var legal []string
	for _, m := range p.LegalMoves() {
		legal = append(legal, p.MoveText(m))
	}
	if len(legal) != len(me.Legal) || len(legal) == 0 {
		t.Errorf("legal moves %v, want the %d of %v", me.Legal, len(legal), legal)
	}
	line := rep.String()
	wantPrefix := "game 1 (White: W. Hand, Black: B. Foot): illegal move 3... 17x10 (line 6): FEN W:"
	if !strings.HasPrefix(line, wantPrefix) || !strings.Contains(line, " legal moves: "+strings.Join(me.Legal, ", ")) {
		t.Errorf("report %q", line)
	}
}

// TestMoveAfterTheEnd: a move after the game is over names the empty list.
func TestMoveAfterTheEnd(t *testing.T) {
	g, err := NewReader(strings.NewReader("[FEN \"W:W18:B1\"]\n[GameType \"21\"]\n1. 18-14 1-5 2. 14-9 5x14 3. 32-28 *\n"), "t.pdn").Next()
	if err != nil {
		t.Fatal(err)
	}
	rep := Check(g, nil)
	var me *MoveError
	if !errors.As(rep.Err, &me) || me.Label != "3." || me.FEN != "W:W:B14" || len(me.Legal) != 0 {
		t.Fatalf("got %v", rep.Err)
	}
	if !strings.HasSuffix(me.Error(), "legal moves: none (the game is over)") {
		t.Errorf("message %q", me.Error())
	}
}

// TestTimesSignSeparator: the reader accepts × as a capture separator, and
// so does the replay (it was read as a move without a separator).
func TestTimesSignSeparator(t *testing.T) {
	g, err := NewReader(strings.NewReader("[FEN \"W:W18:B14,1\"]\n[GameType \"21\"]\n1. 18×9 1-5 2. 9-6 *\n"), "t.pdn").Next()
	if err != nil {
		t.Fatal(err)
	}
	if rep := Check(g, nil); rep.Status != OK || rep.Replayed.Final().FEN() != "B:W6:B5" {
		t.Fatalf("got %v", rep)
	}
}

// failingReader returns data, then an I/O error.
type failingReader struct{ data string }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.data == "" {
		return 0, errors.New("disk on fire")
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// TestAuditReadError: an I/O error stops the audit with an error naming the
// file, after the games read before it were reported.
func TestAuditReadError(t *testing.T) {
	var seen []Status
	err := Audit(&failingReader{data: good + good}, "broken.pdn", nil, func(rep Report) { seen = append(seen, rep.Status) })
	if err == nil || !strings.Contains(err.Error(), "broken.pdn") || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("error %v", err)
	}
	if len(seen) != 2 || seen[0] != OK || seen[1] != OK {
		t.Errorf("reports %v", seen)
	}
}

// A legal game whose recorded result the final position contradicts is ok,
// with a note for the arbiter; a result that agrees gets none.
func TestCheckResultNote(t *testing.T) {
	tests := []struct {
		text, note string
	}{
		// English: white takes black's last man; black, to move, has nothing.
		{"[FEN \"W:W18:B14\"]\n\n1. 18x9 1/2-1/2\n", "the result 1/2-1/2 gives a draw, but in the final position Black has no pieces left: White wins"},
		{"[FEN \"W:W18:B14\"]\n\n1. 18x9 0-1\n", "the result 0-1 gives the game to Black, but in the final position Black has no pieces left: White wins"},
		{"[FEN \"W:W18:B14\"]\n\n1. 18x9 1-0\n", ""},
		{"[FEN \"W:W18:B14\"]\n\n1. 18x9 *\n", ""},
		{"[FEN \"W:W18:B14\"]\n[Variant \"giveaway\"]\n\n1. 18x9 1-0\n", "the result 1-0 gives the game to White, but in the final position Black has no pieces left and so wins: Black wins"},
		{"1. 11-15 23-19 1/2-1/2\n", ""}, // agreed early: not judged
		// The Result tag and the result ending the text disagree: who won?
		{"[Result \"2-0\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 0-2\n", "the Result tag says 2-0 but the game text ends 0-2"},
		{"[Result \"1-0\"]\n1. 11-15 23-19 1/2-1/2\n", "the Result tag says 1-0 but the game text ends 1/2-1/2"},
		{"[Result \"1-0\"]\n[FEN \"W:W18:B14\"]\n\n1. 18x9 0-1\n", "the Result tag says 1-0 but the game text ends 0-1; the result 0-1 gives the game to Black, but in the final position Black has no pieces left: White wins"},
		{"[Result \"2-0\"]\n[GameType \"20\"]\n1. 32-28 19-23 1-0\n", ""}, // scoring styles, one result
		{"[Result \"*\"]\n1. 11-15 23-19 1-0\n", ""},                    // the tag written before the end
		{"[Result \"1-1\"]\n[GameType \"20\"]\n1. 32-28 19-23 *\n", ""}, // the text left unfinished
		{"[Result \"1/2-1/2\"]\n1. 11-15 23-19\n", ""},                  // no result in the text: the tag's
	}
	for _, tc := range tests {
		g, err := NewReader(strings.NewReader(tc.text), "t.pdn").Next()
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		rep := Check(g, nil)
		if rep.Status != OK || rep.Note != tc.note {
			t.Errorf("%q: status %v note %q, want ok, %q", tc.text, rep.Status, rep.Note, tc.note)
		}
		if tc.note != "" && !strings.Contains(rep.String(), "ok (note: "+tc.note+")") {
			t.Errorf("report line %q lacks the note", rep.String())
		}
	}
}

// Variations are replayed from the position before the move they replace,
// nested ones too; a wrong one is a note on a legal game, never a verdict.
// (English: black moves first, so "1. 11-15 23-19" is black then white.)
func TestCheckVariationNote(t *testing.T) {
	tests := []struct {
		text, note string
	}{
		{"1. 11-15 (1. 9-13 22-18) 23-19 (1... 22-18 15x22) 1/2-1/2\n", ""},
		// After 9-13 22-17 black must take: 13x22.
		{"1. 11-15 (1. 9-13 22-18 (1... 22-17 13x22)) 23-19 *\n", ""},
		// 17-10 is no white move (10 is taken).
		{"1. 11-15 23-19 (1... 22-17 2. 9-14 17-10) *\n",
			"in the variation on 1... 23-19: illegal move 2... 17-10 (line 1): FEN W:"},
		// Inside a variation inside a variation: after 9-13 21-17 the
		// black man on 13 cannot take.
		{"1. 11-15 (1. 9-13 22-18 (1... 21-17 2. 13x22)) 23-19 *\n",
			"in the variation on 1... 22-18: illegal move 2. 13x22 (line 1): FEN B:"},
	}
	for _, tc := range tests {
		g, err := NewReader(strings.NewReader(tc.text), "t.pdn").Next()
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		rep := Check(g, nil)
		if rep.Status != OK || !strings.HasPrefix(rep.Note, tc.note) || (tc.note == "") != (rep.Note == "") {
			t.Errorf("%q: status %v note %q, want ok, %q...", tc.text, rep.Status, rep.Note, tc.note)
		}
	}
}

// TestLetStand: an irregular move that the opponent let stand (FMJD; the
// arbiter's record says so in the note before it) is played as written
// and noted, and the game is checked on from the position it made; one
// that was corrected, or a note about another move, lets nothing through.
func TestLetStand(t *testing.T) {
	const fen = "W:W32,33,45:B5,18,28,29,40"
	const stood = "{warning: white played \"32x23\", illegal: the capture taking the most pieces is compulsory in\ninternational: 3 pieces (45x12), and 32x23 takes 1; let stand at the opponent's choice.} "
	tests := []struct {
		name, fen, moves string
		status           Status
		says             string
	}{
		{"let stand", fen, stood + "1. 32x23 {[%clock 0:10:05]} 1... 29x38 *", OK,
			"ok (note: 1. 32x23 is illegal, and the record says it was let stand at the opponent's choice: played as written)"},
		{"checked on from where it stood", fen, stood + "1. 32x23 1... 40-34 *", Illegal, "illegal move 1... 40-34"},
		{"corrected", fen, strings.Replace(stood, "let stand", "corrected", 1) + "1. 32x23 29x38 *", Illegal, "illegal move 1. 32x23"},
		{"a note about another move", fen, strings.Replace(stood, `"32x23"`, `"33x22"`, 1) + "1. 32x23 29x38 *", Illegal, "illegal move 1. 32x23"},
		// A man that stood on the king row is a king: 3x39 flies.
		{"crowned where it stood", "W:W12,40:B45,20", "{warning: white played \"12-3\", illegal: a man moves one square at a time, and 12-3 is 2 squares; let stand at the opponent's choice.} 1. 12-3 45x34 2. 3x39 *", OK, "ok (note: 1. 12-3 is illegal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewReader(strings.NewReader("[GameType \"20\"]\n[FEN \""+tt.fen+"\"]\n\n"+tt.moves+"\n"), "t.pdn").Next()
			if err != nil {
				t.Fatal(err)
			}
			rep := Check(g, nil)
			if rep.Status != tt.status || !strings.Contains(rep.String(), tt.says) {
				t.Errorf("%v: %s, want %v saying %q", rep.Status, rep, tt.status, tt.says)
			}
		})
	}
}

// TestReportNamesTheGame: a report on a game with a problem names it so a
// person finds it in a file of hundreds: the players (Italian records
// write them as Bianco and Nero, wiegerw/pdn's Campionato Assoluto 2005
// file, and were named "White: ?, Black: ?"), the Event and Round; and a
// game whose move text cannot be read is named by the tags read before
// the problem (it was "game 36: unreadable at line 595 ...", abatsiev.pdn);
// a bad FEN or GameType tag by the tag's line (it was the game's first).
func TestReportNamesTheGame(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"italian players", "[Bianco \"STIRA L.\"]\n[Nero \"MAI M.\"]\n[GameType \"22\"]\n\n1. 21-17 11-15 *\n",
			"game 1 (White: STIRA L., Black: MAI M.): ok"},
		{"red for black", "[Red \"Ada\"]\n[White \"Grace\"]\n[GameType \"21\"]\n\n1. 11-15 22-18 *\n",
			"game 1 (White: Grace, Black: Ada): ok"},
		{"event of an illegal game", "[Event \"Club 2007\"]\n[Round \"3\"]\n[White \"A\"]\n[Black \"B\"]\n[GameType \"20\"]\n\n1. 32-28 18-23 2. 28-33 *\n",
			"game 1 (White: A, Black: B, Event: Club 2007, Round: 3): illegal move 2. 28-33 (line 7)"},
		{"no event on an ok game", "[Event \"Club 2007\"]\n[White \"A\"]\n[Black \"B\"]\n[GameType \"20\"]\n\n1. 32-28 *\n",
			"game 1 (White: A, Black: B): ok"},
		{"unknown event and round", "[Event \"?\"]\n[Round \"-\"]\n[GameType \"20\"]\n\n1. 46-41 *\n",
			"game 1 (White: ?, Black: ?): illegal move 1. 46-41"},
		{"moves after a game's result", "[Event \"Problems\"]\n[GameType \"20\"]\n[FEN \"W:W36,31:B27\"]\n\n1. 31-26 *\n\n36x27 1-0\n",
			"game 2 (White: ?, Black: ?, no tags: the moves after the previous game's result, read as a game from the start position): illegal move 1. 36x27 (line 7)"},
		{"the line of a bad FEN tag", "[Event \"Problems\"]\n[GameType \"20\"]\n[FEN \"[W:W31-50:B1-20]\"]\n\n*\n",
			"game 1 (White: ?, Black: ?, Event: Problems): unreadable at line 3: FEN tag"},
		{"the line of a bad GameType tag", "[Event \"Problems\"]\n\n[GameType \"99\"]\n\n*\n",
			"game 1 (White: ?, Black: ?, Event: Problems): unreadable at line 3: GameType \"99\""},
		{"unreadable move text", "[Event \"XXXIII ch-USSR\"]\n[White \"Абациев Н.\"]\n[Black \"Лебедев Ю.\"]\n\n1. - - 2. - - 1/2-1/2\n",
			"game 1 (White: Абациев Н., Black: Лебедев Ю., Event: XXXIII ch-USSR): unreadable at line 5 (move 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var reps []Report
			if err := Audit(strings.NewReader(tt.text), "t.pdn", nil, func(r Report) { reps = append(reps, r) }); err != nil {
				t.Fatal(err)
			}
			if last := reps[len(reps)-1]; !strings.HasPrefix(last.String(), tt.want) {
				t.Errorf("got %q, want the last to start %q", reps, tt.want)
			}
		})
	}
}
