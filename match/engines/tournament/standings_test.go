package tournament

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/reports"
	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// fourResults: a beats c, d beats b, b beats c (c-d unfinished). a, b and
// d have a point each; a and d from their one game, b from two, so a and
// d lead on score; d's win is over the stronger opponent
// (Sonneborn-Berger 1 against 0), so d leads although it is seeded last.
func fourResults() []Result {
	res := func(i int, white, black, result string) Result {
		return Result{Pairing: schedule.Pairing{Index: i, Round: i + 1, Board: 1}, WhiteName: white, BlackName: black, Result: result, Termination: "normal"}
	}
	return []Result{res(0, "a", "c", "1-0"), res(1, "b", "d", "0-1"), res(2, "c", "b", "0-1"), res(3, "c", "d", "*")}
}

// TestStandingsRankLikeTheReport: the live standings and the report rank
// the same games the same way (they used to sort by points only) and agree
// on every figure they both show.
func TestStandingsRankLikeTheReport(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	live := newStandings(names)
	ev := reports.Event{Engines: names}
	for _, r := range fourResults() {
		live.add(r)
		ev.Games = append(ev.Games, reportsGame(r))
	}
	got := live.snapshot()
	st, err := reports.Compute(ev)
	if err != nil {
		t.Fatal(err)
	}
	var gotOrder, wantOrder []string
	for i, s := range got {
		gotOrder = append(gotOrder, s.Engine)
		e := st.Engines[i]
		wantOrder = append(wantOrder, e.Name)
		if s.Engine != e.Name || s.Rank != e.Rank || s.Points != e.Points || s.SonnebornBerger != e.SonnebornBerger ||
			s.Score() != e.Score || s.W != e.WDL.W || s.D != e.WDL.D || s.L != e.WDL.L || s.Unfinished != e.Unfinished {
			t.Errorf("place %d: live %+v (score %v), report %+v", i+1, s, s.Score(), e)
		}
	}
	if strings.Join(gotOrder, " ") != "d a b c" || strings.Join(wantOrder, " ") != "d a b c" {
		t.Errorf("live order %v, report order %v, want d a b c", gotOrder, wantOrder)
	}
	if ranks := [4]int{got[0].Rank, got[1].Rank, got[2].Rank, got[3].Rank}; ranks != [4]int{1, 2, 3, 4} {
		t.Errorf("ranks %v, want 1 2 3 4", ranks)
	}
}

