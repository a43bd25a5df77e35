package web

import (
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

// TestDirectorProvisionalStandings: while round 2 is open the director's
// view ranks with its results so far and says it is provisional; the
// public standings sheet and the TRF export count round 1 only.
func TestDirectorProvisionalStandings(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Live Open","variant":"international","rounds":3}`)
	e.op(tok, "add-players", `{"players":[{"name":"A","rating":2000},{"name":"B","rating":1900},{"name":"C","rating":1800},{"name":"D","rating":1700}]}`, 200)
	v, _ := e.op(tok, "pair", `{"round":1}`, 200)
	if v.Counted != (director.Count{Round: 1, Provisional: true, Of: 2}) {
		t.Fatalf("round 1 paired: %+v", v.Counted)
	}
	e.op(tok, "publish", `{"round":1}`, 200)
	e.op(tok, "result", `{"round":1,"board":1,"result":"1-0"}`, 200)
	e.op(tok, "result", `{"round":1,"board":2,"result":"1-0"}`, 200)
	v, _ = e.op(tok, "close", `{"round":1}`, 200)
	if v.Counted != (director.Count{Round: 1}) {
		t.Fatalf("round 1 closed: %+v", v.Counted)
	}
	after1 := map[int]int{}
	for _, s := range v.Standings {
		after1[s.Player.ID] = s.Score
	}
	e.op(tok, "pair", `{"round":2}`, 200)
	e.op(tok, "publish", `{"round":2}`, 200)
	v, _ = e.op(tok, "result", `{"round":2,"board":1,"result":"0-1"}`, 200)
	if v.Counted != (director.Count{Round: 2, Provisional: true, In: 1, Of: 2}) {
		t.Fatalf("round 2 half in: %+v", v.Counted)
	}
	winner := v.Rounds[1].Boards[0].Black
	for _, s := range v.Standings {
		want := after1[s.Player.ID]
		if s.Player.ID == winner {
			want += 2
		}
		if s.Score != want {
			t.Errorf("%s: %d provisionally, want %d", s.Player.Name, s.Score, want)
		}
	}
	_, page := e.do("GET", "/e/"+id+"/standings", "")
	if !strings.Contains(string(page), "Standings after round 1") || strings.Contains(string(page), "round 2") {
		t.Errorf("the public standings sheet counts the open round:\n%s", page)
	}
	_, text := e.do("GET", "/e/"+id+"/trf", "")
	ev, err := trf.Read(strings.NewReader(string(text)))
	if err != nil {
		t.Fatal(err)
	}
	points := 0
	for _, p := range ev.Players {
		if len(p.History) != 1 {
			t.Errorf("TRF player %d has %d rounds", p.Number, len(p.History))
		}
		points += p.Points
	}
	if points != 40 { // two games of 2 points, in tenths
		t.Errorf("TRF points %d, want 40", points)
	}
}
