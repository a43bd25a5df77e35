package sheets

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

// node is a parsed element: the sheets are written as XHTML-compatible
// HTML so that encoding/xml in strict mode checks their nesting.
type node struct {
	tag      string
	attr     map[string]string
	children []*node
	text     strings.Builder // all text inside, children's included
}

func parse(t *testing.T, page []byte) *node {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = true
	root := &node{tag: "#root", attr: map[string]string{}}
	stack := []*node{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v\n%s", err, page)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			n := &node{tag: tk.Name.Local, attr: map[string]string{}}
			for _, a := range tk.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			top := stack[len(stack)-1]
			top.children = append(top.children, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			for _, n := range stack {
				n.text.Write(tk)
			}
		}
	}
	if len(stack) != 1 {
		t.Fatalf("%d elements left open", len(stack)-1)
	}
	return root
}

// all returns the elements below n (n included) that match.
func (n *node) all(match func(*node) bool) []*node {
	var out []*node
	var walk func(*node)
	walk = func(x *node) {
		if match(x) {
			out = append(out, x)
		}
		for _, c := range x.children {
			walk(c)
		}
	}
	walk(n)
	return out
}

func tagged(tag string) func(*node) bool { return func(n *node) bool { return n.tag == tag } }

func hasAttr(k, v string) func(*node) bool {
	return func(n *node) bool { return n.attr[k] == v }
}

// cells are the texts of a row's td elements, blanks squeezed.
func (n *node) cells() []string {
	var out []string
	for _, c := range n.all(tagged("td")) {
		out = append(out, strings.Join(strings.Fields(c.text.String()), " "))
	}
	return out
}

func (n *node) String() string { return strings.Join(strings.Fields(n.text.String()), " ") }

// testEvent is tiebreak's event A as a director would hold it:
//
//	R1: 1-4 1-0, 2-5 draw, 3-6 0-1
//	R2: 6-1 0-1, 4-2 forfeit (4 absent), 5 half-point bye, 3 PAB
//	R3: 1-2 draw, 3-5 1-0, 4 withdrawn (absent), 6 PAB
//
// Scores in 2-1-0: P1 5, P2 4, P3 4, P4 0, P5 2, P6 4.
func testEvent() *Event {
	return &Event{
		Name: "Club Open <2026>", Site: "Oslo", Dates: "1-3 May 2026", Variant: "international", System: "Swiss (Dutch)",
		Rounds: 5,
		Players: []Player{
			{Number: 1, Name: "Ada Lind", Club: "Oslo DK", Federation: "NOR", Rating: 2000},
			{Number: 2, Name: "Bo Berg", Federation: "SWE", Rating: 1900},
			{Number: 3, Name: `Cy "<b>Bold</b>" & Co`, Rating: 1801},
			{Number: 4, Name: "Di Dahl", Rating: 1700},
			{Number: 5, Name: "Ed Eng", Rating: 1600},
			{Number: 6, Name: "Fa Fjell"},
		},
		Played: []Round{
			{Date: "1 May", Boards: []Board{{White: 1, Black: 4, Result: WhiteWins}, {White: 2, Black: 5, Result: Draw}, {White: 3, Black: 6, Result: BlackWins}}},
			{Boards: []Board{{White: 6, Black: 1, Result: BlackWins}, {White: 4, Black: 2, Result: BlackForfeitWin}}, Byes: []Bye{{5, tally.HalfBye}, {3, tally.PairingBye}}},
			{Boards: []Board{{White: 1, Black: 2, Result: Draw}, {White: 3, Black: 5, Result: WhiteWins}}, Byes: []Bye{{4, tally.ZeroBye}, {6, tally.PairingBye}}},
		},
		TieBreaks: tiebreak.Order{tiebreak.BuchholzCut1, tiebreak.SonnebornBerger, tiebreak.Wins},
		Links:     []Link{{"Event", "/director/1"}, {"Bad", "javascript:alert(1)"}},
	}
}

