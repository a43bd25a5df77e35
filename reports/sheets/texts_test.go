package sheets

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

var (
	keyRE = regexp.MustCompile(`"(sheet\.[a-z0-9_.-]+)"`)
	argRE = regexp.MustCompile(`\{([a-z0-9_]+)\}`)
)

// TestTextKeys checks the key table: every key the template and the code
// (sheets.go, rated.go) name literally has an English default (a missing one would print the
// raw key), every default is used, and every tie-break has a heading key
// whose default is the heading tiebreak gives.
func TestTextKeys(t *testing.T) {
	used := map[string]bool{}
	srcs := []string{sheetsTemplate}
	for _, f := range []string{"sheets.go", "rated.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(src))
	}
	for _, s := range srcs {
		for _, m := range keyRE.FindAllStringSubmatch(s, -1) {
			used[m[1]] = true
		}
	}
	if len(used) < 30 {
		t.Fatalf("found only %d keys in the template and sheets.go; the scan is broken", len(used))
	}
	for tb := tiebreak.TieBreak(1); !strings.HasPrefix(tb.String(), "tiebreak("); tb++ {
		used[tbKey(tb)] = true
		if got := English(tbKey(tb)); got != tb.Heading() {
			t.Errorf("%s: English default %q, tiebreak's heading %q", tbKey(tb), got, tb.Heading())
		}
	}
	for k := range used {
		if strings.TrimSpace(English(k)) == "" {
			t.Errorf("%q is used but has no English default", k)
		}
	}
	for _, k := range Keys() {
		if !used[k] {
			t.Errorf("%q has a default but nothing prints it", k)
		}
	}
}

// pseudo is a catalog that gives every key a text with no English in it
// ("Ω12" and the English text's {arguments}), so that an English word
// left on a sheet is one that bypassed the texts.
func pseudo() map[string]string {
	out := map[string]string{}
	for i, k := range Keys() {
		s := fmt.Sprintf("Ω%d", i)
		for _, a := range argRE.FindAllString(English(k), -1) {
			s += " " + a
		}
		out[k] = s
	}
	return out
}

// englishWords are the words of the English texts, as a reader would see
// one left untranslated (cells run together in the text: a word ends at
// anything but a letter).
var englishWords = regexp.MustCompile(`(?:^|[^A-Za-z])(Pairings|round|Standings|after|Crosstable|Player cards?|Bd|No\.|White|Black|Pts|Result|Rank|Name|Fed|Rating|rating|Rd|Colour|Opponent|Score|bye|absent|forfeit|Total|Not on a board|Tie-breaks|cells?|Buchholz|Wins|R\d+)(?:$|[^A-Za-z])`)

