package pdn

import (
	"strings"
	"testing"
)

// TestTagValueRoundTrip: the one escaping of tag values (PDN 3.0 STRING:
// \" for a quote, \\ for a backslash) is undone by the reader, so the value
// read is the value written.
func TestTagValueRoundTrip(t *testing.T) {
	tests := []struct{ value, quoted, back string }{
		{`A "B" \ C`, `"A \"B\" \\ C"`, `A "B" \ C`},
		{`plain`, `"plain"`, `plain`},
		{``, `""`, ``},
		{`ends in \`, `"ends in \\"`, `ends in \`},
		{`\"`, `"\\\""`, `\"`},
		{"two\nlines\r\tand tab", `"two lines  and tab"`, "two lines  and tab"},
		{"Блиндер Б.", `"Блиндер Б."`, "Блиндер Б."},
	}
	for _, tc := range tests {
		if got := QuoteTagValue(tc.value); got != tc.quoted {
			t.Errorf("QuoteTagValue(%q) = %s, want %s", tc.value, got, tc.quoted)
		}
		var b strings.Builder
		g := &Game{Tags: []Tag{{"White", tc.value}, {"Black", "x"}}, Result: "*"}
		if err := Write(&b, g); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "[White "+tc.quoted+"]\n") {
			t.Errorf("Write: %q has no [White %s]", b.String(), tc.quoted)
		}
		back, err := NewReader(strings.NewReader(b.String()), "").Next()
		if err != nil {
			t.Fatalf("%q: %v", b.String(), err)
		}
		if got := back.Tag("White"); got != tc.back {
			t.Errorf("read back %q, want %q", got, tc.back)
		}
	}
}

// TestTagValueUnescaped: files written by other programs, escaped or not.
func TestTagValueUnescaped(t *testing.T) {
	tests := []struct{ line, want string }{
		{`[Event "An embedded \" quote!"]`, `An embedded " quote!`}, // the example of the PDN 3.0 grammar
		{`[Site "C:\games\x"]`, `C:\games\x`},                       // a backslash before another character is kept
		{`[Site "a\\"]`, `a\`},
		{`[Site "a\\\"b"]`, `a\"b`},
		{`[Black "D\'Almeida, Jean"]`, `D'Almeida, Jean`}, // escaped for a web form
	}
	for _, tc := range tests {
		g, err := NewReader(strings.NewReader(tc.line+"\n1. 32-28 *\n"), "").Next()
		if err != nil {
			t.Fatalf("%s: %v", tc.line, err)
		}
		if got := g.Tags[0].Value; got != tc.want {
			t.Errorf("%s read as %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestTagValueLegacyEncoding: names in files of the older Windows programs
// (Latin-1, Windows-1252) read as their players are called; UTF-8 stays as
// it is, in a file that mixes both too.
func TestTagValueLegacyEncoding(t *testing.T) {
	tests := []struct{ line, want string }{
		{"[White \"Jos\xe9\"]", "José"},                               // Latin-1
		{"[White \"M\xfcller \x96 \x80 \x81\"]", "Müller – € \uFFFD"}, // Windows-1252; 0x81 is undefined there
		{"[White \"José\"]", "José"},                                  // UTF-8
		{"[White \"Jos\xe9 and José\"]", "José and José"},             // both in one value
		{"[White Jos\xe9]", "José"},                                   // unquoted
		{"[White \"Блиндер\"]", "Блиндер"},
	}
	for _, tc := range tests {
		g, err := NewReader(strings.NewReader(tc.line+"\n1. 32-28 *\n"), "").Next()
		if err != nil {
			t.Fatalf("%q: %v", tc.line, err)
		}
		if got := g.Tag("White"); got != tc.want {
			t.Errorf("%q read as %q, want %q", tc.line, got, tc.want)
		}
	}
}
