package sheets

import (
	"bytes"
	"strings"
	"testing"
)

// TestRated computes by hand, from FIDE B.02 (tables 8.1.1 and 8.1.2,
// art. 8.3), the figures the cards and standings of testEvent print once
// Rated. Ed Eng (5), 1600, K 20: R1 draws Bo Berg 1900 (D = −300, PD .15,
// ΔR +.35, +7.0); R2 half-point bye (not rated); R3 loses to Cy 1801
// (D = −201, PD .24, ΔR −.24, −4.8). ΣΔR = .11 × 20 = 2.2: +2.
// Performance: Ra = (1900 + 1801) / 2 = 1850.5 → 1851, p = .25, dp −193:
// 1658. Ada Lind (1), 2000: beats Di 1700 (+.15, +3.0), Fa unrated (not
// rated), draws Bo 1900 (D = 100, PD .64, −.14, −2.8): +0.2 → 0;
// Ra 1800, p .75, dp 193: 1993. Fa Fjell is unrated: no figures.
func TestRated(t *testing.T) {
	ev := testEvent()
	ev.Rated = true
	var buf bytes.Buffer
	if err := Card(&buf, ev, 5); err != nil {
		t.Fatal(err)
	}
	root := parse(t, buf.Bytes())
	rows := rowsOf(t, root, "card-table")
	want := []string{"+7.0", "", "−4.8"}
	for i, r := range rows {
		c := r.cells()
		if got := c[len(c)-1]; got != want[i] {
			t.Errorf("card of 5, round %d: rating change %q, want %q", i+1, got, want[i])
		}
	}
	if tot := root.all(hasAttr("class", "rating-total")); len(tot) != 1 || tot[0].String() != "rating change +2, performance 1658" {
		t.Errorf("card of 5: %v", tot)
	}

	// A Russian or Dutch director's card writes the decimal comma its
	// readers write (the browsers' Intl.NumberFormat), an English one the point.
	for lang, want := range map[string]string{"ru": "+7,0 −4,8", "nl": "+7,0 −4,8", "en": "+7.0 −4.8"} {
		ev := testEvent()
		ev.Rated, ev.Lang = true, lang
		buf.Reset()
		if err := Card(&buf, ev, 5); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rowsOf(t, parse(t, buf.Bytes()), "card-table") {
			if c := r.cells(); c[len(c)-1] != "" {
				got = append(got, c[len(c)-1])
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("card of 5 in %s: rating changes %q, want %q", lang, got, want)
		}
	}

	buf.Reset()
	if err := Standings(&buf, ev, 3); err != nil {
		t.Fatal(err)
	}
	root = parse(t, buf.Bytes())
	got := map[string][2]string{}
	for _, r := range rowsOf(t, root, "standings") {
		ch, pf := r.all(hasAttr("class", "num rating-change")), r.all(hasAttr("class", "num performance"))
		if len(ch) != 1 || len(pf) != 1 {
			t.Fatalf("row %v: no rating columns", r.cells())
		}
		got[r.attr["data-player"]] = [2]string{ch[0].String(), pf[0].String()}
	}
	for p, w := range map[string][2]string{"5": {"+2", "1658"}, "1": {"0", "1993"}, "6": {"", ""}} {
		if got[p] != w {
			t.Errorf("standings, player %s: %q, want %q", p, got[p], w)
		}
	}
	if !strings.Contains(root.String(), "FIDE B.02 art. 8.3") {
		t.Error("the standings do not say how the figures are computed")
	}

	// Not Rated: no rating column anywhere.
	ev.Rated = false
	buf.Reset()
	if err := Standings(&buf, ev, 3); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "rating-change") {
		t.Error("rating columns printed for an event that is not Rated")
	}
}
