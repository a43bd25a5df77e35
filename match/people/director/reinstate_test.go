package director

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// TestReinstate: a player withdrawn before round 2 is absent from it;
// reinstated while round 2 is open, they are paired again from round 3,
// and rounds 1 and 2 keep what they gave them.
func TestReinstate(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 5)
	sn := get(t, s, id)
	p5 := sn.ByNumber(5).ID
	for _, r := range []struct {
		name string
		err  error
		want string
	}{
		{"unknown player", s.Reinstate(ctx, id, 99), "director.unknown-player"},
		{"not withdrawn", s.Reinstate(ctx, id, p5), "director.not-withdrawn"},
		{"unknown event", s.Reinstate(ctx, "nope", p5), "director.unknown-event"},
	} {
		if got := code(r.err); got != r.want {
			t.Errorf("%s: %q, want %q", r.name, got, r.want)
		}
	}
	must(t, s.PairRound(ctx, id, 1, nil))
	playRound(t, s, id, 1)
	r1 := get(t, s, id).State()
	must(t, s.Withdraw(ctx, id, p5))
	must(t, s.PairRound(ctx, id, 2, nil))
	r2 := get(t, s, id).Rounds[1]
	if r2.Absent[p5] != tally.ZeroBye || len(r2.Boards) != 2 {
		t.Fatalf("round 2 without the withdrawn player: %+v", r2)
	}
	must(t, s.Reinstate(ctx, id, p5))
	if code(s.Reinstate(ctx, id, p5)) != "director.not-withdrawn" {
		t.Fatal("reinstated twice")
	}
	sn = get(t, s, id)
	if sn.Player(p5).Withdrawn != 0 {
		t.Fatalf("still withdrawn: %+v", sn.Player(p5))
	}
	// The open round is as paired: they are not on it.
	for _, b := range sn.Rounds[1].Boards {
		if b.White == p5 || b.Black == p5 {
			t.Fatal("reinstated into a round already paired")
		}
	}
	must(t, s.RequestBye(ctx, id, p5, 3, 0)) // a reinstated player may ask for byes again
	playRound(t, s, id, 2)
	must(t, s.PairRound(ctx, id, 3, nil))
	sn = get(t, s, id)
	on := false
	for _, b := range sn.Rounds[2].Boards {
		on = on || b.White == p5 || b.Black == p5
	}
	if !on && sn.Rounds[2].Bye != p5 {
		t.Fatalf("not paired in round 3: %+v", sn.Rounds[2])
	}
	st := sn.State()
	if got, want := st[4].History[0], r1[4].History[0]; got != want {
		t.Errorf("round 1 changed: %+v, was %+v", got, want)
	}
	if got := st[4].History[1]; got.Result != tally.ZeroBye {
		t.Errorf("round 2 (withdrawn): %+v", got)
	}
	log, err := s.AuditLog(ctx, id)
	must(t, err)
	found := false
	for _, a := range log {
		found = found || (a.Action == "reinstate" && strings.Contains(a.Detail, "Player E reinstated (withdrawn from round 2), paired again from round 3"))
	}
	if !found {
		t.Fatalf("no reinstate line in the audit log: %+v", log)
	}
}

// TestReinstateRoundRobin: a round-robin player withdrawn in round 2
// (their board a forfeit) plays their round 3 board again once reinstated.
func TestReinstateRoundRobin(t *testing.T) {
	s := newStore(t, nil)
	ctx := context.Background()
	id, _ := newEvent(t, s, RoundRobin, 3, 4)
	p := get(t, s, id).ByNumber(4).ID
	must(t, s.PairRound(ctx, id, 1, nil))
	playRound(t, s, id, 1)
	must(t, s.Withdraw(ctx, id, p))
	must(t, s.PairRound(ctx, id, 2, nil))
	must(t, s.Reinstate(ctx, id, p))
	playRound(t, s, id, 2)
	must(t, s.PairRound(ctx, id, 3, nil))
	sn := get(t, s, id)
	forfeit := false
	for _, b := range sn.Rounds[1].Boards {
		forfeit = forfeit || (b.White == p && b.WhiteResult == tally.ForfeitLoss) || (b.Black == p && b.BlackResult == tally.ForfeitLoss)
	}
	if !forfeit {
		t.Fatalf("round 2's forfeit is gone: %+v", sn.Rounds[1])
	}
	for _, b := range sn.Rounds[2].Boards {
		if (b.White == p || b.Black == p) && (b.Done() || b.Source == "auto") {
			t.Fatalf("round 3's board decided for a reinstated player: %+v", b)
		}
	}
}

// TestEditDetails: the name, site, dates and time control change after
// creation, checked as at creation; the audit log says what changed.
func TestEditDetails(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 4)
	long := strings.Repeat("é", MaxText+1)
	for _, tc := range []struct {
		name  string
		d     Details
		field string
	}{
		{"empty name", Details{Name: "  "}, "name"},
		{"long name", Details{Name: long}, "name"},
		{"long site", Details{Name: "X", Site: long}, "site"},
		{"control character", Details{Name: "X\x07"}, "name"},
		{"bad start", Details{Name: "X", Start: "2026-13-01"}, "start"},
		{"bad end", Details{Name: "X", End: "tomorrow"}, "end"},
		{"end before start", Details{Name: "X", Start: "2026-05-03", End: "2026-05-01"}, "end"},
		{"bad time control", Details{Name: "X", TimeControl: "fast"}, "time_control"},
		{"long time control", Details{Name: "X", TimeControl: strings.Repeat("1", MaxText+1)}, "time_control"},
	} {
		err := s.EditDetails(ctx, id, tc.d)
		var e *Error
		if code(err) != "director.bad-field" || !errors.As(err, &e) || e.Args["field"] != tc.field {
			t.Errorf("%s: %v, want a bad %s", tc.name, err, tc.field)
		}
	}
	if code(s.EditDetails(ctx, "nope", Details{Name: "X"})) != "director.unknown-event" {
		t.Error("an unknown event edited")
	}
	before := get(t, s, id).Event
	d := Details{Name: " Oslo Open 2026 ", Site: "Oslo", Start: "2026-05-01", End: "2026-05-03", TimeControl: "5400+30"}
	must(t, s.EditDetails(ctx, id, d))
	ev := get(t, s, id).Event
	if ev.Details() != (Details{Name: "Oslo Open 2026", Site: "Oslo", Start: "2026-05-01", End: "2026-05-03", TimeControl: "5400+30"}) {
		t.Fatalf("details %+v", ev.Details())
	}
	if ev.System != before.System || ev.Rounds != before.Rounds || ev.Scoring != before.Scoring || ev.ID != before.ID || !ev.Created.Equal(before.Created) || strings.Join(ev.TieBreaks, ",") != strings.Join(before.TieBreaks, ",") {
		t.Fatalf("the edit changed more: %+v, was %+v", ev, before)
	}
	must(t, s.EditDetails(ctx, id, d)) // no change: no audit line
	log, err := s.AuditLog(ctx, id)
	must(t, err)
	var edits []string
	for _, a := range log {
		if a.Action == "edit" {
			edits = append(edits, a.Detail)
		}
	}
	want := `name "Test open" -> "Oslo Open 2026"; start "" -> "2026-05-01"; end "" -> "2026-05-03"; time_control "" -> "5400+30"`
	if len(edits) != 1 || edits[0] != want {
		t.Fatalf("audit %q, want %q", edits, want)
	}
}
