package arbiter

import (
	"errors"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// The few-piece draw rules of RULES.md section 8, one hand-set position
// per rule: Turkish one piece against one piece, Frisian (and Frysk!) 2
// kings v 1 king after 7 moves each and 1 king v 1 king after 2.
func TestSection8Draws(t *testing.T) {
	tests := []struct {
		rule, variant, fen string
		moves              []string // played first (by text); then walk
		plies              int      // plies until the draw, the moves included
		want               Termination
		reason             string
	}{
		// Turkish: d4xd6 takes the man on d5; a man against a king is left.
		{"turkish: a capture leaves one piece each (man v king)", "turkish", "W:W36:B28,K1", []string{"d4xd6"}, 1,
			DrawOnePieceEach, "each side has one piece left (white: man d6; black: king a8)"},
		{"turkish: man v man", "turkish", "W:W36:B28,9", []string{"d4xd6"}, 1,
			DrawOnePieceEach, "white: man d6; black: man a7"},
		{"frisian: 2 kings v 1 king, 7 moves each", "frisian", "W:WK47,K48:BK3", nil, 14,
			DrawTwoKingsOneKing, "each player has made 7 moves with 2 kings against 1 king: 14 of the 14 moves needed, counted from 1."},
		{"frisian: black's 2 kings v 1 king", "frisian", "B:WK47:BK3,K4", nil, 14, DrawTwoKingsOneKing, "7 moves with 2 kings against 1 king"},
		{"frisian: 1 king v 1 king, 2 moves each", "frisian", "W:WK47:BK3", nil, 4,
			DrawKingOneKing, "each player has made 2 moves with 1 king against 1 king: 4 of the 4 moves needed"},
		{"frysk: 1 king v 1 king, 2 moves each", "frysk", "W:WK47:BK3", nil, 4, DrawKingOneKing, "2 moves with 1 king against 1 king"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			r, _ := setup(t, tt.variant, tt.fen, Config{})
			for _, s := range tt.moves {
				if v := r.Submit(move(t, r, s)); v == Retry || v == AwaitDecision {
					t.Fatalf("move %s: %v", s, v)
				}
			}
			if n := len(tt.moves) + walk(t, r, tt.plies+10-len(tt.moves)); n != tt.plies {
				t.Fatalf("game ended after %d plies (%v), want %d", n, r.Result(), tt.plies)
			}
			res := r.Result()
			if res.Outcome != rules.Draw || res.Termination != tt.want || !strings.Contains(res.Reason, tt.reason) {
				t.Errorf("result %+v, want %s saying %q", res, tt.want, tt.reason)
			}
			if !strings.HasPrefix(res.Reason, "drawn by the rules: ") {
				t.Errorf("reason %q is not an automatic draw's", res.Reason)
			}
		})
	}
}

// No few-piece rule applies outside its material: Frisian 3 kings v 1 king,
// 2 kings and a man v 1 king; Turkish two pieces v one.
func TestSection8DrawsNotDue(t *testing.T) {
	tests := []struct {
		name, variant, fen string
		plies              int
	}{
		{"frisian 3 kings v 1 king", "frisian", "W:WK47,K48,K49:BK3", 20},
		{"frisian 2 kings and a man v 1 king", "frisian", "W:W45,K47,K48:BK3", 20},
		{"turkish 2 kings v 1 king", "turkish", "W:WK36,K40:BK1", 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := setup(t, tt.variant, tt.fen, Config{})
			walk(t, r, tt.plies)
			if res := r.Result(); res.Termination == DrawOnePieceEach || res.Termination == DrawTwoKingsOneKing || res.Termination == DrawKingOneKing {
				t.Errorf("%s: drawn by %s: %s", tt.fen, res.Termination, res.Reason)
			}
		})
	}
	// Turkish from a start of one piece each: drawn before a move.
	r, _ := setup(t, "turkish", "W:W36:BK1", Config{})
	if res := r.Result(); res.Termination != DrawOnePieceEach || !strings.Contains(res.Reason, "white: man d4; black: king a8") {
		t.Errorf("one piece each at the start: %+v", r.Result())
	}
}

