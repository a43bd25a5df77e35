package web

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/reports/sheets"
)

// sheetLangs are the languages the public sheets speak: those of the
// client's catalogs, English first (the default).
var sheetLangs = []string{"en", "nb", "da", "nl", "fr", "ru"}

// langNames name each language in itself, as the client's switcher does
// (i18n.js selector), for the sheets' language links.
var langNames = map[string]string{"en": "English", "nb": "Norsk (bokmål)", "da": "Dansk", "nl": "Nederlands", "fr": "Français", "ru": "Русский"}

// sheetTexts is each language's sheet.*, variant.* (the variants'
// names, as the other pages show them), dir.card.* (the director's
// "keep this" card), http.* and app.name (errorPage) entries of the embedded catalogs
// (assets/i18n/{lang}.json), read once. A catalog that does not read
// leaves its language English: the sheets fall back key by key.
var sheetTexts = sync.OnceValue(func() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, l := range sheetLangs {
		out[l] = map[string]string{}
		data, err := fs.ReadFile(Assets, "assets/i18n/"+l+".json")
		if err != nil {
			continue
		}
		var cat map[string]string
		if json.Unmarshal(data, &cat) != nil {
			continue
		}
		for k, v := range cat {
			if strings.HasPrefix(k, "sheet.") || strings.HasPrefix(k, "variant.") || strings.HasPrefix(k, "dir.card.") ||
				strings.HasPrefix(k, "http.") || k == "app.name" {
				out[l][k] = v
			}
		}
	}
	return out
})

// Accept-Language bounds: a longer header is read up to maxAcceptLanguage
// bytes, and only its first maxLanguageRanges ranges.
const (
	maxAcceptLanguage = 512
	maxLanguageRanges = 16
)

// qvalueRE is RFC 9110's qvalue: 0 to 1 with at most three decimals.
var qvalueRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$`) })

// sheetLang is the language a sheet is printed in: the query's lang
// (en, nb, da, nl, fr, ru; chosen is then true, and the sheet's links keep it), else
// the best of Accept-Language that the sheets speak, else English.
func sheetLang(r *http.Request) (lang string, chosen bool) {
	if q := r.URL.Query().Get("lang"); q != "" {
		for _, l := range sheetLangs {
			if q == l {
				return l, true
			}
		}
	}
	return acceptLanguage(r.Header.Get("Accept-Language")), false
}

// acceptLanguage picks from an Accept-Language header the sheet language
// of the highest q (the first of equal ones): Norwegian (nb, no, nn)
// reads bokmål, as the client does. A range with a malformed q is
// skipped, q=0 refuses; nothing acceptable is English.
func acceptLanguage(h string) string {
	if len(h) > maxAcceptLanguage {
		h = h[:maxAcceptLanguage]
	}
	best, bestQ := "en", 0.0
	for i, part := range strings.Split(h, ",") {
		if i == maxLanguageRanges {
			break
		}
		tag, params, _ := strings.Cut(part, ";")
		q, ok := 1.0, true
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(p, "=")
			if strings.TrimSpace(k) != "q" {
				continue
			}
			v = strings.TrimSpace(v)
			if !qvalueRE().MatchString(v) {
				ok = false
				break
			}
			q, _ = strconv.ParseFloat(v, 64)
		}
		if !ok || q <= bestQ {
			continue
		}
		primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		l := ""
		switch primary {
		case "nb", "no", "nn":
			l = "nb"
		case "da":
			l = "da"
		case "nl":
			l = "nl"
		case "fr":
			l = "fr"
		case "ru":
			l = "ru"
		case "en":
			l = "en"
		}
		if l != "" && slices.Contains(sheetLangs, l) {
			best, bestQ = l, q
		}
	}
	return best
}

// sheetNav is the text key of each sheet link, by its path below /e/{id}.
var sheetNav = map[string]string{
	"": "sheet.nav.pairings", "/standings": "sheet.nav.standings", "/crosstable": "sheet.nav.crosstable", "/cards": "sheet.nav.cards",
}

// localizeSheet puts ev (sheetEvent's of sn) in lang: the sheets' texts,
// the navigation's labels (its links to the sheets keep ?lang= when the
// reader chose it), the variant's and the system's names and the boards'
// result labels.
func localizeSheet(ev *sheets.Event, sn *director.Snapshot, lang string, chosen bool) {
	tx := sheetTexts()[lang]
	ev.Lang, ev.Texts = lang, tx
	tr := func(key, def string) string {
		if s := strings.TrimSpace(tx[key]); s != "" {
			return s
		}
		return def
	}
	base := "/e/" + sn.Event.ID
	for i, l := range ev.Links {
		rest, ok := strings.CutPrefix(l.Href, base)
		key, sheet := sheetNav[rest]
		if strings.HasSuffix(rest, "/print") {
			key, sheet = "sheet.nav.print", true
		}
		if strings.HasSuffix(rest, "/boards") {
			key, sheet = "sheet.nav.boards", true
		}
		if !ok || !sheet {
			continue
		}
		ev.Links[i].Label = tr(key, l.Label)
		if chosen {
			ev.Links[i].Href += "?lang=" + lang
		}
	}
	if chosen {
		for _, ls := range [][]sheets.Link{ev.RoundLinks, ev.AfterLinks} {
			for i := range ls {
				ls[i].Href += "?lang=" + lang
			}
		}
	}
	// A preset's name; a custom rule set keeps its own.
	ev.Variant = tr("variant."+sn.Event.Variant, ev.Variant)
	if sn.Event.System == director.RoundRobin {
		ev.System = tr("sheet.system.round_robin", ev.System)
	} else {
		ev.System = tr("sheet.system.swiss", ev.System)
	}
	if lang == "en" || len(ev.Played) != len(sn.Rounds) {
		return // English labels are the director's own
	}
	for r, rd := range sn.Rounds {
		if len(ev.Played[r].Boards) != len(rd.Boards) {
			continue
		}
		for b, bd := range rd.Boards {
			if ev.Played[r].Boards[b].Label != "" {
				ev.Played[r].Boards[b].Label = sn.Event.ResultLabelIn(bd, func(k string) string { return tx[k] })
			}
		}
	}
}