func halves(ev *Event) *Event { ev.Halves = true; return ev }

func rowsOf(t *testing.T, root *node, class string) []*node {
	t.Helper()
	tables := root.all(hasAttr("class", class))
	if len(tables) != 1 {
		t.Fatalf("%d tables of class %s", len(tables), class)
	}
	var rows []*node
	for _, tb := range tables[0].all(tagged("tbody")) {
		rows = append(rows, tb.all(tagged("tr"))...)
	}
	return rows
}

func TestPairings(t *testing.T) {
	tests := []struct {
		name  string
		ev    *Event
		round int
		rows  [][]string // the cells of each board row
		byes  []string
	}{
		// Scores before round 2 (2-1-0): P6 2, P1 2, P4 0, P2 1.
		{"FMJD round 2", testEvent(), 2,
			[][]string{{"1", "6", "Fa Fjell", "2", "0-2", "1", "Ada Lind 2000", "2"}, {"2", "4", "Di Dahl 1700", "0", "− +", "2", "Bo Berg 1900", "1"}},
			[]string{"5 Ed Eng: half-point bye (1)", `3 Cy "<b>Bold</b>" & Co: bye (2)`}},
		{"English round 2", halves(testEvent()), 2,
			[][]string{{"1", "6", "Fa Fjell", "1", "0-1", "1", "Ada Lind 2000", "1"}, {"2", "4", "Di Dahl 1700", "0", "− +", "2", "Bo Berg 1900", "½"}},
			[]string{"5 Ed Eng: half-point bye (½)", `3 Cy "<b>Bold</b>" & Co: bye (1)`}},
		// Round 1: scores 0; the draw prints 1-1 in FMJD points.
		{"FMJD round 1", testEvent(), 1,
			[][]string{{"1", "1", "Ada Lind 2000", "0", "2-0", "4", "Di Dahl 1700", "0"}, {"2", "2", "Bo Berg 1900", "0", "1-1", "5", "Ed Eng 1600", "0"}, {"3", "3", `Cy "<b>Bold</b>" & Co 1801`, "0", "0-2", "6", "Fa Fjell", "0"}},
			nil},
		{"English round 1", halves(testEvent()), 1,
			[][]string{{"1", "1", "Ada Lind 2000", "0", "1-0", "4", "Di Dahl 1700", "0"}, {"2", "2", "Bo Berg 1900", "0", "½-½", "5", "Ed Eng 1600", "0"}, {"3", "3", `Cy "<b>Bold</b>" & Co 1801`, "0", "0-1", "6", "Fa Fjell", "0"}},
			nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Pairings(&buf, tc.ev, tc.round); err != nil {
				t.Fatal(err)
			}
			root := parse(t, buf.Bytes())
			rows := rowsOf(t, root, "pairings")
			if len(rows) != len(tc.rows) {
				t.Fatalf("%d boards, want %d", len(rows), len(tc.rows))
			}
			for i, r := range rows {
				if got := r.cells(); strings.Join(got, "|") != strings.Join(tc.rows[i], "|") {
					t.Errorf("board %d: %q, want %q", i+1, got, tc.rows[i])
				}
			}
			var byes []string
			for _, li := range root.all(tagged("li")) {
				byes = append(byes, li.String())
			}
			if strings.Join(byes, "|") != strings.Join(tc.byes, "|") {
				t.Errorf("byes %q, want %q", byes, tc.byes)
			}
			// A name is text, never markup; an unsafe link is neutralised.
			if len(root.all(tagged("b"))) != 0 {
				t.Error("a player's name became markup")
			}
			for _, a := range root.all(tagged("a")) {
				if strings.HasPrefix(a.attr["href"], "javascript:") {
					t.Errorf("unsafe link kept: %q", a.attr["href"])
				}
			}
			if !strings.Contains(root.all(tagged("title"))[0].String(), "Club Open <2026>") {
				t.Errorf("title %q", root.all(tagged("title"))[0].String())
			}
		})
	}
}

