package web

import (
	"strings"
	"testing"
)

// TestDirectorResultLabels: an FMJD event (2-1-0) and an English one
// (1-½-0) write their results each in its own notation, in the view the
// page draws (labels of the outcomes, each board's label), the audit log
// and the public pairing sheet; the view's standings carry their points
// and tie-break values in the event's notation too (the page prints them
// as they come).
func TestDirectorResultLabels(t *testing.T) {
	e := newDirEnv(t)
	for _, tc := range []struct {
		name, event          string
		win, draw, forfeit   string
		sheetHas, sheetLacks []string
		points               string // the standings' points, as the view sends them
	}{
		{"fmjd", `{"name":"FMJD Open","variant":"international","rounds":1,"tie_breaks":["progressive"]}`, "2-0", "1-1", "0-2 by forfeit",
			[]string{">2-0<", ">1-1<", ">0-2 by forfeit<"}, []string{"½", "+ −", "− +"}, "2,2,1,1,0,0"},
		{"english", `{"name":"English Open","variant":"english","half_points":true,"rounds":1,"tie_breaks":["progressive"]}`, "1-0", "½-½", "0-1 by forfeit",
			[]string{">1-0<", ">½-½<", ">0-1 by forfeit<"}, []string{">2-0<", ">1-1<", "− +"}, "1,1,½,½,0,0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok, id := e.createEvent(tc.event)
			e.op(tok, "add-players", `{"players":[{"name":"A","rating":2000},{"name":"B","rating":1900},{"name":"C","rating":1800},{"name":"D","rating":1700},{"name":"E","rating":1600},{"name":"F","rating":1500}]}`, 200)
			e.op(tok, "pair", `{"round":1}`, 200)
			v, _ := e.op(tok, "publish", `{"round":1}`, 200)
			if v.Labels["1-0"] != tc.win || v.Labels["=-="] != tc.draw || v.Labels["--+"] != tc.forfeit || len(v.Labels) != 6 {
				t.Fatalf("outcome labels %v", v.Labels)
			}
			e.op(tok, "result", `{"round":1,"board":1,"result":"1-0"}`, 200)
			e.op(tok, "result", `{"round":1,"board":2,"result":"½-½"}`, 200)
			v, _ = e.op(tok, "result", `{"round":1,"board":3,"result":"-+"}`, 200)
			want := map[string]boardResult{"1.1": {"1-0", tc.win}, "1.2": {"=-=", tc.draw}, "1.3": {"--+", tc.forfeit}}
			for k, w := range want {
				if v.Results[k] != w {
					t.Errorf("board %s: %+v, want %+v", k, v.Results[k], w)
				}
			}
			var points []string
			for _, st := range v.Standings {
				points = append(points, st.Points)
			}
			if got := strings.Join(points, ","); got != tc.points {
				t.Errorf("the standings' points %q, want %q", got, tc.points)
			}
			// After one round the progressive score is the score: in the
			// event's notation too (Values are units; 1-½-0 halves them).
			var ties []string
			for _, st := range v.Standings {
				ties = append(ties, strings.Join(st.Tie, ";"))
			}
			if got := strings.Join(ties, ","); got != tc.points {
				t.Errorf("the standings' progressive scores %q, want %q", got, tc.points)
			}
			if len(v.TieHeads) != 1 || v.TieHeads[0].Name != "progressive" || v.TieHeads[0].Acronym != "PS" {
				t.Errorf("tie-break heads %+v", v.TieHeads)
			}
			var audit []string
			for _, a := range v.Audit {
				if a.Action == "result" {
					audit = append(audit, a.Detail)
				}
			}
			wantAudit := []string{"round 1 board 1: " + tc.win + " (director)", "round 1 board 2: " + tc.draw + " (director)", "round 1 board 3: " + tc.forfeit + " (director)"}
			if strings.Join(audit, "|") != strings.Join(wantAudit, "|") {
				t.Errorf("audit %q, want %q", audit, wantAudit)
			}
			_, page := e.do("GET", "/e/"+id+"/round/1", "")
			for _, s := range tc.sheetHas {
				if !strings.Contains(string(page), s) {
					t.Errorf("the pairing sheet lacks %q", s)
				}
			}
			for _, s := range tc.sheetLacks {
				if strings.Contains(string(page), s) {
					t.Errorf("the pairing sheet has %q", s)
				}
			}
		})
	}
}
