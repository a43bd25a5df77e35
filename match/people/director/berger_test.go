package director

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// annex are FIDE C.05 Annex 1's Berger tables for 4, 6 and 8 players,
// typed from the Annex: a round a line, boards White-Black.
var annex = map[int]string{
	4: "1-4 2-3 / 4-3 1-2 / 2-4 3-1",
	6: "1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1",
	8: "1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / 8-6 7-5 1-4 2-3 / " +
		"3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1",
}

// written is a table's rounds as the Annex writes them (1-based numbers;
// a bye as "N-" for an odd field's player who meets the highest number).
func written(count, rounds int, round func(count, n int) ([][2]int, int)) string {
	var rs []string
	for n := 1; n <= rounds; n++ {
		boards, bye := round(count, n)
		var bs []string
		for _, b := range boards {
			bs = append(bs, fmt.Sprintf("%d-%d", b[0]+1, b[1]+1))
		}
		if bye >= 0 {
			bs = append(bs, fmt.Sprintf("%d-", bye+1))
		}
		rs = append(rs, strings.Join(bs, " "))
	}
	return strings.Join(rs, " / ")
}

func TestBergerFIDE(t *testing.T) {
	for n, want := range annex {
		if got := written(n, n-1, bergerFIDE); got != want {
			t.Errorf("%d players:\n got %s\nwant %s", n, got, want)
		}
	}
	// Five players: the six-player table, number 6 the bye.
	if got, want := written(5, 5, bergerFIDE), "2-5 3-4 1- / 5-3 1-2 4- / 3-1 4-5 2- / 1-4 2-3 5- / 4-2 5-1 3-"; got != want {
		t.Errorf("5 players:\n got %s\nwant %s", got, want)
	}
	// A second cycle repeats the first with the colours reversed.
	if got, want := written(4, 6, bergerFIDE), annex[4]+" / 4-1 3-2 / 3-4 2-1 / 4-2 1-3"; got != want {
		t.Errorf("4 players, two cycles:\n got %s\nwant %s", got, want)
	}
}

// TestRoundRobinFIDETables: a six-player round-robin is paired as the
// Annex's table for 6 players (it was paired from another table that met
// the same players in another order, with other colours); an event whose
// round 1 was paired from that older table keeps it to the end.
func TestRoundRobinFIDETables(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	boards := func(id string) string {
		sn := get(t, s, id)
		var rs []string
		for _, r := range sn.Rounds {
			var bs []string
			for _, b := range r.Boards {
				bs = append(bs, fmt.Sprintf("%d-%d", sn.Player(b.White).Number, sn.Player(b.Black).Number))
			}
			rs = append(rs, strings.Join(bs, " "))
		}
		return strings.Join(rs, " / ")
	}
	id, _ := newEvent(t, s, RoundRobin, 5, 6)
	for n := 1; n <= 5; n++ {
		must(t, s.PairRound(ctx, id, n, nil))
		playRound(t, s, id, n)
	}
	if got := boards(id); got != annex[6] {
		t.Errorf("the round-robin's rounds:\n got %s\nwant %s (FIDE C.05 Annex 1)", got, annex[6])
	}

	legacy, err := legacyBerger(6, 1)
	if err != nil {
		t.Fatal(err)
	}
	old := func(_, n int) ([][2]int, int) { return legacy(n) }
	id, _ = newEvent(t, s, RoundRobin, 5, 6)
	sn := get(t, s, id)
	first, _ := legacy(1)
	var pg Pairing
	for _, b := range first {
		pg.Boards = append(pg.Boards, [2]int{sn.ByNumber(b[0] + 1).ID, sn.ByNumber(b[1] + 1).ID})
	}
	must(t, s.PairRound(ctx, id, 1, &pg))
	playRound(t, s, id, 1)
	for n := 2; n <= 5; n++ {
		must(t, s.PairRound(ctx, id, n, nil))
		playRound(t, s, id, n)
	}
	if got, want := boards(id), written(6, 5, old); got != want || got == annex[6] {
		t.Errorf("an event begun on the older table:\n got %s\nwant %s", got, want)
	}
}
