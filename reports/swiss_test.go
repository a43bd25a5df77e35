package reports

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

// swissGames: five engines, encounters of two games. Round 1: a-b (a wins
// both), c-d (one each: a drawn encounter), e has the bye. Round 2: e-a
// (e wins one, draws one), b-c (two draws), d has the bye. Round 3 has
// one game of one board: not complete.
func swissGames() []Game {
	g := func(round, board, pair int, w, b, res string) Game {
		return Game{Round: round, Board: board, Pair: pair, White: w, Black: b, Result: res}
	}
	return []Game{
		g(1, 1, 1, "a", "b", "1-0"), g(1, 1, 1, "b", "a", "0-1"),
		g(1, 2, 2, "c", "d", "1-0"), g(1, 2, 2, "d", "c", "1-0"),
		g(2, 1, 3, "e", "a", "1-0"), g(2, 1, 3, "a", "e", "1/2-1/2"),
		g(2, 2, 4, "b", "c", "1/2-1/2"), g(2, 2, 4, "c", "b", "1/2-1/2"),
		g(3, 1, 5, "e", "d", "1-0"),
	}
}

func TestSwissHistories(t *testing.T) {
	engines := []string{"a", "b", "c", "d", "e"}
	players, complete, err := SwissHistories(engines, swissGames(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if complete != 2 {
		t.Fatalf("%d complete rounds, want 2", complete)
	}
	want := [][]tally.Entry{
		{{Opponent: 2, Color: tally.White, Result: tally.Win}, {Opponent: 5, Color: tally.Black, Result: tally.Loss}},
		{{Opponent: 1, Color: tally.Black, Result: tally.Loss}, {Opponent: 3, Color: tally.White, Result: tally.Draw}},
		{{Opponent: 4, Color: tally.White, Result: tally.Draw}, {Opponent: 2, Color: tally.Black, Result: tally.Draw}},
		{{Opponent: 3, Color: tally.Black, Result: tally.Draw}, {Result: tally.PairingBye}},
		{{Result: tally.PairingBye}, {Opponent: 1, Color: tally.White, Result: tally.Win}},
	}
	for i, p := range players {
		if p.Number != i+1 || !slices.Equal(p.History, want[i]) {
			t.Errorf("%s: number %d, history %+v; want %d, %+v", engines[i], p.Number, p.History, i+1, want[i])
		}
	}
	// Two boards of a round between the same engine: an error, not a table.
	bad := append(swissGames(), Game{Round: 1, Board: 3, Pair: 9, White: "a", Black: "e", Result: "1-0"})
	if _, _, err := SwissHistories(engines, bad, 2); err == nil {
		t.Error("SwissHistories took a round with three boards of five engines")
	}
	if _, _, err := SwissHistories(engines, []Game{{Round: 1, Board: 1, White: "a", Black: "x", Result: "1-0"}}, 2); err == nil || !strings.Contains(err.Error(), "not a game between two of the Swiss event's engines") {
		t.Errorf("unknown engine: %v", err)
	}
}

// TestSwissTable checks the Swiss table of swissGames (scores in half
// points: a 2, b 1, c 2, d 3, e 4): the order and values are
// reports/tiebreak's, on the federation's scale; the tie-breaks of a, b
// and c (whose own rounds were all played; their opponents' byes count as
// played rounds in C.07 16.3) are also computed by hand.
func TestSwissTable(t *testing.T) {
	engines := []string{"a", "b", "c", "d", "e"}
	players, _, err := SwissHistories(engines, swissGames(), 2)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"buchholz-cut1", "buchholz", "sonneborn-berger", "wins", "median-buchholz", "progressive"}
	order, err := tiebreak.Parse(strings.Join(names, ","))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		rank   int
		points float64
		tb     []float64 // nil: not checked by hand
		w, d   int
		l, bye int
		codes  string
	}
	byHand := map[string]row{ // English: 1 a win, ½ a draw
		"e": {1, 2, nil, 1, 0, 0, 1, "bye 1w+"},
		"d": {2, 1.5, nil, 0, 1, 0, 1, "3b= bye"},
		"a": {3, 1, []float64{2, 2.5, 0.5, 1, 0, 2}, 1, 0, 1, 0, "2w+ 5b-"},
		"c": {4, 1, []float64{1.5, 2, 1, 0, 0, 1.5}, 0, 2, 0, 0, "4w= 2b="},
		"b": {5, 0.5, []float64{1, 2, 0.5, 0, 0, 0.5}, 0, 1, 1, 0, "1b- 3w="},
	}
	ranked, err := tiebreak.Rank(players, order, tiebreak.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range []Scoring{ScoringFor("english"), ScoringFor("international")} {
		st, err := SwissTable(engines, players, sc, 5, names)
		if err != nil {
			t.Fatal(err)
		}
		if st.Complete != 2 || st.Rounds != 5 || !slices.Equal(st.TieBreaks, names) || len(st.Rows) != 5 ||
			!slices.Equal(st.Acronyms, []string{"BH-C1", "BH", "SB", "WIN", "BH-M1", "PS"}) {
			t.Fatalf("%+v", st)
		}
		f := sc.Win // points per half-point unit pair: 1 (English) or 2 (FMJD)
		for i, r := range st.Rows {
			w := byHand[r.Name]
			var codes []string
			for _, rd := range r.Rounds {
				codes = append(codes, rd.Code())
			}
			if r.Number != ranked[i].Number || r.Rank != w.rank || r.Rank != ranked[i].Rank || r.Points != w.points*f ||
				r.Won != w.w || r.Drawn != w.d || r.Lost != w.l || r.Byes != w.bye || strings.Join(codes, " ") != w.codes {
				t.Errorf("%s row %d: %+v; want %+v (tiebreak ranks number %d %d)", sc.Name, i+1, r, w, ranked[i].Number, ranked[i].Rank)
			}
			for k, tb := range order {
				// tiebreak's values are in half-point units to the power.
				scale := math.Pow(f/2, float64(tb.Power()))
				if want := ranked[i].Values[k] * scale; r.TieBreaks[k] != want {
					t.Errorf("%s: %s %s = %v, want %v", sc.Name, r.Name, tb, r.TieBreaks[k], want)
				}
				if w.tb != nil && sc.Win == 1 && r.TieBreaks[k] != w.tb[k] {
					t.Errorf("%s: %s %s = %v, by hand %v", sc.Name, r.Name, tb, r.TieBreaks[k], w.tb[k])
				}
			}
		}
	}
	if _, err := SwissTable(engines, players, ScoringFor("english"), 5, []string{"koya"}); err == nil {
		t.Error("an unknown tie-break was computed")
	}
}

// TestSwissReport: a Swiss event's report has the Swiss standings table,
// and results.json its rows.
func TestSwissReport(t *testing.T) {
	ev := Event{Name: "swiss", Variant: "english", Engines: []string{"a", "b", "c", "d", "e"}, Games: swissGames(),
		Swiss: &SwissEvent{Rounds: 3, GamesPerEncounter: 2, TieBreaks: []string{"buchholz-cut1", "wins"}}}
	st, err := Compute(ev)
	if err != nil {
		t.Fatal(err)
	}
	if st.Swiss == nil || st.Swiss.Rows[0].Name != "e" {
		t.Fatalf("Swiss standings %+v", st.Swiss)
	}
	var b bytes.Buffer
	if err := writeHTML(&b, ev, st, nil); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`<h2>Swiss standings</h2>`, `After 2 of 3 rounds`, `<th title="buchholz-cut1">BH-C1</th><th title="wins">WIN</th>`, `<td class="code">1w&#43;</td>`} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("report.html has no %q", w)
		}
	}
	ev.Swiss = nil
	st, _ = Compute(ev)
	b.Reset()
	writeHTML(&b, ev, st, nil)
	if st.Swiss != nil || strings.Contains(b.String(), "Swiss standings") {
		t.Error("a round-robin's report has Swiss standings")
	}
}
