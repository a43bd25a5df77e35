package pdn

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

func readAll(t *testing.T, text string) ([]*Game, []*ParseError) {
	t.Helper()
	r := NewReader(strings.NewReader(text), "t.pdn")
	var games []*Game
	var errs []*ParseError
	for i := 0; ; i++ {
		if i > 1000 {
			t.Fatal("reader does not reach the end")
		}
		g, err := r.Next()
		if err == io.EOF {
			return games, errs
		}
		var pe *ParseError
		if errors.As(err, &pe) {
			errs = append(errs, pe)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
}

// texts lists the move texts of a line.
func texts(ms []Move) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.Label()+m.Text)
	}
	return strings.Join(s, " ")
}

func TestReaderFeatures(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		check   func(t *testing.T, gs []*Game)
		ngames  int
		results []string
	}{
		{
			name: "tags escapes unquoted",
			in:   "[Event \"The \\\"Big\\\" One\"]\n[Site \"C:\\\\draughts\"]\n[GameType 21]\n[Round\t\"3\" ]\n1. 11-15 *\n",
			check: func(t *testing.T, gs []*Game) {
				want := []Tag{{"Event", `The "Big" One`}, {"Site", `C:\draughts`}, {"GameType", "21"}, {"Round", "3"}}
				if !reflect.DeepEqual(gs[0].Tags, want) {
					t.Errorf("tags %q", gs[0].Tags)
				}
			},
			ngames: 1, results: []string{"*"},
		},
		{
			name: "CRLF and BOM and UTF-8",
			in:   "\xEF\xBB\xBF[White \"Блиндер Б.\"]\r\n[Result \"1-0\"]\r\n\r\n1. c3-d4 d6-e5\r\n2. d4:f6 1-0\r\n",
			check: func(t *testing.T, gs []*Game) {
				if gs[0].Tags[0].Name != "White" || gs[0].Tag("white") != "Блиндер Б." {
					t.Errorf("tags %q", gs[0].Tags)
				}
				if got := texts(gs[0].Moves); got != "1.c3-d4 1...d6-e5 2.d4:f6" {
					t.Errorf("moves %s", got)
				}
				if gs[0].Moves[2].Line != 5 {
					t.Errorf("line %d", gs[0].Moves[2].Line)
				}
			},
			ngames: 1, results: []string{"1-0"},
		},
		{
			name: "comments of three kinds",
			in: "% escape line, ignored [Event \"no\"]\n[Event \"e\"]\n{before the game}\n" +
				"1. 32-28 {a  good\n   move} 17-22 ; rest of line {not a brace comment\n" +
				"%2. 99-99\n2. 28x17 {one} {two} 11x22 2-0\n",
			check: func(t *testing.T, gs []*Game) {
				g := gs[0]
				if len(g.Tags) != 1 || g.Comment != "before the game" {
					t.Errorf("tags %q comment %q", g.Tags, g.Comment)
				}
				if got := texts(g.Moves); got != "1.32-28 1...17-22 2.28x17 2...11x22" {
					t.Errorf("moves %s", got)
				}
				cs := []string{g.Moves[0].Comment, g.Moves[1].Comment, g.Moves[2].Comment}
				if !reflect.DeepEqual(cs, []string{"a good move", "rest of line {not a brace comment", "one two"}) {
					t.Errorf("comments %q", cs)
				}
			},
			ngames: 1, results: []string{"2-0"},
		},
		{
			name: "numbers NAGs suffixes and ellipsis",
			in:   "1.32-28! 17-22?? 2. 28x17 $14 $3 11x22!? 3... 22-27 4. ... 1-7 5...2-7 * ",
			check: func(t *testing.T, gs []*Game) {
				g := gs[0]
				if got := texts(g.Moves); got != "1.32-28 1...17-22 2.28x17 2...11x22 3...22-27 4...1-7 5...2-7" {
					t.Errorf("moves %s", got)
				}
				nags := [][]int{g.Moves[0].NAGs, g.Moves[1].NAGs, g.Moves[2].NAGs, g.Moves[3].NAGs}
				if !reflect.DeepEqual(nags, [][]int{{1}, {4}, {14, 3}, {5}}) {
					t.Errorf("NAGs %v", nags)
				}
			},
			ngames: 1, results: []string{"*"},
		},
		{
			name: "nested variations",
			in:   "1. 32-28 (1. 33-28 18-23 (1... 19-23 2. 28x19) 2. 39-33) (1. 31-27) 17-22 ( {lead} 1... 18-22 ) 2. 28x17 1/2-1/2",
			check: func(t *testing.T, gs []*Game) {
				g := gs[0]
				if got := texts(g.Moves); got != "1.32-28 1...17-22 2.28x17" {
					t.Errorf("main %s", got)
				}
				vs := g.Moves[0].Variations
				if len(vs) != 2 || texts(vs[0]) != "1.33-28 1...18-23 2.39-33" || texts(vs[1]) != "1.31-27" {
					t.Fatalf("variations of move 1: %v", vs)
				}
				if sub := vs[0][1].Variations; len(sub) != 1 || texts(sub[0]) != "1...19-23 2.28x19" {
					t.Errorf("nested %v", sub)
				}
				if v := g.Moves[1].Variations; len(v) != 1 || texts(v[0]) != "1...18-22" || v[0][0].Comment != "lead" {
					t.Errorf("variation of 17-22: %+v", v)
				}
			},
			ngames: 1, results: []string{"1/2-1/2"},
		},
		{
			name:    "every result style; a game without a result ends at the next tags",
			in:      "1. 32-28 1-0\n1. 32-28 0-1\n1. 32-28 1/2-1/2\n1. 32-28 2-0 1. 32-28 0-2 1. 32-28 1-1 1. 32-28 0-0 1. 32-28 ½-½ 1. 32-28 *\n[Result \"0-2\"]\n1. 32-28\n[Event \"next\"]\n1. 33-28\n",
			ngames:  11,
			results: []string{"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "1/2-1/2", "*", "0-2", "*"},
			check: func(t *testing.T, gs []*Game) {
				if gs[10].Tag("Event") != "next" || texts(gs[10].Moves) != "1.33-28" || gs[10].Line != 7 {
					t.Errorf("last game %+v", gs[10])
				}
			},
		},
		{
			name:   "empty input and blank lines",
			in:     "\n\n  \r\n%only a comment line\n",
			ngames: 0,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gs, errs := readAll(t, tc.in)
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if len(gs) != tc.ngames {
				t.Fatalf("%d games, want %d", len(gs), tc.ngames)
			}
			for i, g := range gs {
				if g.Number != i+1 {
					t.Errorf("game %d numbered %d", i+1, g.Number)
				}
				if i < len(tc.results) && g.Result != tc.results[i] {
					t.Errorf("game %d result %q, want %q", i+1, g.Result, tc.results[i])
				}
			}
			if tc.check != nil {
				tc.check(t, gs)
			}
		})
	}
}

