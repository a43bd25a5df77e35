package web

import (
	"encoding/json"
	"io/fs"
	"testing"
)

// Every code the server itself answers with has a text in each of the
// client's catalogs.
func TestServerCodesInCatalogs(t *testing.T) {
	for _, lang := range []string{"en", "nb", "da", "nl", "fr", "ru"} {
		data, err := fs.ReadFile(Assets, "assets/i18n/"+lang+".json")
		if err != nil {
			t.Fatal(err)
		}
		var cat map[string]any
		if err := json.Unmarshal(data, &cat); err != nil {
			t.Fatalf("%s.json: %v", lang, err)
		}
		for _, c := range Codes() {
			if _, ok := cat[c]; !ok {
				t.Errorf("%s.json has no %q", lang, c)
			}
		}
	}
}
