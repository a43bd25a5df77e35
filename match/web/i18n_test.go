package web

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/people/director"
)

// catalogLangs are the client's languages: English (the reference), Norwegian
// bokmål, Danish, Dutch, French and Russian.
var catalogLangs = []string{"en", "nb", "da", "nl", "fr", "ru"}

// loadCatalogs reads assets/i18n/{lang}.json from the embedded client.
func loadCatalogs(t *testing.T) map[string]map[string]string {
	t.Helper()
	cats := map[string]map[string]string{}
	for _, l := range catalogLangs {
		data, err := fs.ReadFile(Assets, "assets/i18n/"+l+".json")
		if err != nil {
			t.Fatalf("catalog %s: %v", l, err)
		}
		var m map[string]string
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("catalog %s is not a JSON object of strings: %v", l, err)
		}
		cats[l] = m
	}
	return cats
}

var argRE = regexp.MustCompile(`\{([A-Za-z0-9_]+)\}`)

// templateArgs lists the {name} arguments of a template.
func templateArgs(s string) []string {
	var out []string
	for _, m := range argRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestCatalogsAgree checks that the six catalogs have the same keys, no
// empty entry, every {argument} of the English template, and no {argument}
// the English template lacks (the code that
// fills a template only knows the English one's arguments).
func TestCatalogsAgree(t *testing.T) {
	cats := loadCatalogs(t)
	en := cats["en"]
	if len(en) < 100 {
		t.Fatalf("the English catalog has %d entries; expected the whole interface", len(en))
	}
	for _, l := range catalogLangs {
		for k, v := range cats[l] {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s.json: %q is empty", l, k)
			}
			ref, ok := en[k]
			if !ok {
				t.Errorf("%s.json: %q has no English entry", l, k)
				continue
			}
			for _, a := range templateArgs(v) {
				if !slices.Contains(templateArgs(ref), a) {
					t.Errorf("%s.json: %q uses {%s}, which the English template %q does not have", l, k, a, ref)
				}
			}
			for _, a := range templateArgs(ref) {
				if !slices.Contains(templateArgs(v), a) {
					t.Errorf("%s.json: %q leaves out {%s} of the English template %q", l, k, a, ref)
				}
			}
		}
		for k := range en {
			if _, ok := cats[l][k]; !ok {
				t.Errorf("%s.json: no entry for %q", l, k)
			}
		}
	}
}

// TestCatalogsCoverCodes checks that every message code the server can send
// (the Hall's, the referee's and the HTTP layer's) has an entry in every
// catalog, and that the entry's arguments are the code's own.
func TestCatalogsCoverCodes(t *testing.T) {
	cats := loadCatalogs(t)
	codes := messageCodes()
	if len(codes) == 0 {
		t.Fatal("no message codes listed")
	}
	for _, c := range codes {
		for _, l := range catalogLangs {
			if strings.TrimSpace(cats[l][c.code]) == "" {
				t.Errorf("%s.json: no entry for the %s code %q", l, c.from, c.code)
			}
		}
		if c.english == "" {
			continue
		}
		for _, a := range templateArgs(cats["en"][c.code]) {
			if !slices.Contains(templateArgs(c.english), a) {
				t.Errorf("en.json: %q uses {%s}, which the %s's own template %q does not have", c.code, a, c.from, c.english)
			}
		}
		// Every catalog says all the message says (a dropped {argument}
		// would hide what was played, or why).
		for _, l := range catalogLangs {
			for _, a := range templateArgs(c.english) {
				if !slices.Contains(templateArgs(cats[l][c.code]), a) {
					t.Errorf("%s.json: %q lacks {%s} of the %s's template %q", l, c.code, a, c.from, c.english)
				}
			}
		}
	}
}

// The catalog keys the client names literally: data-i18n attributes,
// data-i18n-attr pairs ("placeholder:key,aria-label:key") and t('key') calls.
var (
	textKeyRE = regexp.MustCompile(`data-i18n="([^"]+)"`)
	attrKeyRE = regexp.MustCompile(`data-i18n-attr="([^"]+)"`)
	callKeyRE = regexp.MustCompile(`\bt\('([a-z]+\.[a-z0-9_.-]+)'`)
)

