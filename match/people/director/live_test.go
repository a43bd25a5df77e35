package director

import (
	"context"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// TestLiveStandings: while a round is open the director's standings count
// its results so far (a pending board no points for either player) and
// say so; Standings, the sheets' and the TRF's, count closed rounds only.
func TestLiveStandings(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 4)
	live := func() ([]Standing, Count) {
		t.Helper()
		st, c, err := get(t, s, id).LiveStandings()
		must(t, err)
		return st, c
	}
	scores := func(st []Standing) map[int]int {
		out := map[int]int{}
		for _, x := range st {
			out[x.Player.ID] = x.Score
		}
		return out
	}
	if _, c := live(); c != (Count{}) {
		t.Fatalf("before round 1: %+v", c)
	}
	must(t, s.PairRound(ctx, id, 1, nil))
	st, c := live()
	if c != (Count{Round: 1, Provisional: true, In: 0, Of: 2}) || len(st) != 4 || len(st[0].Cells) != 1 {
		t.Fatalf("round 1 paired: %+v %+v", c, st)
	}
	for _, x := range st {
		if x.Score != 0 {
			t.Fatalf("a pending board scores: %+v", x)
		}
	}
	playRound(t, s, id, 1)
	closed, c := live()
	if c != (Count{Round: 1}) {
		t.Fatalf("round 1 closed: %+v", c)
	}
	must(t, s.PairRound(ctx, id, 2, nil))
	must(t, s.Publish(ctx, id, 2))
	b := get(t, s, id).Rounds[1].Boards[0]
	if _, err := s.Record(ctx, id, 2, 1, [2]tally.Result{tally.Loss, tally.Win}, "director"); err != nil {
		t.Fatal(err)
	}
	st, c = live()
	if c != (Count{Round: 2, Provisional: true, In: 1, Of: 2}) {
		t.Fatalf("round 2 half in: %+v", c)
	}
	was, is := scores(closed), scores(st)
	for pid, sc := range is {
		want := was[pid]
		if pid == b.Black {
			want += 2
		}
		if sc != want {
			t.Errorf("player %d: %d provisionally, want %d (closed %d)", pid, sc, want, was[pid])
		}
	}
	// The closed rounds only, for the sheets and the TRF.
	sn := get(t, s, id)
	fixed, err := sn.Standings()
	must(t, err)
	if got := scores(fixed); len(got) != 4 || got[b.Black] != was[b.Black] || len(fixed[0].Cells) != 1 {
		t.Errorf("Standings counts the open round: %+v", fixed)
	}
	var trf strings.Builder
	must(t, sn.WriteTRF(&trf))
	ev, err := sn.TRF()
	must(t, err)
	for _, p := range ev.Players {
		if len(p.History) != 1 || p.Points != was[sn.ByNumber(p.Number).ID]*10 {
			t.Errorf("TRF player %d: %d rounds, %d points", p.Number, len(p.History), p.Points)
		}
	}
}
