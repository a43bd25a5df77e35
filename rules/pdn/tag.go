package pdn

import (
	"html"
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

// frenchTags are the English tags of the names a file translated into
// French gives them, by the name lower-cased and without its accents. They
// are those of the real file that has them: KNDB toernooibase's export of
// the 4th African Blitz Championship (Ouaga Ziiri 2024) in
// Yodachess/BrunoGUI_Dames, one of whose games came through a web page
// translated by a browser, its tags with the rest: [&#x00c9;v&#x00e9;nement],
// [Blanc], [Noir], [R&#x00e9;sultat], [Type de jeu], [Manche], [Heure
// blanche], [Titre blanc], [&#x00c9;valuation blanche], each where the
// file's other games have Event, White, Black, Result, GameType, Round,
// WhiteTime, WhiteTitle and WhiteRating. The plural Blancs and Noirs (the
// side, as French says "les blancs") and Ronde, Lieu (the place: Site) are
// the same words as French draughts writes them. A name whose meaning is
// less certain is not read as another: "Tournoi" could be the Event or a
// tournament's kind, "Heure" alone a time of day.
var frenchTags = map[string]string{
	"evenement": "Event", "lieu": "Site", "manche": "Round", "ronde": "Round",
	"blanc": "White", "blancs": "White", "noir": "Black", "noirs": "Black",
	"resultat": "Result", "type de jeu": "GameType",
	"heure blanche": "WhiteTime", "heure noire": "BlackTime",
	"titre blanc": "WhiteTitle", "titre noir": "BlackTitle",
	"evaluation blanche": "WhiteRating", "evaluation noire": "BlackRating",
}

// unaccent drops the accents French puts on the letters of a tag name.
var unaccent = strings.NewReplacer("é", "e", "è", "e", "ê", "e", "ë", "e", "à", "a", "â", "a",
	"ç", "c", "î", "i", "ï", "i", "ô", "o", "ù", "u", "û", "u")

// translatedTag reads the text between a tag's [ and the quote of its
// value as a tag name translated into French (frenchTags): HTML character
// references decoded (&#x00e9; is é, as a page copied from a browser
// writes it), case, accents and spaces aside. It returns the English name.
func translatedTag(raw string) (string, bool) {
	key := unaccent.Replace(strings.ToLower(html.UnescapeString(raw)))
	name, ok := frenchTags[strings.Join(strings.Fields(key), " ")]
	return name, ok
}
