package arbiter

import (
	"slices"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// TestExplain names each rule an attempted move can break, in English and
// international draughts and the variants whose capture rules differ.
func TestExplain(t *testing.T) {
	sq := func(s ...rules.Square) []rules.Square { return s }
	tests := []struct {
		rule, variant, fen string
		from, to           rules.Square
		path               []rules.Square
		code               string
		says               string // part of the English text
	}{
		{"not your piece", "english", "", 22, 18, nil, CodeNotYourPiece, "the piece on 22 is white's, and it is black's move"},
		{"empty square", "english", "", 16, 20, nil, CodeEmpty, "no piece on 16"},
		{"occupied", "english", "", 9, 5, nil, CodeOccupied, "5 is occupied"},
		{"not a diagonal", "english", "", 9, 15, nil, CodeNotDiagonal, "not on one diagonal"},
		{"a man moves one square", "english", "", 9, 18, nil, CodeTooFar, "a man moves one square at a time, and 9-18 is 2 squares"},
		{"no move", "english", "", 9, 9, nil, CodeNoMove, "does not move"},
		{"off the board", "english", "", 9, 40, nil, CodeOffBoard, "square 40 is not on the board"},
		{"men move forward", "english", "B:W18:B14,K1", 14, 10, nil, CodeBackward, "men move forward only, and 14-10 goes backward"},
		{"men capture forward", "english", "B:W10:B14", 14, 7, nil, CodeBackwardCapture, "men capture forward only in english, and 14x7 goes backward"},
		{"short king moves one square", "english", "W:WK10:B14", 10, 19, nil, CodeTooFar, "a king moves one square"},
		{"capture compulsory", "english", "B:W18,27:B14,10", 10, 15, nil, CodeCaptureCompulsory, "capturing is compulsory: 14 can capture (14x32)"},
		{"capture goes on", "english", "B:W18,27:B14,10", 14, 23, nil, CodeIncompleteCapture, "must go on capturing from 23 (14x32)"},
		{"own piece", "english", "B:W18,27:B14,10", 10, 17, nil, CodeJumpsOwn, "(on 14)"},
		{"two pieces at once", "english", "W:WK14:B18,23", 14, 32, nil, CodeTwoPieces, "on 23"},
		{"jump lands right behind", "english", "W:W22:B18", 22, 11, nil, CodeJumpTooFar, "a man captures by jumping one piece to the square right behind it (22x11)"},
		{"crowned man stops", "english", "W:W11:B7,6", 11, 9, sq(2, 9), CodeCrownedStops, "crowned there and its move ends (on 2)"},
		{"legal after all", "english", "B:W18,27:B14,10", 14, 32, sq(23, 32), CodeLegal, "14x23x32 is a legal move"},

		{"not your piece", "international", "W:W33,34:B28,19,29", 29, 23, nil, CodeNotYourPiece, "black's"},
		{"occupied", "international", "W:W33,34:B28,19,29", 33, 28, nil, CodeOccupied, "28 is occupied"},
		{"men move forward", "international", "W:W33,34:B28,19,29", 34, 45, nil, CodeBackward, "forward only"},
		{"majority capture", "international", "W:W33,34:B28,19,29", 33, 22, nil, CodeLongerCapture,
			"the capture taking the most pieces is compulsory in international: 2 pieces (33x13, 34x14, 34x32), and 33x22 takes 1"},
		{"capture goes on", "international", "W:W33,34:B28,19,29", 34, 23, nil, CodeIncompleteCapture, "from 23 (34x14, 34x32)"},
		// Going on from 23 (32x23x34) would take 2 of the 3 pieces 45x12
		// takes: the player is told to take the most, not to go on.
		{"a capture short of its end and of the majority", "international", "W:W32,33,45:B28,18,29,40,5", 32, 23, nil, CodeLongerCapture,
			"the capture taking the most pieces is compulsory in international: 3 pieces (45x12), and 32x23 takes 1"},
		{"capture compulsory", "international", "W:W33,34,45:B28,19,29", 45, 40, nil, CodeCaptureCompulsory, "33 and 34 can capture"},
		{"capture compulsory, three pieces", "international", "W:W31,33,35,45:B27,28,29,30", 45, 40, nil, CodeCaptureCompulsory, "31, 33 and 35 can capture"},
		{"flying king takes one at a time", "international", "W:WK46:B37,19,28", 46, 23, nil, CodeTwoPieces, "on 28"},
		{"flying king goes on", "international", "W:WK46:B37,19", 46, 32, nil, CodeIncompleteCapture, "must go on capturing from 32"},
		{"a path that is no capture", "international", "W:W33,34:B28,19,29", 33, 13, sq(22, 13), CodeNotACapture, "33x22x13 is not one of the captures"},

		{"king lands right behind", "thai", "W:WK29:B18", 29, 11, nil, CodeLandBehind, "landing on the square right behind the piece it takes (29x11)"},
		{"legal capture named by its squares", "thai", "W:WK29:B18", 29, 15, nil, CodeLegal, "29x15 is a legal move"},
		{"king preference", "czech", "W:Wc1,Ka1:Bd2,b2", 0, 0, nil, CodeKingPreference, "a king that can capture must capture rather than a man in czech (a1:e1)"},
		{"most kings", "spanish", "W:W22:B18,K19", 22, 13, nil, CodeQualityCapture, "the one taking the most kings is compulsory in spanish (22x15)"},
		{"man takes no king", "italian", "W:W22:BK18", 22, 13, nil, CodeManTakesKing, "a man may not capture a king in italian (on 18)"},
		{"king captures first", "italian", "W:W21,22,K23:B18,19", 22, 13, nil, CodeKingPreference, "(23x14)"},
	}
	for _, tt := range tests {
		t.Run(tt.variant+"/"+tt.rule, func(t *testing.T) {
			v := rules.MustLookup(tt.variant)
			p := rules.NewPosition(v)
			if tt.fen != "" {
				var err error
				if p, err = rules.ParseFEN(v, tt.fen); err != nil {
					t.Fatal(err)
				}
			}
			m := rules.Move{From: tt.from, To: tt.to, Path: tt.path}
			if tt.from == 0 { // czech: the man's capture c1:e3
				c1, _ := v.ParseSquare("c1")
				e3, _ := v.ParseSquare("e3")
				m = rules.Move{From: c1, To: e3}
			}
			e := Explain(p, m)
			if e.Code != tt.code || !strings.Contains(e.String(), tt.says) {
				t.Errorf("Explain(%s, %d-%d) = %s: %q, want %s saying %q", p.FEN(), m.From, m.To, e.Code, e, tt.code, tt.says)
			}
			if !slices.Contains(Codes(), e.Code) {
				t.Errorf("code %s missing from Codes()", e.Code)
			}
			if e.Args["legal"] == "" {
				t.Errorf("no legal moves in the arguments: %v", e.Args)
			}
		})
	}
}

// TestExplainTemplates checks that every code has an English text whose
// placeholders are filled by the arguments Explain gives.
func TestExplainTemplates(t *testing.T) {
	for _, c := range Codes() {
		if explainText[c] == "" || !strings.HasPrefix(c, "illegal.") {
			t.Errorf("code %q: template %q", c, explainText[c])
		}
	}
	e := Explanation{Code: CodeOccupied, Args: map[string]string{"to": "18"}}
	if e.String() != "18 is occupied" {
		t.Errorf("%q", e)
	}
	if e := (Explanation{Code: CodeOccupied}); e.String() != "{to} is occupied" {
		t.Errorf("missing argument: %q", e)
	}
	if e := (Explanation{Code: "no.such"}); e.String() != "no.such" {
		t.Errorf("unknown code: %q", e)
	}
}

// TestRefereeExplains checks that the referee's warning carries the
// explanation and its text says why in a player's words (the position is the
// record's: a FEN in the text would only clutter a warning or a result).
func TestRefereeExplains(t *testing.T) {
	r, _ := setup(t, "english", "B:W18,27:B14,10", Config{})
	if v := r.Submit(rules.Move{From: 10, To: 15}); v != Retry {
		t.Fatalf("verdict %v", v)
	}
	w := r.Record().Warnings[0]
	if w.Explanation.Code != CodeCaptureCompulsory || !strings.Contains(w.Why, "capturing is compulsory: 14 can capture") || strings.Contains(w.Why, "B:W18") {
		t.Errorf("warning %+v", w)
	}
	if v := r.SubmitIllegal("garbage", "no such move"); v != GameOver {
		t.Fatalf("verdict %v", v)
	}
	if res := r.Result(); !strings.Contains(res.Reason, "no such move") {
		t.Errorf("result %v", res)
	}
	r, _ = setup(t, "english", "B:W18,27:B14,10", Config{Policy: PolicyOpponentDecides})
	if v := r.Submit(rules.Move{From: 14, To: 23, Captured: rules.SetOf(18)}); v != AwaitDecision {
		t.Fatalf("verdict %v", v)
	}
	if _, err := r.Decide(true); err != nil {
		t.Fatal(err)
	}
	if w := r.Record().Warnings[0]; w.Explanation.Code != CodeIncompleteCapture || w.Decision != "corrected" {
		t.Errorf("warning %+v", w)
	}
	if v := r.SubmitIllegal("xyz", "unreadable"); v != Retry {
		t.Fatalf("verdict %v", v)
	}
	if w := r.Record().Warnings[1]; w.Explanation.Code != CodeUnreadable || w.Explanation.String() != "xyz is not a move: unreadable" {
		t.Errorf("warning %+v", w)
	}
}

// TestExplainEveryPair explains every from-to pair (squares off the board
// included) in a few positions: nothing panics, a legal move gets
// CodeLegal and nothing else does.
func TestExplainEveryPair(t *testing.T) {
	for _, c := range []struct{ variant, fen string }{
		{"english", ""}, {"english", "B:W18,27:B14,10"}, {"international", ""},
		{"international", "W:W33,34,K50:B28,19,29,K5"}, {"czech", "W:Wc1,Ka1:Bd2,b2"}, {"italian", "W:W21,22,K23:B18,19"},
		{"thai", "W:WK29:B18"}, {"spanish", "W:W22:B18,K19"},
	} {
		v := rules.MustLookup(c.variant)
		p := rules.NewPosition(v)
		if c.fen != "" {
			p, _ = rules.ParseFEN(v, c.fen)
		}
		legal := p.LegalMoves()
		n := rules.Square(v.Squares())
		for from := rules.Square(0); from <= n+1; from++ {
			for to := rules.Square(0); to <= n+1; to++ {
				m := rules.Move{From: from, To: to}
				e := Explain(p, m)
				isLegal := false
				for _, l := range legal {
					if l.From == from && l.To == to {
						isLegal = true
					}
				}
				// A capture named by from and to alone may be ambiguous:
				// only a unique one is recognised as legal.
				if isLegal != (e.Code == CodeLegal) && !(isLegal && legal[0].IsCapture()) {
					t.Errorf("%s %s %d-%d: %s (%s), legal=%v", c.variant, p.FEN(), from, to, e.Code, e, isLegal)
				}
				if e.Code == "" || strings.Contains(e.String(), "{") {
					t.Errorf("%s %d-%d: %q %q", c.variant, from, to, e.Code, e)
				}
			}
		}
	}
}

// TestExplainEveryPreset explains every from-to pair in the start position
// of every preset (the variants Explain reads square by square and the
// others alike): a known code, a filled template, and a plain legal move
// recognised.
func TestExplainEveryPreset(t *testing.T) {
	for _, name := range rules.Presets() {
		v := rules.MustLookup(name)
		p := rules.NewPosition(v)
		legal := p.LegalMoves()
		n := rules.Square(v.Squares())
		// The side to move's pieces, and an empty square and an opponent's
		// piece (the race detector makes every pair slow).
		froms := p.Pieces(p.Turn()).Squares()
		froms = append(froms, p.Pieces(p.Turn().Opponent()).Squares()[0])
		for sq := rules.Square(1); sq <= n; sq++ {
			if !p.Occupied().Has(sq) {
				froms = append(froms, sq)
				break
			}
		}
		for _, from := range froms {
			for to := rules.Square(1); to <= n; to++ {
				e := Explain(p, rules.Move{From: from, To: to})
				if _, ok := explainText[e.Code]; !ok || strings.Contains(e.String(), "{") {
					t.Fatalf("%s %d-%d: %q %q", name, from, to, e.Code, e)
				}
				for _, l := range legal {
					if l.From == from && l.To == to && !l.IsCapture() && e.Code != CodeLegal {
						t.Errorf("%s: legal %d-%d explained as %s (%s)", name, from, to, e.Code, e)
					}
				}
			}
		}
	}
}

// FuzzExplain: whatever squares a client sends (off the board, repeated,
// a path of any length), Explain answers with a known code and a filled
// template, and never calls a legal move illegal.
func FuzzExplain(f *testing.F) {
	f.Add(uint8(0), uint8(14), uint8(23), []byte{23, 32})
	f.Add(uint8(1), uint8(33), uint8(22), []byte{})
	f.Add(uint8(2), uint8(0), uint8(255), []byte{0, 1, 2})
	positions := []struct{ variant, fen string }{
		{"english", "B:W18,27:B14,10"}, {"international", "W:W33,34,K50:B28,19,29,K5"},
		{"czech", "W:Wc1,Ka1:Bd2,b2"}, {"italian", "W:W21,22,K23:B18,19"}, {"thai", ""}, {"russian", ""},
	}
	f.Fuzz(func(t *testing.T, which, from, to uint8, path []byte) {
		c := positions[int(which)%len(positions)]
		v := rules.MustLookup(c.variant)
		p := rules.NewPosition(v)
		if c.fen != "" {
			p, _ = rules.ParseFEN(v, c.fen)
		}
		if len(path) > 12 {
			path = path[:12]
		}
		m := rules.Move{From: rules.Square(from), To: rules.Square(to)}
		for _, b := range path {
			m.Path = append(m.Path, rules.Square(b))
		}
		e := Explain(p, m)
		if _, ok := explainText[e.Code]; !ok || strings.Contains(e.String(), "{") {
			t.Fatalf("Explain(%+v) = %q %q", m, e.Code, e)
		}
		if e.Code != CodeLegal {
			for _, l := range p.LegalMoves() {
				if l.From == m.From && l.To == m.To && len(m.Path) == 0 && !l.IsCapture() {
					t.Fatalf("legal %d-%d explained as %s", m.From, m.To, e.Code)
				}
			}
		}
	})
}

// TestListArgs: a list the referee names (the pieces that can capture)
// has its English text under its name and its items under the name with
// ListSuffix, so that a translation joins them with its own "and" (the
// browser does: TestBrowserRefereeListLanguages).
func TestListArgs(t *testing.T) {
	v := rules.MustLookup("international")
	for _, c := range []struct{ fen, text, items string }{
		{"W:W31,33,35,45:B27,28,29,30", "31, 33 and 35", "31,33,35"},
		{"W:W33,34,45:B28,19,29", "33 and 34", "33,34"},
		{"W:W33,45:B28", "33", "33"},
	} {
		p, err := rules.ParseFEN(v, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		e := Explain(p, rules.Move{From: 45, To: 40})
		if e.Code != CodeCaptureCompulsory || e.Args["pieces"] != c.text || e.Args["pieces"+ListSuffix] != c.items {
			t.Errorf("%s: %s %v, want pieces %q and %q", c.fen, e.Code, e.Args, c.text, c.items)
		}
	}
	cz := rules.MustLookup("czech")
	p, err := rules.ParseFEN(cz, "W:Wc1,Ka1:Bd2,b2")
	if err != nil {
		t.Fatal(err)
	}
	c1, _ := cz.ParseSquare("c1")
	e3, _ := cz.ParseSquare("e3")
	if e := Explain(p, rules.Move{From: c1, To: e3}); e.Code != CodeKingPreference || e.Args["pieces"+ListSuffix] != "a1" {
		t.Errorf("czech king preference: %s %v", e.Code, e.Args)
	}
}
