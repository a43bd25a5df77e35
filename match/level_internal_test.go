package match

import (
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/rules"
)

type stepClock struct{ now time.Time }

func (c *stepClock) Now() time.Time { return c.now }

// A side whose clock a move emptied (its overspend booked against the
// margin) is told a clock of 1 ms, never "no clock": Level.Time 0 would be
// sent as `level infinite`.
func TestLevelForEmptyClock(t *testing.T) {
	v, _ := rules.Lookup("english")
	tc, err := arbiter.ParseTimeControl("2")
	if err != nil {
		t.Fatal(err)
	}
	clk := &stepClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	ref, err := arbiter.NewReferee(arbiter.Config{Variant: v, TimeControl: [2]arbiter.TimeControl{tc, tc},
		Margin: 100 * time.Millisecond, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	c := ref.Turn()
	if lv := levelFor(ref, c, tc, 0); lv.Time != 2*time.Second {
		t.Fatalf("level before the first move: %+v, want Time 2s", lv)
	}
	ref.StartThinking()
	clk.now = clk.now.Add(2*time.Second + 50*time.Millisecond) // within the margin
	if v := ref.Submit(ref.Position().LegalMoves()[0]); ref.Done() {
		t.Fatalf("a move within the margin ended the game: %v, %s", v, ref.Result())
	}
	if got := ref.Remaining(c); got != 0 {
		t.Fatalf("remaining after the move = %v, want 0", got)
	}
	if lv := levelFor(ref, c, tc, 1); lv.Time <= 0 {
		t.Errorf("level of an empty clock: %+v, want a positive Time (a clock, not none)", lv)
	}
}