// TestTranslatedSheets renders every sheet with a catalog covering every
// key and checks that no English word is left outside the event's own
// data (the navigation and the event's heading are the caller's), that
// <html lang> follows, and that a catalog missing keys falls back to
// English for those.
func TestTranslatedSheets(t *testing.T) {
	rr := func() *Event {
		ev := testEvent()
		ev.RoundRobin = true
		ev.Played = []Round{{Boards: []Board{{White: 1, Black: 4, Result: BlackForfeitWin, WhiteBye: tally.HalfBye}, {White: 2, Black: 5, Result: Draw}, {White: 3, Black: 6, Result: WhiteForfeitWin}}}}
		return ev
	}
	all := func(ev *Event) *Event {
		ev.TieBreaks = nil
		for tb := tiebreak.TieBreak(1); !strings.HasPrefix(tb.String(), "tiebreak("); tb++ {
			ev.TieBreaks = append(ev.TieBreaks, tb)
		}
		return ev
	}
	for _, tc := range []struct {
		name  string
		ev    func() *Event
		write func(io.Writer, *Event) error
	}{
		{"pairings", testEvent, func(w io.Writer, ev *Event) error { return Pairings(w, ev, 2) }},
		{"pairings-rr", rr, func(w io.Writer, ev *Event) error { return Pairings(w, ev, 1) }},
		{"standings", func() *Event { return all(testEvent()) }, func(w io.Writer, ev *Event) error { return Standings(w, ev, 3) }},
		{"crosstable", testEvent, Crosstable},
		{"crosstable-rr", rr, Crosstable},
		{"card", testEvent, func(w io.Writer, ev *Event) error { return Card(w, ev, 4) }},
		{"cards", func() *Event { return withPendingRound(testEvent()) }, Cards},
		{"cards-rr", rr, Cards},
		{"cards-none", func() *Event { ev := testEvent(); ev.Players, ev.Played = nil, nil; return ev }, Cards},
		{"notice-pairings", testEvent, func(w io.Writer, ev *Event) error { return Notice(w, ev, "pairings") }},
		{"notice-standings", testEvent, func(w io.Writer, ev *Event) error { return Notice(w, ev, "standings") }},
		{"notice-crosstable", testEvent, func(w io.Writer, ev *Event) error { return Notice(w, ev, "crosstable") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			en := tc.ev()
			if err := tc.write(&buf, en); err != nil {
				t.Fatal(err)
			}
			if !englishWords.Match(buf.Bytes()) {
				t.Fatal("the English sheet has none of the English words; the check is broken")
			}
			if !strings.Contains(buf.String(), `<html lang="en">`) {
				t.Error("the English sheet is not lang=en")
			}
			buf.Reset()
			ev := tc.ev()
			ev.Lang, ev.Texts = "nb", pseudo()
			if err := tc.write(&buf, ev); err != nil {
				t.Fatal(err)
			}
			root := parse(t, buf.Bytes())
			if got := root.all(tagged("html"))[0].attr["lang"]; got != "nb" {
				t.Errorf("<html lang=%q>, want nb", got)
			}
			var text []string
			for _, n := range root.all(func(n *node) bool { return n.tag == "title" || n.tag == "main" || n.tag == "h2" }) {
				text = append(text, n.String())
			}
			for _, n := range root.all(func(n *node) bool { return n.attr["title"] != "" }) {
				if n.tag != "th" { // a tie-break's canonical name, as configurations spell it
					text = append(text, n.attr["title"])
				}
			}
			joined := strings.Join(text, "\n")
			for _, p := range ev.Players {
				joined = strings.ReplaceAll(joined, p.Name, "")
			}
			if w := englishWords.FindAllStringSubmatch(joined, -1); len(w) > 0 {
				t.Errorf("English left on the translated sheet: %q\n%s", w, joined)
			}
			if !strings.Contains(joined, "Ω") {
				t.Error("no translated text on the sheet")
			}
		})
	}
	// A catalog with one key: that one translated, the rest English; an
	// empty entry is as missing.
	ev := testEvent()
	ev.Lang, ev.Texts = "da", map[string]string{"sheet.col.rank": "Placering", "sheet.col.name": " "}
	var buf bytes.Buffer
	if err := Standings(&buf, ev, 3); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<html lang="da">`, ">Placering</th>", ">Name</th>", "Standings after round 3", ">Buchholz C1</span></th>"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the partly translated sheet lacks %q", want)
		}
	}
}

// TestText fills a text's {arguments}.
func TestText(t *testing.T) {
	ev := &Event{Texts: map[string]string{"sheet.sub.after_of": "etter runde {n} av {rounds}"}}
	for _, tc := range []struct {
		key  string
		args []any
		want string
	}{
		{"sheet.sub.after_of", []any{"n", 3, "rounds", 9}, "etter runde 3 av 9"},
		{"sheet.sub.after", []any{"n", 3}, "after round 3"},
		{"sheet.title.crosstable", nil, "Crosstable"},
		{"sheet.no-such-key", nil, "sheet.no-such-key"},
		{"sheet.grid.bye", []any{"points"}, "{points} bye"}, // an odd argument list fills nothing
	} {
		if got := ev.text(tc.key, tc.args...); got != tc.want {
			t.Errorf("text(%q, %v) = %q, want %q", tc.key, tc.args, got, tc.want)
		}
	}
}

// TestPluralForms: a sheet's {n|form|...} picks the word of the number as
// the pages' catalogs write it (Intl.PluralRules' categories, in order).
func TestPluralForms(t *testing.T) {
	const ru = "после {games} {games|партии|партий|партий}"
	for _, c := range []struct {
		lang, text string
		n          int
		want       string
	}{
		{"ru", ru, 21, "после 21 партии"},
		{"ru", ru, 22, "после 22 партий"},
		{"ru", ru, 5, "после 5 партий"},
		{"ru", ru, 11, "после 11 партий"},
		{"ru", ru, 111, "после 111 партий"},
		{"ru", "{games} {games|партия|партии|партий}", 2, "2 партии"},
		{"ru", "{games} {games|партия|партии|партий}", 14, "14 партий"},
		{"ru", "{games} {games|партия|партии|партий}", 31, "31 партия"},
		{"en", "after {games} {games|game|games}", 1, "after 1 game"},
		{"en", "after {games} {games|game|games}", 6, "after 6 games"},
		{"en-GB", "after {games} {games|game|games}", 1, "after 1 game"},
		{"fr", "après {games} {games|partie|parties}", 0, "après 0 partie"},
		{"fr", "après {games} {games|partie|parties}", 7, "après 7 parties"},
		{"nb", "etter {games} {games|parti|partier}", 1, "etter 1 parti"},
		{"nb", "{games} og {games} {games|parti|partier}, {games|ett|flere}", 3, "3 og 3 partier, flere"},
	} {
		ev := &Event{Lang: c.lang, Texts: map[string]string{"sheet.initial": c.text}}
		if got := ev.text("sheet.initial", "games", c.n); got != c.want {
			t.Errorf("%s %q with %d: %q, want %q", c.lang, c.text, c.n, got, c.want)
		}
	}
	// The built-in English text has its forms too.
	if got := (&Event{}).text("sheet.initial", "rating", 1900, "games", 1); got != "initial rating 1900 after 1 game" {
		t.Errorf("English: %q", got)
	}
}
