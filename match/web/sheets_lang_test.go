package web

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/reports/sheets"
)

// webSheetKeys are the sheet.* keys the server itself uses beside the
// sheets' own (localizeSheet: the navigation, the system; director.Event.ResultLabelIn: result labels).
var webSheetKeys = []string{
	"sheet.nav.pairings", "sheet.nav.standings", "sheet.nav.crosstable", "sheet.nav.cards", "sheet.nav.print", "sheet.nav.boards",
	"sheet.system.swiss", "sheet.system.round_robin",
	"sheet.label.forfeit", "sheet.label.unrated", "sheet.label.byes", "sheet.label.bye_side", "sheet.label.bye_zero",
}

// TestSheetCatalogs checks the embedded catalogs against the sheets' keys:
// English as the sheets' defaults say (one text, not two that drift), nb
// and da translating every key, and no sheet.* entry that nothing prints.
func TestSheetCatalogs(t *testing.T) {
	cats := loadCatalogs(t)
	keys := append(sheets.Keys(), webSheetKeys...)
	for _, l := range catalogLangs {
		for _, k := range keys {
			t.Run(l+"/"+k, func(t *testing.T) {
				v := strings.TrimSpace(cats[l][k])
				switch {
				case v == "":
					t.Errorf("%s.json has no %q", l, k)
				case l == "en" && sheets.English(k) != "" && v != sheets.English(k):
					t.Errorf("en.json: %q is %q; the sheets' default is %q", k, v, sheets.English(k))
				case l != "en" && v == cats["en"][k] && !sameEverywhere[k] && !sameIn[l][k] && strings.ContainsAny(argRE.ReplaceAllString(v, ""), "abcdefghijklmnopqrstuvwxyz"):
					t.Errorf("%s.json: %q is the English %q", l, k, v)
				}
			})
		}
		for k := range cats[l] {
			if strings.HasPrefix(k, "sheet.") && !slices.Contains(keys, k) {
				t.Errorf("%s.json: %q is neither a sheets key nor one the server uses", l, k)
			}
		}
	}
}

// sameIn are the texts one language writes as English does: Dutch w(it)
// for White; French absent, Pts, Total, Signature.
var sameIn = map[string]map[string]bool{"nl": {"sheet.colour.w": true}, "fr": {"sheet.absent": true, "sheet.col.points": true, "sheet.card.total": true, "sheet.slip.signature": true}}

// sameEverywhere are the texts the languages write alike (names
// and acronyms); any other text with words that a translation leaves
// English is one forgotten.
var sameEverywhere = map[string]bool{
	"sheet.col.rating": true, "sheet.card.rating": true, "sheet.tb.buchholz": true, "sheet.tb.buchholz-cut1": true,
	"sheet.tb.buchholz-cut2": true, "sheet.tb.median-buchholz": true, "sheet.tb.progressive": true,
}

// sheetEventEnv is a director's Swiss event of 5 players with round 1
// closed: a forfeit on a board and the pairing bye.
func sheetEventEnv(t *testing.T) (*dirEnv, string) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Oslo Open","variant":"international","rounds":3}`)
	e.op(tok, "add-players", `{"players":[{"name":"Ann","rating":2000},{"name":"Ben","rating":1900},{"name":"Cat","rating":1800},{"name":"Dan","rating":1700},{"name":"Eva","rating":1600}]}`, 200)
	v, _ := e.op(tok, "pair", `{"round":1}`, 200)
	e.op(tok, "publish", `{"round":1}`, 200)
	for i, b := range v.Rounds[0].Boards {
		res := []string{"1-0", "+--"}[i%2]
		e.op(tok, "result", fmt.Sprintf(`{"round":1,"board":%d,"result":%q}`, b.Board, res), 200)
	}
	e.op(tok, "close", `{"round":1}`, 200)
	return e, id
}

var htmlLangRE = regexp.MustCompile(`<html lang="([^"]*)">`)

