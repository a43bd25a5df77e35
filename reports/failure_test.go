package reports

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// drawnMatch is a match of n colour-reversed pairs, every game drawn.
func drawnMatch(n int, sprt *stats.SPRTConfig) Event {
	ev := Event{Name: "drawn", Engines: []string{"A", "B"}, SPRT: sprt}
	for p := 1; p <= n; p++ {
		ev.Games = append(ev.Games,
			Game{Round: 2*p - 1, Board: 1, Pair: p, White: "A", Black: "B", Result: "1/2-1/2"},
			Game{Round: 2 * p, Board: 1, Pair: p, White: "B", Black: "A", Result: "1/2-1/2"})
	}
	return ev
}

// render returns the standings text, results.json and report.html of st.
func render(t *testing.T, ev Event, st *Stats) (text, js, page string) {
	t.Helper()
	var tb, jb, hb bytes.Buffer
	if err := WriteStandings(&tb, st); err != nil {
		t.Fatal(err)
	}
	if err := buildResults(ev, st).WriteJSON(&jb); err != nil {
		t.Fatal(err)
	}
	if err := writeHTML(&hb, ev, st, nil); err != nil {
		t.Fatal(err)
	}
	return tb.String(), jb.String(), hb.String()
}

// A computation that fails is shown where its figure would be, in every
// output, and the rest of the report is still written. The SPRT here asks
// for a normalized Elo of 1000 after 200 drawn games, which the fit cannot
// reach; the failed joint fit is set by hand (it takes 10^15 games, see
// stats.TestJointRatingsConvergence).
func TestFailuresAreShown(t *testing.T) {
	ev := drawnMatch(100, &stats.SPRTConfig{Elo0: 0, Elo1: 1000, Alpha: 0.05, Beta: 0.05})
	st, err := Compute(ev)
	if err != nil {
		t.Fatalf("a failed SPRT computation failed the report: %v", err)
	}
	if st.SPRT == nil || st.SPRT.Failure == "" || !math.IsNaN(st.SPRT.LLR) || st.SPRT.Decision != stats.Continue {
		t.Fatalf("SPRT %+v, want a failure", st.SPRT)
	}
	st.RatingFailure = "joint ratings: did not converge: the information matrix is singular"
	for i := range st.Engines {
		st.Engines[i].Rating = stats.Rating{Elo: math.NaN(), Error: math.NaN()}
	}
	text, js, page := render(t, ev, st)
	for _, tc := range []struct {
		where, got string
		want       []string
	}{
		{"standings text", text, []string{"SPRT [0, 1000]: LLR not computed (sprt: ", "after 200 games, 100 pairs", "Joint ratings not computed: " + st.RatingFailure}},
		{"results.json", js, []string{`"llr": null`, `"failure": "sprt: `, `"rating_failure": "joint ratings: did not converge`}},
		{"report.html", page, []string{"LLR not computed", `<div class="failure">sprt: `, `id="rating-failure">Rating not computed: joint ratings: did not converge`}},
	} {
		for _, w := range tc.want {
			if !strings.Contains(tc.got, w) {
				t.Errorf("%s does not show %q:\n%s", tc.where, w, excerpt(tc.got, w))
			}
		}
	}
	// Normal figures carry no failure anywhere.
	ok, err := Compute(drawnMatch(100, &stats.SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}))
	if err != nil || ok.SPRT.Failure != "" || ok.RatingFailure != "" || math.IsNaN(ok.Engines[0].Rating.Elo) {
		t.Fatalf("normal event: %+v, %v", ok, err)
	}
	text, js, page = render(t, ev, ok)
	for where, got := range map[string]string{"text": text, "json": js, "html": page} {
		if strings.Contains(got, "not computed") || strings.Contains(got, "failure\"") || strings.Contains(got, `class="failure"`) {
			t.Errorf("%s of a normal event shows a failure", where)
		}
	}
	if !strings.Contains(text, "LLR ") || strings.Contains(text, "NaN") {
		t.Errorf("normal SPRT line: %s", text)
	}
}

// excerpt is the part of s around the start of what was wanted, for a
// readable failure message.
func excerpt(s, want string) string {
	key := want
	if len(key) > 12 {
		key = key[:12]
	}
	i := strings.Index(s, key)
	if i < 0 {
		if len(s) > 400 {
			return s[:400] + "..."
		}
		return s
	}
	return s[max(0, i-100):min(len(s), i+300)]
}
