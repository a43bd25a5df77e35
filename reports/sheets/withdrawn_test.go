package sheets

import (
	"bytes"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

func sheet(t *testing.T, f func(*bytes.Buffer) error) *node {
	t.Helper()
	var buf bytes.Buffer
	if err := f(&buf); err != nil {
		t.Fatal(err)
	}
	return parse(t, buf.Bytes())
}

func attrs(ns []*node, k string) string {
	var out []string
	for _, n := range ns {
		out = append(out, n.attr[k])
	}
	return strings.Join(out, ",")
}

// TestWithdrawnPlayers: player 4 withdrew from round 3 having played
// rounds 1 and 2, "Ghost" (7) was entered by mistake and withdrawn before
// round 1. Round 3's pairing sheet lists neither as absent (round 2's
// still has 4 on a board); the standings and the crosstable keep 4, noted
// as withdrawn, and leave the ghost out; the cards leave both out.
func TestWithdrawnPlayers(t *testing.T) {
	ev := testEvent()
	ev.Players[3].Withdrawn = 3
	ev.Players = append(ev.Players, Player{Number: 7, Name: "Ghost", Withdrawn: 1})
	for r := range ev.Played {
		ev.Played[r].Byes = append(ev.Played[r].Byes, Bye{Player: 7, Kind: tally.ZeroBye})
	}
	// The ghost, withdrawn from round 1, is on no round's list.
	for r, want := range map[int]string{1: "", 2: "5,3", 3: "6"} {
		root := sheet(t, func(b *bytes.Buffer) error { return Pairings(b, ev, r) })
		var got []string
		for _, li := range root.all(tagged("li")) {
			got = append(got, li.attr["data-player"])
		}
		if strings.Join(got, ",") != want {
			t.Errorf("round %d's players off the boards: %v, want %s", r, got, want)
		}
	}
	st := sheet(t, func(b *bytes.Buffer) error { return Standings(b, ev, 3) })
	rows := rowsOf(t, st, "standings")
	if len(rows) != 6 || strings.Contains(st.String(), "Ghost") {
		t.Fatalf("standings: %d lines: %s", len(rows), st)
	}
	for _, r := range rows {
		if r.attr["data-player"] == "4" && !strings.Contains(r.String(), "(withdrawn from round 3)") {
			t.Errorf("player 4's line: %s", r)
		}
	}
	ct := sheet(t, func(b *bytes.Buffer) error { return Crosstable(b, ev) })
	if rows := rowsOf(t, ct, "crosstable"); len(rows) != 6 || strings.Contains(ct.String(), "Ghost") {
		t.Fatalf("crosstable: %d lines", len(rows))
	}
	cards := sheet(t, func(b *bytes.Buffer) error { return Cards(b, ev) })
	if got := attrs(cards.all(tagged("section")), "data-player"); got != "1,2,3,5,6" {
		t.Errorf("cards of %s", got)
	}
}

// TestCardsSeedingOrder: the cards come in the order of the starting
// numbers whatever order the players are listed in, a title before the
// name.
func TestCardsSeedingOrder(t *testing.T) {
	ev := testEvent()
	ev.Players[0], ev.Players[5] = ev.Players[5], ev.Players[0]
	ev.Players[1], ev.Players[3] = ev.Players[3], ev.Players[1]
	ev.Players[2].Title = "GMI"
	cards := sheet(t, func(b *bytes.Buffer) error { return Cards(b, ev) })
	secs := cards.all(tagged("section"))
	if got := attrs(secs, "data-player"); got != "1,2,3,4,5,6" {
		t.Errorf("cards of %s", got)
	}
	if h := secs[2].all(tagged("h3"))[0].String(); !strings.HasPrefix(h, "3. GMI Cy") {
		t.Errorf("card 3's heading %q", h)
	}
}

// TestRoundPrint: the round's print-out has the pairing table and a
// result slip for each board still without a result, with the event's
// points (2-0, 1-1, 0-2) to tick and two signature lines.
func TestRoundPrint(t *testing.T) {
	ev := withPendingRound(testEvent())
	root := sheet(t, func(b *bytes.Buffer) error { return RoundPrint(b, ev, 4) })
	if n := len(rowsOf(t, root, "pairings")); n != 2 {
		t.Fatalf("%d boards in the pairing table", n)
	}
	slips := root.all(hasAttr("class", "slip"))
	if len(slips) != 1 || slips[0].attr["data-board"] != "1" {
		t.Fatalf("slips: %d", len(slips))
	}
	text := slips[0].String()
	for _, want := range []string{"Result slip · Club Open <2026>", "Round 4, board 1", "6. Fa Fjell", "5. Ed Eng", "☐ 2-0 White wins", "☐ 1-1 Draw", "☐ 0-2 Black wins"} {
		if !strings.Contains(text, want) {
			t.Errorf("the slip misses %q: %s", want, text)
		}
	}
	if n := strings.Count(text, "Signature"); n != 2 {
		t.Errorf("%d signature lines", n)
	}
	if err := RoundPrint(&bytes.Buffer{}, ev, 5); err == nil {
		t.Error("round 5 printed")
	}
	// In halves, the slip's results are 1-0, ½-½, 0-1.
	root = sheet(t, func(b *bytes.Buffer) error { return RoundPrint(b, halves(withPendingRound(testEvent())), 4) })
	if s := root.all(hasAttr("class", "slip-results"))[0].String(); s != "☐ 1-0 White wins ☐ ½-½ Draw ☐ 0-1 Black wins" {
		t.Errorf("in halves: %q", s)
	}
}

// TestRoundNavigation: every round's pairings and the standings after
// each round are linked, the page shown marked.
func TestRoundNavigation(t *testing.T) {
	ev := testEvent()
	ev.RoundLinks = []Link{{"1", "/e/x/round/1"}, {"2", "/e/x/round/2"}, {"3", "/e/x/round/3"}}
	ev.AfterLinks = []Link{{"1", "/e/x/standings/1"}, {"2", "/e/x/standings/2"}}
	ev.Current = []string{"/e/x/round/2"}
	root := sheet(t, func(b *bytes.Buffer) error { return Pairings(b, ev, 2) })
	rounds := root.all(hasAttr("id", "nav-rounds"))
	if len(rounds) != 1 || rounds[0].String() != "Pairings of round: 1 2 3" && rounds[0].String() != "Pairings of round:123" {
		t.Fatalf("the rounds' navigation: %v", rounds)
	}
	cur := root.all(hasAttr("aria-current", "page"))
	if len(cur) != 1 || cur[0].attr["href"] != "/e/x/round/2" {
		t.Fatalf("the current page: %v", cur)
	}
	if n := len(root.all(hasAttr("id", "nav-after"))[0].all(tagged("a"))); n != 2 {
		t.Errorf("%d standings links", n)
	}
}
