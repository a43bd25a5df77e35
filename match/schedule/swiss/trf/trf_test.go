package trf

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

func readFile(t *testing.T, name string) *Event {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ev, err := Read(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return ev
}

func player(t *testing.T, ev *Event, n int) Player {
	t.Helper()
	for _, p := range ev.Players {
		if p.Number == n {
			return p
		}
	}
	t.Fatalf("no player %d", n)
	return Player{}
}

func TestReadHeader(t *testing.T) {
	ev := readFile(t, "open.trf")
	for _, c := range []struct{ field, got, want string }{
		{"012", ev.Name, "Open Championship 2026"},
		{"022", ev.City, "Utrecht"},
		{"032", ev.Federation, "NED"},
		{"042", ev.StartDate, "2026/03/14"},
		{"052", ev.EndDate, "2026/03/16"},
		{"092", ev.Type, "Individual: Swiss-System Dutch"},
		{"102", ev.Arbiter, "IA Jan de Vries"},
		{"122", ev.TimeControl, "90 min + 30 s per move"},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.field, c.got, c.want)
		}
	}
	if ev.NumPlayers != 6 || ev.RatedPlayers != 5 {
		t.Errorf("062/072: got %d/%d, want 6/5", ev.NumPlayers, ev.RatedPlayers)
	}
	if want := []string{"FA Marie Dubois", "NA Kees Bakker"}; !reflect.DeepEqual(ev.Deputies, want) {
		t.Errorf("112: got %q, want %q", ev.Deputies, want)
	}
	if want := []string{"26/03/14", "26/03/14", "26/03/15", "26/03/15"}; !reflect.DeepEqual(ev.RoundDates, want) {
		t.Errorf("132: got %q, want %q", ev.RoundDates, want)
	}
	if ev.Rounds != 5 || ev.FirstColor != tally.White {
		t.Errorf("XXR/XXC: got %d/%d, want 5/white", ev.Rounds, ev.FirstColor)
	}
	want := FIDEPoints
	want.PairingBye = 10
	if ev.PointSystem == nil || *ev.PointSystem != want {
		t.Errorf("XXS: got %+v, want %+v", ev.PointSystem, want)
	}
	if want := []string{"### a comment line, kept as is"}; !reflect.DeepEqual(ev.Extra, want) {
		t.Errorf("extra lines: got %q, want %q", ev.Extra, want)
	}
}

func TestReadPlayers(t *testing.T) {
	ev := readFile(t, "open.trf")
	if len(ev.Players) != 6 {
		t.Fatalf("got %d players, want 6", len(ev.Players))
	}
	p2 := player(t, ev, 2)
	if p2.Name != "Ødegård, Ola" || p2.Title != "IM" || p2.Sex != "m" || p2.Federation != "NOR" ||
		p2.FIDEID != "1503014" || p2.Birth != "1990/02/28" || p2.Rating != 2310 || p2.Points != 10 || p2.Rank != 5 {
		t.Errorf("player 2 (columns after a two-byte character): %+v", p2)
	}
	p4 := player(t, ev, 4)
	if p4.Title != "WIM" || p4.Sex != "w" || p4.FIDEID != "20000099" || p4.Name != "Diallo, Aïssata" {
		t.Errorf("player 4: %+v", p4)
	}
	if p6 := player(t, ev, 6); p6.Rating != 0 || p6.FIDEID != "" || p6.Title != "" {
		t.Errorf("player 6 (unrated, no id): %+v", p6)
	}
	for _, c := range []struct {
		n, round int
		want     tally.Entry
	}{
		{1, 1, tally.Entry{Opponent: 4, Color: tally.White, Result: tally.Win}},
		{1, 3, tally.Entry{Opponent: 5, Color: tally.White, Result: tally.Draw}},
		{2, 2, tally.Entry{Opponent: 4, Color: tally.Black, Result: tally.ForfeitLoss}},
		{2, 3, tally.Entry{Result: tally.HalfBye}},
		{3, 1, tally.Entry{Result: tally.PairingBye}},
		{4, 2, tally.Entry{Opponent: 2, Color: tally.White, Result: tally.ForfeitWin}},
		{5, 4, tally.Entry{Result: tally.HalfBye}},
		{6, 1, tally.Entry{Result: tally.ZeroBye}}, // a blank round before the first game
		{6, 3, tally.Entry{Opponent: 3, Color: tally.White, Result: tally.Loss}},
	} {
		p := player(t, ev, c.n)
		if len(p.History) < c.round {
			t.Errorf("player %d: %d rounds, want at least %d", c.n, len(p.History), c.round)
			continue
		}
		if got := p.History[c.round-1]; got != c.want {
			t.Errorf("player %d round %d: got %+v, want %+v", c.n, c.round, got, c.want)
		}
	}
	for n, want := range map[int][]int{1: {10, 10, 5, 5}, 2: {10, 10, 5, 5}, 4: nil} {
		if got := player(t, ev, n).Acceleration; !reflect.DeepEqual(got, want) {
			t.Errorf("player %d XXA: got %v, want %v", n, got, want)
		}
	}
}

