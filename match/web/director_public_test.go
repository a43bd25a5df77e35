package web

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPublicPagesEveryState: every public page of an event answers 200
// (or 404 for a round not published) with sensible content in each state
// of its life: just created, players registered, round 1 paired but not
// published, published with a result in, all results in but open, closed.
// Before round 1 is closed the standings and the crosstable say so rather
// than fail.
func TestPublicPagesEveryState(t *testing.T) {
	e := newDirEnv(t)
	const (
		noPublished = "No round has been published yet."
		noClosed    = "No round has been closed yet"
	)
	type page struct {
		path   string
		status int
		has    []string
		hasNot []string
	}
	states := []struct {
		name  string
		steps func(tok string)
		pages []page
	}{
		{"created", func(string) {}, []page{
			{"", 200, []string{"Public Open", "<h2>Pairings", noPublished}, nil},
			{"/round/1", 404, nil, nil},
			{"/standings", 200, []string{"Public Open", noClosed, "when round 1 is closed"}, nil},
			{"/crosstable", 200, []string{"Public Open", noClosed}, nil},
			{"/cards", 200, []string{"Public Open", "No player is registered yet."}, nil},
			{"/trf", 200, []string{"012 Public Open"}, nil},
			{"/pdn", 200, nil, nil},
		}},
		{"registered", func(tok string) {
			e.op(tok, "add-players", `{"players":[{"name":"Ann","rating":2000},{"name":"Ben","rating":1900},{"name":"Cat","rating":1800},{"name":"Dan","rating":1700}]}`, 200)
		}, []page{
			{"", 200, []string{noPublished}, nil},
			{"/round/1", 404, nil, nil},
			{"/standings", 200, []string{noClosed}, nil},
			{"/crosstable", 200, []string{noClosed}, nil},
			{"/cards", 200, []string{"Ann</h3>", "Dan</h3>"}, []string{"No player"}},
			{"/trf", 200, []string{"001    1", "Ann"}, nil},
			{"/pdn", 200, nil, nil},
		}},
		{"paired", func(tok string) { e.op(tok, "pair", `{"round":1}`, 200) }, []page{
			{"", 200, []string{noPublished}, []string{"data-board"}},
			{"/round/1", 404, nil, nil},
			{"/standings", 200, []string{noClosed}, nil},
			{"/crosstable", 200, []string{noClosed}, nil},
			{"/cards", 200, []string{"Ann</h3>"}, []string{`data-round="1"`}},
			{"/trf", 200, []string{"Ann"}, nil},
			{"/pdn", 200, nil, nil},
		}},
		{"published", func(tok string) {
			e.op(tok, "publish", `{"round":1}`, 200)
			e.op(tok, "result", `{"round":1,"board":1,"result":"1-0"}`, 200)
		}, []page{
			{"", 200, []string{"Pairings, round 1", `data-board="2"`, ">2-0<"}, []string{noPublished}},
			{"/round/1", 200, []string{"Pairings, round 1"}, nil},
			{"/round/2", 404, nil, nil},
			{"/standings", 200, []string{noClosed}, nil},
			{"/crosstable", 200, []string{noClosed}, nil},
			{"/cards", 200, []string{`data-round="1"`, "…"}, nil},
			{"/trf", 200, []string{"Ann"}, nil},
			{"/pdn", 200, nil, nil},
		}},
		{"all in, open", func(tok string) {
			e.op(tok, "result", `{"round":1,"board":2,"result":"½-½"}`, 200)
		}, []page{
			{"", 200, []string{"Pairings, round 1", ">1-1<"}, nil},
			{"/standings", 200, []string{noClosed}, nil},
			{"/crosstable", 200, []string{noClosed}, nil},
			{"/cards", 200, []string{`data-round="1"`, "…"}, nil},
		}},
		{"closed", func(tok string) { e.op(tok, "close", `{"round":1}`, 200) }, []page{
			{"", 200, []string{"Pairings, round 1", ">2-0<"}, nil},
			{"/round/1", 200, []string{"Pairings, round 1"}, nil},
			{"/standings", 200, []string{"Standings after round 1", "Ann"}, []string{noClosed}},
			{"/crosstable", 200, []string{"after round 1", `data-round="1"`}, []string{noClosed}},
			{"/cards", 200, []string{`data-round="1"`}, []string{"…"}},
			{"/trf", 200, []string{"Ann"}, nil},
			{"/pdn", 200, nil, nil},
		}},
	}
	tok, id := e.createEvent(`{"name":"Public Open","variant":"international","rounds":3}`)
	for _, st := range states {
		st.steps(tok)
		for _, p := range st.pages {
			resp, body := e.do("GET", "/e/"+id+p.path, "")
			if resp.StatusCode != p.status {
				t.Errorf("%s: /e/{id}%s: %d, want %d\n%s", st.name, p.path, resp.StatusCode, p.status, body)
				continue
			}
			for _, s := range p.has {
				if !strings.Contains(string(body), s) {
					t.Errorf("%s: /e/{id}%s lacks %q", st.name, p.path, s)
				}
			}
			for _, s := range p.hasNot {
				if strings.Contains(string(body), s) {
					t.Errorf("%s: /e/{id}%s has %q", st.name, p.path, s)
				}
			}
		}
	}
	if resp, _ := e.do("GET", "/e/nosuchevent/standings", ""); resp.StatusCode != 404 {
		t.Errorf("an unknown event's standings: %d, want 404", resp.StatusCode)
	}
}