func TestStandings(t *testing.T) {
	tests := []struct {
		name  string
		ev    *Event
		round int
		rows  [][]string // rank, no., name (club), fed, rating, pts, tie-breaks
	}{
		// tiebreak's hand-computed values for event A after round 3:
		// BH-C1 P1 8, P6 9, P3 7, P2 7, P5 8, P4 5; SB 14, 14, 10, 9, 6, 0;
		// WIN 2, 2, 2, 1, 0, 0.
		{"FMJD", testEvent(), 3, [][]string{
			{"1", "1", "Ada Lind Oslo DK", "NOR", "2000", "5", "8", "14", "2"},
			{"2", "6", "Fa Fjell", "", "", "4", "9", "14", "2"},
			{"3", "3", `Cy "<b>Bold</b>" & Co`, "", "1801", "4", "7", "10", "2"},
			{"4", "2", "Bo Berg", "SWE", "1900", "4", "7", "9", "1"},
			{"5", "5", "Ed Eng", "", "1600", "2", "8", "6", "0"},
			{"6", "4", "Di Dahl", "", "1700", "0", "5", "0", "0"},
		}},
		// In halves: Buchholz /2, SB /4 (14 → 3½, 10 → 2½, 9 → 2.25, 6 → 1½).
		{"English", halves(testEvent()), 3, [][]string{
			{"1", "1", "Ada Lind Oslo DK", "NOR", "2000", "2½", "4", "3½", "2"},
			{"2", "6", "Fa Fjell", "", "", "2", "4½", "3½", "2"},
			{"3", "3", `Cy "<b>Bold</b>" & Co`, "", "1801", "2", "3½", "2½", "2"},
			{"4", "2", "Bo Berg", "SWE", "1900", "2", "3½", "2.25", "1"},
			{"5", "5", "Ed Eng", "", "1600", "1", "4", "1½", "0"},
			{"6", "4", "Di Dahl", "", "1700", "0", "2½", "0", "0"},
		}},
		// No tie-breaks: 2, 3 and 6 share place 2, marked 2=.
		{"shared", func() *Event { ev := testEvent(); ev.TieBreaks = nil; return ev }(), 3, [][]string{
			{"1", "1", "Ada Lind Oslo DK", "NOR", "2000", "5"},
			{"2=", "2", "Bo Berg", "SWE", "1900", "4"},
			{"2=", "3", `Cy "<b>Bold</b>" & Co`, "", "1801", "4"},
			{"2=", "6", "Fa Fjell", "", "", "4"},
			{"5", "5", "Ed Eng", "", "1600", "2"},
			{"6", "4", "Di Dahl", "", "1700", "0"},
		}},
		// After round 1: 1, 6 (2); 2, 5 (1); 3, 4 (0). BH-C1 of a single
		// term is 0; SB: P1 0×2, P6 0×2, P2 1×1, P5 1×1.
		{"round 1", testEvent(), 1, [][]string{
			{"1=", "1", "Ada Lind Oslo DK", "NOR", "2000", "2", "0", "0", "1"},
			{"1=", "6", "Fa Fjell", "", "", "2", "0", "0", "1"},
			{"3=", "2", "Bo Berg", "SWE", "1900", "1", "0", "1", "0"},
			{"3=", "5", "Ed Eng", "", "1600", "1", "0", "1", "0"},
			{"5=", "3", `Cy "<b>Bold</b>" & Co`, "", "1801", "0", "0", "0", "0"},
			{"5=", "4", "Di Dahl", "", "1700", "0", "0", "0", "0"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Standings(&buf, tc.ev, tc.round); err != nil {
				t.Fatal(err)
			}
			root := parse(t, buf.Bytes())
			rows := rowsOf(t, root, "standings")
			if len(rows) != len(tc.rows) {
				t.Fatalf("%d lines, want %d", len(rows), len(tc.rows))
			}
			for i, r := range rows {
				if got := r.cells(); strings.Join(got, "|") != strings.Join(tc.rows[i], "|") {
					t.Errorf("line %d: %q, want %q", i+1, got, tc.rows[i])
				}
			}
			if n := len(root.all(tagged("th"))); n != 6+len(tc.ev.TieBreaks) {
				t.Errorf("%d headings for %d tie-breaks", n, len(tc.ev.TieBreaks))
			}
		})
	}
}

func TestCrosstable(t *testing.T) {
	tests := []struct {
		name string
		ev   *Event
		want map[string][]string // player number → round cells, then points
	}{
		{"FMJD", testEvent(), map[string][]string{
			"1": {"4w 2", "6b 2", "2w 1", "5"},
			"4": {"1b 0", "2w −", "0", "0"},
			"5": {"2b 1", "1", "3b 0", "2"},
			"6": {"3b 2", "1w 0", "2", "4"},
		}},
		{"English", halves(testEvent()), map[string][]string{
			"1": {"4w 1", "6b 1", "2w ½", "2½"},
			"2": {"5w ½", "4b +", "1b ½", "2"},
			"5": {"2b ½", "½", "3b 0", "1"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Crosstable(&buf, tc.ev); err != nil {
				t.Fatal(err)
			}
			root := parse(t, buf.Bytes())
			rows := rowsOf(t, root, "crosstable")
			if len(rows) != len(tc.ev.Players) {
				t.Fatalf("%d rows", len(rows))
			}
			for _, r := range rows {
				want, ok := tc.want[r.attr["data-player"]]
				if !ok {
					continue
				}
				got := r.cells()[4 : 4+len(want)]
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("player %s: %q, want %q", r.attr["data-player"], got, want)
				}
			}
		})
	}
}

func TestCard(t *testing.T) {
	tests := []struct {
		name   string
		ev     *Event
		player int
		rows   [][]string // round, board, colour, opponent (with the rating a phone shows), rating, result, running score
		total  string
	}{
		{"FMJD", testEvent(), 5, [][]string{
			{"1", "2", "Black", "2. Bo Berg 1900", "1900", "1", "1"},
			{"2", "", "", "half-point bye", "", "1", "2"},
			{"3", "2", "Black", `3. Cy "<b>Bold</b>" & Co 1801`, "1801", "0", "2"},
		}, "2"},
		{"English", halves(testEvent()), 4, [][]string{
			{"1", "1", "Black", "1. Ada Lind 2000", "2000", "0", "0"},
			{"2", "2", "White", "2. Bo Berg 1900", "1900", "− forfeit", "0"},
			{"3", "", "", "absent", "", "0", "0"},
		}, "0"},
		// A round still being played: the result waits (…) and the
		// running score stays.
		{"pending", withPendingRound(testEvent()), 6, [][]string{
			{"1", "3", "Black", `3. Cy "<b>Bold</b>" & Co 1801`, "1801", "2", "2"},
			{"2", "1", "White", "1. Ada Lind 2000", "2000", "0", "2"},
			{"3", "", "", "bye", "", "2", "4"},
			{"4", "1", "White", "5. Ed Eng 1600", "1600", "…", "4"},
		}, "4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Card(&buf, tc.ev, tc.player); err != nil {
				t.Fatal(err)
			}
			root := parse(t, buf.Bytes())
			rows := rowsOf(t, root, "card-table")
			if len(rows) != len(tc.rows) {
				t.Fatalf("%d rounds, want %d", len(rows), len(tc.rows))
			}
			for i, r := range rows {
				if got := r.cells(); strings.Join(got, "|") != strings.Join(tc.rows[i], "|") {
					t.Errorf("round %d: %q, want %q", i+1, got, tc.rows[i])
				}
			}
			tot := root.all(hasAttr("class", "num total"))
			if len(tot) != 1 || tot[0].String() != tc.total {
				t.Errorf("total %v, want %s", tot, tc.total)
			}
		})
	}
}

