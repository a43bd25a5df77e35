package director

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/reports/rating"
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
	if !strings.Contains(csv, "round_1") || !strings.Contains(csv, ",2000,20,rating,1,1,1990,2790,+10,2010,+9.8") {
		t.Errorf("csv:\n%s", csv)
	}
}

// TestPlayerK: K comes from each player's data as FIDE B.02 art. 8.3.3
// reads it, in an event starting 2026-05-01: fewer than 30 rated games
// before it (40), born 2009 and under 2300 (40 to the end of 2027), 2400
// and over (10), 20 else; games and year not known (0) give 20; the
// director's K wins over all. Then a round: the changes use those K (a
// player with K 40 who beats one with K 10, both rated 2000: +20.0 and
// −5.0), and a K set by the director is audited.
func TestPlayerK(t *testing.T) {
	sn := &Snapshot{Event: Event{Start: "2026-05-01"}}
	for _, c := range []struct {
		name string
		p    Player
		k    int
		from string
	}{
		{"12 games before", Player{Rating: 1900, Games: 12}, 40, rating.KNew},
		{"born 2009", Player{Rating: 2250, Games: 100, Born: 2009}, 40, rating.KJunior},
		{"born 2007", Player{Rating: 2250, Games: 100, Born: 2007}, 20, rating.KRating},
		{"born 2009, 2300", Player{Rating: 2300, Games: 100, Born: 2009}, 20, rating.KRating},
		{"2400, new", Player{Rating: 2400, Games: 3}, 10, rating.K2400},
		{"nothing known", Player{Rating: 1900}, 20, rating.KRating},
		{"the director's", Player{Rating: 2450, Games: 3, K: 15}, 15, rating.KSet},
	} {
		if k, from := sn.PlayerK(c.p); k != c.k || from != c.from {
			t.Errorf("%s: K %d (%s), want %d (%s)", c.name, k, from, c.k, c.from)
		}
	}
	if y := (&Snapshot{Event: Event{Created: time.Date(2031, 1, 2, 0, 0, 0, 0, time.UTC)}}).Year(); y != 2031 {
		t.Errorf("no start date: year %d, want the year created", y)
	}

	s := newStore(t, testPair)
	ctx := context.Background()
	ev, _, err := s.Create(ctx, Event{Name: "K open", Variant: "international", System: Swiss, Rounds: 3, Start: "2026-05-01"})
	must(t, err)
	_, err = s.AddPlayers(ctx, ev.ID, []Player{{Name: "New Player", Rating: 2000, Games: 10}, {Name: "Old Hand", Rating: 2000, Games: 400}})
	must(t, err)
	sn = get(t, s, ev.ID)
	old := sn.Players[1]
	if old.Name != "Old Hand" {
		old = sn.Players[0]
	}
	old.K = 10
	must(t, s.EditPlayer(ctx, ev.ID, old.ID, old, false))
	must(t, s.PairRound(ctx, ev.ID, 1, nil))
	must(t, s.Publish(ctx, ev.ID, 1))
	sn = get(t, s, ev.ID)
	b := sn.Rounds[0].Boards[0]
	res := [2]tally.Result{tally.Win, tally.Loss}
	if b.White == old.ID {
		res = [2]tally.Result{tally.Loss, tally.Win}
	}
	_, err = s.Record(ctx, ev.ID, 1, b.Board, res, "director")
	must(t, err)
	sn = get(t, s, ev.ID)
	got := map[string]string{}
	for _, l := range sn.Ratings().Lines {
		got[l.Name] = fmt.Sprintf("K%d %s %+.1f", l.K, l.KFrom, l.Total)
	}
	if got["New Player"] != "K40 new +20.0" || got["Old Hand"] != "K10 set -5.0" {
		t.Errorf("changes %v", got)
	}
	audit, err := s.AuditLog(ctx, ev.ID)
	must(t, err)
	if !strings.Contains(fmt.Sprint(audit), `k "0" -> "10"`) {
		t.Errorf("the audit log does not say the K was set: %v", audit)
	}
}
