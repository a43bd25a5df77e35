package adjudicate

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// score is a move's score; "" is a move without one.
func score(s float64) string { return fmt.Sprintf("%.2f", s) }

// A scripted game: the scores white and black report move by move; the
// judge's ruling and the move (ply, 1-based) it comes at.
func TestJudge(t *testing.T) {
	resign := &Resign{MoveCount: 3, Score: 4}
	two := &Resign{MoveCount: 2, Score: 4, TwoSided: true}
	draw := &Draw{MoveNumber: 3, MoveCount: 2, Score: 0.2}
	for _, tt := range []struct {
		name    string
		rules   Rules
		white   []string
		black   []string
		ply     int // 0: no ruling
		outcome rules.Outcome
		reason  string
	}{
		{"off", Rules{}, []string{score(-9), score(-9), score(-9)}, []string{score(9), score(9), score(9)}, 0, rules.Ongoing, ""},
		{"white resigns", Rules{Resign: resign}, []string{score(-1), score(-4), score(-5), score(-6)}, []string{score(0), score(0), score(0), score(0)},
			7, rules.BlackWins, "White's score was -4.00 or worse over its last 3 moves (-4.00, -5.00, -6.00)"},
		{"a move without a score breaks the run", Rules{Resign: resign}, []string{score(-5), "", score(-5), score(-5)}, []string{"", "", "", ""}, 0, rules.Ongoing, ""},
		{"a winner's word alone does not count", Rules{Resign: resign}, []string{score(9), score(9), score(9), score(9)}, []string{"", "", "", ""}, 0, rules.Ongoing, ""},
		{"two-sided needs both", Rules{Resign: two}, []string{score(-5), score(-5), score(-5)}, []string{score(1), score(1), score(1)}, 0, rules.Ongoing, ""},
		{"two-sided agreement", Rules{Resign: two}, []string{score(-5), score(-5), score(-5)}, []string{score(1), score(5), score(6)},
			6, rules.BlackWins, "White's score was -4.00 or worse over its last 2 moves (-5.00, -5.00), and Black's 4.00 or better (+5.00, +6.00)"},
		{"draw after move 3", Rules{Draw: draw}, []string{score(0), score(0.1), score(0), score(0)}, []string{score(0), score(-0.1), score(0.2), score(0)},
			6, rules.Draw, "after 3 moves: both sides' scores within 0.20 of 0 over their last 2 moves (White +0.10, +0.00; Black -0.10, +0.20)"},
		{"no draw while a side sees more", Rules{Draw: draw}, []string{score(0), score(0.5), score(0.5), score(0.5)}, []string{score(0), score(0), score(0), score(0)}, 0, rules.Ongoing, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			j := tt.rules.NewJudge()
			ply := 0
			for i := range tt.white {
				for _, mv := range []struct {
					c    rules.Color
					info string
				}{{rules.White, tt.white[i]}, {rules.Black, tt.black[i]}} {
					ply++
					s, err := strconv.ParseFloat(mv.info, 64)
					o, why, ok := j.Move(mv.c, rules.Position{}, s, err == nil)
					if !ok {
						continue
					}
					if ply != tt.ply || o != tt.outcome || !strings.Contains(why, tt.reason) {
						t.Fatalf("ruled %v at ply %d (%s), want %v at ply %d (%s)", o, ply, why, tt.outcome, tt.ply, tt.reason)
					}
					return
				}
			}
			if tt.ply != 0 {
				t.Errorf("no ruling; want %v at ply %d", tt.outcome, tt.ply)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	if err := (Rules{Resign: &Resign{MoveCount: 3, Score: 5}, Draw: &Draw{MoveCount: 8, MoveNumber: 40, Score: 0.1}}).Check(); err != nil {
		t.Errorf("valid rules: %v", err)
	}
	err := Rules{Resign: &Resign{MoveCount: 0, Score: -1}, Draw: &Draw{MoveCount: 2, MoveNumber: -1, Score: -0.5}}.Check()
	for _, want := range []string{"resign.movecount", "resign.score", "draw.movenumber", "draw.score"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check: %v, want it to name %s", err, want)
		}
	}
}