// withPendingRound adds round 4 with one result in: 6-5 pending, 1-3 1-0,
// 2-4 and nothing else (4 withdrawn stays absent).
func withPendingRound(ev *Event) *Event {
	ev.Played = append(ev.Played, Round{Boards: []Board{{White: 6, Black: 5, Result: Pending}, {White: 1, Black: 3, Result: WhiteWins}}, Byes: []Bye{{2, tally.HalfBye}}})
	return ev
}

func TestCards(t *testing.T) {
	var buf bytes.Buffer
	if err := Cards(&buf, testEvent()); err != nil {
		t.Fatal(err)
	}
	root := parse(t, buf.Bytes())
	secs := root.all(tagged("section"))
	if len(secs) != 6 {
		t.Fatalf("%d cards, want 6", len(secs))
	}
	for i, s := range secs {
		if s.attr["data-player"] != string(rune('1'+i)) {
			t.Errorf("card %d is of player %s", i+1, s.attr["data-player"])
		}
	}
}

func TestPendingRound(t *testing.T) {
	ev := withPendingRound(testEvent())
	var buf bytes.Buffer
	// The pairing sheet of the round in progress: the result column is
	// blank where the result is not in.
	if err := Pairings(&buf, ev, 4); err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, parse(t, buf.Bytes()), "pairings")
	if got := rows[0].cells()[4]; got != "" {
		t.Errorf("pending result printed as %q", got)
	}
	if got := rows[1].cells()[4]; got != "2-0" {
		t.Errorf("result %q, want 2-0", got)
	}
	buf.Reset()
	if err := Standings(&buf, ev, 4); err == nil || !strings.Contains(err.Error(), "round 4 has results pending") {
		t.Errorf("standings of an unfinished round: %v", err)
	}
	// The crosstable stops at the last complete round.
	buf.Reset()
	if err := Crosstable(&buf, ev); err != nil {
		t.Fatal(err)
	}
	root := parse(t, buf.Bytes())
	if n := len(root.all(func(n *node) bool { return n.tag == "th" && n.attr["class"] == "rd" })); n != 3 {
		t.Errorf("%d round columns, want 3", n)
	}
	if !strings.Contains(root.all(tagged("h2"))[0].String(), "after round 3 of 5") {
		t.Errorf("heading %q", root.all(tagged("h2"))[0].String())
	}
}