// TestStandingsWrite: the table the console shows, to the character.
func TestStandingsWrite(t *testing.T) {
	live := newStandings([]string{"a", "b", "c", "longname"})
	for _, r := range fourResults() {
		if r.WhiteName == "d" {
			r.WhiteName = "longname"
		}
		if r.BlackName == "d" {
			r.BlackName = "longname"
		}
		live.add(r)
	}
	var b bytes.Buffer
	live.snapshot().Write(&b)
	want := "" +
		"  # engine    games  points  score     W     D     L     SB\n" +
		"  1 longname      1     1.0 100.0%     1     0     0   1.00\n" +
		"  2 a             1     1.0 100.0%     1     0     0   0.00\n" +
		"  3 b             2     1.0  50.0%     1     0     1   0.00\n" +
		"  4 c             2     0.0   0.0%     0     0     2   0.00\n"
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestProgress: what the console shows and when a table is due. Live (a
// terminal): the standings and the bar are one block, redrawn in place
// (cursor up, clear), and log text goes above it. Plain: a line with the
// score so far every few games, no escape codes.
func TestProgress(t *testing.T) {
	if p := newProgress(nil, 0, 3, 2, 4); p != nil {
		t.Fatalf("no console: progress %v, want nil (shows nothing)", p)
	}
	var nilP *progress
	nilP.add()
	nilP.table(nil, false)
	nilP.finish()
	if nilP.due() {
		t.Errorf("a nil progress asks for a table")
	}

	var b bytes.Buffer
	c := NewConsole(&b, true)
	p := newProgress(c, 0, 3, 2, 4)
	var dues []bool
	for range 5 {
		dues = append(dues, p.due())
	}
	if want := []bool{false, true, false, true, false}; !slices.Equal(dues, want) {
		t.Errorf("every 2: due %v, want %v", dues, want)
	}
	if q := newProgress(c, 0, 3, 0, 5); q.every != 5 {
		t.Errorf("default every with 5 engines: %d, want 5", q.every)
	}
	p = newProgress(c, 0, 3, 2, 4)
	p.add()
	if s := b.String(); !strings.Contains(s, "games [") || !strings.Contains(s, " 1/3  33%") {
		t.Errorf("after one game of three the bar reads %q", s)
	}
	b.Reset()
	table := Standings{{Engine: "a", Rank: 1, Games: 1, Points: 1, W: 1}, {Engine: "b", Rank: 2, Games: 1, L: 1}}
	p.table(table, false)
	var tb bytes.Buffer
	table.Write(&tb)
	// The one-line bar is cleared, then the table and the bar are drawn.
	if s := b.String(); !strings.HasPrefix(s, "\r\x1b[J"+tb.String()+"games [") {
		t.Errorf("table redrawn: %q", s)
	}
	b.Reset()
	fmt.Fprintf(c, "a log line\n")
	// The block of 4 lines (header, 2 engines, bar) is cleared: up 3.
	if s := b.String(); !strings.HasPrefix(s, "\r\x1b[3A\x1b[Ja log line\n"+tb.String()+"games [") {
		t.Errorf("log above the block: %q", s)
	}
	b.Reset()
	p.add()
	p.add()
	p.finish()
	if s := b.String(); !strings.Contains(s, " 3/3 100%") || !strings.HasSuffix(s, "\n") || strings.Count(s, tb.String()) != 2 {
		t.Errorf("finished: %q, want the table with 3/3 100%% and a new line", s)
	}

	// Plain: a line with the score so far when a table is due, nothing else.
	b.Reset()
	p = newProgress(NewConsole(&b, false), 0, 3, 2, 4)
	p.add()
	p.table(table, false)
	p.add()
	p.finish()
	if b.String() != "games 1/3: a 1/1, b 0/1\n" {
		t.Errorf("plain: %q", b.String())
	}
	// A long run: about forty lines, and the last.
	b.Reset()
	p = newProgress(NewConsole(&b, false), 0, 400, 2, 4)
	for i := range 400 {
		p.add()
		if p.due() || i == 399 {
			p.table(table, i == 399)
		}
	}
	if n := strings.Count(b.String(), "\n"); n < 30 || n > 41 || !strings.HasSuffix(b.String(), "games 400/400: a 1/1, b 0/1\n") {
		t.Errorf("400 games: %d plain lines, ending %q", n, b.String()[max(0, b.Len()-40):])
	}
	// Every game played, results still to count (they count in plan
	// order; a cluster's workers finish out of order): one line, the
	// final table's, not one per table on the way.
	b.Reset()
	p = newProgress(NewConsole(&b, false), 0, 400, 2, 4)
	for range 400 {
		p.add()
	}
	for i := range 100 {
		p.table(table, i == 99)
	}
	if b.String() != "games 400/400: a 1/1, b 0/1\n" {
		t.Errorf("the backlog counted after the last game: %q, want one line", b.String())
	}
}

// The cutechess-style summary: the score, the Elo (+Inf for a match won
// in every game, where it printed NaN), the
// pentanomial counts, and an SPRT line in cutechess's form for a match
// with an SPRT, decided or not (it printed nothing while undecided).
func TestWriteMatchSummary(t *testing.T) {
	sprt := func(llr float64, d stats.Decision) *stats.SPRTResult {
		return &stats.SPRTResult{LLR: llr, Lower: -2.94, Upper: 2.94, Decision: d}
	}
	for _, tt := range []struct {
		name string
		m    MatchTally
		want []string
		not  []string
	}{
		{"even, no SPRT", MatchTally{A: "a", B: "b", WDL: stats.WDL{W: 2, D: 2, L: 2}, Penta: stats.Penta{0, 1, 1, 1, 0}},
			[]string{"Score of a vs b: 2 - 2 - 2  [0.500] 6\n", "Elo: 0.0 +/- ", "Ptnml(0-2): [0, 1, 1, 1, 0]\n"}, []string{"SPRT", "NaN", "Inf"}},
		{"all won", MatchTally{A: "a", B: "b", WDL: stats.WDL{W: 10}, Penta: stats.Penta{0, 0, 0, 0, 5}},
			[]string{"Elo: +Inf +/- ", ", LOS: 99.9 %"}, []string{"Elo: NaN"}},
		{"all lost", MatchTally{A: "a", B: "b", WDL: stats.WDL{L: 4}, Penta: stats.Penta{2, 0, 0, 0, 0}},
			[]string{"Elo: -Inf +/- "}, []string{"Elo: NaN"}},
		{"SPRT going on", MatchTally{A: "a", B: "b", WDL: stats.WDL{W: 5, L: 3}, Penta: stats.Penta{0, 1, 1, 2, 0}, SPRT: sprt(1.2, stats.Continue)},
			[]string{"SPRT: llr 1.2 (40.8%), lbound -2.94, ubound 2.94\n"}, []string{"accepted"}},
		{"SPRT H1", MatchTally{A: "a", B: "b", WDL: stats.WDL{W: 9, L: 1}, Penta: stats.Penta{0, 0, 1, 1, 3}, SPRT: sprt(2.96, stats.AcceptH1)},
			[]string{"SPRT: llr 2.96 (100.7%), lbound -2.94, ubound 2.94 - H1 was accepted\n"}, nil},
		{"SPRT H0", MatchTally{A: "a", B: "b", WDL: stats.WDL{W: 1, L: 9}, Penta: stats.Penta{3, 1, 1, 0, 0}, SPRT: sprt(-2.95, stats.AcceptH0)},
			[]string{"SPRT: llr -2.95 (-100.3%), lbound -2.94, ubound 2.94 - H0 was accepted\n"}, nil},
		{"SPRT not computed", MatchTally{A: "a", B: "b", WDL: stats.WDL{W: 1, L: 1}, SPRT: &stats.SPRTResult{LLR: math.NaN(), Failure: "no fit"}},
			nil, []string{"SPRT"}},
	} {
		var b bytes.Buffer
		WriteMatchSummary(&b, &tt.m)
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: lacks %q:\n%s", tt.name, w, b.String())
			}
		}
		for _, w := range tt.not {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: has %q:\n%s", tt.name, w, b.String())
			}
		}
	}
}
