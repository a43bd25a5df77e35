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

// TestTranslatedTags: tag names translated into French are read as the
// English tags they stand for (frenchTags), in the forms a real file has
// them (a KNDB export that came through a browser's translation, its
// accents as HTML character references) and as French writes them; a
// name whose meaning is not certain is not.
func TestTranslatedTags(t *testing.T) {
	tests := []struct{ line, name, value string }{
		{`[&#x00c9;v&#x00e9;nement "Finale 2024"]`, "Event", "Finale 2024"},
		{`[Blanc "Seka, F."]`, "White", "Seka, F."},
		{`[Noir "Diallo, M."]`, "Black", "Diallo, M."},
		{`[R&#x00e9;sultat "1-1"]`, "Result", "1-1"},
		{`[Type de jeu "20"]`, "GameType", "20"},
		{`[Manche "11"]`, "Round", "11"},
		{`[Heure blanche "0:10:00"]`, "WhiteTime", "0:10:00"},
		{`[Titre noir ""]`, "BlackTitle", ""},
		{`[&#x00c9;valuation blanche "2205"]`, "WhiteRating", "2205"},
		{`[Événement "Open"]`, "Event", "Open"},
		{`[Evenement "Open"]`, "Event", "Open"},
		{`[Résultat "2-0"]`, "Result", "2-0"},
		{`[Blancs "Dupont"]`, "White", "Dupont"},
		{`[Noirs "Durand"]`, "Black", "Durand"},
		{`[Lieu "Montpellier"]`, "Site", "Montpellier"},
		{`[Date "2024.12.15"]`, "Date", "2024.12.15"},
		{`[Tournoi "Open"]`, "Tournoi", "Open"},               // not certain: kept as written
		{`[Type x "20"]`, "Type", `x "20"`},                   // not a known name: read as before
		{`[Blanc "A \"B\""]`, "White", `A "B"`},               // the value read as any
		{`[Event "Blanc"]`, "Event", "Blanc"},                 // a value is no name
		{`[Blancs "Dupont" ]`, "White", "Dupont"},             // space before ]
		{`[  type  DE  jeu   "25"]`, "GameType", "25"},        // case and spaces aside
		{`[&eacute;v&eacute;nement "Open"]`, "Event", "Open"}, // named references too
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			g, err := NewReader(strings.NewReader(tc.line+"\n1. 32-28 *\n"), "").Next()
			if err != nil {
				t.Fatalf("%s: %v", tc.line, err)
			}
			if got := g.Tags[0]; got.Name != tc.name || got.Value != tc.value {
				t.Errorf("%s read as [%s %q], want [%s %q]", tc.line, got.Name, got.Value, tc.name, tc.value)
			}
		})
	}
}

// TestTranslatedTagsChecked: a game whose tags are in French is checked
// under its GameType and named by its players; it was unreadable (the
// tag name &#x00c9;v&#x00e9;nement), and [Type de jeu "25"] read as a tag
// Type, so a Russian game went unrecognised.
func TestTranslatedTagsChecked(t *testing.T) {
	text := "[&#x00c9;v&#x00e9;nement \"Coupe\"]\r\n[Blanc \"Ndiaye, A.\"]\r\n[Noir \"Traoré, B.\"]\r\n" +
		"[R&#x00e9;sultat \"0-2\"]\r\n[Type de jeu \"25\"]\r\n[Manche \"3\"]\r\n1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:c5 d6:b4 4. a3:c5 0-2\r\n"
	var reps []Report
	if err := Audit(strings.NewReader(text), "t.pdn", nil, func(r Report) { reps = append(reps, r) }); err != nil {
		t.Fatal(err)
	}
	if len(reps) != 1 || reps[0].String() != "game 1 (White: Ndiaye, A., Black: Traoré, B.): ok" || reps[0].Variant.Name() != "russian" {
		t.Errorf("got %q", reps)
	}
}
