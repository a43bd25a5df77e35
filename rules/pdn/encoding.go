package pdn

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Encoding is the character encoding a PDN file is read in. PDN 3.0 text is
// UTF-8 ("For PDN 3.0 documents the UTF-8 character encoding is required
// ... When reading PDN, it is recommended to accept other encodings too,
// like ISO 8859/1 (Latin 1)": the standard's chapter Character encoding,
// wiegerw/pdn doc/encoding.rst), but the files of the older Windows
// programs are in their system's code page: Windows-1252 in Western Europe
// and the Americas, Windows-1251 (and, from Unix and older Russian sites,
// KOI8-R) for the Russian draughts programs and sites, and some are saved
// as UTF-16 with a byte order mark.
//
// The zero value, Detect, decides from the file itself (Reader): UTF-16 by
// its byte order mark (or the NUL bytes of ASCII text written in it), UTF-8
// wherever a line is valid UTF-8, and for the other lines the one of
// Windows-1252, Windows-1251 and KOI8-R under which their letters read as
// text (guessLegacy). The other values are that encoding, for every line.
type Encoding string

// The encodings a PDN file is read in.
const (
	Detect      Encoding = ""
	UTF8        Encoding = "utf-8"
	UTF16LE     Encoding = "utf-16le"
	UTF16BE     Encoding = "utf-16be"
	Windows1252 Encoding = "windows-1252"
	Windows1251 Encoding = "windows-1251"
	KOI8R       Encoding = "koi8-r"
)

// EncodingNames are the names ParseEncoding takes, for a flag's help.
var EncodingNames = []string{"auto", string(UTF8), string(UTF16LE), string(UTF16BE), string(Windows1252), string(Windows1251), string(KOI8R)}

// encodingAliases are the other spellings people write for them.
var encodingAliases = map[string]Encoding{
	"auto": Detect, "detect": Detect, "": Detect,
	"utf8": UTF8, "utf-8": UTF8,
	"utf-16le": UTF16LE, "utf16le": UTF16LE, "utf-16be": UTF16BE, "utf16be": UTF16BE,
	"windows-1252": Windows1252, "cp1252": Windows1252, "win1252": Windows1252,
	"latin-1": Windows1252, "latin1": Windows1252, "iso-8859-1": Windows1252,
	"windows-1251": Windows1251, "cp1251": Windows1251, "win1251": Windows1251,
	"koi8-r": KOI8R, "koi8r": KOI8R,
}

// ParseEncoding reads an encoding's name ("auto", "utf-8", "windows-1251",
// "cp1251", "koi8-r", ...; case and the dash do not matter).
func ParseEncoding(name string) (Encoding, error) {
	if e, ok := encodingAliases[strings.ToLower(strings.TrimSpace(name))]; ok {
		return e, nil
	}
	return Detect, fmt.Errorf("unknown encoding %q (known: %s)", name, strings.Join(EncodingNames, ", "))
}

// String names the encoding as a person reads it: "Windows-1251 (Cyrillic)".
func (e Encoding) String() string {
	switch e {
	case Detect:
		return "detected from the text"
	case UTF8:
		return "UTF-8"
	case UTF16LE:
		return "UTF-16 (little-endian)"
	case UTF16BE:
		return "UTF-16 (big-endian)"
	case Windows1252:
		return "Windows-1252 (Western European)"
	case Windows1251:
		return "Windows-1251 (Cyrillic)"
	case KOI8R:
		return "KOI8-R (Cyrillic)"
	}
	return string(e)
}

// table is the characters of a single-byte encoding for the bytes 0x80 to
// 0xFF (the lower half is ASCII), nil for the others.
func (e Encoding) table() *[128]rune {
	switch e {
	case Windows1252:
		return &cp1252
	case Windows1251:
		return &cp1251
	case KOI8R:
		return &koi8r
	}
	return nil
}

// bad marks a byte an encoding leaves undefined; it reads as U+FFFD.
const bad = '\uFFFD'

// cp1252 is Windows-1252: from 0xA0 up Latin-1, whose bytes are their own
// code points.
var cp1252 = func() (t [128]rune) {
	copy(t[:32], []rune{
		'€', bad, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', bad, 'Ž', bad,
		bad, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', bad, 'ž', 'Ÿ',
	})
	for i := 32; i < 128; i++ {
		t[i] = rune(0x80 + i)
	}
	return t
}()