func TestErrors(t *testing.T) {
	mod := func(f func(*Event)) *Event { ev := testEvent(); f(ev); return ev }
	tests := []struct {
		name string
		run  func(io.Writer) error
		want string
	}{
		{"round 0", func(w io.Writer) error { return Pairings(w, testEvent(), 0) }, "pairings of round 0 asked; rounds 1 to 3"},
		{"round beyond", func(w io.Writer) error { return Standings(w, testEvent(), 4) }, "standings after round 4 asked"},
		{"no such player", func(w io.Writer) error { return Card(w, testEvent(), 7) }, "card of player 7"},
		{"unknown on board", func(w io.Writer) error {
			return Crosstable(w, mod(func(ev *Event) { ev.Played[1].Boards[0].Black = 9 }))
		}, "round 2 board 1: player 9 is not registered"},
		{"twice in a round", func(w io.Writer) error {
			return Crosstable(w, mod(func(ev *Event) { ev.Played[0].Byes = []Bye{{1, tally.FullBye}} }))
		}, "round 1: player 1 is on board 1 and a bye"},
		{"bad bye", func(w io.Writer) error {
			return Crosstable(w, mod(func(ev *Event) { ev.Played[1].Byes[0].Kind = tally.Win }))
		}, `bye of player 5 has kind '1'`},
		{"duplicate number", func(w io.Writer) error {
			return Crosstable(w, mod(func(ev *Event) { ev.Players[1].Number = 1 }))
		}, "pairing number 1 is given to two players"},
		{"bad result", func(w io.Writer) error {
			return Crosstable(w, mod(func(ev *Event) { ev.Played[0].Boards[0].Result = 42 }))
		}, "round 1 board 1: unknown result 42"},
	}
	for _, tc := range tests {
		var buf bytes.Buffer
		err := tc.run(&buf)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: %d bytes written on error", tc.name, buf.Len())
		}
	}
}

