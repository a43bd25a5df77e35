package arbiter

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

// TestMarginIsOneAllowance plays black's moves with the given times (white
// answers at once) and checks that the margin forgives overspends only
// while their sum stays within it, whatever the form of the time control.
// flagAt is the 1-based move on which black's flag falls (0 = never);
// remaining is black's clock after each unflagged move.
func TestMarginIsOneAllowance(t *testing.T) {
	ms := time.Millisecond
	s := time.Second
	tests := []struct {
		name      string
		tc        string
		margin    time.Duration
		used      []time.Duration
		flagAt    int
		remaining []time.Duration
	}{
		// Issue 8: 90 ms late on every move once the clock is empty used
		// 11.5 s of a 2 s game, never flagged.
		{"sudden death, 90ms late on each move", "2", 100 * ms,
			[]time.Duration{1500 * ms, 590 * ms, 90 * ms}, 3, []time.Duration{500 * ms, 0}},
		{"sudden death, one move within the margin", "2", 100 * ms,
			[]time.Duration{s, 1100 * ms, 0, 0}, 0, []time.Duration{s, 0, 0, 0}},
		{"sudden death, overspends adding up to the margin", "2", 100 * ms,
			[]time.Duration{2050 * ms, 50 * ms, 0}, 0, []time.Duration{0, 0, 0}},
		{"sudden death, 1ns past the margin in two moves", "2", 100 * ms,
			[]time.Duration{2050 * ms, 50*ms + 1}, 2, []time.Duration{0}},
		{"increment, living on the increment", "2+0.1", 100 * ms,
			[]time.Duration{2 * s, 100 * ms, 100 * ms, 100 * ms, 100 * ms}, 0,
			[]time.Duration{100 * ms, 100 * ms, 100 * ms, 100 * ms, 100 * ms}},
		{"increment, 60ms past the increment each move", "2+0.1", 100 * ms,
			[]time.Duration{1950 * ms, 210 * ms, 160 * ms}, 3, []time.Duration{150 * ms, 100 * ms}},
		{"increment does not repay an overspend", "1+1", 100 * ms,
			[]time.Duration{1090 * ms, 100 * ms, 100 * ms, 2811 * ms}, 4, []time.Duration{s, 1900 * ms, 2800 * ms}},
		{"simple delay, 60ms past the delay with an empty clock", "1 delay=0.5", 100 * ms,
			[]time.Duration{1500 * ms, 560 * ms, 560 * ms}, 3, []time.Duration{0, 0}},
		{"simple delay, within the delay forever", "1 delay=0.5", 100 * ms,
			[]time.Duration{1500 * ms, 500 * ms, 500 * ms, 500 * ms}, 0, []time.Duration{0, 0, 0, 0}},
		{"bronstein, 60ms past the bank", "1 bronstein=0.5", 100 * ms,
			[]time.Duration{1060 * ms, 560 * ms}, 2, []time.Duration{500 * ms}},
		{"bronstein, the delay given back keeps it going", "1 bronstein=0.5", 100 * ms,
			[]time.Duration{s, 500 * ms, 500 * ms, 500 * ms}, 0, []time.Duration{500 * ms, 500 * ms, 500 * ms, 500 * ms}},
		// Issue 8: 1.15 s used per 1 s period went unflagged.
		{"periods, 1.15s per 1s period", "1/1", 200 * ms,
			[]time.Duration{1150 * ms, 1150 * ms}, 2, []time.Duration{s}},
		{"periods, 1s per 1s period", "1/1", 200 * ms,
			[]time.Duration{s, s, s, s}, 0, []time.Duration{s, s, s, s}},
		{"periods, a new period does not repay an overspend", "2/1:1", 100 * ms,
			[]time.Duration{500 * ms, 580 * ms, 1030 * ms}, 3, []time.Duration{500 * ms, s}},
		{"per move, 60ms late each move", "move=1", 100 * ms,
			[]time.Duration{1060 * ms, 1060 * ms}, 2, []time.Duration{s}},
		{"per move, one move within the margin", "move=1", 100 * ms,
			[]time.Duration{1100 * ms, s, s, s}, 0, []time.Duration{s, s, s, s}},
		{"no margin", "2", 0,
			[]time.Duration{2 * s, 1}, 2, []time.Duration{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, fc := setup(t, "english", "B:WK32:BK1", Config{TimeControl: both(tc(t, tt.tc)), Margin: tt.margin})
			black := []string{"1-5", "5-1"}
			white := []string{"32-28", "28-32"}
			for i, used := range tt.used {
				r.StartThinking()
				// The deadline is where the flag falls: a move that takes
				// longer is flagged, any other is not.
				if late := used > r.Deadline().Sub(fc.Now()); late != (tt.flagAt == i+1) {
					t.Errorf("move %d (%v): deadline in %v, but flagAt %d", i+1, used, r.Deadline().Sub(fc.Now()), tt.flagAt)
				}
				fc.advance(used)
				v := r.Submit(move(t, r, black[i%2]))
				if tt.flagAt == i+1 {
					res := r.Result()
					if v != GameOver || res.Termination != TimeForfeit || res.Outcome != rules.WhiteWins {
						t.Fatalf("move %d (%v): verdict %v, result %+v; want black's flag", i+1, used, v, res)
					}
					if i > 0 && tt.margin > 0 && !strings.Contains(res.Reason, "left of the") {
						t.Errorf("reason %q does not say how much of the margin was left", res.Reason)
					}
					return
				}
				if v != Accepted {
					t.Fatalf("move %d (%v): verdict %v, result %+v", i+1, used, v, r.Result())
				}
				if got := r.Remaining(rules.Black); got != tt.remaining[i] {
					t.Errorf("move %d: black has %v, want %v", i+1, got, tt.remaining[i])
				}
				if v := think(t, r, fc, 0, white[i%2]); v != Accepted {
					t.Fatalf("white's move %d: %v %+v", i+1, v, r.Result())
				}
			}
			if tt.flagAt != 0 {
				t.Fatalf("no flag by move %d", len(tt.used))
			}
		})
	}
}

