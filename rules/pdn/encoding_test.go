package pdn

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
)

// TestEncodingTables: the tables of the single-byte encodings are those of
// the Go project's charmap package, byte for byte (an undefined byte reads
// as U+FFFD in both).
func TestEncodingTables(t *testing.T) {
	for _, tc := range []struct {
		enc  Encoding
		want *charmap.Charmap
	}{{Windows1252, charmap.Windows1252}, {Windows1251, charmap.Windows1251}, {KOI8R, charmap.KOI8R}} {
		tab := tc.enc.table()
		for b := 0x80; b < 0x100; b++ {
			if got, want := tab[b-0x80], tc.want.DecodeByte(byte(b)); got != want {
				t.Errorf("%s: byte %#x reads %q, want %q", tc.enc, b, got, want)
			}
		}
	}
}

// encode writes UTF-8 text in a single-byte encoding (for the tests: the
// encoder of the Go project's charmap package, so that the reader's tables
// are not tested against themselves).
func encode(t *testing.T, s string, enc Encoding) []byte {
	t.Helper()
	cm := map[Encoding]*charmap.Charmap{Windows1252: charmap.Windows1252, Windows1251: charmap.Windows1251, KOI8R: charmap.KOI8R}[enc]
	b, err := cm.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("%q in %s: %v", s, enc, err)
	}
	return b
}

func utf16Text(s string, big, bom bool) []byte {
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	var b bytes.Buffer
	for _, u := range units {
		if big {
			b.Write([]byte{byte(u >> 8), byte(u)})
		} else {
			b.Write([]byte{byte(u), byte(u >> 8)})
		}
	}
	return b.Bytes()
}

// TestGuessLegacy: the encoding chosen for lines that are not UTF-8, from
// the names and comments Russian and Western programs write.
func TestGuessLegacy(t *testing.T) {
	cyrillic := []Encoding{Windows1251, KOI8R}
	tests := []struct {
		name, text string
		in         []Encoding // the encodings it is written in; each must be guessed
	}{
		{"a Russian name", `[White "Иванов И."]`, cyrillic},
		{"a short Russian name", `[Black "Ли В."]`, cyrillic},
		{"a name in capitals", `[White "ИВАНОВ"]`, cyrillic},
		{"event and site", "[Event \"XXV первенство СССР\"]\n[Site \"Лиепая\"]", cyrillic},
		{"a comment in small letters", "{ белые выигрывают }", cyrillic},
		{"ё", `[Event "Турнир Семёнова"]`, cyrillic},
		{"№ (no KOI8-R)", `[Event "Турнир № 3"]`, []Encoding{Windows1251}},
		{"Ukrainian letters (no KOI8-R)", `[White "Гліб Їжаченко"]`, []Encoding{Windows1251}},
		{"a French name", `[White "José Gérard"]`, []Encoding{Windows1252}},
		{"a Danish name", `[Black "Søren Ærø"]`, []Encoding{Windows1252}},
		{"a German name", `[White "Müller, Süß"]`, []Encoding{Windows1252}},
		{"a French comment", "{ les blancs gagnent à coup sûr }", []Encoding{Windows1252}},
		{"Latin-1 capture sign", "1. 32-28 19-23 2. 28×19", []Encoding{Windows1252}},
		{"a degree sign", `[Event "69° ASSOLUTO 1° TURNO"]`, []Encoding{Windows1252}},
		{"one accented letter alone", "{ à }", []Encoding{Windows1252}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, enc := range tc.in {
				if got := guessLegacy(bytes.Split(encode(t, tc.text, enc), []byte("\n"))); got != enc {
					t.Errorf("%q written in %s: guessed %s", tc.text, enc, got)
				}
			}
		})
	}
}

// readTags reads every game of data and returns its White, Black, Event,
// Site tags and comments, one line a game.
func readTags(t *testing.T, data []byte, enc Encoding) ([]string, *Reader) {
	t.Helper()
	r := NewReader(bytes.NewReader(data), "t.pdn")
	r.SetEncoding(enc)
	var out []string
	for {
		g, err := r.Next()
		if err == io.EOF {
			return out, r
		}
		if err != nil {
			t.Fatal(err)
		}
		line := g.Tag("White") + "|" + g.Tag("Black") + "|" + g.Tag("Event") + "|" + g.Tag("Site") + "|" + g.Comment
		for _, m := range g.Moves {
			line += "|" + m.Comment
		}
		out = append(out, line)
	}
}

