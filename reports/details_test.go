package reports

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

func TestFmtSeconds(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want string
	}{
		{0, "0 s"}, {0.0000004, "0 µs"}, {0.00085, "850 µs"}, {0.042, "42 ms"}, {0.0005, "500 µs"},
		{0.25, "250 ms"}, {1.25, "1.25 s"}, {12.5, "12.5 s"}, {250, "250 s"},
	} {
		if got := fmtSeconds(tc.s); got != tc.want {
			t.Errorf("fmtSeconds(%g) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// TestFmtElo: an even match's Elo (computed as -0) and a figure that
// rounds to zero print as 0.0 with a plus sign, as in the standings, not
// as "-0.0" in one table and "+0.0" in the next.
func TestFmtElo(t *testing.T) {
	for _, tc := range []struct {
		x           float64
		elo, signed string
	}{
		{0, "0.0", "+0.0"}, {math.Copysign(0, -1), "0.0", "+0.0"}, {-0.04, "0.0", "+0.0"},
		{-0.06, "-0.1", "-0.1"}, {12.34, "12.3", "+12.3"}, {-111.3, "-111.3", "-111.3"},
		{math.NaN(), "n/a", "n/a"}, {math.Inf(1), "n/a", "n/a"},
	} {
		if got := fmtElo(tc.x); got != tc.elo {
			t.Errorf("fmtElo(%g) = %q, want %q", tc.x, got, tc.elo)
		}
		if got := fmtSigned(tc.x); got != tc.signed {
			t.Errorf("fmtSigned(%g) = %q, want %q", tc.x, got, tc.signed)
		}
	}
}

func TestFmtInterval(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{-10, 20.04, "[-10.0, +20.0]"},
		{nan, 20, "[−∞, +20.0]"},
		{5, nan, "[+5.0, +∞]"},
		{math.Inf(-1), math.Inf(1), "[−∞, +∞]"},
	} {
		if got := fmtInterval(tc.lo, tc.hi); got != tc.want {
			t.Errorf("fmtInterval(%g, %g) = %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// matchEvent is a two-engine international match: 3 wins, 1 draw, 2
// losses for alpha, written in the wide form.
func matchEvent() Event {
	ev := Event{Name: "Match", Variant: "international", TimeControl: "60+1", Site: "Utrecht", ConfigHash: "abc123",
		Settings:     []Setting{{Label: "Illegal moves", Value: "strict: an illegal move loses", Link: "https://example.org/rules#6"}},
		Participants: []EngineInfo{{Name: "alpha", Command: "./alpha --hash 64", Protocol: "hub", ID: "Alpha", Version: "2.1"}}}
	start := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	results := []string{"2-0", "0-2", "2-0", "1-1", "0-2", "2-0"}
	for i, r := range results {
		w, b := "alpha", "beta"
		if i%2 == 1 {
			w, b = "beta", "alpha"
			// from White's side: alpha's result flipped
			r = map[string]string{"2-0": "0-2", "0-2": "2-0", "1-1": "1-1"}[r]
		}
		ev.Games = append(ev.Games, Game{Round: i + 1, Board: 1, Pair: i/2 + 1, White: w, Black: b, Result: r, Plies: 40,
			Started: start.Add(time.Duration(i) * time.Hour), Finished: start.Add(time.Duration(i)*time.Hour + 50*time.Minute)})
	}
	return ev
}

func TestEventDetailsAndFederationPoints(t *testing.T) {
	ev := matchEvent()
	var b bytes.Buffer
	if err := WriteHTML(&b, ev); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"Utrecht", "1 May 2026", "09:00:00 – 14:50:00 UTC", "5 h 50 min", "flying kings",
		`href="https://github.com/draughts-arbiter/arbiter/blob/main/rules/RULES.md#3-international`,
		"FMJD: 2 points a win", "strict: an illegal move loses", `href="https://example.org/rules#6"`,
		"./alpha --hash 64", "Alpha", "2.1", "abc123",
		"Score of alpha vs beta: 3 - 2 - 1  [0.583] 6", "Elo difference:", "Ptnml(0-2):",
		"Elo against the field", "Pair Elo", `href="results.json"`, `href="games.pdn"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	// alpha: 3 wins and a draw are 7 points out of 12 on the FMJD scale.
	if !strings.Contains(page, "<td>7</td>") {
		t.Errorf("report.html does not show alpha's 7 federation points")
	}
	st, err := Compute(ev)
	if err != nil {
		t.Fatal(err)
	}
	if st.Engines[0].Name != "alpha" || st.Engines[0].FederationPoints != 7 || st.Engines[0].Points != 3.5 {
		t.Errorf("alpha: %s points %g, federation points %g; want 3.5 and 7", st.Engines[0].Name, st.Engines[0].Points, st.Engines[0].FederationPoints)
	}
}

func TestResultsOneLOS(t *testing.T) {
	r, err := BuildResults(matchEvent())
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Event struct {
			Participants []EngineInfo `json:"participants"`
			Arbiter      string       `json:"arbiter"`
		} `json:"event"`
		Stats struct {
			Engines []map[string]json.RawMessage `json:"engines"`
		} `json:"stats"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Event.Participants) != 2 || doc.Event.Participants[0].Command != "./alpha --hash 64" ||
		doc.Event.Participants[0].ID != "Alpha" || doc.Event.Participants[1].Name != "beta" || doc.Event.Arbiter == "" {
		t.Errorf("participants %+v, arbiter %q", doc.Event.Participants, doc.Event.Arbiter)
	}
	for _, e := range doc.Stats.Engines {
		var elo map[string]json.RawMessage
		if err := json.Unmarshal(e["elo"], &elo); err != nil {
			t.Fatal(err)
		}
		if _, ok := elo["los"]; ok {
			t.Errorf("engine %s: elo.los is still written beside los", e["name"])
		}
		if _, ok := e["los"]; !ok {
			t.Errorf("engine %s: no los", e["name"])
		}
	}
}
