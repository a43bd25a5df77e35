package reports

import (
	"math"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// TestComputeSmall checks every figure of a tiny hand-scored event.
func TestComputeSmall(t *testing.T) {
	// A, B, C; A-B pair 1: A wins as White, draw as Black (A: 1.5 of 2).
	// A-C pair 2: A loses both (A: 0). B-C: one unpaired game, B wins as Black.
	// One unfinished game C-A.
	ev := Event{Engines: []string{"A", "B", "C"}, Games: []Game{
		{Round: 1, Board: 1, Pair: 1, White: "A", Black: "B", Result: "1-0", Termination: "normal"},
		{Round: 1, Board: 2, Pair: 2, White: "A", Black: "C", Result: "0-1", Termination: "time forfeit"},
		{Round: 2, Board: 1, Pair: 1, White: "B", Black: "A", Result: "1/2-1/2", Termination: "draw by agreement"},
		{Round: 2, Board: 2, Pair: 2, White: "C", Black: "A", Result: "2-0", Termination: "normal"},
		{Round: 3, Board: 1, White: "C", Black: "B", Result: "0-1", Termination: "normal"},
		{Round: 3, Board: 2, White: "C", Black: "A", Result: "*"},
	}}
	st, err := Compute(ev)
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 6 || st.Finished != 5 || st.Unfinished != 1 {
		t.Errorf("games %d finished %d unfinished %d", st.Games, st.Finished, st.Unfinished)
	}
	byName := map[string]EngineStats{}
	for _, e := range st.Engines {
		byName[e.Name] = e
	}
	// Points: A 1.5, B 0.5+1 = 1.5, C 2 + 0 = 2.
	want := map[string]struct {
		pts        float64
		wdl        stats.WDL
		white      stats.WDL
		penta      stats.Penta
		sb         float64
		unfinished int
	}{
		// SB: A: 1.5 vs B (B 1.5) + 0 vs C = 2.25. B: 0.5 vs A (1.5) + 1 vs C (2) = 2.75.
		// C: 2 vs A (1.5) + 0 vs B = 3.
		"A": {1.5, stats.WDL{W: 1, D: 1, L: 2}, stats.WDL{W: 1, L: 1}, stats.Penta{1, 0, 0, 1, 0}, 2.25, 1},
		"B": {1.5, stats.WDL{W: 1, D: 1, L: 1}, stats.WDL{D: 1}, stats.Penta{0, 1, 0, 0, 0}, 2.75, 0},
		"C": {2, stats.WDL{W: 2, L: 1}, stats.WDL{W: 1, L: 1}, stats.Penta{0, 0, 0, 0, 1}, 3, 1},
	}
	for name, w := range want {
		e := byName[name]
		if e.Points != w.pts || e.WDL != w.wdl || e.AsWhite != w.white || e.Penta != w.penta ||
			e.SonnebornBerger != w.sb || e.Unfinished != w.unfinished {
			t.Errorf("%s: got %+v, want %+v", name, e, w)
		}
		if e.AsWhite.Add(e.AsBlack) != e.WDL {
			t.Errorf("%s: colours do not add up", name)
		}
	}
	// Standings: C (2), then B (1.5, SB 2.75), then A (1.5, SB 2.25).
	if got := st.Crosstable.Engines; strings.Join(got, ",") != "C,B,A" {
		t.Errorf("standings order %v", got)
	}
	if st.Engines[0].Rank != 1 || st.Engines[1].Rank != 2 || st.Engines[2].Rank != 3 {
		t.Errorf("ranks %d %d %d", st.Engines[0].Rank, st.Engines[1].Rank, st.Engines[2].Rank)
	}
	// Crosstable row C: vs B 0/1, vs A 2/2.
	if c := st.Crosstable.Cells[0]; c[1] != (stats.WDL{L: 1}) || c[2] != (stats.WDL{W: 2}) || c[0] != (stats.WDL{}) {
		t.Errorf("crosstable row C %+v", c)
	}
	// Antisymmetry of the crosstable.
	for i := range st.Crosstable.Cells {
		for j := range st.Crosstable.Cells {
			if st.Crosstable.Cells[i][j] != st.Crosstable.Cells[j][i].Flip() {
				t.Errorf("crosstable [%d][%d] and [%d][%d] disagree", i, j, j, i)
			}
		}
	}
	if st.White != (stats.WDL{W: 2, D: 1, L: 2}) {
		t.Errorf("white %+v", st.White)
	}
	if st.Terminations[0].Termination != "normal" || st.Terminations[0].White != (stats.WDL{W: 2, L: 1}) {
		t.Errorf("terminations %+v", st.Terminations)
	}
	// Encounters in standings order, from the higher engine's side.
	if len(st.Encounters) != 3 {
		t.Fatalf("encounters %+v", st.Encounters)
	}
	ca := st.Encounters[1]
	if ca.A != "C" || ca.B != "A" || ca.WDL != (stats.WDL{W: 2}) || ca.Penta != (stats.Penta{0, 0, 0, 0, 1}) {
		t.Errorf("encounter C-A %+v", ca)
	}
	cb := st.Encounters[0]
	if cb.A != "C" || cb.B != "B" || cb.Penta.Pairs() != 0 || !math.IsNaN(cb.Elo.Elo) {
		t.Errorf("encounter C-B (no pairs, 0%% score) %+v", cb)
	}
}

func TestComputeTiesShareRank(t *testing.T) {
	ev := Event{Games: []Game{
		{Round: 1, Board: 1, White: "X", Black: "Y", Result: "1/2-1/2"},
	}}
	st, err := Compute(ev)
	if err != nil {
		t.Fatal(err)
	}
	if st.Engines[0].Rank != 1 || st.Engines[1].Rank != 1 {
		t.Errorf("tied engines ranked %d and %d", st.Engines[0].Rank, st.Engines[1].Rank)
	}
	// Engines come from the games in order of appearance.
	if st.Engines[0].Name != "X" {
		t.Errorf("order %s %s", st.Engines[0].Name, st.Engines[1].Name)
	}
}

func TestComputeErrors(t *testing.T) {
	g := func(w, b, r string, pair int) Game {
		return Game{Round: 1, Board: 1, White: w, Black: b, Result: r, Pair: pair}
	}
	tests := []struct {
		name string
		ev   Event
		want string
	}{
		{"bad result", Event{Games: []Game{g("A", "B", "1:0", 0)}}, `unknown result "1:0"`},
		{"self play", Event{Games: []Game{g("A", "A", "1-0", 0)}}, "cannot play itself"},
		{"no name", Event{Games: []Game{g("", "A", "1-0", 0)}}, "missing engine name"},
		{"unknown engine", Event{Engines: []string{"A", "B"}, Games: []Game{g("A", "C", "1-0", 0)}}, `engine "C" is not in the event's engine list`},
		{"duplicate engine", Event{Engines: []string{"A", "A"}}, `engine "A" twice`},
		{"pair same colours", Event{Games: []Game{g("A", "B", "1-0", 3), g("A", "B", "0-1", 3)}}, "colours must be reversed"},
		{"pair of three", Event{Games: []Game{g("A", "B", "1-0", 3), g("B", "A", "0-1", 3), g("A", "B", "0-1", 3)}}, "more than two"},
		{"first mover", Event{Games: []Game{{White: "A", Black: "B", Result: "1-0", FirstMover: "red"}}}, `first mover "red"`},
		{"negative plies", Event{Games: []Game{{White: "A", Black: "B", Result: "1-0", Plies: -1}}}, "negative ply count"},
		{"sprt engines", Event{SPRT: &stats.SPRTConfig{Elo0: 0, Elo1: 5, Alpha: .05, Beta: .05},
			Games: []Game{g("A", "B", "1-0", 0), g("B", "C", "1-0", 0)}}, "exactly two engines"},
		{"sprt config", Event{SPRT: &stats.SPRTConfig{Elo0: 5, Elo1: 0, Alpha: .05, Beta: .05},
			Games: []Game{g("A", "B", "1-0", 0)}}, "elo0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compute(tc.ev)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
	// The message names the game.
	_, err := Compute(Event{Games: []Game{g("A", "B", "1-0", 0), {Round: 4, Board: 2, White: "A", Black: "B", Result: "x"}}})
	if err == nil || !strings.Contains(err.Error(), "game 2 (round 4, board 2, A-B)") {
		t.Errorf("error %v does not name the game", err)
	}
}

// TestTallyMatchesCompute feeds a two-engine match game by game into a
// Tally and compares with the batch computation, SPRT included.
func TestTallyMatchesCompute(t *testing.T) {
	ev := synthEvent(2, 600, 7)
	cfg := stats.SPRTConfig{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	ev.SPRT = &cfg
	st, err := Compute(ev)
	if err != nil {
		t.Fatal(err)
	}
	tl := NewTally(ev.Engines[0], ev.Engines[1])
	for _, g := range ev.Games {
		if err := tl.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	var a EngineStats
	for _, e := range st.Engines {
		if e.Name == ev.Engines[0] {
			a = e
		}
	}
	if tl.WDL() != a.WDL || tl.Penta() != a.Penta {
		t.Errorf("tally %+v %v, compute %+v %v", tl.WDL(), tl.Penta(), a.WDL, a.Penta)
	}
	r, err := tl.SPRT(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r != *st.SPRT {
		t.Errorf("tally SPRT %+v, compute %+v", r, *st.SPRT)
	}
	if a.Penta.Pairs() == 0 || 2*a.Penta.Pairs() > a.WDL.Games() {
		t.Errorf("pairs %d for %d games", a.Penta.Pairs(), a.WDL.Games())
	}
	if err := tl.Add(Game{White: "X", Black: ev.Engines[0], Result: "1-0"}); err == nil {
		t.Errorf("a game with a third engine must be refused")
	}
}

func TestWriteStandings(t *testing.T) {
	ev := synthEvent(2, 40, 4)
	ev.Engines[1] = "bad\tname\n"
	for i := range ev.Games {
		for _, p := range []*string{&ev.Games[i].White, &ev.Games[i].Black} {
			if *p == "engine-B" {
				*p = ev.Engines[1]
			}
		}
	}
	ev.SPRT = &stats.SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	st, err := Compute(ev)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteStandings(&b, st); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("want header, 2 engines and SPRT line:\n%s", out)
	}
	e := st.Engines[0]
	for _, want := range []string{e.Name, fmtPoints(e.Points), "±", "SPRT [0, 5]: LLR"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "\t") || strings.Contains(out, "bad\tname") {
		t.Errorf("control characters leaked:\n%q", out)
	}
}

// TestDoubleForfeit: a "0-0" game (PDN 3.0's double forfeit) is listed
// with the games without a score and changes no figure of the players.
func TestDoubleForfeit(t *testing.T) {
	base := []Game{
		{Round: 1, Board: 1, White: "A", Black: "B", Result: "1-0", Termination: "normal"},
		{Round: 1, Board: 2, White: "B", Black: "A", Result: "1/2-1/2", Termination: "draw by agreement"},
	}
	plain, err := Compute(Event{Engines: []string{"A", "B"}, Games: base})
	if err != nil {
		t.Fatal(err)
	}
	withFF := append(append([]Game(nil), base...), Game{Round: 2, Board: 1, White: "A", Black: "B", Result: "0-0"})
	st, err := Compute(Event{Engines: []string{"A", "B"}, Games: withFF})
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 3 || st.Finished != 2 || st.Unfinished != 1 {
		t.Errorf("games %d finished %d without a score %d, want 3 2 1", st.Games, st.Finished, st.Unfinished)
	}
	for i, e := range st.Engines {
		p := plain.Engines[i]
		if e.Name != p.Name || e.Points != p.Points || e.WDL != p.WDL || e.Unfinished != 1 {
			t.Errorf("%s: %+v, want the figures of %+v with one game without a score", e.Name, e, p)
		}
	}
}
