package director

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// TestRatings: round 1 of a four-player Swiss rated 2000, 1990, 1980,
// 1970 (K 20 each, art. 8.3.3): 2000 beats 1990 (D = 10, PD .51: +9.8 and
// −9.8), 1980 and 1970 draw (PD .51 and .49: −0.2 and +0.2). The changes
// sum to zero, the performance of the winner is 1990 + 800, and the CSV
// for the federation has the round's change.
func TestRatings(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 4)
	must(t, s.PairRound(ctx, id, 1, nil))
	must(t, s.Publish(ctx, id, 1))
	sn := get(t, s, id)
	rating := map[int]int{}
	for _, p := range sn.Players {
		rating[p.ID] = p.Rating
	}
	for _, b := range sn.Rounds[0].Boards {
		res := [2]tally.Result{tally.Draw, tally.Draw}
		if rating[b.White] == 2000 || rating[b.Black] == 2000 {
			res = [2]tally.Result{tally.Win, tally.Loss}
			if rating[b.Black] == 2000 {
				res = [2]tally.Result{tally.Loss, tally.Win}
			}
		}
		_, err := s.Record(ctx, id, 1, b.Board, res, "director")
		must(t, err)
	}
	sn = get(t, s, id)
	rs := sn.Ratings()
	want := map[int]float64{2000: 9.8, 1990: -9.8, 1980: -0.2, 1970: 0.2}
	sum := 0.0
	if len(rs.Lines) != 4 {
		t.Fatalf("%d lines", len(rs.Lines))
	}
	for _, l := range rs.Lines {
		if len(l.Rounds) != 1 || math.Abs(l.Rounds[0].Change-want[l.Rating]) > 1e-9 || math.Abs(l.Total-want[l.Rating]) > 1e-9 || l.K != 20 {
			t.Errorf("%d: %+v, want %.1f", l.Rating, l, want[l.Rating])
		}
		sum += l.Total
	}
	if math.Abs(sum) > 1e-9 {
		t.Errorf("sum %v", sum)
	}
	if l := rs.Lines[0]; l.Rating != 2000 || l.Change != 10 || l.Performance != 2790 {
		t.Errorf("first line %+v", l)
	}
	csv := string(sn.RatingsCSV())
	if !strings.Contains(csv, "round_1") || !strings.Contains(csv, ",2000,20,1,1,1990,2790,+10,2010,+9.8") {
		t.Errorf("csv:\n%s", csv)
	}
}
