package pdn

import (
	"strings"
	"testing"
)

// setups lists the set-ups of a line of moves: "index:FEN".
func setups(ms []Move) string {
	var s []string
	for i, m := range ms {
		if m.Setup != "" {
			s = append(s, strings.Join([]string{string(rune('0' + i)), m.Setup}, ":"))
		}
	}
	return strings.Join(s, " ")
}

// TestReaderSetups: PDN 3.0's set-up command in the move text, /FEN
// "..."/ (the standard's chapter PDN Commands, Setup commands, and its
// grammars' SETUP token "\/[^\/]*\/", wiegerw/pdn doc/commands.rst and
// doc/grammar.rst). A set-up before the first move, with no FEN tag, is the
// position the game starts from (the FEN tag); any other belongs to the
// move after it. It was "bad move" before (a / starts no move).
func TestReaderSetups(t *testing.T) {
	tests := []struct {
		name, in          string
		fen, moves, setup string
	}{
		{"the start position", "[GameType \"20\"]\n/FEN \"W:W31-50:B1-20\"/ 1. 32-28 *\n", "W:W31-50:B1-20", "1.32-28", ""},
		{"the standard's two moves in a row", "[GameType \"20\"]\n/FEN \"W:W31-50:B1-20\"/\n/FEN \"B:W28,31-36,38-50:B1-20\"/\n01... 20-25 *\n",
			"W:W31-50:B1-20", "1...20-25", "0:B:W28,31-36,38-50:B1-20"},
		{"after a FEN tag", "[FEN \"W:W31-50:B1-20\"]\n/FEN \"B:W28,31-36,38-50:B1-20\"/ 1... 20-25 *\n",
			"W:W31-50:B1-20", "1...20-25", "0:B:W28,31-36,38-50:B1-20"},
		{"in the middle, a comment after it", "1.31-26 17-21 /FEN \"W:B1-16,18-21:W26,28,33-50\"/ { White forgot to capture } 2. 26x17 *\n",
			"", "1.31-26 1...17-21 2.26x17", "2:W:B1-16,18-21:W26,28,33-50"},
		{"without quotes", "1. 32-28 /fen B:W28,31-50:B1-20/ 1... 19-23 *\n", "", "1.32-28 1...19-23", "1:B:W28,31-50:B1-20"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gs, errs := readAll(t, tc.in)
			if len(errs) > 0 || len(gs) != 1 {
				t.Fatalf("%d games, errors %v", len(gs), errs)
			}
			g := gs[0]
			if g.Tag("FEN") != tc.fen || texts(g.Moves) != tc.moves || setups(g.Moves) != tc.setup {
				t.Errorf("FEN tag %q, moves %q, set-ups %q; want %q, %q, %q", g.Tag("FEN"), texts(g.Moves), setups(g.Moves), tc.fen, tc.moves, tc.setup)
			}
			if g.Tag("Result") == "" {
				g.SetTag("Result", g.Result) // Write adds it
			}
			back := readOne(t, writeGame(t, g)) // written as /FEN "..."/ again
			sameGame(t, g, back)
		})
	}
}

// TestReaderSetupsMalformed: a set-up that cannot be read, or that no
// move follows, says what to write.
func TestReaderSetupsMalformed(t *testing.T) {
	tests := []struct{ name, in, text, msg string }{
		{"no move after it", "1. 32-28 /FEN \"W:W31:B1\"/ *\n", `/FEN "W:W31:B1"/`, "a set-up with no move after it: nothing is checked from it; remove it, or write after it the moves played from it"},
		{"no move after it in a variation", "1. 32-28 (1. 33-28 /FEN \"W:W31:B1\"/) 19-23 *\n", `/FEN "W:W31:B1"/`, "a set-up with no move after it"},
		{"not closed", "1. 32-28 /FEN \"W:W31:B1\" 19-23 *\n", `/FEN "W:W31:B1" 19-23 *`, `a / that opens no set-up: PDN 3.0 writes a position set up in the moves as /FEN "W:W31-50:B1-20"/ on one line`},
		{"not a FEN", "1. 32-28 /SETUP x/ 19-23 *\n", "/SETUP x/", `set-up /SETUP x/: PDN 3.0 writes a position set up in the moves as /FEN "W:W31-50:B1-20"/`},
		{"empty", "1. 32-28 /FEN \"\"/ 19-23 *\n", `/FEN ""/`, "no position in it"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gs, errs := readAll(t, tc.in+"\n"+good)
			if len(errs) != 1 || len(gs) != 1 {
				t.Fatalf("%d games, errors %v; want the bad game's error and the next game", len(gs), errs)
			}
			if e := errs[0]; e.Line != 1 || e.Text != tc.text || !strings.Contains(e.Error(), tc.msg) {
				t.Errorf("error %q (line %d, text %q), want line 1, text %q, saying %q", e, e.Line, e.Text, tc.text, tc.msg)
			}
		})
	}
}

// TestCheckSetups: the moves after a set-up are checked from it, and the
// report says where the board was set up (an arbiter wants to know: it
// is how a record corrects an irregularity); a move illegal there, or a
// set-up that cannot be read, is named.
func TestCheckSetups(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"the start position", "[GameType \"20\"]\n/FEN \"W:W31-50:B1-20\"/ 1. 32-28 19-23 2. 28x19 *\n", "game 1 (White: ?, Black: ?): ok"},
		{"the standard's two moves in a row", "[GameType \"20\"]\n/FEN \"W:W31-50:B1-20\"/\n/FEN \"B:W28,31-36,38-50:B1-20\"/\n01... 20-25 2. 28-22 *\n",
			`game 1 (White: ?, Black: ?): ok (note: the board was set up before 1... 20-25 (/FEN "B:W28,31-36,38-50:B1-20"/, line 4): checked on from that position)`},
		{"illegal from the set-up", "[GameType \"20\"]\n1. 32-28 19-23 /FEN \"W:W28,31:B23\"/ 2. 31-27 *\n",
			`game 1 (White: ?, Black: ?): illegal move 2. 31-27 (line 2): FEN W:W28,31:B23 legal moves: 28x19 (note: the board was set up before 2. 31-27 (/FEN "W:W28,31:B23"/, line 2): checked on from that position)`},
		{"a set-up that cannot be read", "[GameType \"20\"]\n1. 32-28 /FEN \"W:W99:B1\"/ 1... 19-23 *\n",
			"unreadable move 1... 19-23 (line 2) [syntax error: the set-up before it, /FEN \"W:W99:B1\"/:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var reps []Report
			if err := Audit(strings.NewReader(tc.in), "t.pdn", nil, func(r Report) { reps = append(reps, r) }); err != nil {
				t.Fatal(err)
			}
			if len(reps) != 1 || !strings.Contains(reps[0].String(), tc.want) {
				t.Errorf("got %q, want one report with %q", reps, tc.want)
			}
		})
	}
}