// TestReadBBP reads bbpPairings' test inputs: a 60-player event of 14 rounds
// with CR line endings, forfeits and no header but 012.
func TestReadBBP(t *testing.T) {
	ev := readFile(t, "issue_7.trf")
	if ev.Name != "AutoTest Tournament 1110065304" || ev.Rounds != 15 || len(ev.Players) != 60 {
		t.Fatalf("got %q, %d rounds, %d players", ev.Name, ev.Rounds, len(ev.Players))
	}
	for _, p := range ev.Players {
		if len(p.History) != 14 {
			t.Errorf("player %d: %d rounds, want 14", p.Number, len(p.History))
		}
	}
	p1 := player(t, ev, 1)
	if p1.Name != "Test0001 Player0001" || p1.Rating != 2720 || p1.Points != 105 || p1.Rank != 1 {
		t.Errorf("player 1: %+v", p1)
	}
	if got, want := player(t, ev, 4).History[0], (tally.Entry{Opponent: 34, Color: tally.White, Result: tally.ForfeitWin}); got != want {
		t.Errorf("player 4 round 1: got %+v, want %+v", got, want)
	}
	if got, want := player(t, ev, 60).History[13], (tally.Entry{Opponent: 59, Color: tally.Black, Result: tally.Draw}); got != want {
		t.Errorf("player 60 round 14: got %+v, want %+v", got, want)
	}
	// Points as written equal the history counted 1 - 1/2 - 0.
	s := FIDEPoints.Scoring()
	for _, p := range ev.Players {
		if got := p.Score(s) * 5; got != p.Points {
			t.Errorf("player %d: history gives %d tenths, file says %d", p.Number, got, p.Points)
		}
	}
}

func TestPairingState(t *testing.T) {
	for _, c := range []struct {
		file   string
		played int
		absent []int
	}{
		{"open.trf", 3, []int{5}},
		{"issue_7.trf", 14, nil},
		{"dutch_2025_C5.trf", 2, []int{4}},
		{"dutch_2025_C9.trf", 1, nil},
	} {
		t.Run(c.file, func(t *testing.T) {
			ev := readFile(t, c.file)
			ps, err := ev.PairingState()
			if err != nil {
				t.Fatal(err)
			}
			var absent []int
			for _, p := range ps {
				if len(p.History) != c.played {
					t.Errorf("player %d: %d rounds, want %d", p.Number, len(p.History), c.played)
				}
				if p.Absent {
					absent = append(absent, p.Number)
				}
			}
			if !reflect.DeepEqual(absent, c.absent) {
				t.Errorf("absent: got %v, want %v", absent, c.absent)
			}
		})
	}
	// A game ahead of the others is not a requested bye: an error.
	ev := readFile(t, "dutch_2025_C9.trf")
	ev.Players[0].History = append(ev.Players[0].History, tally.Entry{Result: tally.PairingBye})
	if _, err := ev.PairingState(); err == nil {
		t.Error("a pairing-allocated bye ahead of the round: no error")
	}
}

