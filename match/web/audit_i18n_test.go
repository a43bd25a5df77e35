package web

import (
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/people/director"
)

// TestAuditCatalogs: the director's page names every action of the audit
// log in each language (audit.action.*), and en.json's audit lines are
// the store's English templates word for word, so that the English the
// page fills and the English stored beside each line (its detail) are
// one text, defined once in match/people/director.
func TestAuditCatalogs(t *testing.T) {
	cats := loadCatalogs(t)
	for _, a := range director.AuditActions() {
		for _, l := range catalogLangs {
			if strings.TrimSpace(cats[l]["audit.action."+a]) == "" {
				t.Errorf("%s.json: no word for the audit action %q", l, a)
			}
		}
	}
	for _, c := range director.AuditCodes() {
		if got := cats["en"][c.Code]; got != c.Text {
			t.Errorf("en.json %s reads %q; the store's template is %q", c.Code, got, c.Text)
		}
	}
}
