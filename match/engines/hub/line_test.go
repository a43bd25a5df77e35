package hub

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/rules"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		in   string
		want Line
	}{
		{"hub", Line{Command: "hub"}},
		{"", Line{}},
		{"   ", Line{}},
		{`id name=Scan version=3.1 author="Fabien Letouzey" country=France`, Line{Command: "id", Args: []Arg{
			{Name: "name", Value: "Scan"}, {Name: "version", Value: "3.1"}, {Name: "author", Value: "Fabien Letouzey"}, {Name: "country", Value: "France"}}}},
		{`param name=variant value=normal type=enum values="normal killer bt frisian losing"`, Line{Command: "param", Args: []Arg{
			{Name: "name", Value: "variant"}, {Name: "value", Value: "normal"}, {Name: "type", Value: "enum"}, {Name: "values", Value: "normal killer bt frisian losing"}}}},
		{"go think", Line{Command: "go", Args: []Arg{{Name: "think", Flag: true}}}},
		{"level infinite", Line{Command: "level", Args: []Arg{{Name: "infinite", Flag: true}}}},
		{`pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves="38-15 5-41 48-26"`, Line{Command: "pos", Args: []Arg{
			{Name: "pos", Value: "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"}, {Name: "moves", Value: "38-15 5-41 48-26"}}}},
		{"done move=32-28 ponder=17-22", Line{Command: "done", Args: []Arg{{Name: "move", Value: "32-28"}, {Name: "ponder", Value: "17-22"}}}},
		{`error message=""`, Line{Command: "error", Args: []Arg{{Name: "message", Value: ""}}}},
		{"\tinfo  depth=21\tscore=-0.01 ", Line{Command: "info", Args: []Arg{{Name: "depth", Value: "21"}, {Name: "score", Value: "-0.01"}}}},
		{"done move=", Line{Command: "done", Args: []Arg{{Name: "move", Value: ""}}}},
	}
	for _, tt := range tests {
		got, err := ParseLine(tt.in)
		if err != nil {
			t.Errorf("ParseLine(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseLine(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestParseLineErrors(t *testing.T) {
	for _, in := range []string{
		"\x01\x02 garbage \"unterminated",
		`done move="32-28`,
		`done move="32-28"x`,
		`done =32-28`,
		`done mo"ve=1`,
		`done move=32"28`,
		`do"ne`,
		"done\x00",
		"done move=\xff",
		"=x",
	} {
		if _, err := ParseLine(in); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseLine(%q) err = %v, want ErrSyntax", in, err)
		}
	}
}

func TestLineString(t *testing.T) {
	tests := []struct {
		l    Line
		want string
	}{
		{Cmd("set-param", "name", "variant", "value", "english"), "set-param name=variant value=english"},
		{Cmd("pos", "pos", "W", "moves", "1-5 2-6"), `pos pos=W moves="1-5 2-6"`},
		{Cmd("error", "message", ""), `error message=""`},
		{Cmd("x", "a", "b=c"), `x a="b=c"`},
		{Cmd("x", "a", `say "hi"`), `x a="say 'hi'"`},
		{Line{Command: "go", Args: []Arg{{Name: "think", Flag: true}}}, "go think"},
	}
	for _, tt := range tests {
		if got := tt.l.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.l, got, tt.want)
		}
	}
}

// FuzzHubLine checks that the parser never panics and that whatever it
// accepts is written back to text that parses to the same line.
func FuzzHubLine(f *testing.F) {
	for _, s := range []string{"hub", `id name=Scan author="Fabien Letouzey"`, "go think", `pos pos=W moves="1-2 3-4"`,
		"done move=32-28 ponder=17-22", `error message=""`, "\x01 \"", "a=b", "info pv=\"1-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLine(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("ParseLine(%q): error %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		out := l.String()
		l2, err := ParseLine(out)
		if err != nil {
			t.Fatalf("ParseLine(%q) -> %q does not parse back: %v", s, out, err)
		}
		if l.Command != l2.Command || len(l.Args) != len(l2.Args) {
			t.Fatalf("round trip %q -> %q: %+v != %+v", s, out, l, l2)
		}
		for i := range l.Args {
			if l.Args[i] != l2.Args[i] {
				t.Fatalf("round trip %q -> %q: arg %d %+v != %+v", s, out, i, l.Args[i], l2.Args[i])
			}
		}
	})
}