// TestPublicCountsClosedRounds: round 2 has every result in but is not
// closed: the crosstable counts round 1 only, as the standings do, and
// the cards list round 2's pairing with its result pending, outside their
// totals; once it is closed both count it.
func TestPublicCountsClosedRounds(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Closed Open","variant":"international","rounds":3}`)
	e.op(tok, "add-players", `{"players":[{"name":"Ann","rating":2000},{"name":"Ben","rating":1900},{"name":"Cat","rating":1800},{"name":"Dan","rating":1700}]}`, 200)
	for n := 1; n <= 2; n++ {
		e.op(tok, "pair", fmt.Sprintf(`{"round":%d}`, n), 200)
		e.op(tok, "publish", fmt.Sprintf(`{"round":%d}`, n), 200)
		e.op(tok, "result", fmt.Sprintf(`{"round":%d,"board":1,"result":"1-0"}`, n), 200)
		e.op(tok, "result", fmt.Sprintf(`{"round":%d,"board":2,"result":"1-0"}`, n), 200)
		if n == 1 {
			e.op(tok, "close", `{"round":1}`, 200)
		}
	}
	get := func(path string) string { t.Helper(); return e.public(id, path) }
	totals := regexp.MustCompile(`class="num total">([^<]*)<`)
	check := func(state string, rounds int) {
		t.Helper()
		if st := get("/standings"); !strings.Contains(st, fmt.Sprintf("Standings after round %d", rounds)) {
			t.Errorf("%s: the standings do not count %d rounds", state, rounds)
		}
		ct := get("/crosstable")
		if !strings.Contains(ct, fmt.Sprintf("after round %d of 3", rounds)) {
			t.Errorf("%s: the crosstable is not after round %d", state, rounds)
		}
		if got := strings.Count(ct, `<th class="rd">`); got != rounds {
			t.Errorf("%s: the crosstable has %d round columns, want %d", state, got, rounds)
		}
		cards := get("/cards")
		if got := strings.Count(cards, `<tr data-round="2">`); got != 4 {
			t.Errorf("%s: %d cards list round 2, want 4", state, got)
		}
		sum := 0
		for _, m := range totals.FindAllStringSubmatch(cards, -1) {
			n, _ := strconv.Atoi(m[1])
			sum += n
		}
		if want := 4 * rounds; sum != want { // two wins of 2 points a round
			t.Errorf("%s: the cards' totals add up to %d, want %d", state, sum, want)
		}
		if pending := strings.Count(cards, `<td class="res">…</td>`); (rounds == 1) != (pending == 4) {
			t.Errorf("%s: %d pending results on the cards", state, pending)
		}
	}
	check("round 2 all in, open", 1)
	e.op(tok, "close", `{"round":2}`, 200)
	check("round 2 closed", 2)
}
