package pdn

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// stripLines clears what a round trip does not keep: read positions.
func stripLines(ms []Move) []Move {
	out := make([]Move, len(ms))
	for i, m := range ms {
		m.Line = 0
		if len(m.NAGs) == 0 {
			m.NAGs = nil
		}
		var vs [][]Move
		for _, v := range m.Variations {
			vs = append(vs, stripLines(v))
		}
		m.Variations = vs
		out[i] = m
	}
	return out
}

func tagMap(tags []Tag) map[string]string {
	m := map[string]string{}
	for _, t := range tags {
		m[t.Name] = t.Value
	}
	return m
}

// sameGame compares two games as a round trip must keep them.
func sameGame(t *testing.T, a, b *Game) {
	t.Helper()
	if !reflect.DeepEqual(tagMap(a.Tags), tagMap(b.Tags)) {
		t.Errorf("tags %q != %q", a.Tags, b.Tags)
	}
	if a.Result != b.Result || a.Comment != b.Comment {
		t.Errorf("result/comment %q %q != %q %q", a.Result, a.Comment, b.Result, b.Comment)
	}
	if ma, mb := stripLines(a.Moves), stripLines(b.Moves); !reflect.DeepEqual(ma, mb) {
		for i := range min(len(ma), len(mb)) {
			if !reflect.DeepEqual(ma[i], mb[i]) {
				t.Errorf("move %d: %+v != %+v", i, ma[i], mb[i])
				break
			}
		}
		t.Errorf("%d moves != %d moves", len(ma), len(mb))
	}
}

