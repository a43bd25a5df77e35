package director

import (
	"context"
	"strings"
	"testing"
)

// TestTRFTitles: the TRF16 title field (columns 11-13) holds only the FIDE
// codes; FMJD titles are written as the code in their seeding place,
// unknown ones left blank.
func TestTRFTitles(t *testing.T) {
	for title, want := range map[string]string{"GMI": "GM", "gmif": "WGM", "MI": "IM", "MIF": "WIM", "MF": "FM", "MFF": "WFM", "CMF": "CM",
		"GM": "GM", "WCM": "WCM", "": "", "Dr.": "", "national master": ""} {
		if got := trfTitle(title); got != want {
			t.Errorf("%q: %q, want %q", title, got, want)
		}
	}
	s := newStore(t, testPair)
	ctx := context.Background()
	id, _ := newEvent(t, s, Swiss, 3, 2)
	sn := get(t, s, id)
	p := *sn.Player(1)
	p.Title = "GMI"
	must(t, s.EditPlayer(ctx, id, 1, p, false))
	var b strings.Builder
	must(t, get(t, s, id).WriteTRF(&b))
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "001") && strings.Contains(l, "Player A") {
			if len(l) < 13 || strings.TrimSpace(l[10:13]) != "GM" {
				t.Errorf("columns 11-13 of %q: %q, want GM", l, l[10:13])
			}
			return
		}
	}
	t.Errorf("no line for Player A:\n%s", b.String())
}