// TestCrosstableRoundRobin: a round-robin of 4 where 1 beat 2, 2 beat 3,
// 3 beat 1, 2 and 3 beat 4 and 4 forfeited to 1. 1, 2 and 3 have 4 points,
// 2 among themselves (C.07 6.2: equal) and the same Sonneborn-Berger (a
// forfeit of a round-robin counts as a game: 4×2 + 0 + 0×2 = 8 each), so
// they share first place; the grid shows each pair's points in rank
// order, the forfeit as + and −.
func TestCrosstableRoundRobin(t *testing.T) {
	ev := &Event{Name: "Club championship", RoundRobin: true, Rounds: 3,
		Players: []Player{{Number: 1, Name: "A"}, {Number: 2, Name: "B"}, {Number: 3, Name: "C"}, {Number: 4, Name: "D"}},
		Played: []Round{
			{Boards: []Board{{White: 1, Black: 2, Result: WhiteWins}, {White: 3, Black: 4, Result: WhiteWins}}},
			{Boards: []Board{{White: 3, Black: 1, Result: WhiteWins}, {White: 2, Black: 4, Result: WhiteWins}}},
			{Boards: []Board{{White: 1, Black: 4, Result: WhiteForfeitWin}, {White: 2, Black: 3, Result: WhiteWins}}},
		},
		TieBreaks: tiebreak.Order{tiebreak.DirectEncounter, tiebreak.SonnebornBerger},
	}
	var buf bytes.Buffer
	if err := Crosstable(&buf, ev); err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, parse(t, buf.Bytes()), "crosstable")
	want := [][]string{
		{"1=", "1", "A", "", "×", "2", "0", "+", "4", "1", "8"},
		{"1=", "2", "B", "", "0", "×", "2", "2", "4", "1", "8"},
		{"1=", "3", "C", "", "2", "0", "×", "2", "4", "1", "8"},
		// D is alone on 0 points: no direct encounter to show (a dash).
		{"4", "4", "D", "", "−", "0", "0", "×", "0", "–", "0"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		if got := r.cells(); strings.Join(got, "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d: %q, want %q", i+1, got, want[i])
		}
	}
}

// TestPairingsLabel: a board's label (the event's notation, from the
// caller) is what the pairing sheet prints; without one, the sheet's own.
func TestPairingsLabel(t *testing.T) {
	ev := testEvent()
	ev.Played[1].Boards[1].Label = "0-2 by forfeit"
	ev.Played[1].Boards[0].Label = "0-2"
	var buf bytes.Buffer
	if err := Pairings(&buf, ev, 2); err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, parse(t, buf.Bytes()), "pairings")
	if got := rows[1].cells()[4]; got != "0-2 by forfeit" {
		t.Errorf("board 2 prints %q", got)
	}
	// A label on a board still pending is not printed.
	ev = withPendingRound(testEvent())
	ev.Played[3].Boards[0].Label = "2-0"
	buf.Reset()
	if err := Pairings(&buf, ev, 4); err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(t, parse(t, buf.Bytes()), "pairings")[0].cells()[4]; got != "" {
		t.Errorf("a pending board prints %q", got)
	}
}

