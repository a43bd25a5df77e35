package pdn

import (
	"strings"
)

// QuoteTagValue writes a tag value as a PDN string, quotes included. It is
// the one escaping of tag values that every writer of PDN uses (games.pdn,
// the records in the event store, `arbiter match --pdn`): PDN 3.0 (like PGN)
// escapes a double quote inside a string as \" and a backslash as \\. A tag
// stands on one line, so line ends and other control characters become
// spaces. The Reader undoes the escaping, so a value read back is the value
// written: `A "B" \ C` is written "A \"B\" \\ C" and read as `A "B" \ C`.
func QuoteTagValue(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < ' ':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// unescapeTagValue undoes QuoteTagValue's escaping on the text between the
// quotes. A backslash before anything but a quote, a backslash or an
// apostrophe is kept: files written without escaping (a path "C:\games")
// read as written. An apostrophe escaped for a web form or a database
// ("D\'Almeida, Jean", Championnat de France 2021 in Yodachess/BrunoGUI_Dames)
// is the apostrophe its player's name has.
// Control characters become spaces, as a stray one (a lone CR) would break
// the line when the value is written again.
func unescapeTagValue(raw []byte) string {
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\\' && i+1 < len(raw) && (raw[i+1] == '"' || raw[i+1] == '\\' || raw[i+1] == '\'') {
			i++
			c = raw[i]
		} else if c < ' ' {
			c = ' '
		}
		b.WriteByte(c)
	}
	return b.String()
}

// tagStringEnd returns the index in b of the quote closing a tag string whose
// text starts at b[0], or -1 when the line ends first. An escaped quote (\")
// does not close it.
func tagStringEnd(b []byte) int {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			if i+1 < len(b) && (b[i+1] == '"' || b[i+1] == '\\') {
				i++
			}
		case '"':
			return i
		}
	}
	return -1
}