func TestPosString(t *testing.T) {
	intl := rules.NewPosition(rules.MustLookup("international"))
	// The published start position of the Hub protocol.
	if got, want := PosString(intl), "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"; got != want {
		t.Errorf("international start = %q, want %q", got, want)
	}
	eng := rules.NewPosition(rules.MustLookup("english"))
	if got, want := PosString(eng), "B"+strings.Repeat("b", 12)+strings.Repeat("e", 8)+strings.Repeat("w", 12); got != want {
		t.Errorf("english start = %q (%d chars), want %q", got, len(got), want)
	}
	for _, name := range rules.Presets() {
		v := rules.MustLookup(name)
		p, err := rules.ParseFEN(v, "B:WK"+strconv.Itoa(v.Squares())+",15:BK1,2")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := PosString(p)
		if len(s) != v.Squares()+1 {
			t.Errorf("%s: pos has %d characters, want %d", name, len(s), v.Squares()+1)
		}
		back, err := ParsePos(v, s)
		if err != nil || back != p {
			t.Errorf("%s: ParsePos(%q) = %v, %v; want %v", name, s, back.FEN(), err, p.FEN())
		}
	}
	if _, err := ParsePos(rules.MustLookup("english"), "W"+strings.Repeat("e", 50)); err == nil {
		t.Error("ParsePos accepted a 10x10 position for english")
	}
	if _, err := ParsePos(rules.MustLookup("english"), "W"+strings.Repeat("x", 32)); err == nil {
		t.Error("ParsePos accepted piece letter x")
	}
}

// PosString is one letter per square in PDN order, checked square by
// square against Position.Piece along a game of every preset (kings
// included: the first legal move is played until the game ends or 200
// plies).
func TestPosStringMatchesPieces(t *testing.T) {
	for _, name := range rules.Presets() {
		p := rules.NewPosition(rules.MustLookup(name))
		for ply := 0; ply < 200; ply++ {
			want := []byte{p.Turn().Letter()}
			for sq := rules.Square(1); int(sq) <= p.Variant().Squares(); sq++ {
				c, k, ok := p.Piece(sq)
				switch {
				case !ok:
					want = append(want, 'e')
				case c == rules.White && k == rules.King:
					want = append(want, 'W')
				case c == rules.White:
					want = append(want, 'w')
				case k == rules.King:
					want = append(want, 'B')
				default:
					want = append(want, 'b')
				}
			}
			if got := PosString(p); got != string(want) {
				t.Fatalf("%s ply %d: PosString = %q, want %q", name, ply, got, want)
			}
			legal := p.LegalMoves()
			if len(legal) == 0 {
				break
			}
			p = p.Play(legal[ply%len(legal)])
		}
	}
}

func TestPosCommandSendsMovesSinceIrreversible(t *testing.T) {
	v := rules.MustLookup("english")
	// Kings shuffle after a man move: only the king moves are listed.
	start, err := rules.ParseFEN(v, "W:WK32,22:BK1,5")
	if err != nil {
		t.Fatal(err)
	}
	var moves []rules.Move
	p := start
	for _, text := range []string{"22-18", "1-6", "32-27", "6-1", "27-32"} {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		moves = append(moves, m)
		p = p.Play(m)
	}
	l := PosCommand(start, moves)
	afterMan := start.Play(moves[0])
	if got, _ := l.Get("pos"); got != PosString(afterMan) {
		t.Errorf("pos = %q, want the position after 22-18 %q", got, PosString(afterMan))
	}
	if got, _ := l.Get("moves"); got != "1-6 32-27 6-1 27-32" {
		t.Errorf("moves = %q, want the four king moves", got)
	}
	// No moves: no moves argument.
	if l := PosCommand(start, nil); l.Has("moves") {
		t.Errorf("PosCommand without moves = %q", l)
	}
}

func TestSeconds(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0.000"},
		{-time.Second, "0.000"},
		{time.Nanosecond, "0.000"},
		{499999 * time.Nanosecond, "0.000"},
		{500 * time.Microsecond, "0.001"},
		{1999500 * time.Microsecond, "2.000"},
		{61*time.Second + 42*time.Millisecond, "61.042"},
		{90 * time.Minute, "5400.000"},
		{time.Duration(1<<63 - 1), "9223372036.855"},
	} {
		if got := seconds(tt.d); got != tt.want {
			t.Errorf("seconds(%d) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestLevelCommand(t *testing.T) {
	tests := []struct {
		lv   match.Level
		want string
	}{
		{match.Level{Time: 300 * time.Second, Inc: 2 * time.Second}, "level time=298.000 inc=2.000"},
		// The first move of 1+5: the clock holds 1 s, the increment comes after the move.
		{match.Level{Time: time.Second, Inc: 5 * time.Second}, "level time=0.000 inc=1.000"},
		// An empty clock (levelFor states it as 1 ms, never as no clock).
		{match.Level{Time: time.Millisecond, Inc: 5 * time.Second}, "level time=0.000 inc=0.001"},
		{match.Level{MovesToGo: 9, Time: 291587 * time.Millisecond}, "level moves=9 time=291.587"},
		{match.Level{MoveTime: time.Second}, "level move-time=1.000"},
		{match.Level{Depth: 8}, "level depth=8"},
		{match.Level{Nodes: 1000}, "level nodes=1000"},
		{match.Level{}, "level infinite"},
	}
	for _, tt := range tests {
		l := LevelCommand(tt.lv)
		if got := l.String(); got != tt.want {
			t.Errorf("LevelCommand(%+v) = %q, want %q", tt.lv, got, tt.want)
		}
		back, err := ParseLevel(l)
		if err != nil {
			t.Fatal(err)
		}
		if tt.lv.Inc == 0 && back != tt.lv {
			t.Errorf("ParseLevel(%q) = %+v, want %+v", l, back, tt.lv)
		}
	}
}
