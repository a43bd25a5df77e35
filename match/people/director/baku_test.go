package director

import (
	"context"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/pairfile"
)

// TestBakuTRF: an event with the Baku acceleration (C.04.5.1) writes it
// in its TRF as XXA records: 8 players and 5 rounds make group A the
// first 2*ceil(8/4) = 4 players, 3 accelerated rounds (the first half,
// rounded up), the first 2 of them with one virtual point and the third
// with half a point; group B gets none. A program that reads the file
// (pairfile, as bbpPairings reads XXA) pairs round 2 exactly as the
// director's pairing did.
func TestBakuTRF(t *testing.T) {
	s := newStore(t, swiss.Pair)
	ctx := context.Background()
	ev, _, err := s.Create(ctx, Event{Name: "Fast Open", Variant: "international", System: Swiss, Rounds: 5, Baku: true, HalfPoints: true})
	must(t, err)
	var ps []Player
	for i := 0; i < 8; i++ {
		ps = append(ps, Player{Name: "Player " + string(rune('A'+i)), Rating: 2000 - 10*i})
	}
	_, err = s.AddPlayers(ctx, ev.ID, ps)
	must(t, err)
	must(t, s.PairRound(ctx, ev.ID, 1, nil))
	playRound(t, s, ev.ID, 1)
	var b strings.Builder
	must(t, get(t, s, ev.ID).WriteTRF(&b))
	var xxa []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "XXA") {
			xxa = append(xxa, strings.Join(strings.Fields(l), " "))
		}
	}
	want := []string{"XXA 1 1.0 1.0 0.5", "XXA 2 1.0 1.0 0.5", "XXA 3 1.0 1.0 0.5", "XXA 4 1.0 1.0 0.5"}
	if strings.Join(xxa, "|") != strings.Join(want, "|") {
		t.Fatalf("XXA records %q, want %q\n%s", xxa, want, b.String())
	}
	tev, err := ParseTRF([]byte(b.String()))
	must(t, err)
	rd, err := pairfile.Next(tev)
	must(t, err)
	must(t, s.PairRound(ctx, ev.ID, 2, nil))
	sn := get(t, s, ev.ID)
	var got, fromFile []string
	for _, bd := range sn.Rounds[1].Boards {
		got = append(got, sn.player(bd.White).Name+"-"+sn.player(bd.Black).Name)
	}
	for _, bd := range rd.Boards {
		fromFile = append(fromFile, sn.ByNumber(bd.White).Name+"-"+sn.ByNumber(bd.Black).Name)
	}
	if strings.Join(got, " ") != strings.Join(fromFile, " ") {
		t.Errorf("round 2: the director paired %v, the exported file pairs %v", got, fromFile)
	}
}