// TestSheetLanguage: the public sheets follow ?lang= and else
// Accept-Language, with <html lang>, Vary: Accept-Language, the
// navigation's links keeping a chosen ?lang=, and English for anything
// else.
func TestSheetLanguage(t *testing.T) {
	e, id := sheetEventEnv(t)
	for _, tc := range []struct {
		name, path, accept string
		lang               string
		has, hasNot        []string
	}{
		{"nb by query", "/standings?lang=nb", "", "nb",
			[]string{"Stilling etter runde 1", ">Plass</th>", ">Navn</th>", ">Poeng</th>", `href="/e/` + id + `/crosstable?lang=nb"`, ">Krysstabell</a>", "Sveitsisk", `href="/e/` + id + `/trf"`, "Internasjonal dam 10×10 (FMJD)"},
			[]string{"Standings after", ">Rank</th>", "international ·"}},
		{"da by Accept-Language", "/standings", "da-DK,da;q=0.9,en;q=0.5", "da",
			// The sheet in another language is a link away; the
			// navigation's links stay without ?lang=.
			[]string{"Stilling efter runde 1", ">Plads</th>", ">Krydstabel</a>", `href="/e/` + id + `/crosstable"`, `href="/e/` + id + `/standings?lang=ru">Русский</a>`, `aria-current="page">Dansk`},
			[]string{"Standings after", "/crosstable?lang="}},
		{"query beats header", "/crosstable?lang=da", "nb", "da", []string{"Krydstabel", "efter runde 1 af 3"}, nil},
		{"Norwegian nn reads bokmål", "/cards", "nn-NO", "nb", []string{"Spillerkort", "Motstander", "Totalt"}, []string{"Opponent"}},
		{"pairings nb", "/round/1?lang=nb", "", "nb", []string{"Paring, runde 1", "w.o.", "Ikke ved et bord", "fri runde"}, []string{"by forfeit", "Not on a board"}},
		{"nl by query", "/standings?lang=nl", "", "nl",
			[]string{"Stand na ronde 1", ">Naam</th>", `href="/e/` + id + `/crosstable?lang=nl"`, ">Kruistabel</a>", "Zwitsers (Nederlands)", "Internationaal dammen 10×10 (FMJD)"},
			[]string{"Standings after", ">Rank</th>"}},
		{"nl by Accept-Language", "/round/1", "nl-BE,nl;q=0.9,en;q=0.5", "nl", []string{"Indeling, ronde 1", "Niet aan een bord"}, []string{"Not on a board"}},
		{"fr by Accept-Language", "/standings", "fr-CH,fr;q=0.9,en;q=0.5", "fr",
			[]string{"Classement après la ronde 1", ">Nom</th>", ">Grille américaine</a>", "Dames internationales 10×10 (FMJD)"},
			[]string{"Standings after", "/crosstable?lang="}},
		{"ru by query", "/standings?lang=ru", "", "ru",
			[]string{"Положение после тура 1", ">Имя</th>", ">Очки</th>", `href="/e/` + id + `/crosstable?lang=ru"`, ">Кросс-таблица</a>", "Швейцарская (голландская)", "Международные шашки 10×10 (ФМЖД)",
				`href="/e/` + id + `/standings?lang=ru" aria-current="page">Русский</a>`},
			[]string{"Standings after", ">Rank</th>", "international ·"}},
		{"ru by Accept-Language", "/round/1", "ru-RU,ru;q=0.9,en;q=0.5", "ru", []string{"Жеребьёвка, тур 1", "без игры", "Без доски", "свободен"}, []string{"by forfeit", "Not on a board", "/standings?lang="}},
		{"pairings en", "/round/1", "", "en", []string{"Pairings, round 1", "by forfeit", "Not on a board", "International draughts 10×10 (FMJD)"}, nil},
		{"unknown query ignored", "/standings?lang=de", "da", "da", []string{"Plads"}, []string{"lang=de"}},
		{"unknown header", "/standings", "de-DE,it;q=0.8", "en", []string{"Standings after round 1", ">Rank</th>"}, nil},
		{"q=0 refuses", "/standings", "nb;q=0,da;q=0.1", "da", []string{"Plads"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hdr []string
			if tc.accept != "" {
				hdr = []string{"Accept-Language", tc.accept}
			}
			resp, b := e.do("GET", "/e/"+id+tc.path, "", hdr...)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%d %s", resp.StatusCode, b)
			}
			page := string(b)
			if m := htmlLangRE.FindStringSubmatch(page); m == nil || m[1] != tc.lang {
				t.Errorf("html lang %v, want %q", m, tc.lang)
			}
			if !slices.Contains(resp.Header.Values("Vary"), "Accept-Language") {
				t.Errorf("Vary: %q, want Accept-Language", resp.Header.Values("Vary"))
			}
			for _, s := range tc.has {
				if !strings.Contains(page, s) {
					t.Errorf("the page lacks %q", s)
				}
			}
			for _, s := range tc.hasNot {
				if strings.Contains(page, s) {
					t.Errorf("the page has %q", s)
				}
			}
		})
	}
	// An event before its first round: the notices translated too.
	_, fresh := e.createEvent(`{"name":"Tomt","variant":"international","rounds":3}`)
	for path, want := range map[string]string{"/standings?lang=nb": "Ingen runde er avsluttet", "/?lang=da": "Ingen runde er offentliggjort", "/cards?lang=nb": "Ingen spillere er påmeldt"} {
		path = strings.Replace("/e/"+fresh+path, "/?", "?", 1)
		if resp, b := e.do("GET", path, ""); resp.StatusCode != http.StatusOK || !strings.Contains(string(b), want) {
			t.Errorf("%s: %d, want %q in\n%s", path, resp.StatusCode, want, b)
		}
	}
	// Not found is not cached across languages either.
	resp, _ := e.do("GET", "/e/nosuchevent/standings", "")
	if resp.StatusCode != http.StatusNotFound || !slices.Contains(resp.Header.Values("Vary"), "Accept-Language") {
		t.Errorf("unknown event: %d, Vary %q", resp.StatusCode, resp.Header.Values("Vary"))
	}
}