// good is a well-formed game put before and after each malformed one.
const good = "[Event \"good\"]\n1. 11-15 23-19 1-0\n\n"

func TestReaderMalformed(t *testing.T) {
	tests := []struct {
		name string
		bad  string // a malformed game, starting on line 4 as game 2
		line int
		move int
		text string
		msg  string
	}{
		{"tag value not closed", "[Event \"bad]\n[Site \"x\"]\n1. 11-15 *\n\n", 4, 0, `[Event "bad]`, `tag Event: value not closed with " on its line`},
		{"tag without name", "[Event \"x\"]\n[ \"x\"]\n1. 11-15 *\n\n", 5, 0, `[ "x"]`, "tag without a name"},
		{"tag not closed", "[Event \"x\" junk]\n1. 11-15 *\n\n", 4, 0, `[Event "x" junk]`, "tag Event not closed with ]"},
		{"bad move", "[Event \"x\"]\n1. 11-15 23-19\n2. 8-11 22- 3. 9-13 *\n\n", 6, 2, "22-", "bad move: square expected after \"22-\""},
		{"bad square", "[Event \"x\"]\n1. 11-15 2z3-19 *\n\n", 5, 1, "2z3-19", "bad move: separator (-, x or :) expected"},
		{"not a move", "[Event \"x\"]\n1. 11-15 23-19 2. BW *\n\n", 5, 2, "BW", "bad move"},
		{"unexpected character", "[Event \"x\"]\n1. 11-15 & *\n\n", 5, 1, "&", "unexpected character"},
		{"unterminated comment before the next game", "[Event \"x\"]\n1. 11-15 {oops\n23-19 *\n\n", 5, 1, "", "comment opened with { is not closed before the next game at line 8"},
		{"nested comment", "[Event \"x\"]\n1. 11-15 { nested { comment } } 23-19 *\n\n", 5, 1, "}", "} with no { open: comments do not nest in PDN, the comment before ended at its first }; remove the inner braces"},
		{"moves not given", "[Event \"x\"]\n1. - - 2. - - 1/2-1/2\n\n", 5, 1, "-", `bad move: "-" stands for a move the record does not give; the game cannot be checked without its moves (write them, or leave the game out)`},
		{"comment glued to a move", "[Event \"x\"]\n1. 11-15 23-19 2. 8-11Whiteoversteppedthetime. 1-0\n\n", 5, 2, "8-11Whiteoversteppedthetime", `bad move: text glued to the move 8-11 ("Whiteoversteppedthetime"): a comment goes in braces, 8-11 {Whiteoversteppedthetime}`},
		{"tag without its [", "[Event \"x\"]\nSite \"Club\"]\n1. 11-15 *\n\n", 5, 0, "Site", `a tag line without its [: write [Site "..."]`},
		{"stray [", "[\n[Event \"x\"]\n1. 11-15 *\n\n", 4, 0, "[", `tag without a name: a tag is [Name "value"] on one line; remove the stray [ or join the tag's lines`},
		{"tag name with entities", "[&#x00c9;tape \"x\"]\n1. 11-15 *\n\n", 4, 0, `[&#x00c9;tape "x"]`, `tag name "&#x00c9;tape": a tag name has only letters, digits and _; if the file's tag names were translated or encoded, write this one's English name (Event, Site, Date, Round, White, Black, Result, GameType, ...)`},
		{"doubled [", "[[Event \"x\"] [Site \"y\"]\n1. 11-15 *\n\n", 4, 0, `[[Event "x"] [Site "y"]`, "a tag opened with [[: remove one ["},
		{"unmatched )", "[Event \"x\"]\n1. 11-15 ) 23-19 *\n\n", 5, 1, ")", "unmatched )"},
		{"variation not closed", "[Event \"x\"]\n1. 11-15 (1. 9-13 23-19 *\n\n", 5, 1, "", "variation opened with ( is not closed before the next game at line 7"},
		{"variation first", "[Event \"x\"]\n( 1. 11-15 ) *\n\n", 5, 0, "(", "variation before any move"},
		{"NAG without number", "[Event \"x\"]\n1. 11-15 $ 23-19 *\n\n", 5, 1, "$", "NAG without a number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gs, errs := readAll(t, good+tc.bad+good)
			if len(errs) != 1 {
				t.Fatalf("errors %v, want one", errs)
			}
			e := errs[0]
			if e.File != "t.pdn" || e.Game != 2 || e.Line != tc.line || e.Move != tc.move || e.Text != tc.text {
				t.Errorf("error fields %+v, want line %d move %d text %q", *e, tc.line, tc.move, tc.text)
			}
			if !errors.Is(e, rules.ErrSyntax) || !strings.Contains(e.Error(), tc.msg) {
				t.Errorf("error %q does not wrap ErrSyntax or lacks %q", e, tc.msg)
			}
			wantPrefix := fmt.Sprintf("t.pdn:%d: game 2", tc.line)
			if !strings.HasPrefix(e.Error(), wantPrefix) {
				t.Errorf("error %q does not start with %q", e, wantPrefix)
			}
			if len(gs) != 2 || gs[0].Number != 1 || gs[1].Number != 3 || texts(gs[1].Moves) != "1.11-15 1...23-19" {
				t.Fatalf("the good games around it were not read: %d games", len(gs))
			}
		})
	}
}