// TestWriteColumns writes the samples back: every 001 line comes out as it
// was read, column for column, and the whole event reads back equal.
func TestWriteColumns(t *testing.T) {
	for _, name := range []string{"open.trf", "issue_7.trf", "dutch_2025_C5.trf", "dutch_2025_C9.trf"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			ev, err := Read(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := Write(&out, ev); err != nil {
				t.Fatal(err)
			}
			// A blank round before the last is a zero-point bye (TRF16:
			// blank is Z), written out as such.
			in := playerLines(strings.ReplaceAll(string(data), "0.0    6          ", "0.0    6  0000 - Z"))
			got := playerLines(out.String())
			if len(in) != len(got) {
				t.Fatalf("%d player lines written, %d read", len(got), len(in))
			}
			for i := range in {
				if in[i] != got[i] {
					t.Errorf("player line %d:\nread  %q\nwrote %q", i+1, in[i], got[i])
				}
			}
			back, err := Read(&out)
			if err != nil {
				t.Fatalf("reading what Write wrote: %v", err)
			}
			if !reflect.DeepEqual(withoutLines(ev), withoutLines(back)) {
				t.Errorf("read back differs:\n%+v\n%+v", ev, back)
			}
		})
	}
}

func playerLines(s string) []string {
	var out []string
	for _, l := range splitLines([]byte(s)) {
		if strings.HasPrefix(string(l), "001 ") {
			out = append(out, strings.TrimRight(string(l), " "))
		}
	}
	return out
}

func TestScoring(t *testing.T) {
	if got := FIDEPoints.Scoring(); got != tally.DefaultScoring {
		t.Errorf("FIDE points: got %+v, want %+v", got, tally.DefaultScoring)
	}
	three := PointSystem{Win: 30, Draw: 10, ForfeitWin: 30, PairingBye: 30, FullBye: 30, HalfBye: 10}
	want := tally.Scoring{Win: 3, Draw: 1, ForfeitWin: 3, PairingBye: 3, FullBye: 3, HalfBye: 1}
	if got := three.Scoring(); got != want {
		t.Errorf("3-1-0: got %+v, want %+v", got, want)
	}
	if got := PointSystemOf(tally.DefaultScoring, 5); got != FIDEPoints {
		t.Errorf("2-1-0 in half points: got %+v, want %+v", got, FIDEPoints)
	}
}

const p1 = "001    1      A                                 2000                             1.0    1     2 w 1"
const p2 = "001    2      B                                 1900                             0.0    2     1 b 0"

func TestReadErrors(t *testing.T) {
	for _, c := range []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"start rank", "012 x\n001    x", 2, 5, "start rank"},
		{"rating", "001    1      A                                 20x0", 1, 49, "rating"},
		{"points", "001    1      A                                 2000                            1.25", 1, 81, "points"},
		{"colour", strings.Replace(p1, "2 w 1", "2 x 1", 1) + "\n" + p2, 1, 97, "colour"},
		{"result", strings.Replace(p1, "2 w 1", "2 w 7", 1) + "\n" + p2, 1, 99, "result"},
		{"self", strings.Replace(p1, "2 w 1", "1 w 1", 1) + "\n" + p2, 1, 92, "himself"},
		{"game without colour", strings.Replace(p1, "2 w 1", "2 - 1", 1) + "\n" + p2, 1, 99, "colour"},
		{"bye with opponent", strings.Replace(p1, "2 w 1", "2 - H", 1) + "\n" + p2, 1, 99, "opponent"},
		{"missing opponent", p1, 1, 92, "no 001 line"},
		{"not mutual", p1 + "\n" + strings.Replace(p2, "   1 b 0", "0000 - Z", 1), 1, 92, "does not have opponent"},
		{"same colour", p1 + "\n" + strings.Replace(p2, "1 b 0", "1 w 0", 1), 1, 92, "both have white"},
		{"results", p1 + "\n" + strings.Replace(p2, "1 b 0", "1 b =", 1), 1, 92, "who has"},
		{"repeated", p1 + "\n" + p2 + "\n" + p2, 3, 5, "repeated"},
		{"rounds", "XXR many", 1, 5, "number of rounds"},
		{"XXA unknown", p1 + "\n" + p2 + "\nXXA    7  1.0", 3, 5, "no 001 line"},
		{"XXA value", p1 + "\n" + p2 + "\nXXA    1  x.0", 3, 10, "acceleration"},
		{"XXS", "XXS W=1.0 Q=2", 1, 11, "JaVaFo code"},
		{"XXS colour", "XXS WW=1.0 BW=1.5", 1, 12, "colour-dependent"},
		{"second 012", "012 a\n\n012 b", 3, 1, "second 012"},
		{"UTF-8", "012 a\n022 \xff", 2, 0, "UTF-8"},
		{"062", "062 six", 1, 5, "number of players"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.in))
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("got %v, want a *trf.Error", err)
			}
			if te.Line != c.line || te.Column != c.col || !strings.Contains(te.Msg, c.msg) {
				t.Errorf("got %v, want line %d, column %d, a message with %q", err, c.line, c.col, c.msg)
			}
		})
	}
}