// claimed is variant name with its draws claimed (WCDF style), as a custom
// rule set in a config would have them.
func claimed(t *testing.T, name string) *rules.Variant {
	t.Helper()
	p := rules.MustLookup(name).Params()
	p.Name, p.GameType = name+"-claimed", 0
	p.Draws.ThreefoldAutomatic = false
	v, err := rules.NewVariant(p)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func setupVariant(t *testing.T, v *rules.Variant, fen string, cfg Config) *Referee {
	t.Helper()
	p, err := rules.ParseFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Variant, cfg.Start, cfg.Clock = v, &p, newFakeClock()
	r, err := NewReferee(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Where a rule set claims its draws, the few-piece rules are claimed too:
// refused before they hold (with the count so far), accepted once they do,
// and claimed by AutoClaim on the engines' behalf.
func TestSection8DrawClaims(t *testing.T) {
	fr := claimed(t, "frisian")
	r := setupVariant(t, fr, "W:WK47:BK3", Config{})
	walk(t, r, 3)
	if r.Done() {
		t.Fatalf("claimed rule set ended by itself: %v", r.Result())
	}
	if err := r.Claim(rules.White, DrawKingOneKing); !errors.Is(err, ErrClaimRefused) || !strings.Contains(err.Error(), "3 of the 4 moves (2 each) needed have been played with 1 king against 1 king") {
		t.Errorf("early claim: %v", err)
	}
	if err := r.Claim(rules.White, DrawTwoKingsOneKing); !errors.Is(err, ErrClaimRefused) || !strings.Contains(err.Error(), "not that rule's endgame") {
		t.Errorf("claim of the other rule: %v", err)
	}
	if err := r.Claim(rules.White, DrawOnePieceEach); !errors.Is(err, ErrClaimRefused) || !strings.Contains(err.Error(), "not a draw rule of variant frisian-claimed") {
		t.Errorf("claim of Turkish's rule in Frisian: %v", err)
	}
	walk(t, r, 1)
	if err := r.Claim(rules.Black, DrawKingOneKing); err != nil || r.Result().Termination != DrawKingOneKing {
		t.Fatalf("claim after 2 moves each: %v %+v", err, r.Result())
	}
	rec := r.Record()
	if last := rec.Claims[len(rec.Claims)-1]; !last.Accepted || last.Evidence.Window == nil || last.Evidence.Window.Counted != 4 {
		t.Errorf("claim record %+v", last)
	}

	// AutoClaim claims the 2 kings v 1 king draw with the 14th move.
	r = setupVariant(t, fr, "W:WK47,K48:BK3", Config{AutoClaim: true})
	if n := walk(t, r, 30); n != 14 || r.Result().Termination != DrawTwoKingsOneKing || !strings.HasPrefix(r.Result().Reason, "claimed for Black with ") {
		t.Errorf("auto-claim after %d plies: %+v", n, r.Result())
	}

	// Turkish one piece each, claimed with the capture that brings it about.
	tk := claimed(t, "turkish")
	r = setupVariant(t, tk, "W:W36:B12,K1", Config{})
	if _, err := r.ClaimWithMove(rules.White, DrawOnePieceEach, move(t, r, "d4-d5")); !errors.Is(err, ErrClaimRefused) ||
		!strings.Contains(err.Error(), "with d4-d5 the sides would not have one piece each (white: man d5; black: 2 pieces)") {
		t.Errorf("claim with a quiet move: %v", err)
	}
	r = setupVariant(t, tk, "W:W36:B28,K1", Config{})
	if err := r.Claim(rules.White, DrawOnePieceEach); !errors.Is(err, ErrClaimRefused) || !strings.Contains(err.Error(), "black: 2 pieces") {
		t.Errorf("claim in the position: %v", err)
	}
	if v, err := r.ClaimWithMove(rules.White, DrawOnePieceEach, move(t, r, "d4xd6")); err != nil || v != GameOver ||
		!strings.Contains(r.Result().Reason, "with d4:d6 each side has one piece left (white: man d6; black: king a8)") {
		t.Errorf("claim with the capture: %v %v %+v", v, err, r.Result())
	}
}

func TestKingsEndgameTracker(t *testing.T) {
	v := rules.MustLookup("frisian")
	pos := func(fen string) rules.Position {
		p, err := rules.ParseFEN(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	d := v.Draws()
	kinds := []struct {
		fen  string
		want int
	}{
		{"W:WK1,K2:BK50", twoKingsOneKing},
		{"W:WK50:BK1,K2", twoKingsOneKing},
		{"W:WK1:BK50", kingOneKing},
		{"W:WK1,K2,K3:BK50", noKingsEnd},
		{"W:WK1,40:BK50", noKingsEnd},
		{"W:WK1:B45", noKingsEnd},
		{"W:WK1,K2:BK50,K49", noKingsEnd},
		{"W:W31-50:B1-20", noKingsEnd},
	}
	tr := newKingsEndgame(d, pos("W:W31-50:B1-20"))
	for _, k := range kinds {
		if got := tr.classify(pos(k.fen)); got != k.want {
			t.Errorf("%s: kind %d, want %d", k.fen, got, k.want)
		}
	}
	tr = newKingsEndgame(d, pos("W:WK1,K2:BK50"))
	for range 13 {
		tr.update(pos("W:WK1,K2:BK50"))
	}
	if tr.due() {
		t.Fatal("due after 13 plies")
	}
	tr.update(pos("W:WK1,K2:BK50"))
	if !tr.due() || tr.termination() != DrawTwoKingsOneKing {
		t.Fatalf("not due after 7 moves each: %+v", tr)
	}
	tr.update(pos("W:WK1:BK50")) // the lone king takes one: a new count
	if tr.due() || tr.plies != 0 || tr.termination() != DrawKingOneKing {
		t.Fatalf("after the capture: %+v", tr)
	}
	for range 4 {
		tr.update(pos("W:WK1:BK50"))
	}
	if !tr.due() {
		t.Errorf("1 king v 1 king not due after 2 moves each: %+v", tr)
	}
	// Without the rules (international) nothing is counted.
	off := newKingsEndgame(rules.MustLookup("international").Draws(), pos("W:WK1:BK50"))
	for range 10 {
		off.update(pos("W:WK1:BK50"))
	}
	if off.due() || off.kind != noKingsEnd {
		t.Errorf("international counts a kings endgame: %+v", off)
	}
}

// Breakthrough: the game ends with the move that crowns a man, and the
// result says so (not that the other side has no move).
func TestBreakthroughEndReason(t *testing.T) {
	r, _ := setup(t, "breakthrough", "W:W7:B45", Config{})
	if v := r.Submit(move(t, r, "7-1")); v != GameOver {
		t.Fatalf("verdict %v", v)
	}
	res := r.Result()
	if res.Outcome != rules.WhiteWins || res.Termination != Normal || res.Reason != "White reached the back row (1) and wins" {
		t.Errorf("result %+v", res)
	}
}

// `arbiter check` judges a recorded few-piece draw (the Termination tag)
// on the moves, as it judges the other draw rules.
func TestAuditSection8Draws(t *testing.T) {
	tests := []struct{ text, want string }{
		{`[GameType "40"]
[FEN "W:WK47:BK3"]
[Result "1-1"]
[Termination "draw by 1 king v 1 king rule"]

1. 47-42 3-9 2. 42-47 9-3 1-1
`, "draw by 1 king v 1 king rule recorded (Termination tag) at the end, after 2... 9-3: valid: each player has made 2 moves with 1 king against 1 king"},
		{`[GameType "40"]
[FEN "W:WK47:BK3"]
[Result "1-1"]
[Termination "draw by 1 king v 1 king rule"]

1. 47-42 3-9 1-1
`, "draw by 1 king v 1 king rule recorded (Termination tag) at the end, after 1... 3-9: INVALID: 2 of the 4 moves (2 each) needed"},
		{`[GameType "30"]
[FEN "W:Wd4:Bd5,Ka8"]
[Result "1/2-1/2"]
[Termination "draw by one piece each"]

1. d4:d6 1/2-1/2
`, "draw by one piece each recorded (Termination tag) at the end, after 1. d4:d6: valid: each side has one piece left (white: man d6; black: king a8)"},
	}
	for _, tt := range tests {
		g, err := pdn.NewReader(strings.NewReader(tt.text), "").Next()
		if err != nil {
			t.Fatal(err)
		}
		rep := pdn.Check(g, nil)
		if rep.Status != pdn.OK {
			t.Fatalf("%v\n%s", rep, tt.text)
		}
		var lines []string
		for _, f := range AuditClaims(g, rep.Replayed) {
			lines = append(lines, f.Text)
		}
		if all := strings.Join(lines, "\n"); !strings.Contains(all, tt.want) {
			t.Errorf("audit lacks %q:\n%s", tt.want, all)
		}
	}
}
