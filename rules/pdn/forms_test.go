package pdn

import (
	"os"
	"strings"
	"testing"
)

// auditFile checks every game of a testdata file and returns the reports.
func auditFile(t *testing.T, name string) []Report {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var reps []Report
	if err := Audit(f, name, nil, func(r Report) { reps = append(reps, r) }); err != nil {
		t.Fatal(err)
	}
	return reps
}

// wantForms is what each game of a form-*.pdn file must give: the line of
// `arbiter check` after "game N (White: ..., Black: ...): ".
type wantForm struct {
	verdict string // "ok", "ok (note: ...)", with the variant clause if any
	moves   string // the first moves as read, or "" not to check
}

func checkForms(t *testing.T, file string, want []wantForm) {
	t.Helper()
	reps := auditFile(t, file)
	if len(reps) != len(want) {
		t.Fatalf("%d games, want %d", len(reps), len(want))
	}
	for i, rep := range reps {
		_, verdict, _ := strings.Cut(rep.String(), "): ")
		if rep.Status != OK || verdict != want[i].verdict {
			t.Errorf("game %d: %q\nwant       %q", i+1, verdict, want[i].verdict)
		}
		if want[i].moves == "" || rep.Game == nil {
			continue
		}
		var texts []string
		for _, m := range rep.Game.Moves {
			texts = append(texts, m.Label()+" "+m.Text)
		}
		if got := strings.Join(texts, " "); !strings.HasPrefix(got, want[i].moves) {
			t.Errorf("game %d moves %q, want them to start %q", i+1, got, want[i].moves)
		}
		// What was read is written as PDN 3.0 writes it, and reads back the same.
		if rep.Game.Tag("Result") == "" {
			rep.Game.SetTag("Result", rep.Game.Result) // Write adds it
		}
		var b strings.Builder
		if err := Write(&b, rep.Game); err != nil {
			t.Fatal(err)
		}
		back, err := NewReader(strings.NewReader(b.String()), "back").Next()
		if err != nil {
			t.Fatalf("game %d written as\n%s\ndoes not read back: %v", i+1, b.String(), err)
		}
		sameGame(t, rep.Game, back)
	}
}

// TestFormPaddedSquares: fixed-width exporters right-align squares in two
// columns ("  4. 41-37  1- 7", "23x 3", "24.  3x25"), and some writers put
// spaces around the separator ("31 - 27"). PDN 3.0, "PDN 3.0 Restrictions"
// rule 1: "Spaces are not allowed in the notation of a move. For example,
// 1 - 7 is not allowed" is a rule for writers; the reader takes such a move
// as the one move it is. A padded square before a move number ("22- 3.")
// stays an error (TestReaderMalformed).
func TestFormPaddedSquares(t *testing.T) {
	checkForms(t, "form-padded-squares.pdn", []wantForm{
		{"ok", "1. 33-28 1... 19-24 2. 28-23 2... 18x29"},
		{"ok", "1. 31-27 1... 19-24 2. 27-22 2... 17x28 3. 32x23 3... 18x29 4. 34x23 4... 20-25 5. 35-30 5... 25x34"},
	})
	g := auditFile(t, "form-padded-squares.pdn")[0].Game
	for i, want := range map[int]string{15: "8x19", 27: "3-9", 44: "23x3", 45: "15-20", 46: "3x25", 50: "25x1"} {
		if g.Moves[i].Text != want {
			t.Errorf("move %d %s %q, want %q", i, g.Moves[i].Label(), g.Moves[i].Text, want)
		}
	}
}

// TestFormNoGameTypeInternational: a record without a GameType tag (as
// Dragon's export writes one, with empty tags) of an international game.
// The moves decide: international is the first variant tried (GameType
// 20, PDN 3.0's default as issue 7 reads the standard; the stored text of
// its GameType section lists 20 first but has no sentence on a missing
// tag) and the game is legal under it. The second game names no
// square above 32, so English is tried first; its first move 32-28 is a
// white man's, and Black moves first in English: not English.
func TestFormNoGameTypeInternational(t *testing.T) {
	checkForms(t, "form-no-gametype-international.pdn", []wantForm{
		{"ok (variant: international (no GameType; legal as international, the PDN 3.0 default))", "1. 31-27 1... 18-22"},
		{"ok (variant: international (no GameType; legal as international, not as english))", "1. 32-28 1... 19-23 2. 28x19 2... 14x23"},
	})
}

