package director

import (
	"context"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/pairfile"
)

// TestBursteinEvent: an event created with the Burstein system
// (C.04.4.2) keeps the choice, pairs its rounds after the seeding rounds
// by it (the director's round 3 of 4 is what pairfile pairs from the
// exported TRF, whose type says Burstein, and the Burstein pairing of the
// same state), and a TRF import of it is a Burstein event again. A
// system that is neither is refused naming the field; a round-robin
// keeps no Swiss system.
func TestBursteinEvent(t *testing.T) {
	s := newStore(t, swiss.Pair)
	ctx := context.Background()
	ev, _, err := s.Create(ctx, Event{Name: "Burstein Open", Variant: "international", System: Swiss, Rounds: 4, Pairing: "burstein"})
	must(t, err)
	if ev.Pairing != "burstein" || ev.Options().System != swiss.Burstein {
		t.Fatalf("pairing %q, options %v", ev.Pairing, ev.Options().System)
	}
	var ps []Player
	for i := 0; i < 9; i++ {
		ps = append(ps, Player{Name: "Player " + string(rune('A'+i)), Rating: 2000 - 10*i})
	}
	_, err = s.AddPlayers(ctx, ev.ID, ps)
	must(t, err)
	for r := 1; r <= 2; r++ {
		must(t, s.PairRound(ctx, ev.ID, r, nil))
		playRound(t, s, ev.ID, r)
	}
	var b strings.Builder
	must(t, get(t, s, ev.ID).WriteTRF(&b))
	if !strings.Contains(b.String(), "Swiss-System Burstein") {
		t.Fatalf("the TRF does not say Burstein:\n%s", b.String())
	}
	tev, err := ParseTRF([]byte(b.String()))
	must(t, err)
	if pairfile.SystemOf(tev) != swiss.Burstein {
		t.Fatalf("pairfile reads the exported TRF as %v", pairfile.SystemOf(tev))
	}
	rd, err := pairfile.Next(tev)
	must(t, err)
	must(t, s.PairRound(ctx, ev.ID, 3, nil))
	sn := get(t, s, ev.ID)
	var got, fromFile []string
	for _, bd := range sn.Rounds[2].Boards {
		got = append(got, sn.player(bd.White).Name+"-"+sn.player(bd.Black).Name)
	}
	if bye := sn.Rounds[2].Bye; bye != 0 {
		got = append(got, sn.player(bye).Name+"-bye")
	}
	for _, bd := range rd.Boards {
		fromFile = append(fromFile, sn.ByNumber(bd.White).Name+"-"+sn.ByNumber(bd.Black).Name)
	}
	if rd.Bye != 0 {
		fromFile = append(fromFile, sn.ByNumber(rd.Bye).Name+"-bye")
	}
	if strings.Join(got, " ") != strings.Join(fromFile, " ") {
		t.Errorf("round 3: the director paired %v, the exported file pairs %v", got, fromFile)
	}
	imported, _, err := s.ImportTRF(ctx, Event{Variant: "international"}, tev)
	must(t, err)
	if imported.Pairing != "burstein" {
		t.Errorf("the imported event's pairing is %q", imported.Pairing)
	}

	if _, _, err := s.Create(ctx, Event{Name: "X", Rounds: 4, Pairing: "lim"}); err == nil || !strings.Contains(err.Error(), "pairing") {
		t.Errorf("pairing lim: %v", err)
	}
	rr, _, err := s.Create(ctx, Event{Name: "RR", System: RoundRobin, Rounds: 3, Pairing: "burstein"})
	must(t, err)
	if rr.Pairing != "" {
		t.Errorf("a round-robin keeps pairing %q", rr.Pairing)
	}
}