// TestAcceptLanguage reads Accept-Language headers, hostile ones included.
func TestAcceptLanguage(t *testing.T) {
	for _, tc := range []struct{ header, want string }{
		{"", "en"},
		{"nb", "nb"},
		{"NB-no", "nb"},
		{"no", "nb"},
		{"da", "da"},
		{"ru-RU,ru;q=0.9,en;q=0.8", "ru"},
		{"en-GB,da;q=0.9", "en"},
		{"de,da;q=0.5,nb;q=0.6", "nb"},
		{"da;q=0.5,nb;q=0.5", "da"},               // equal q: the first
		{"*", "en"},                               // anything: the default
		{"nb;q=0", "en"},                          // refused
		{"nb;q=2,da", "da"},                       // q out of range: that range skipped
		{"nb;q=-1,da;q=0.1", "da"},                // negative
		{"nb;q=NaN,da;q=0.1", "da"},               // not a number
		{"nb;q=0x1p-1,da;q=0.1", "da"},            // hex float
		{"nb;q=0.5555,da;q=0.1", "da"},            // four decimals
		{"nb;q=,da;q=0.1", "da"},                  // empty q
		{"nb;q=1.0;q=0.2,da;q=0.5", "da"},         // the last q counts
		{"nb;level=1;q=0.9", "nb"},                // other parameters
		{";;;,,,=;q", "en"},                       // junk
		{" da ; q = 0.8 ", "da"},                  // blanks
		{"dan", "en"},                             // not da's primary tag
		{strings.Repeat("x,", 1000) + "da", "en"}, // past the bounds
		{strings.Repeat("x", 100000), "en"},
		{strings.Repeat("en;q=0.1,", 15) + "da", "da"}, // the 16th range still read
		{strings.Repeat("en;q=0.1,", 16) + "da", "en"}, // the 17th not
	} {
		name := tc.header
		if len(name) > 40 {
			name = name[:40] + "…"
		}
		t.Run(name, func(t *testing.T) {
			if got := acceptLanguage(tc.header); got != tc.want {
				t.Errorf("acceptLanguage(%q) = %q, want %q", name, got, tc.want)
			}
		})
	}
}

// FuzzAcceptLanguage: any header gives one of the sheets' languages, and
// the same one whatever follows the bounded prefix.
func FuzzAcceptLanguage(f *testing.F) {
	for _, s := range []string{"da", "nb;q=0.5,da;q=0.4", "nb;q=NaN", strings.Repeat("nb;q=0.1,", 100), "\x00;q=\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		got := acceptLanguage(h)
		if !slices.Contains(sheetLangs, got) {
			t.Fatalf("acceptLanguage(%q) = %q", h, got)
		}
		if len(h) > maxAcceptLanguage && acceptLanguage(h[:maxAcceptLanguage]+"da") != got {
			t.Fatalf("acceptLanguage(%q) read past its bound", h)
		}
	})
}
