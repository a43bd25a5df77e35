package dxp

import (
	"bufio"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

func TestParsePublishedExamples(t *testing.T) {
	tests := []struct {
		in   string
		want Message
	}{
		// The examples of the DamExchange specification.
		{"M0012061100", Message{Type: Move, Seconds: 12, From: 6, To: 11}},
		{"M001205250422122320", Message{Type: Move, Seconds: 12, From: 5, To: 25, Captured: []int{22, 12, 23, 20}}},
		{"ATornado voor Windows 4.0        0", Message{Type: GameAcc, Name: "Tornado voor Windows 4.0", Code: '0'}},
		{"E00", Message{Type: GameEnd, Reason: '0', Stop: '0'}},
		{"CWhat do you think about move 35?", Message{Type: Chat, Text: "What do you think about move 35?"}},
		{"B005Z", Message{Type: BackReq, MoveNumber: 5, ToMove: rules.Black}},
		{"K1", Message{Type: BackAcc, Code: '1'}},
		{"R01Scan 3.1                        Z005075A", Message{Type: GameReq, Version: 1, Name: "Scan 3.1", Follower: rules.Black, Minutes: 5, MaxMoves: 75}},
		{"R01arbiter                         W001000BZ" + strings.Repeat("e", 49) + "W", Message{Type: GameReq, Version: 1, Name: "arbiter",
			Follower: rules.White, Minutes: 1, StartCustom: true, ToMove: rules.Black, Position: strings.Repeat("e", 49) + "W"}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		enc, err := got.Encode()
		if err != nil || enc != tt.in {
			t.Errorf("Encode(Parse(%q)) = %q, %v", tt.in, enc, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{
		"", "X", "Xgarbage", "M00120611", "M001206110", "M0012061101", "M00a2061100", "E0", "E04", "E005",
		"R01short", "R01arbiter                         X001000A", "R01arbiter                         W001000C",
		"R01arbiter                         W001000BZ", "R01arbiter                         W001000BWeex",
		"K5", "B05Z", "A" + strings.Repeat(" ", 32) + "9", "M0012061100\xff", "C" + strings.Repeat("x", 200),
	} {
		if _, err := Parse(in); !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) err = %v, want ErrSyntax", in, err)
		}
	}
}

func TestEncodeRejectsOverflow(t *testing.T) {
	for _, m := range []Message{
		{Type: Move, Seconds: 10000, From: 1, To: 2},
		{Type: Move, From: 100, To: 2},
		{Type: GameReq, Version: 1, Minutes: 1000},
		{Type: Chat, Text: "tab\there"},
		{Type: 'Q'},
	} {
		if s, err := m.Encode(); err == nil {
			t.Errorf("Encode(%+v) = %q, want an error", m, s)
		}
	}
}

func TestReadMessage(t *testing.T) {
	br := bufio.NewReader(strings.NewReader("E00\x00M0012061100\x00" + strings.Repeat("x", 300) + "\x00K0\x00partial"))
	for _, want := range []string{"E00", "M0012061100"} {
		got, err := ReadMessage(br)
		if err != nil || got != want {
			t.Fatalf("ReadMessage = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := ReadMessage(br); !errors.Is(err, ErrSyntax) {
		t.Errorf("overlong message: err = %v, want ErrSyntax", err)
	}
	if got, err := ReadMessage(br); err != nil || got != "K0" {
		t.Errorf("after an overlong message: %q, %v; want K0", got, err)
	}
	if _, err := ReadMessage(br); err == nil {
		t.Error("a message without its NUL at EOF was accepted")
	}
}

func TestPositionRoundTrip(t *testing.T) {
	for _, name := range rules.Presets() {
		v := rules.MustLookup(name)
		p := rules.NewPosition(v)
		s := PositionString(p)
		if len(s) != v.Squares() {
			t.Errorf("%s: %d squares, want %d", name, len(s), v.Squares())
		}
		back, err := ParsePosition(v, p.Turn(), s)
		if err != nil || back != p {
			t.Errorf("%s: ParsePosition(%q) = %v, %v", name, s, back.FEN(), err)
		}
	}
	if got := PositionString(rules.NewPosition(rules.MustLookup("international"))); got != strings.Repeat("z", 20)+strings.Repeat("e", 10)+strings.Repeat("w", 20) {
		t.Errorf("international start = %q", got)
	}
}

// FuzzDXPMessage checks that Parse never panics, that its errors wrap
// ErrSyntax, and that every accepted message encodes back to itself.
func FuzzDXPMessage(f *testing.F) {
	for _, s := range []string{"M0012061100", "M001205250422122320", "ATornado voor Windows 4.0        0", "E00", "Chello",
		"B005Z", "K1", "R01Scan 3.1                        Z005075A", "R01x                               W001000BZeeeeeeeeeeW"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("Parse(%q): %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		enc, err := m.Encode()
		if err != nil {
			// Names and chat keep the peer's bytes; only non-printable text
			// (which Parse accepts as ASCII 1-127) may fail to encode.
			if printable(s) {
				t.Fatalf("Encode(Parse(%q)): %v", s, err)
			}
			return
		}
		m2, err := Parse(enc)
		if err != nil || !reflect.DeepEqual(m, m2) {
			t.Fatalf("round trip %q -> %q: %+v / %+v, %v", s, enc, m, m2, err)
		}
	})
}
