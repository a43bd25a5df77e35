package web

import (
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