// TestReaderEncodings: a file reads the same whatever encoding it was saved
// in: the names of a Russian file saved by a Windows program (Windows-1251),
// a Unix one (KOI8-R) or as UTF-16 read as written, Western names stay
// Windows-1252, and --encoding's choice wins over the guess.
func TestReaderEncodings(t *testing.T) {
	russian := "[Event \"Первенство\"]\n[White \"Иванов И.\"]\n[Black \"Петров П.\"]\n\n1. c3-d4 {хороший ход} f6-g5 *\n\n" +
		"[Event \"Турнир\"]\n[White \"Семёнов\"]\n[Black \"Ли В.\"]\n\n1. c3-b4 *\n"
	western := "[Event \"Championnat\"]\n[White \"José Gérard\"]\n[Black \"Søren Müller\"]\n\n1. 32-28 {très bien} 19-23 *\n"
	want := func(text string) []string {
		w, _ := readTags(t, []byte(text), Detect)
		return w
	}
	tests := []struct {
		name    string
		data    []byte
		set     Encoding
		text    string // what it reads as
		enc     Encoding
		guessed bool
	}{
		{"UTF-8", []byte(russian), Detect, russian, Detect, false},
		{"Windows-1251", encode(t, russian, Windows1251), Detect, russian, Windows1251, true},
		{"KOI8-R", encode(t, russian, KOI8R), Detect, russian, KOI8R, true},
		{"Windows-1252", encode(t, western, Windows1252), Detect, western, Windows1252, true},
		{"UTF-16LE with BOM", utf16Text(russian, false, true), Detect, russian, UTF16LE, true},
		{"UTF-16BE with BOM", utf16Text(russian, true, true), Detect, russian, UTF16BE, true},
		{"UTF-16LE without BOM", utf16Text(russian, false, false), Detect, russian, UTF16LE, true},
		{"UTF-8 with BOM", append([]byte("\xEF\xBB\xBF"), russian...), Detect, russian, Detect, false},
		{"Cyrillic after 70 KB of ASCII", append([]byte(strings.Repeat("[Event \"x\"]\n1. c3-d4 *\n\n", 3000)), encode(t, russian, Windows1251)...),
			Detect, strings.Repeat("[Event \"x\"]\n1. c3-d4 *\n\n", 3000) + russian, Windows1251, true},
		{"set: Windows-1251", encode(t, russian, Windows1251), Windows1251, russian, Windows1251, false},
		{"set: KOI8-R", encode(t, russian, KOI8R), KOI8R, russian, KOI8R, false},
		{"set: UTF-16LE", utf16Text(russian, false, true), UTF16LE, russian, UTF16LE, false},
		{"set: Windows-1252 over Cyrillic", encode(t, `[White "Иванов"]`+"\n1. c3-d4 *\n", Windows1251), Windows1252, `[White "Èâàíîâ"]` + "\n1. c3-d4 *\n", Windows1252, false},
		{"set: UTF-8 over Windows-1251", encode(t, `[White "Иванов"]`+"\n1. c3-d4 *\n", Windows1251), UTF8, "[White \"\uFFFD\"]\n1. c3-d4 *\n", UTF8, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, r := readTags(t, tc.data, tc.set)
			if w := want(tc.text); strings.Join(got, "\n") != strings.Join(w, "\n") {
				t.Errorf("read\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
			}
			if enc, guessed := r.Encoding(); enc != tc.enc || guessed != tc.guessed {
				t.Errorf("Encoding() = %s, %v; want %s, %v", enc, guessed, tc.enc, tc.guessed)
			}
		})
	}
}

// TestReaderEncodingsRealFile: the 153 games of wiegerw/pdn's ussr1947.pdn
// (Russian names, events and sites in UTF-8), saved as a Russian Windows
// program (Windows-1251) or a Unix system (KOI8-R) saves them, read the
// same as the UTF-8 file, game by game.
func TestReaderEncodingsRealFile(t *testing.T) {
	data, err := os.ReadFile("testdata/wiegerw-pdn_ussr1947.pdn")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := readTags(t, data, Detect)
	if len(want) != 153 {
		t.Fatalf("%d games", len(want))
	}
	for _, enc := range []Encoding{Windows1251, KOI8R} {
		got, r := readTags(t, encode(t, string(data), enc), Detect)
		if e, _ := r.Encoding(); e != enc {
			t.Errorf("%s: read as %s", enc, e)
		}
		for i := range want {
			if i >= len(got) || got[i] != want[i] {
				t.Fatalf("%s: game %d reads %q, want %q", enc, i+1, got[min(i, len(got)-1)], want[i])
			}
		}
	}
}

func TestParseEncoding(t *testing.T) {
	for name, want := range map[string]Encoding{"auto": Detect, "CP1251": Windows1251, "windows-1251": Windows1251, "koi8r": KOI8R, "Latin-1": Windows1252, "utf-8": UTF8, "UTF-16LE": UTF16LE} {
		if got, err := ParseEncoding(name); err != nil || got != want {
			t.Errorf("ParseEncoding(%q) = %s, %v; want %s", name, got, err, want)
		}
	}
	if _, err := ParseEncoding("cp866"); err == nil || !strings.Contains(err.Error(), "windows-1251") {
		t.Errorf("ParseEncoding(cp866): %v, want an error naming the known ones", err)
	}
}