// TestFormNoGameTypeEnglish: English games without a GameType tag are
// common (the OCA file, TestCheckShippedFiles in cmd/arbiter, is one such
// collection); the moves are legal as English, not as international.
func TestFormNoGameTypeEnglish(t *testing.T) {
	checkForms(t, "form-no-gametype-english.pdn", []wantForm{
		{"ok (variant: english (no GameType; legal as english, not as international))", "1. 10-15 1... 23-19"},
	})
}

// TestFormAlphanumeric: PDN 3.0 grammar, "Explanation": "In alpha-numeric
// moves the separator may be omitted, so a3b4 is allowed" (also for
// captures: "b6d4"). Without a GameType the squares are algebraic, so
// Russian draughts is tried after the default.
func TestFormAlphanumeric(t *testing.T) {
	checkForms(t, "form-alphanumeric.pdn", []wantForm{
		{"ok (variant: russian (no GameType; legal as russian, not as international))", "1. c3d4 1... f6g5 2. d4c5 2... b6d4"},
		{"ok", "1. a3b4"}, // the whole of wiegerw/pdn games/succeed/alphanumeric.pdn, under GameType 25
	})
	rep := auditFile(t, "form-alphanumeric.pdn")[0]
	if m := rep.Replayed.Moves[3]; !m.IsCapture() || m.Captured.Len() != 1 {
		t.Errorf("2... b6d4 read as %+v, want the capture of c5", m)
	}
}

// TestFormFENUnknownSide: the FEN grammar of PDN 3.0 (FEN tag section)
// extends PDN 2.0's with "?" for an unknown colour: COLOR "[WB?]". The side
// to move is then the side whose move the record shows; with no move,
// the side that moves first in the variant. A record with no move cannot
// tell the variant either, and says so (CheckerBoard's 11_man_italian.pdn,
// 2400 Italian ballot positions, was "legal as english" without a move).
func TestFormFENUnknownSide(t *testing.T) {
	checkForms(t, "form-fen-unknown-side.pdn", []wantForm{
		{`ok (note: FEN: side to move "?": no move shows it: black, who moves first in english) ` +
			`(variant: english (no GameType and no move to tell by: english, the first variant tried; a GameType tag or --variant says which))`, ""},
		{`ok (note: FEN: side to move "?": white, whose move is the first of the record (14-9)) ` +
			`(variant: english (no GameType; legal as english, not as international))`, "1. 14-9 1... 31x22"},
		{`ok (note: FEN: side to move "?": black, whose move is the first of the record (22x31))`, "1... 22x31"},
	})
}

// TestFormManOnKingRow: problem collections write a king standing on its
// king row as a man ("W2" for a white king on square 2 in English, where
// White is crowned on 1-4). PDN 3.0's FEN grammar (FEN tag section:
// NumericSquareRange = KING? NUMSQUARE ...) marks a king by an optional K
// and says nothing of a man there; no game can hold one (a man is crowned
// on arrival), so the piece is read as a king, with a note. The moves prove it: 2-7 and 30-26
// go backwards, as only kings do.
func TestFormManOnKingRow(t *testing.T) {
	checkForms(t, "form-man-on-king-row.pdn", []wantForm{
		{"ok (note: FEN: the white man on 2 stands on its king row: read as a king; FEN: the black man on 30 stands on its king row: read as a king) " +
			"(variant: english (no GameType; legal as english, not as international))", "1. 2-7 1... 30-26"},
		{"ok (note: FEN: the black man on 30 stands on its king row: read as a king)", "1... 30-25"},
	})
}

// TestFormDambaseScore: Dambase exports of Dutch tournaments score a game
// in match points ("4-6", "1-9") and end the game text with that score,
// which is also the Result tag. PDN 3.0's reading grammar (Tokens: WIN1 to
// DOUBLEFORFEIT) lists no such result, so the score was read as a last move
// and a legal game was called illegal ("illegal move 65. 4-6: 4 and 6 are
// not on one diagonal"). The score ends the game; a note says who won is
// not checked. Zero-padded move numbers and squares ("01. 05-10") as the
// same export writes them. The third game is an unfinished one as the file
// of the 48th Polish Team Championship (Yodachess/BrunoGUI_Dames) writes
// it: tags and moves on one line, [Result "-"] and the moves ending "-".
func TestFormDambaseScore(t *testing.T) {
	score := func(s string) string {
		return "ok (note: the result " + s + " is not a PDN result (2-0, 1-1, 0-2, 1-0, 1/2-1/2, 0-1, 0-0, *): who won is not checked) " +
			"(variant: international (no GameType; legal as international, the PDN 3.0 default))"
	}
	checkForms(t, "form-dambase-score.pdn", []wantForm{
		{score("4-6"), "1. 32-28 1... 19-23 2. 28x19 2... 14x23 3. 33-28 3... 23x32 4. 37x28 4... 10-14 5. 34-30 5... 05-10"},
		{score("1-9"), "1. 34-29 1... 17-21"},
		{strings.TrimSuffix(score("-"), " (variant: international (no GameType; legal as international, the PDN 3.0 default))"), "1. 32-28 1... 18-23"},
	})
	for i, want := range []string{"4-6", "1-9", "-"} {
		if g := auditFile(t, "form-dambase-score.pdn")[i].Game; g.Result != want || len(g.Moves) != []int{10, 6, 3}[i] {
			t.Errorf("game %d: result %q after %d moves, want %q", i+1, g.Result, len(g.Moves), want)
		}
	}
}

