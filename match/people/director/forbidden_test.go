package director

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
)

// TestSetForbidden: a group of players kept apart is checked (each case
// of the table is refused with director.bad-forbidden and stores
// nothing), audited with the names, honoured by the Dutch pairing (round
// 1 of four players would pair 1-3 and 2-4; with 1 and 3 kept apart it
// pairs 1-4 and 2-3, the next transposition of S2), written to the TRF as XXP
// and read back by the import; removing a player takes them out of the
// group; a round-robin refuses the list.
func TestSetForbidden(t *testing.T) {
	s := newStore(t, swiss.Pair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 5) // A..E, ids and numbers 1..5
	for _, c := range []struct {
		name string
		gs   []Group
		want string
	}{
		{"one player", []Group{{Players: []int{1}}}, "at least two players"},
		{"twice", []Group{{Players: []int{1, 1}}}, "listed twice"},
		{"unknown", []Group{{Players: []int{1, 9}}}, "no player 9"},
		{"rounds backwards", []Group{{Players: []int{1, 2}, From: 3, To: 2}}, "rounds 3 to 2"},
		{"rounds beyond", []Group{{Players: []int{1, 2}, From: 1, To: 4}}, "within 1 to 3"},
	} {
		err := s.SetForbidden(ctx, id, c.gs)
		var de *Error
		if code(err) != "director.bad-forbidden" || !errors.As(err, &de) || !strings.Contains(de.Args["detail"], c.want) {
			t.Errorf("%s: %v, want director.bad-forbidden saying %q", c.name, err, c.want)
		}
	}
	if n := len(get(t, s, id).Event.Forbidden); n != 0 {
		t.Fatalf("a refused list stored %d groups", n)
	}
	must(t, s.SetForbidden(ctx, id, []Group{{Players: []int{3, 1}}, {Players: []int{1, 3}}}))
	sn := get(t, s, id)
	if got := sn.Event.Forbidden; len(got) != 1 || got[0].Players[0] != 1 || got[0].Players[1] != 3 {
		t.Fatalf("stored %+v, want one group [1 3]", got)
	}
	a := must2(s.AuditLog(ctx, id))
	if l := a[len(a)-1]; l.Action != "forbidden" || l.Detail != "kept apart: Player A (1), Player C (3)" {
		t.Errorf("audit: %+v", l)
	}
	// Five players: E (5) has the bye; 1-3 would be board 1 without the group.
	must(t, s.RemovePlayer(ctx, id, 5))
	must(t, s.PairRound(ctx, id, 1, nil))
	sn = get(t, s, id)
	var pairs []string
	for _, b := range sn.Rounds[0].Boards {
		pairs = append(pairs, sn.player(b.White).Name[7:]+sn.player(b.Black).Name[7:])
	}
	if got := strings.Join(pairs, " "); got != "AD CB" && got != "AD BC" && got != "DA CB" && got != "DA BC" {
		t.Errorf("round 1 pairs %s; A and C must not meet (A-D, B-C)", got)
	}
	var b strings.Builder
	must(t, sn.WriteTRF(&b))
	if !strings.Contains(b.String(), "\nXXP 1 3") {
		t.Fatalf("the TRF has no XXP 1 3:\n%s", b.String())
	}
	tev, err := ParseTRF([]byte(b.String()))
	must(t, err)
	ev, _, err := s.ImportTRF(ctx, Event{Variant: "international"}, tev)
	must(t, err)
	if got := get(t, s, ev.ID).Event.Forbidden; len(got) != 1 || len(got[0].Players) != 2 || got[0].Players[0] != 1 || got[0].Players[1] != 3 {
		t.Errorf("imported: %+v", got)
	}

	// Removing a player of a group of two drops the group.
	id2, _ := newEvent(t, s, Swiss, 3, 4)
	must(t, s.SetForbidden(ctx, id2, []Group{{Players: []int{2, 4}}, {Players: []int{1, 2, 3}}}))
	must(t, s.RemovePlayer(ctx, id2, 2))
	if got := get(t, s, id2).Event.Forbidden; len(got) != 1 || len(got[0].Players) != 2 || got[0].Players[0] != 1 || got[0].Players[1] != 3 {
		t.Errorf("after removing player 2: %+v", got)
	}
	must(t, s.SetForbidden(ctx, id2, nil))
	if got := get(t, s, id2).Event.Forbidden; len(got) != 0 {
		t.Errorf("cleared: %+v", got)
	}

	rr, _ := newEvent(t, s, RoundRobin, 3, 4)
	if err := s.SetForbidden(ctx, rr, []Group{{Players: []int{1, 2}}}); code(err) != "director.forbidden-swiss" {
		t.Errorf("a round-robin: %v", err)
	}
}
