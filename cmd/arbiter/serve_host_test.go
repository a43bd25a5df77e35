package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestServeLinksIgnoreHostHeader: `arbiter serve` without --public-url
// builds the links it shows (a game's links, a director's link and the
// event's public address, the printable card with their QR codes, the
// result links of a round and the check-in links) from the address of the
// listener the request came in on, never from the Host header, which the
// client chooses. Every request here says Host: evil.example (and, where
// the server checks the origin, Origin: http://evil.example, which a
// script can send with it); no answer names evil.example, and every link
// starts with the address the server printed.
func TestServeLinksIgnoreHostHeader(t *testing.T) {
	s := startServe(t, t.TempDir())
	const evil = "evil.example"
	token := "" // the director's secret, kept out of the test's messages
	call := func(method, path, ctype, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = evil
		req.Header.Set("Origin", "http://"+evil)
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if strings.Contains(string(b), evil) {
			t.Errorf("%s %s with Host: %s answers with its name", method, strings.ReplaceAll(path, token, "SECRET"), evil)
		}
		return resp.StatusCode, string(b)
	}
	links := func(what, body string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(body, s.url+w) {
				t.Errorf("%s: no link %s%s…", what, s.url, strings.ReplaceAll(w, token, "SECRET"))
			}
		}
	}

	code, body := call("POST", "/api/games", "application/json", `{"variant":"english","white":"Ann","black":"Bob"}`)
	if code != http.StatusCreated {
		t.Fatalf("create a game: %d %s", code, body)
	}
	links("a game's links", body, "/g/")

	code, body = call("POST", "/api/events", "application/json", `{"name":"Club","variant":"international","system":"round-robin","rounds":3}`)
	if code != http.StatusCreated {
		t.Fatalf("create an event: %d %s", code, body)
	}
	links("an event's links", body, "/d/", "/e/")
	var ev struct{ Link string }
	if err := json.Unmarshal([]byte(body), &ev); err != nil {
		t.Fatal(err)
	}
	token = ev.Link[strings.LastIndex(ev.Link, "/d/")+3:]
	for _, op := range []struct{ name, body string }{
		{"add-players", `{"players":[{"name":"Ann"},{"name":"Bob"},{"name":"Cat"},{"name":"Dan"}]}`},
		{"pair", `{"round":1}`},
		{"publish", `{"round":1}`},
	} {
		if code, _ := call("POST", "/api/d/"+token+"/"+op.name, "application/json", op.body); code != http.StatusOK {
			t.Fatalf("%s: %d", op.name, code)
		}
	}
	for _, page := range []struct {
		what, path string
		want       []string
	}{
		{"the director's view", "/api/d/" + token, []string{"/e/"}},
		{"the printable card", "/d/" + token + "/card", []string{"/d/" + token, "/e/"}},
		{"round 1's result links", "/api/d/" + token + "/round/1/links", []string{"/r/"}},
		{"the check-in links", "/api/d/" + token + "/checkin-links", []string{"/c/"}},
	} {
		code, body := call("GET", page.path, "", "")
		if code != http.StatusOK {
			t.Fatalf("%s: %d", page.what, code)
		}
		links(page.what, body, page.want...)
	}
}