// TestRoundRobinBye: a round-robin player who asked for a half-point bye
// keeps the board on the table (the opponent wins by forfeit); the sheets
// show the bye as a bye, not as a forfeit: the crosstable's cell, the
// card and the pairing sheet.
func TestRoundRobinBye(t *testing.T) {
	mk := func() *Event {
		return &Event{Name: "Club championship", RoundRobin: true, Rounds: 3,
			Players: []Player{{Number: 1, Name: "A"}, {Number: 2, Name: "B"}, {Number: 3, Name: "C"}, {Number: 4, Name: "D"}},
			Played: []Round{
				{Boards: []Board{{White: 1, Black: 2, Result: WhiteWins}, {White: 3, Black: 4, Result: WhiteWins}}},
				{Boards: []Board{{White: 3, Black: 1, Result: WhiteWins}, {White: 2, Black: 4, Result: WhiteWins}}},
				{Boards: []Board{{White: 1, Black: 4, Result: BlackForfeitWin, WhiteBye: tally.HalfBye}, {White: 2, Black: 3, Result: WhiteWins}}},
			},
			TieBreaks: tiebreak.Order{tiebreak.SonnebornBerger},
		}
	}
	ev := mk()
	for _, tc := range []struct {
		name string
		ev   *Event
		bye  string // the bye's points
	}{{"FMJD", mk(), "1"}, {"English", halves(mk()), "½"}} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Crosstable(&buf, tc.ev); err != nil {
				t.Fatal(err)
			}
			root := parse(t, buf.Bytes())
			byPlayer := map[string][]string{}
			for _, r := range rowsOf(t, root, "crosstable") {
				byPlayer[r.attr["data-player"]] = r.cells()
			}
			// Cells: rank, number, name, rating, then one per line in rank
			// order; find A's cell against D through D's place.
			place := map[string]int{}
			for i, r := range rowsOf(t, root, "crosstable") {
				place[r.attr["data-player"]] = i
			}
			if got := byPlayer["1"][4+place["4"]]; got != tc.bye+" bye" {
				t.Errorf("A against D: %q, want %q", got, tc.bye+" bye")
			}
			if got := byPlayer["4"][4+place["1"]]; got != "+" {
				t.Errorf("D against A: %q, want +", got)
			}
			buf.Reset()
			if err := Card(&buf, tc.ev, 1); err != nil {
				t.Fatal(err)
			}
			card := rowsOf(t, parse(t, buf.Bytes()), "card-table")
			if got := strings.Join(card[2].cells(), "|"); got != "3|1||half-point bye||"+tc.bye+"|"+map[string]string{"1": "3", "½": "1½"}[tc.bye] {
				t.Errorf("A's card, round 3: %q", got)
			}
			buf.Reset()
			if err := Pairings(&buf, tc.ev, 3); err != nil {
				t.Fatal(err)
			}
			page := buf.String()
			if got := rowsOf(t, parse(t, buf.Bytes()), "pairings")[0].cells()[4]; got != tc.bye+" half-point bye – +" {
				t.Errorf("the pairing sheet's board 1: %q", got)
			}
			if strings.Contains(page, "− +") {
				t.Error("the pairing sheet shows the bye as a forfeit")
			}
		})
	}
	bad := *ev
	bad.Played = append([]Round(nil), ev.Played...)
	bad.Played[2].Boards = []Board{{White: 1, Black: 4, Result: BlackForfeitWin, WhiteBye: tally.Win}, {White: 2, Black: 3, Result: WhiteWins}}
	if err := Crosstable(&bytes.Buffer{}, &bad); err == nil || !strings.Contains(err.Error(), "bye has kind") {
		t.Errorf("a side's bye of kind 1: %v", err)
	}
}