func TestReaderMalformedAtEnd(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"comment", good + "1. 11-15 {never closed\n\n\n23-19 *\n", 4, "comment opened with { is not closed at the end of the file"},
		{"variation", good + "1. 11-15 (9-13\n", 4, "variation opened with ( is not closed at the end of the file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gs, errs := readAll(t, tc.in)
			if len(gs) != 1 || len(errs) != 1 {
				t.Fatalf("%d games, errors %v", len(gs), errs)
			}
			if errs[0].Line != tc.line || errs[0].Game != 2 || !strings.Contains(errs[0].Error(), tc.msg) {
				t.Errorf("error %+v", errs[0])
			}
		})
	}
}

// TestReaderLongLine: a line longer than the limit is an error for its game,
// and the reader recovers at the next game without keeping the line.
func TestReaderLongLine(t *testing.T) {
	long := strings.Repeat("11-15 ", maxLine/6+100)
	in := io.MultiReader(strings.NewReader(good+"[Event \"long\"]\n"), strings.NewReader(long), strings.NewReader("\n\n"+good))
	r := NewReader(in, "long.pdn")
	var got []string
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		got = append(got, g.Tag("Event"))
	}
	want := []string{"good", fmt.Sprintf("long.pdn:5: game 2: syntax error: line longer than %d bytes", maxLine), "good"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
	if cap(r.buf) > 2*maxLine {
		t.Errorf("line buffer grew to %d", cap(r.buf))
	}
}