// TestCheckTimeUsesMarginLeft checks that a caller waiting past the
// deadline sees the same flag as Submit: the margin left, not the whole.
func TestCheckTimeUsesMarginLeft(t *testing.T) {
	ms := time.Millisecond
	r, fc := setup(t, "english", "B:WK32:BK1", Config{TimeControl: both(tc(t, "1")), Margin: 100 * ms})
	if v := think(t, r, fc, 1070*ms, "1-5"); v != Accepted {
		t.Fatal(v, r.Result())
	}
	think(t, r, fc, 0, "32-28")
	r.StartThinking()
	fc.advance(30 * ms)
	if r.CheckTime() {
		t.Fatal("flag fell with exactly the 30ms left of the margin used")
	}
	fc.advance(1)
	if !r.CheckTime() || r.Result().Termination != TimeForfeit {
		t.Fatalf("no flag 1ns past the margin left: %+v", r.Result())
	}
	// The reason shows the time used finely enough to be more than the
	// limit and margin left, and no finer.
	if want := "Black used 30.000001ms, more than its 0s plus the 30ms left of the 100ms margin (earlier moves overspent 70ms)"; r.Result().Reason != want {
		t.Errorf("reason %q, want %q", r.Result().Reason, want)
	}
}

// ShowDuration rounds a time for people; showAbove keeps a flag's time
// above its bound.
func TestShowDuration(t *testing.T) {
	ms := time.Millisecond
	for _, tt := range []struct {
		d, bound time.Duration
		show     string
	}{
		{4051825174, 0, "4.05s"},
		{61*time.Second + 51825174, 0, "1m1.05s"},
		{850*ms + 300000, 0, "850ms"},
		{1500, 0, "2µs"},
		{1101 * ms, 1100 * ms, "1.101s"},
		{1100*ms + 1, 1100 * ms, "1.100000001s"},
		{4051825174, 4 * time.Second, "4.05s"},
	} {
		got := ShowDuration(tt.d)
		if tt.bound != 0 {
			got = showAbove(tt.d, tt.bound)
		}
		if got != tt.show {
			t.Errorf("%v (above %v): %q, want %q", time.Duration(tt.d), tt.bound, got, tt.show)
		}
	}
}

// TestClockProperties plays random move times under every form of time
// control and checks the clock against the rules stated plainly: a clock
// never shows less than zero, and the flag falls on the first move whose
// time past its limit brings the sum of such overspends above the margin.
func TestClockProperties(t *testing.T) {
	forms := []string{"2", "2+0.1", "1 delay=0.3", "1 bronstein=0.3", "3/1", "2/1:1+0.2", "move=0.5", "1+0.5 delay=0.1"}
	rng := rand.New(rand.NewPCG(8, 1))
	ms := time.Millisecond
	for _, form := range forms {
		for game := range 50 {
			margin := time.Duration(rng.IntN(200)) * ms
			r, fc := setup(t, "english", "B:WK32:BK1", Config{TimeControl: both(tc(t, form)), Margin: margin})
			black := []string{"1-5", "5-1"}
			white := []string{"32-28", "28-32"}
			var overspent time.Duration
			for i := range 40 {
				limit := r.Remaining(rules.Black) + tc(t, form).Delay
				if p := tc(t, form).PerMove; p > 0 {
					limit = p
				}
				used := time.Duration(rng.IntN(int(limit/ms)+60)) * ms
				r.StartThinking()
				fc.advance(used)
				v := r.Submit(move(t, r, black[i%2]))
				overspent += max(0, used-limit)
				where := fmt.Sprintf("%s game %d move %d (margin %v, used %v, limit %v, overspent %v)", form, game, i+1, margin, used, limit, overspent)
				if want := overspent > margin; want != (v == GameOver) {
					t.Fatalf("%s: verdict %v, want flag %v", where, v, want)
				}
				if v == GameOver {
					break
				}
				if r.Remaining(rules.Black) < 0 {
					t.Fatalf("%s: black's clock shows %v", where, r.Remaining(rules.Black))
				}
				think(t, r, fc, 0, white[i%2])
			}
		}
	}
}