// TestNotice: a sheet with nothing to list yet is a page with the event's
// heading, the sheet's title and a line saying when it will; the cards of
// an event without players say so.
func TestNotice(t *testing.T) {
	ev := testEvent()
	ev.Players, ev.Played = nil, nil
	notice := func(sheet string) func(io.Writer) error {
		return func(w io.Writer) error { return Notice(w, ev, sheet) }
	}
	for _, c := range []struct {
		name  string
		write func(io.Writer) error
		title string
		text  string
	}{
		{"pairings", notice("pairings"), "Pairings", "No round has been published yet."},
		{"standings", notice("standings"), "Standings", "No round has been closed yet: standings appear when round 1 is closed."},
		{"crosstable", notice("crosstable"), "Crosstable", "No round has been closed yet: the crosstable appears when round 1 is closed."},
		{"cards", func(w io.Writer) error { return Cards(w, ev) }, "Player cards", "No player is registered yet."},
	} {
		var buf bytes.Buffer
		if err := c.write(&buf); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		root := parse(t, buf.Bytes())
		if got := root.all(tagged("h1"))[0].String(); got != ev.Name {
			t.Errorf("%s: heading %q", c.name, got)
		}
		if got := root.all(tagged("h2"))[0].String(); got != c.title {
			t.Errorf("%s: title %q, want %q", c.name, got, c.title)
		}
		ps := root.all(hasAttr("class", "notice"))
		if len(ps) != 1 || ps[0].String() != c.text {
			t.Errorf("%s: notice %v, want %q", c.name, ps, c.text)
		}
	}
	if err := Notice(io.Discard, ev, "cards"); err == nil {
		t.Error("a notice of a sheet that has none")
	}
	// The notice's event is checked like every sheet's.
	bad := testEvent()
	bad.Players[1].Number = 1
	if err := Notice(io.Discard, bad, "pairings"); err == nil {
		t.Error("a notice of an event with a pairing number given twice")
	}
}

// TestOpenRound: a round marked open counts on no sheet but its pairing
// sheet, even with every result in: the crosstable stops before it as the
// standings do, and the cards show it pending, outside their totals.
func TestOpenRound(t *testing.T) {
	ev := testEvent()
	ev.Played[2].Open = true // 1-2 draw, 3-5 1-0: all in
	var buf bytes.Buffer
	if err := Pairings(&buf, ev, 3); err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(t, parse(t, buf.Bytes()), "pairings")[1].cells()[4]; got != "2-0" {
		t.Errorf("the open round's pairing sheet prints %q, want 2-0", got)
	}
	if err := Standings(io.Discard, ev, 3); err == nil || !strings.Contains(err.Error(), "round 3 is open") {
		t.Errorf("standings after an open round: %v", err)
	}
	buf.Reset()
	if err := Crosstable(&buf, ev); err != nil {
		t.Fatal(err)
	}
	root := parse(t, buf.Bytes())
	if n := len(root.all(func(n *node) bool { return n.tag == "th" && n.attr["class"] == "rd" })); n != 2 {
		t.Errorf("%d round columns, want 2", n)
	}
	if got := root.all(tagged("h2"))[0].String(); !strings.Contains(got, "after round 2 of 5") {
		t.Errorf("heading %q", got)
	}
	// Player 3 (Cy): 0-2 in round 1, a PAB in round 2 (2), beat 5 in
	// round 3 (open): 2 after round 2, the open round pending.
	buf.Reset()
	if err := Card(&buf, ev, 3); err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, parse(t, buf.Bytes()), "card-table")
	if len(rows) != 3 {
		t.Fatalf("%d rows on the card", len(rows))
	}
	if got := rows[2].cells(); got[3] != "5. Ed Eng 1600" || got[5] != "…" || got[6] != "2" {
		t.Errorf("the open round on the card: %q, want opponent 5, result … and score 2", got)
	}
	if got := parse(t, buf.Bytes()).all(hasAttr("class", "num total"))[0].String(); got != "2" {
		t.Errorf("card total %q, want 2", got)
	}
	// Player 6 (a win, a loss, then a pairing-allocated bye in the open
	// round): the bye named, pending, the score 2.
	buf.Reset()
	if err := Card(&buf, ev, 6); err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(t, parse(t, buf.Bytes()), "card-table")[2].cells(); got[3] != "bye" || got[5] != "…" || got[6] != "2" {
		t.Errorf("the open round's bye on the card: %q", got)
	}
}
