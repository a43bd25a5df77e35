package web

import (
	"fmt"
	"strings"
	"testing"
)

// TestDirectorReinstate: the reinstate operation and its refusals.
func TestDirectorReinstate(t *testing.T) {
	e := newDirEnv(t)
	tok, _ := e.createEvent(`{"name":"Back Open","variant":"international","rounds":3}`)
	v, _ := e.op(tok, "add-players", `{"players":[{"name":"A","rating":2000},{"name":"B","rating":1900},{"name":"C","rating":1800},{"name":"D","rating":1700}]}`, 200)
	d := v.Players[3].ID
	for _, c := range []struct {
		name, body string
		status     int
		code, arg  string
	}{
		{"unknown player", `{"player":99}`, 404, "director.unknown-player", `"player":"99"`},
		{"no player", `{}`, 404, "director.unknown-player", `"player":"0"`},
		{"not withdrawn", fmt.Sprintf(`{"player":%d}`, d), 409, "director.not-withdrawn", `"player":"D"`},
		{"unknown field", `{"player":1,"who":2}`, 400, "http.bad-json", ""},
	} {
		_, b := e.op(tok, "reinstate", c.body, c.status)
		if errorCode(b) != c.code || !strings.Contains(string(b), c.arg) {
			t.Errorf("%s: %s, want %s with %s", c.name, b, c.code, c.arg)
		}
	}
	e.op(tok, "withdraw", fmt.Sprintf(`{"player":%d}`, d), 200)
	e.op(tok, "pair", `{"round":1}`, 200)
	v, _ = e.op(tok, "reinstate", fmt.Sprintf(`{"player":%d}`, d), 200)
	if v.Players[3].Withdrawn != 0 || v.Audit[len(v.Audit)-1].Action != "reinstate" ||
		!strings.Contains(v.Audit[len(v.Audit)-1].Detail, "D reinstated (withdrawn from round 1), paired again from round 2") {
		t.Fatalf("reinstated: %+v %+v", v.Players[3], v.Audit[len(v.Audit)-1])
	}
}

// TestDirectorEditEvent: the event's details change through the API;
// bad input is refused naming the field, and nothing changes then.
func TestDirectorEditEvent(t *testing.T) {
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Draft name","variant":"international","rounds":3}`)
	long := strings.Repeat("x", 129)
	for _, c := range []struct {
		name, body string
		status     int
		code       string
		field      string
	}{
		{"no details", `{}`, 400, "director.bad-field", "name"},
		{"empty name", `{"details":{"name":"  ","site":"Oslo"}}`, 400, "director.bad-field", "name"},
		{"long name", `{"details":{"name":"` + long + `"}}`, 400, "director.bad-field", "name"},
		{"long site", `{"details":{"name":"N","site":"` + long + `"}}`, 400, "director.bad-field", "site"},
		{"long time control", `{"details":{"name":"N","time_control":"` + long + `"}}`, 400, "director.bad-field", "time_control"},
		{"bad time control", `{"details":{"name":"N","time_control":"blitz"}}`, 400, "director.bad-field", "time_control"},
		{"bad date", `{"details":{"name":"N","start":"1 May"}}`, 400, "director.bad-field", "start"},
		{"end before start", `{"details":{"name":"N","start":"2026-05-02","end":"2026-05-01"}}`, 400, "director.bad-field", "end"},
		{"a setting not editable", `{"details":{"name":"N","rounds":9}}`, 400, "http.bad-json", ""},
		{"not a string", `{"details":{"name":7}}`, 400, "http.bad-json", ""},
	} {
		_, b := e.op(tok, "edit-event", c.body, c.status)
		if errorCode(b) != c.code || (c.field != "" && !strings.Contains(string(b), `"field":"`+c.field+`"`)) {
			t.Errorf("%s: %s, want %s naming %q", c.name, b, c.code, c.field)
		}
	}
	resp, b := e.do("POST", "/api/d/"+tok+"/edit-event", `{"details":{"name":"`+strings.Repeat("x", 2<<20)+`"}}`)
	if resp.StatusCode != 413 {
		t.Errorf("an oversized body: %d %s", resp.StatusCode, b)
	}
	if v := e.view(tok); v.Event.Name != "Draft name" {
		t.Fatalf("a refused edit changed the name to %q", v.Event.Name)
	}
	v, _ := e.op(tok, "edit-event", `{"details":{"name":"Bergen Open 2026","site":"Bergen","start":"2026-06-01","end":"2026-06-03","time_control":"900+10"}}`, 200)
	if v.Event.Name != "Bergen Open 2026" {
		t.Fatalf("edited: %+v", v.Event)
	}
	last := v.Audit[len(v.Audit)-1]
	if last.Action != "edit" || !strings.Contains(last.Detail, `name "Draft name" -> "Bergen Open 2026"`) || !strings.Contains(last.Detail, `time_control "" -> "900+10"`) {
		t.Fatalf("audit %+v", last)
	}
	// The public pages and the TRF say the new name and site.
	e.op(tok, "add-players", `{"players":[{"name":"A"},{"name":"B"}]}`, 200)
	e.op(tok, "pair", `{"round":1}`, 200)
	e.op(tok, "publish", `{"round":1}`, 200)
	_, page := e.do("GET", "/e/"+id, "")
	if !strings.Contains(string(page), "Bergen Open 2026") || !strings.Contains(string(page), "Bergen") {
		t.Errorf("the public page does not show the new details")
	}
	_, text := e.do("GET", "/e/"+id+"/trf", "")
	if !strings.Contains(string(text), "012 Bergen Open 2026") || !strings.Contains(string(text), "022 Bergen") {
		t.Errorf("the TRF does not have the new details:\n%s", text)
	}
}
