package pairfile

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// roundTrip writes ev and reads it back, as a program given the file does.
func roundTrip(t testing.TB, ev *trf.Event) *trf.Event {
	t.Helper()
	var b bytes.Buffer
	if err := trf.Write(&b, ev); err != nil {
		t.Fatal(err)
	}
	back, err := trf.Read(&b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	return back
}

// propertyEvents is the number of generated events TestGenerateCheckAgree
// checks: a few by default, ARBITER_PAIR_EVENTS of them under make bench.
func propertyEvents(t *testing.T) int {
	if s := os.Getenv("ARBITER_PAIR_EVENTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("ARBITER_PAIR_EVENTS=%q is not a positive number", s)
		}
		return n
	}
	return 6
}

// TestGenerateCheckAgree is the property the generator, the checker and
// the pairer share: every round of a generated event, written and read
// back as TRF, is what the checker re-pairs (no differences), and the
// pairer cut after any round pairs the next as recorded.
func TestGenerateCheckAgree(t *testing.T) {
	rounds := 0
	for seed := uint64(1); seed <= uint64(propertyEvents(t)); seed++ {
		c := Config{}
		if os.Getenv("ARBITER_PAIR_EVENTS") == "" {
			c = Config{Players: 10 + int(seed)*5, set: map[string]bool{"PlayersNumber": true}}
		}
		ev, err := Generate(c, seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		ev = roundTrip(t, ev)
		diffs, err := Check(ev)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, d := range diffs {
			t.Errorf("seed %d round %d: %s", seed, d.Round, d.Reason())
		}
		// Cut after round k: Next pairs round k+1 as recorded.
		k := int(seed) % ev.Rounds
		cut := cutAfter(ev, k)
		got, err := Next(roundTrip(t, cut))
		if err != nil {
			t.Fatalf("seed %d cut after %d: %v", seed, k, err)
		}
		all, _ := ev.PairingState()
		rec, unknown := recorded(all, k+1)
		if !same(rec, unknown, got) {
			t.Errorf("seed %d: round %d: Next %v, recorded %v", seed, k+1, got, rec)
		}
		rounds += len(all[0].History)
	}
	t.Logf("%d rounds generated, checked and re-paired", rounds)
}

// cutAfter is ev with the first k rounds, and the requested byes of round
// k+1 written ahead (as a program asks for round k+1).
func cutAfter(ev *trf.Event, k int) *trf.Event {
	c := *ev
	c.Players = append([]trf.Player(nil), ev.Players...)
	for i := range c.Players {
		p := &c.Players[i]
		h := p.History[:k]
		if e := p.History[k]; e.Opponent == 0 && (e.Result == tally.HalfBye || e.Result == tally.ZeroBye || e.Result == tally.FullBye) {
			h = p.History[:k+1]
		}
		p.History = append([]tally.Entry(nil), h...)
	}
	setPoints(&c, trf.FIDEPoints)
	return &c
}

// TestGenerateReproducible: the same config and seed give the same file,
// another seed another.
func TestGenerateReproducible(t *testing.T) {
	gen := func(seed uint64) string {
		ev, err := Generate(Config{}, seed)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := trf.Write(&b, ev); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	a, b, c := gen(42), gen(42), gen(43)
	if a != b {
		t.Error("seed 42 twice gives two files")
	}
	if a == c {
		t.Error("seeds 42 and 43 give the same file")
	}
}

func TestReadConfig(t *testing.T) {
	c, err := ReadConfig(strings.NewReader("# a comment\nPlayersNumber=12\r\nRoundsNumber=5\nDrawPercentage=0\nForfeitRate=0\nRetiredRate=0\nHalfPointByeRate=0\nPointsForWin=3\nPointsForDraw=1.0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Players != 12 || c.Rounds != 5 || c.Points.Win != 30 || c.Points.Draw != 10 || c.Points.PairingBye != 30 || c.Points.HalfBye != 10 {
		t.Errorf("config %+v", c)
	}
	ev, err := Generate(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Players) != 12 || ev.Rounds != 5 || ev.PointSystem == nil || ev.PointSystem.Win != 30 {
		t.Errorf("generated %d players, %d rounds, points %+v", len(ev.Players), ev.Rounds, ev.PointSystem)
	}
	for _, p := range ev.Players {
		for _, e := range p.History {
			if e.Result == tally.Draw || e.Result == tally.ForfeitWin || e.Result == tally.HalfBye {
				t.Errorf("player %d: %q with no draws, forfeits or byes configured", p.Number, e.Result)
			}
		}
	}
	for _, bad := range []struct{ in, msg string }{
		{"Players=3", "unknown key \"Players\""},
		{"PlayersNumber=1", "from 2"},
		{"x", "KEY=VALUE"},
		{"PointsForWin=0.25", "points such as"},
		{"\n\nDrawPercentage=101", "config line 3"},
	} {
		if _, err := ReadConfig(strings.NewReader(bad.in)); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%q: got %v, want an error with %q", bad.in, err, bad.msg)
		}
	}
	if _, err := Generate(Config{Players: 4, Rounds: 4, set: map[string]bool{"PlayersNumber": true, "RoundsNumber": true}}, 1); err == nil {
		t.Error("4 rounds for 4 players: no error")
	}
}

// TestCheckFindsChanges: a generated event with one round changed by hand
// is reported on that round only, with the rule the change breaks.
func TestCheckFindsChanges(t *testing.T) {
	ev, err := Generate(Config{Players: 12, Rounds: 5, ForfeitRate: 0, HalfByeRate: 0, RetiredRate: 0,
		set: map[string]bool{"PlayersNumber": true, "RoundsNumber": true, "ForfeitRate": true, "HalfPointByeRate": true, "RetiredRate": true}}, 5)
	if err != nil {
		t.Fatal(err)
	}
	idx := map[int]*trf.Player{}
	for i := range ev.Players {
		idx[ev.Players[i].Number] = &ev.Players[i]
	}
	// Round 3: swap the colours of the first board of player 1.
	e := idx[1].History[2]
	o := idx[e.Opponent]
	idx[1].History[2].Color, o.History[2].Color = o.History[2].Color, e.Color
	// Round 4: make 1 meet their round-1 opponent again, swapping partners.
	r1 := idx[1].History[0].Opponent
	a := idx[1].History[3].Opponent
	b := idx[r1].History[3].Opponent
	if a != r1 && b != 1 && b != 0 && a != 0 {
		swapPartners(idx, 3, 1, a, r1, b)
	}
	ev = roundTrip(t, ev)
	diffs, err := Check(ev)
	if err != nil {
		t.Fatal(err)
	}
	rounds := map[int]string{}
	for _, d := range diffs {
		rounds[d.Round] = d.Reason()
	}
	if _, ok := rounds[3]; !ok || len(rounds) < 1 {
		t.Fatalf("differences %v; want round 3 among them", rounds)
	}
	if r, ok := rounds[4]; a != r1 && b != 0 && (!ok || !strings.Contains(r, "C.1")) {
		t.Errorf("round 4: %q, want the rematch named (C.1)", r)
	}
	for r := range rounds {
		if r != 3 && r != 4 && r != 5 {
			t.Errorf("round %d reported: %s", r, rounds[r])
		}
	}
}

// swapPartners re-pairs round r (0-based index) so that p meets q and
// their former partners a (p's) and b (q's) meet each other.
func swapPartners(idx map[int]*trf.Player, r, p, a, q, b int) {
	cp, cq := idx[p].History[r].Color, idx[q].History[r].Color
	idx[p].History[r] = tally.Entry{Opponent: q, Color: cp, Result: tally.Draw}
	idx[q].History[r] = tally.Entry{Opponent: p, Color: otherColour(cp), Result: tally.Draw}
	idx[a].History[r] = tally.Entry{Opponent: b, Color: cq, Result: tally.Draw}
	idx[b].History[r] = tally.Entry{Opponent: a, Color: otherColour(cq), Result: tally.Draw}
}

func otherColour(c tally.Color) tally.Color {
	if c == tally.White {
		return tally.Black
	}
	return tally.White
}

var _ = swiss.Round{}

// A difference's reason cites the articles of the event's own system.
func TestReasonCitesTheSystem(t *testing.T) {
	rec := swiss.Round{Boards: []swiss.Board{{White: 1, Black: 2}, {White: 3, Black: 4}}}
	swapped := swiss.Round{Boards: []swiss.Board{{White: 2, Black: 1}, {White: 3, Black: 4}}}
	other := swiss.Round{Boards: []swiss.Board{{White: 1, Black: 3}, {White: 2, Black: 4}}}
	tests := []struct {
		name string
		d    Difference
		want string
	}{
		{"dutch quality", Difference{Recorded: rec, Engine: other}, "C.04.3's quality criteria"},
		{"burstein quality", Difference{Recorded: rec, Engine: other, System: swiss.Burstein}, "C.04.4.2's quality criteria [C5]-[C8]"},
		{"dutch colours", Difference{Recorded: rec, Engine: swapped}, "(C.04.3 5.2-5.5"},
		{"burstein colours", Difference{Recorded: rec, Engine: swapped, System: swiss.Burstein}, "(C.04.4.2 5.2,"},
		{"dutch none", Difference{NoPairing: true}, "(C.04.3 C.1-C.3)"},
		{"burstein none", Difference{NoPairing: true, System: swiss.Burstein}, "(C.04.4.2 [C1]-[C3])"},
	}
	for _, tt := range tests {
		got := tt.d.Reason()
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want it to cite %q", tt.name, got, tt.want)
		}
		if tt.d.System == swiss.Burstein && strings.Contains(got, "C.04.3") {
			t.Errorf("%s: %q cites the Dutch rules in a Burstein event", tt.name, got)
		}
	}
}