// gameStream generates PDN games on the fly: a reader of any length that is
// never held in memory.
type gameStream struct {
	left  int64 // bytes still to produce
	game  []byte
	off   int
	count int
}

func newGameStream(size int64) *gameStream {
	g := &Game{Tags: []Tag{{"Event", "stream"}, {"White", "A"}, {"Black", "B"}, {"GameType", "20"}}, Result: "2-0"}
	for i := 0; i < 20; i++ {
		g.Moves = append(g.Moves, Move{Text: "32-28", Comment: "a comment {with} braces"}, Move{Text: "19-23", NAGs: []int{1}})
	}
	g.Moves[3].Variations = [][]Move{{{Text: "33-29"}, {Text: "18-23"}}}
	var b strings.Builder
	if err := Write(&b, g); err != nil {
		panic(err)
	}
	return &gameStream{left: size, game: []byte(strings.ReplaceAll(b.String(), "\n", "\r\n"))}
}

func (s *gameStream) Read(p []byte) (int, error) {
	if s.left <= 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && s.left > 0 {
		c := copy(p[n:], s.game[s.off:])
		if int64(c) > s.left {
			c = int(s.left)
		}
		n += c
		s.left -= int64(c)
		s.off += c
		if s.off == len(s.game) {
			s.off = 0
			s.count++
		}
	}
	return n, nil
}

// TestReaderStreamsInConstantMemory reads a generated 200 MB input (20 MB
// with -short) and checks that the live heap never holds more than a small,
// fixed amount, whatever the input size.
func TestReaderStreamsInConstantMemory(t *testing.T) {
	size := int64(200 << 20)
	if testing.Short() {
		size = 20 << 20
	}
	src := newGameStream(size)
	r := NewReader(src, "stream.pdn")
	var ms runtime.MemStats
	peak := uint64(0)
	games := 0
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			// Only the last game, cut off by the size limit, may be incomplete.
			if src.left > 0 {
				t.Fatal(err)
			}
			continue
		}
		games++
		if len(g.Moves) != 40 && src.left > 0 {
			t.Fatalf("game %d has %d moves", games, len(g.Moves))
		}
		if games%2000 == 0 {
			// What the reader holds on to, not garbage the collector has yet
			// to reach: on a loaded machine its background workers lag, and
			// HeapAlloc alone then measured the machine, not the reader.
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
	if games < src.count-1 || games < 1000 {
		t.Fatalf("read %d games of %d", games, src.count)
	}
	const limit = 8 << 20
	if peak > limit {
		t.Errorf("heap reached %d bytes reading %d bytes; want under %d", peak, size, limit)
	}
	t.Logf("%d games, %d MB streamed, peak heap %.1f MB", games, size>>20, float64(peak)/(1<<20))
}