// TestFormEscapedCR: KNDB's toernooibase and Lidraughts' broadcast exports,
// as a tool saved them, end their lines with the two characters `\r` (a CR
// written as text) and keep lines of `\r` alone; a tag without a value
// ("[Empty]") stands between games. Every such game was unreadable
// ("unexpected character" near "\"): four files of Yodachess/BrunoGUI_Dames,
// 153 games. The clock comments are Lidraughts' ([%clock w1:29:46 B1:29:40]).
func TestFormEscapedCR(t *testing.T) {
	checkForms(t, "form-escaped-cr.pdn", []wantForm{
		{"ok", "1. 32-28 1... 19-23 2. 28x19 2... 14x23 3. 33-28 3... 23x32 4. 37x28 4... 10-14"},
		{"ok", "1. 34-29 1... 17-21"},
	})
	reps := auditFile(t, "form-escaped-cr.pdn")
	if reps[0].Game == nil || reps[1].Game == nil {
		t.Fatal("unread games")
	}
	if g := reps[0].Game; g.Tag("Site") != "club" || g.Result != "1-1" || g.Moves[0].Comment != "[%clock w1:29:46 B1:29:40]" {
		t.Errorf("game 1: Site %q, result %q, first comment %q", g.Tag("Site"), g.Result, g.Moves[0].Comment)
	}
	if g := reps[1].Game; g.Tag("DamboBottomLine") != "C. Wit - D. Zwart 0-2" {
		t.Errorf("game 2: tags %v", g.Tags)
	}
}

// formNames checks the players of each game of a testdata file as read.
func formNames(t *testing.T, file string, want ...string) {
	t.Helper()
	reps := auditFile(t, file)
	if len(reps) != len(want) {
		t.Fatalf("%d games, want %d", len(reps), len(want))
	}
	for i, rep := range reps {
		if got := rep.Game.Tag("White") + " - " + rep.Game.Tag("Black"); got != want[i] {
			t.Errorf("game %d: players %q, want %q", i+1, got, want[i])
		}
	}
}

// TestFormCP1251: a file of a Russian Windows program, Windows-1251 with
// CRLF, the tags in the order of the russian2012.pdn corpus (White, Black,
// Event, Round, Site, Date, Result, GameType), comments in Russian, captures
// written with x and with :. Its names read as written (they read as
// Latin-1 mojibake, "Èâàíîâ È.È.", before the reader chose the encoding).
func TestFormCP1251(t *testing.T) {
	checkForms(t, "form-cp1251.pdn", []wantForm{{"ok", "1. e3-f4 1... b6-a5 2. c3-b4 2... a5:c3"}, {"ok", "1. g3-h4 1... d6-e5 2. e3-f4 2... e5xg3"}})
	formNames(t, "form-cp1251.pdn", "Иванов И.И. - Семёнов П.", "Щукина Э. - Жуковский Ю.")
	reps := auditFile(t, "form-cp1251.pdn")
	if got := reps[0].Game.Comment + " / " + reps[0].Game.Tag("Event"); got != "Городская партия; белые атакуют / Первенство клуба № 3" {
		t.Errorf("comment and event %q", got)
	}
}

// TestFormKOI8R: a Russian file in KOI8-R, as Unix systems and older
// Russian sites saved them.
func TestFormKOI8R(t *testing.T) {
	checkForms(t, "form-koi8r.pdn", []wantForm{{"ok", "1. c3-b4"}})
	formNames(t, "form-koi8r.pdn", "Лебедев А. - Борисова Н.")
}

// TestFormUTF16: a file saved as UTF-16 with a byte order mark (Windows
// Notepad's "Unicode"), CRLF; it was no game at all before (NUL bytes).
func TestFormUTF16(t *testing.T) {
	checkForms(t, "form-utf16.pdn", []wantForm{{"ok", "1. e3-f4"}})
	formNames(t, "form-utf16.pdn", "Орлов В. - Гусев К.")
}