func writeGame(t *testing.T, g *Game) string {
	t.Helper()
	var b strings.Builder
	if err := Write(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func readOne(t *testing.T, text string) *Game {
	t.Helper()
	gs, errs := readAll(t, text)
	if len(errs) > 0 || len(gs) != 1 {
		t.Fatalf("%d games, errors %v in:\n%s", len(gs), errs, text)
	}
	return gs[0]
}

// TestRoundTripShipped writes every shipped game and reads it back.
func TestRoundTripShipped(t *testing.T) {
	for _, tc := range shipped {
		t.Run(tc.file, func(t *testing.T) {
			for _, g := range readFile(t, tc.file) {
				if g.Tag("Result") == "" {
					g.SetTag("Result", g.Result) // Write adds it
				}
				text := writeGame(t, g)
				back := readOne(t, text)
				sameGame(t, g, back)
				if again := writeGame(t, back); again != text {
					t.Fatalf("game %d: writing is not stable:\n%s\n---\n%s", g.Number, text, again)
				}
				checkLayout(t, text)
			}
		})
	}
}

// checkLayout checks the shape of written PDN: tag lines first, in roster
// order, and move lines of at most lineWidth columns unless one token is longer.
func checkLayout(t *testing.T, text string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	i := 0
	last := 0
	for ; i < len(lines) && strings.HasPrefix(lines[i], "["); i++ {
		name := strings.Fields(lines[i][1:])[0]
		rank := len(roster) // the other tags come after the roster
		for k, r := range roster {
			if r == name {
				rank = k
			}
		}
		if rank < last {
			t.Errorf("tag %s out of roster order in\n%s", name, text)
		}
		last = rank
	}
	if i == len(lines) || lines[i] != "" {
		t.Fatalf("no blank line after the tags:\n%s", text)
	}
	for _, l := range lines[i+1:] {
		if utf8.RuneCountInString(l) > lineWidth && strings.Contains(l, " ") && !strings.HasPrefix(strings.TrimSpace(l), ";") && !strings.Contains(l, "; ") {
			t.Errorf("line of %d columns: %q", utf8.RuneCountInString(l), l)
		}
	}
}

func TestWriteLayout(t *testing.T) {
	g := &Game{
		Tags: []Tag{{"GameType", "20"}, {"Black", "B \"the\" \\ player"}, {"Event", "E"}, {"White", "W"}, {"FEN", "W:W31-50:B1-20"}},
		Moves: []Move{
			{Text: "32-28", NAGs: []int{1, 12}}, {Text: "19-23", Comment: "a {braced} remark"},
			{Text: "28x19", Variations: [][]Move{{{Text: "33-29", Comment: "the other try"}, {Text: "23x34"}}}},
			{Text: "14x23"},
		},
		Result:  "1-1",
		Comment: "start",
	}
	got := writeGame(t, g)
	want := `[Event "E"]
[White "W"]
[Black "B \"the\" \\ player"]
[Result "1-1"]
[GameType "20"]
[FEN "W:W31-50:B1-20"]

{start} 1. 32-28! $12 19-23 ; a {braced} remark
2. 28x19 (2. 33-29 {the other try} 2... 23x34) 2... 14x23 1-1

`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	back := readOne(t, got)
	g.SetTag("Result", "1-1")
	for i := range g.Moves {
		g.Moves[i].Num, g.Moves[i].Second = 1+i/2, i%2 == 1
	}
	g.Moves[2].Variations[0][0].Num, g.Moves[2].Variations[0][1].Num, g.Moves[2].Variations[0][1].Second = 2, 2, true
	wantTags := []Tag{{"Event", "E"}, {"White", "W"}, {"Black", `B "the" \ player`}, {"Result", "1-1"}, {"GameType", "20"}, {"FEN", "W:W31-50:B1-20"}}
	if !reflect.DeepEqual(back.Tags, wantTags) {
		t.Errorf("tags read back %q", back.Tags)
	}
	back.Tags, g.Tags = nil, nil
	sameGame(t, g, back)
}

// TestWriteWraps writes a long game: no line passes 80 columns, and a
// long comment is wrapped between words.
func TestWriteWraps(t *testing.T) {
	g := &Game{Result: "*"}
	for i := 0; i < 60; i++ {
		g.Moves = append(g.Moves, Move{Text: "32x21x12x3"})
	}
	g.Moves[7].Comment = strings.Repeat("word ", 50)
	text := writeGame(t, g)
	for _, l := range strings.Split(text, "\n") {
		if len(l) > lineWidth {
			t.Errorf("line of %d: %q", len(l), l)
		}
	}
	back := readOne(t, text)
	if len(back.Moves) != 60 || back.Moves[7].Comment != strings.TrimSpace(g.Moves[7].Comment) || back.Moves[59].Label() != "30..." {
		t.Errorf("read back %d moves, comment %q, last %s", len(back.Moves), back.Moves[7].Comment, back.Moves[59].Label())
	}
}

// An annotated game's comments ("+0.00/3 0.00s [%pv 24-19] [%clock
// 0:00:05]", as match writes them) never put "[" or "%" at the start of a
// line, wherever the wrap falls: line-based readers take such a line for
// a tag or an escape line to skip (pydraughts' reader stopped on them).
func TestWriteKeepsBracketsOffLineStarts(t *testing.T) {
	for shift := 0; shift < 24; shift++ {
		g := &Game{Result: "*", Comment: strings.Repeat("x", shift)}
		for i := 0; i < 40; i++ {
			g.Moves = append(g.Moves, Move{Text: fmt.Sprintf("%d-%d", 20+i%10, 15+i%10),
				Comment: fmt.Sprintf("+0.%02d/%d 0.0%ds [%%pv %d-%d 9-14] [%%clock 0:00:%02d] %%x", i, i%9, i%7, 20+i%10, 15+i%10, i)})
		}
		text := writeGame(t, g)
		for n, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "[") && !strings.HasSuffix(l, "\"]") || strings.HasPrefix(l, "%") || len(l) > lineWidth {
				t.Errorf("shift %d, line %d begins a line-based reader's tag or escape, or is too long: %q", shift, n+1, l)
			}
		}
		if back := readOne(t, text); len(back.Moves) != 40 || back.Moves[39].Comment != g.Moves[39].Comment {
			t.Errorf("shift %d: read back %d moves, last comment %q", shift, len(back.Moves), back.Moves[39].Comment)
		}
	}
}

// TestWriteSecondHalfStart: a game starting with the second player's move
// keeps its "1..." numbering.
func TestWriteSecondHalfStart(t *testing.T) {
	g := readOne(t, "[FEN \"B:W18:B14\"]\n12... 14-23 13. 18x27 *")
	text := writeGame(t, g)
	if !strings.Contains(text, "\n12... 14-23 13. 18x27 *\n") {
		t.Errorf("written:\n%s", text)
	}
}
