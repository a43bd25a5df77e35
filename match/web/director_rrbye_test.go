package web

import (
	"fmt"
	"strings"
	"testing"
)

// TestDirectorRoundRobinHalfBye: a round-robin player asks for a
// half-point bye in round 1; the board stays on the table (the opponent
// wins by forfeit), and the crosstable, the cards and the pairing sheet
// show a bye, not a forfeit loss.
func TestDirectorRoundRobinHalfBye(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"RR Club","variant":"international","system":"round-robin","rounds":3}`)
	v, _ := e.op(tok, "add-players", `{"players":[{"name":"Ann","rating":2000},{"name":"Ben","rating":1900},{"name":"Cat","rating":1800},{"name":"Dan","rating":1700}]}`, 200)
	ann := 0
	for _, p := range v.Players {
		if p.Name == "Ann" {
			ann = p.ID
		}
	}
	e.op(tok, "bye", fmt.Sprintf(`{"player":%d,"round":1,"kind":"H"}`, ann), 200)
	v, _ = e.op(tok, "pair", `{"round":1}`, 200)
	other := 0
	for _, b := range v.Rounds[0].Boards {
		if b.White != ann && b.Black != ann {
			other = b.Board
		}
	}
	e.op(tok, "publish", `{"round":1}`, 200)
	e.op(tok, "result", fmt.Sprintf(`{"round":1,"board":%d,"result":"1-0"}`, other), 200)
	e.op(tok, "close", `{"round":1}`, 200)

	get := func(path string) string { t.Helper(); return e.public(id, path) }
	for _, c := range []struct {
		path        string
		has, hasNot []string
	}{
		{"/crosstable", []string{">1 bye<"}, []string{">−<"}},
		{"/cards", []string{"half-point bye"}, []string{"− forfeit"}},
		{"/round/1", []string{"half-point bye)"}, []string{"by forfeit", "− +", "+ −"}},
	} {
		page := get(c.path)
		for _, s := range c.has {
			if !strings.Contains(page, s) {
				t.Errorf("%s lacks %q", c.path, s)
			}
		}
		for _, s := range c.hasNot {
			if strings.Contains(page, s) {
				t.Errorf("%s has %q", c.path, s)
			}
		}
	}
	// Ann's card: round 1 a half-point bye worth 1 (2-1-0), no opponent.
	cards := get("/cards")
	i := strings.Index(cards, "Ann</h3>")
	if i < 0 || !strings.Contains(cards[i:i+min(len(cards)-i, 1500)], "half-point bye</td>") {
		t.Errorf("Ann's card does not show the bye")
	}
}
