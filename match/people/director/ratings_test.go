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

// playInitialEvent plays a six-player round-robin in which Nina New,
// unrated, meets players rated 1900, 2000, 2100, 1950 and 2050: she beats
// 1900 and 2000, loses to 2100, draws 1950 and 2050; every other game is
// drawn. rounds says how many of the five rounds are played and closed.
func playInitialEvent(t *testing.T, s *Store, rounds int) string {
	t.Helper()
	ctx := context.Background()
	ev, _, err := s.Create(ctx, Event{Name: "Initial", Variant: "international", System: RoundRobin, Rounds: 5})
	must(t, err)
	ps := []Player{{Name: "Nina New"}}
	for _, r := range []int{1900, 2000, 2100, 1950, 2050} {
		ps = append(ps, Player{Name: fmt.Sprintf("Rated %d", r), Rating: r})
	}
	_, err = s.AddPlayers(ctx, ev.ID, ps)
	must(t, err)
	nina := map[int]tally.Result{1900: tally.Win, 2000: tally.Win, 2100: tally.Loss, 1950: tally.Draw, 2050: tally.Draw}
	flip := map[tally.Result]tally.Result{tally.Win: tally.Loss, tally.Loss: tally.Win, tally.Draw: tally.Draw}
	for n := 1; n <= rounds; n++ {
		must(t, s.PairRound(ctx, ev.ID, n, nil))
		must(t, s.Publish(ctx, ev.ID, n))
		sn := get(t, s, ev.ID)
		for _, b := range sn.Rounds[n-1].Boards {
			w, bl := sn.Player(b.White), sn.Player(b.Black)
			res := [2]tally.Result{tally.Draw, tally.Draw}
			if w.Rating == 0 {
				res = [2]tally.Result{nina[bl.Rating], flip[nina[bl.Rating]]}
			} else if bl.Rating == 0 {
				res = [2]tally.Result{flip[nina[w.Rating]], nina[w.Rating]}
			}
			_, err := s.Record(ctx, ev.ID, n, b.Board, res, "director")
			must(t, err)
		}
		must(t, s.CloseRound(ctx, ev.ID, n))
	}
	return ev.ID
}

// TestInitialInEvent: the unrated player of playInitialEvent gets the
// initial rating of FIDE B.02 art. 8.2 computed by hand in
// rating.TestInitialByHand: Ra = (10000 + 2 × 1800) / 7 = 1942.857...,
// p = (3 + 1) / 7 → .57, dp 50, Ru = 1992.857... → 1993, after her 5
// games; after 3 rounds she has fewer than 5 games (art. 7.1.4) and no
// rating yet. The federation's CSV has her row.
func TestInitialInEvent(t *testing.T) {
	s := newStore(t, testPair)
	sn := get(t, s, playInitialEvent(t, s, 5))
	rs := sn.Ratings()
	if len(rs.Initial) != 1 {
		t.Fatalf("initial lines %+v", rs.Initial)
	}
	if l := rs.Initial[0]; l.Name != "Nina New" || l.Games != 5 || l.Score != 3 || l.Rating != 1993 || l.None != "" {
		t.Errorf("Nina New: %+v, want 1993 after 5 games", l)
	}
	for _, l := range rs.Lines {
		if len(l.Rounds) != 4 {
			t.Errorf("%s: %d rated games, want 4 (the game against the unrated player is not rated)", l.Name, len(l.Rounds))
		}
	}
	if csv := string(sn.RatingsCSV()); !strings.Contains(csv, ",Nina New,,,,initial,5,3,,,,1993,") {
		t.Errorf("csv:\n%s", csv)
	}
	s2 := newStore(t, testPair)
	rs = get(t, s2, playInitialEvent(t, s2, 3)).Ratings()
	if len(rs.Initial) != 1 || rs.Initial[0].Rating != 0 || rs.Initial[0].None != "games" || rs.Initial[0].Games != 3 {
		t.Errorf("after 3 rounds: %+v", rs.Initial)
	}
	if empty := (&Snapshot{}).Ratings(); empty.Initial == nil || empty.Lines == nil {
		t.Error("no players: null where [] was meant")
	}
}