// pageKeys lists the keys one page or script uses literally.
func pageKeys(src string) []string {
	var keys []string
	for _, m := range textKeyRE.FindAllStringSubmatch(src, -1) {
		keys = append(keys, m[1])
	}
	for _, m := range attrKeyRE.FindAllStringSubmatch(src, -1) {
		for _, pair := range strings.Split(m[1], ",") {
			if _, k, ok := strings.Cut(pair, ":"); ok {
				keys = append(keys, strings.TrimSpace(k))
			}
		}
	}
	for _, m := range callKeyRE.FindAllStringSubmatch(src, -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// TestCatalogsCoverPages checks that every key the pages and scripts use
// literally has an English entry (so no raw key reaches the screen).
func TestCatalogsCoverPages(t *testing.T) {
	cats := loadCatalogs(t)
	n := 0
	err := fs.WalkDir(Assets, "assets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".html") || strings.HasSuffix(path, ".js")) {
			return err
		}
		data, err := fs.ReadFile(Assets, path)
		if err != nil {
			return err
		}
		for _, key := range pageKeys(string(data)) {
			n++
			if _, ok := cats["en"][key]; !ok {
				t.Errorf("%s uses the key %q, which en.json lacks", path, key)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("found only %d keys in the pages; the scan is broken", n)
	}
}

// TestCatalogsNotLeftInEnglish: no catalog keeps an English sentence as
// its translation (an entry equal to the English one with two words or
// more: "Players who must not meet" was one in French and Russian), the
// Russian has no two Latin words in a row outside its {arguments}, and the
// English words the server sends as argument values — the director's
// round states (director.already's {state}) and the referee's endgame and
// N-move windows (evidence.window's {rule}, arbiter/evidence.go and
// draws.go) — have a value.X entry, which i18n.js's localArgs translates.
func TestCatalogsNotLeftInEnglish(t *testing.T) {
	cats := loadCatalogs(t)
	en := cats["en"]
	words := regexp.MustCompile(`[A-Za-z]{2,}`)
	latinRun := regexp.MustCompile(`[A-Za-z]{3,} [A-Za-z]{3,}`)
	for _, l := range catalogLangs[1:] {
		for k, v := range cats[l] {
			bare := argRE.ReplaceAllString(v, "")
			if v == en[k] && len(words.FindAllString(bare, -1)) >= 2 {
				t.Errorf("%s.json: %q is the English %q", l, k, v)
			}
			if l == "ru" && latinRun.MatchString(bare) {
				t.Errorf("ru.json: %q has English words: %q", k, v)
			}
		}
	}
	values := []string{director.Paired, director.Published, director.Closed,
		"in this endgame", "with 2 kings against 1 king", "with 1 king against 1 king",
		"with no uncrowned man advanced and no capture", "with only kings moving and no capture"}
	for _, l := range catalogLangs {
		for _, v := range values {
			if strings.TrimSpace(cats[l]["value."+v]) == "" {
				t.Errorf("%s.json: no value.%s, so it would show in English", l, v)
			}
		}
	}
}

// TestFrenchSidesArePlural checks that the French catalog speaks of a side
// as "les Blancs"/"les Noirs", plural with its verb, as a French player
// reads it in the game log ("Les Blancs proposent la nulle", not "Blancs
// propose la nulle"; "des Noirs", "aux Blancs", not "de Noirs", "à Blancs").
func TestFrenchSidesArePlural(t *testing.T) {
	fr := loadCatalogs(t)["fr"]
	bare := regexp.MustCompile(`(^|[.;:!?] )\{(color|opponent|decider)\}|\b(de|à|pour|par|jouez|joue) \{(color|opponent|decider)\}`)
	for k, v := range fr {
		if m := bare.FindString(v); m != "" {
			t.Errorf("fr.json: %q has %q without its article: %q", k, m, v)
		}
	}
	for code, want := range map[string]string{
		"offer.made":      "Les Blancs proposent la nulle.",
		"move.played":     "Les Noirs ont joué 32-28.",
		"presence.back":   "Les Noirs sont de retour.",
		"result.flag":     "Le drapeau des Blancs est tombé. 0-2",
		"claim.refused":   "Les Noirs ont réclamé la nulle (répétition) : refusée. La position….",
		"offer.withdrawn": "La proposition de nulle des Blancs est retirée par leur coup.",
	} {
		color := "Blancs"
		if strings.Contains(want, "Noirs") {
			color = "Noirs"
		}
		args := map[string]string{"color": color, "move": "32-28", "result": "0-2", "claim": "répétition", "reason": "La position…"}
		if got := argRE.ReplaceAllStringFunc(fr[code], func(s string) string { return args[s[1:len(s)-1]] }); got != want {
			t.Errorf("fr.json %s reads %q, want %q", code, got, want)
		}
	}
}