// cp1251 is Windows-1251: А..я at 0xC0 to 0xFF in alphabetical order, Ё ё
// and the letters of the other Cyrillic alphabets below.
var cp1251 = func() (t [128]rune) {
	copy(t[:64], []rune(
		"ЂЃ‚ѓ„…†‡€‰Љ‹ЊЌЋЏ"+
			"ђ‘’“”•–—\uFFFD™љ›њќћџ"+
			"\u00A0ЎўЈ¤Ґ¦§Ё©Є«¬\u00AD®Ї"+
			"°±Ііґµ¶·ё№є»јЅѕї"))
	for i := 64; i < 128; i++ {
		t[i] = rune(0x410 + i - 64) // А (U+0410) .. я (U+044F)
	}
	return t
}()

// koi8r is KOI8-R: box drawing from 0x80 to 0xBF (Ё ё among it), then the
// lower-case letters and the capitals, each in the order of the Latin
// letters they sound like (so that text with the eighth bit lost stays
// readable).
var koi8r = func() (t [128]rune) {
	copy(t[:], []rune(
		"─│┌┐└┘├┤┬┴┼▀▄█▌▐"+
			"░▒▓⌠■∙√≈≤≥\u00A0⌡°²·÷"+
			"═║╒ё╓╔╕╖╗╘╙╚╛╜╝╞"+
			"╟╠╡Ё╢╣╤╥╦╧╨╩╪╫╬©"+
			"юабцдефгхийклмнопярстужвьызшэщчъ"+
			"ЮАБЦДЕФГХИЙКЛМНОПЯРСТУЖВЬЫЗШЭЩЧЪ"))
	return t
}()

// decodeLine appends to dst the line b read in a single-byte encoding.
func decodeLine(dst, b []byte, t *[128]rune) []byte {
	for _, c := range b {
		if c < utf8.RuneSelf {
			dst = append(dst, c)
		} else {
			dst = utf8.AppendRune(dst, t[c-0x80])
		}
	}
	return dst
}

// decodeMixed appends to dst the line b, keeping its valid UTF-8 and
// reading every other byte as Windows-1252: how the reader read tag values
// before it chose an encoding per file, kept for the files it read right
// (a file of Windows-1252 names with a UTF-8 one among them).
func decodeMixed(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			r = cp1252[b[i]-0x80]
		}
		dst = utf8.AppendRune(dst, r)
		i += size
	}
	return dst
}

// Letter statistics for guessLegacy.
//
// russianFreq is how often each letter occurs in Russian text, in tenths
// of a percent (the usual published figures: о 11.0 %, е 8.5 %, а 8.0 %,
// ..., ъ 0.04 %), for the letters а..я in alphabetical order, then ё.
var russianFreq = [33]float64{
	80, 16, 45, 17, 30, 85, 9.4, 16.5, 73.5, 12, 35, 44, 32, 67, 110, 28,
	47, 55, 63, 26, 2.6, 9.7, 4.8, 14, 7.3, 3.6, 0.4, 19, 17, 3.2, 6.4, 20,
	0.4,
}

// russianLogFreq is the natural logarithm of a Cyrillic letter's share of
// Russian text; letters of the other Cyrillic alphabets get a rare one.
func russianLogFreq(r rune) float64 {
	r = unicode.ToLower(r)
	f := 0.1
	switch {
	case r >= 'а' && r <= 'я':
		f = russianFreq[r-'а']
	case r == 'ё':
		f = russianFreq[32]
	}
	return math.Log(f / 1000)
}