func TestWriteErrors(t *testing.T) {
	base := func() *Event {
		ev, err := Read(strings.NewReader(p1 + "\n" + p2))
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	for _, c := range []struct {
		name   string
		change func(*Event)
		msg    string
	}{
		{"long name", func(e *Event) { e.Players[0].Name = strings.Repeat("x", 34) }, "name"},
		{"line break", func(e *Event) { e.Name = "a\nb" }, "line break"},
		{"points", func(e *Event) { e.Players[0].Points = 1005 }, "4 columns"},
		{"rating", func(e *Event) { e.Players[0].Rating = 10000 }, "rating"},
		{"number", func(e *Event) { e.Players[1].Number = 10000 }, "start rank"},
		{"not mutual", func(e *Event) {
			e.Players[1].History[0].Opponent = 0
			e.Players[1].History[0].Color = tally.NoColor
			e.Players[1].History[0].Result = tally.ZeroBye
		}, "does not have opponent"},
		{"bad result", func(e *Event) { e.Players[0].History = append(e.Players[0].History, tally.Entry{Result: 'Q'}) }, "result"},
		{"known extra", func(e *Event) { e.Extra = []string{"XXR 3"} }, "code"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev := base()
			c.change(ev)
			var b bytes.Buffer
			err := Write(&b, ev)
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %v, want an error with %q", err, c.msg)
			}
			if b.Len() != 0 {
				t.Errorf("wrote %d bytes before the error", b.Len())
			}
		})
	}
}

// FuzzRead: Read never panics, and what Write writes of what Read read
// reads back equal.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"open.trf", "dutch_2025_C5.trf", "dutch_2025_C9.trf"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(p1 + "\r" + p2 + "\rXXA    1  1.0\rXXS D=0.4\r132" + strings.Repeat(" ", 88) + "x"))
	f.Add([]byte(trf26))
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Write(&b, ev); err != nil {
			t.Fatalf("Write of what Read read: %v", err)
		}
		back, err := Read(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatalf("Read of what Write wrote: %v\n%q", err, b.String())
		}
		if !reflect.DeepEqual(withoutLines(ev), withoutLines(back)) {
			t.Fatalf("read back differs:\n%+v\n%+v\n%q", ev, back, b.String())
		}
	})
}

// TestReadCodes: TRF16 letter codes are case-insensitive, a blank result
// with no opponent is Z, and PairingState pads a late entry's rounds and
// takes a bye written ahead as an absence.
func TestReadCodes(t *testing.T) {
	in := strings.Join([]string{
		p1,
		p2,
		"001    3      C                                 1800                             0.5    3  0000 - h  0000 -  ",
		"001    4      D                                 1700                             0.0    4",
	}, "\n")
	ev, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := player(t, ev, 3).History; !reflect.DeepEqual(got, []tally.Entry{{Result: tally.HalfBye}, {Result: tally.ZeroBye}}) {
		t.Errorf("player 3: got %+v, want a half-point bye (h) then a zero-point bye (blank result)", got)
	}
	ps, err := ev.PairingState()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if len(p.History) != 1 {
			t.Fatalf("player %d: %d rounds after PairingState, want 1", p.Number, len(p.History))
		}
		if p.Absent != (p.Number == 3) {
			t.Errorf("player %d: absent=%v, want only player 3 absent (Z written ahead)", p.Number, p.Absent)
		}
		if p.Number == 4 && p.History[0].Result != tally.ZeroBye {
			t.Errorf("late entry 4: got %+v, want a zero-point bye for round 1", p.History)
		}
	}
}

// withoutLines is ev without the lines it was read from (Write puts the
// lines in its own order), for comparing what the file says.
func withoutLines(ev *Event) *Event {
	c := *ev
	c.HeaderLines = nil
	c.Players = append([]Player(nil), ev.Players...)
	for i := range c.Players {
		c.Players[i].Line = 0
	}
	return &c
}
