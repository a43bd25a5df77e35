package web

import (
	"fmt"
	"strings"
	"testing"
)

// TestDirectorDirectEncounterShown: in a round-robin ranked by
// Sonneborn-Berger, the direct encounter and wins (the default order), the
// direct-encounter column shows a value only for players level on points
// and Sonneborn-Berger, whom it takes part in separating (C.07 6); a
// player the criteria before it already placed shows a dash, not the "1"
// the ranking computes for a group of one. The ranking does not change.
// The director's standings and the public ones say the same.
func TestDirectorDirectEncounterShown(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Club RR","variant":"international","system":"round-robin","rounds":3}`)
	e.op(tok, "add-players", `{"players":[{"name":"A","rating":2000},{"name":"B","rating":1900},{"name":"C","rating":1800},{"name":"D","rating":1700}]}`, 200)
	// A and B draw; otherwise the higher seed wins: A 5, B 5 (level on
	// SB too: 5 + 2×2 + 0 each), C 2 (SB 0), D 0.
	for r := 1; r <= 3; r++ {
		e.op(tok, "pair", fmt.Sprintf(`{"round":%d}`, r), 200)
		v, _ := e.op(tok, "publish", fmt.Sprintf(`{"round":%d}`, r), 200)
		for i, b := range v.Rounds[r-1].Boards {
			res := "1-0"
			switch {
			case min(b.White, b.Black) == 1 && max(b.White, b.Black) == 2:
				res = "½-½"
			case b.Black < b.White:
				res = "0-1"
			}
			e.op(tok, "result", fmt.Sprintf(`{"round":%d,"board":%d,"result":"%s"}`, r, i+1, res), 200)
		}
		e.op(tok, "close", fmt.Sprintf(`{"round":%d}`, r), 200)
	}
	v := e.view(tok)
	if len(v.TieHeads) != 3 || v.TieHeads[1].Acronym != "DE" {
		t.Fatalf("tie-break heads %+v, want SB, DE, WIN", v.TieHeads)
	}
	var rows []string
	for _, s := range v.Standings {
		rows = append(rows, fmt.Sprintf("%d %s %s %s", s.Rank, s.Player.Name, s.Points, strings.Join(s.Tie, " ")))
	}
	want := "1 A 5 9 1 2|1 B 5 9 1 2|3 C 2 0 – 1|4 D 0 0 – 0"
	if got := strings.Join(rows, "|"); got != want {
		t.Errorf("the director's standings read\n%s\nwant\n%s", got, want)
	}
	page := e.public(id, "/standings")
	if n := strings.Count(page, ">–<"); n != 2 {
		t.Errorf("the public standings print %d dashes, want 2 (C's and D's direct encounter)", n)
	}
}