// legacyScore says how much the lines read like text when read through
// table t: the plausibility of the letters side by side in a word (after
// the way text-encoding detectors judge candidate encodings by pairs of
// character classes, e.g. Mozilla's chardetng), and for a Cyrillic
// encoding the likelihood of its letters as Russian.
//
// A word of a Cyrillic text is all Cyrillic: a Cyrillic letter beside a
// Latin one in the same word, as a Western name read as Cyrillic gives
// ("Josй" for José), is all but impossible. In Western text a letter
// with an accent mostly stands among plain ASCII letters ("Müller",
// "Søren"); a run of them, as Cyrillic read as Windows-1252 gives
// ("Èâàíîâ" for Иванов), is rare. In every script a capital does not
// follow a small letter inside a word, which a Cyrillic text read in the
// other Cyrillic encoding gives ("йВАНОВ", "хБЮМНБ").
func legacyScore(lines [][]byte, t *[128]rune, cyrillic bool) (shape int, freq float64) {
	for _, line := range lines {
		prev := ' '
		for _, c := range line {
			r := rune(c)
			if c >= utf8.RuneSelf {
				r = t[c-0x80]
				switch {
				case r == bad:
					shape -= 5
				case cyrillic && r >= 0x2500 && r <= 0x25FF:
					shape -= 3 // box drawing in a name or comment
				}
				if cyrillic && unicode.Is(unicode.Cyrillic, r) {
					freq += russianLogFreq(r)
				}
			}
			if unicode.IsLetter(prev) && unicode.IsLetter(r) && (prev >= utf8.RuneSelf || r >= utf8.RuneSelf) {
				mixed := prev < utf8.RuneSelf || r < utf8.RuneSelf
				switch {
				case cyrillic && mixed:
					shape -= 10
				case cyrillic, mixed:
					shape++
				default:
					shape--
				}
				if unicode.IsLower(prev) && unicode.IsUpper(r) {
					shape -= 5
				}
			}
			prev = r
		}
	}
	return shape, freq
}

// guessLegacy chooses the encoding of lines that are not UTF-8: Windows-1252
// unless the letters read better as Cyrillic, and then Windows-1251 unless
// KOI8-R reads better still. A tie keeps Windows-1252, the reading of every
// file before this choice was made.
func guessLegacy(lines [][]byte) Encoding {
	latin, _ := legacyScore(lines, &cp1252, false)
	win, winFreq := legacyScore(lines, &cp1251, true)
	koi, koiFreq := legacyScore(lines, &koi8r, true)
	if max(win, koi) <= latin {
		return Windows1252
	}
	if float64(koi)+koiFreq > float64(win)+winFreq {
		return KOI8R
	}
	return Windows1251
}

// lookahead is how much of the file after the first line that is not UTF-8
// the reader looks at to choose its encoding.
const lookahead = 64 << 10

// utf16Reader turns UTF-16 text into UTF-8.
type utf16Reader struct {
	src     *bufio.Reader
	order   Encoding // UTF16LE or UTF16BE
	out     []byte   // decoded, not yet read
	pending rune     // a high surrogate waiting for its low half (0: none)
	err     error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			return 0, u.err
		}
		u.fill()
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// fill decodes the next code units.
func (u *utf16Reader) fill() {
	var buf [4096]byte
	n, err := io.ReadFull(u.src, buf[:])
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = io.EOF
	}
	out := make([]byte, 0, n*3/2+4)
	for i := 0; i+1 < n; i += 2 {
		unit := rune(buf[i]) | rune(buf[i+1])<<8
		if u.order == UTF16BE {
			unit = rune(buf[i])<<8 | rune(buf[i+1])
		}
		switch {
		case u.pending != 0 && unit >= 0xDC00 && unit < 0xE000:
			out = utf8.AppendRune(out, utf16.DecodeRune(u.pending, unit))
			u.pending = 0
			continue
		case u.pending != 0:
			out = utf8.AppendRune(out, bad) // a high surrogate alone
			u.pending = 0
		}
		switch {
		case unit >= 0xD800 && unit < 0xDC00:
			u.pending = unit
		case unit >= 0xDC00 && unit < 0xE000:
			out = utf8.AppendRune(out, bad) // a low surrogate alone
		default:
			out = utf8.AppendRune(out, unit)
		}
	}
	if err != nil {
		if u.pending != 0 || n%2 == 1 {
			out = utf8.AppendRune(out, bad) // cut in the middle of a character
			u.pending = 0
		}
		u.err = err
	}
	u.out = out
}

// sniffUTF16 tells a UTF-16 file by its first bytes: a byte order mark
// (FF FE little-endian, FE FF big-endian), or, without one, the NUL byte
// that an ASCII character such as the [ opening a PDN file has beside it.
// It returns the byte order and how many bytes the mark takes.
func sniffUTF16(head []byte) (Encoding, int) {
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return UTF16LE, 2
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return UTF16BE, 2
	case len(head) >= 4 && head[0] != 0 && head[0] < utf8.RuneSelf && head[1] == 0 && head[2] != 0 && head[3] == 0:
		return UTF16LE, 0
	case len(head) >= 4 && head[0] == 0 && head[1] != 0 && head[1] < utf8.RuneSelf && head[2] == 0 && head[3] != 0:
		return UTF16BE, 0
	}
	return Detect, 0
}
