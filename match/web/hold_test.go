package web

// Issue 24: the server holds against one abusive address and a failing
// disk. One test per finding, each on a real listener.

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// doHost sends a JSON POST with the Host and Origin headers a browser
// would send when it opened the server under host.
func (e *env) doHost(path, body, host, origin string) (int, []byte) {
	e.t.Helper()
	req, err := http.NewRequest("POST", e.hs.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Host = host
	req.Header.Set("Content-Type", "application/json")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := e.hs.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// Finding 4: the director's pages opened as http://localhost:PORT, under
// a DNS name or through a proxy work; another site is still refused.
func TestHoldOriginIsTheRequestsHost(t *testing.T) {
	e := newDirEnv(t)
	u, _ := url.Parse(e.hs.URL) // http://127.0.0.1:PORT
	port := u.Port()
	tok, _ := e.createEvent(`{"name":"Host test","variant":"international","system":"swiss","rounds":3}`)
	for _, c := range []struct {
		name, host, origin string
		status             int
	}{
		{"the listener's address", u.Host, "http://" + u.Host, 200},
		{"localhost", "localhost:" + port, "http://localhost:" + port, 200},
		{"a DNS name", "arbiter.example.org:" + port, "http://arbiter.example.org:" + port, 200},
		{"a proxy ending TLS", "arbiter.example.org", "https://arbiter.example.org", 200},
		{"no Origin (not a browser)", "localhost:" + port, "", 200},
		{"another site", "localhost:" + port, "https://evil.example", 403},
		{"another port", "localhost:" + port, "http://localhost:1", 403},
		{"a sandboxed frame", "localhost:" + port, "null", 403},
		{"a look-alike", "arbiter.example.org", "https://arbiter.example.org.evil.example", 403},
	} {
		status, b := e.doHost("/api/d/"+tok+"/add-players", `{"players":[{"name":"Anna"}]}`, c.host, c.origin)
		if status != c.status {
			t.Errorf("%s (Host %s, Origin %q): %d %s, want %d", c.name, c.host, c.origin, status, b, c.status)
		}
		if c.status == 403 && errorCode(b) != codeCrossSite {
			t.Errorf("%s: code %s, want %s", c.name, errorCode(b), codeCrossSite)
		}
	}
	// Creating an event goes through the same check.
	if status, b := e.doHost("/api/events", `{"name":"Second","variant":"international","system":"swiss","rounds":3}`,
		"localhost:"+port, "http://localhost:"+port); status != 201 {
		t.Errorf("create under localhost: %d %s", status, b)
	}
}

// Finding 8: a key given twice is refused, never read as its last value.
func TestHoldDuplicateKeysRefused(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"international"}`)
	status, b := e.act(g.tokens["white"], `{"kind":"move","kind":"resign"}`)
	if status != 400 || errorCode(b) != codeBadJSON || !strings.Contains(string(b), `\"kind\" is given twice`) {
		t.Fatalf("duplicate kind: %d %s", status, b)
	}
	status, b = e.act(g.tokens["white"], `{"kind":"move","Kind":"resign"}`)
	if status != 400 || errorCode(b) != codeBadJSON {
		t.Fatalf("kind and Kind: %d %s", status, b)
	}
	if s := e.snap(g.tokens["white"]); s.State.Status != "running" || s.State.Result != "*" {
		t.Fatalf("after the refused intents the game is %s %s", s.State.Status, s.State.Result)
	}
	resp, b := e.do("POST", "/api/games", `{"variant":"international","variant":"russian"}`)
	if resp.StatusCode != 400 || errorCode(b) != codeBadJSON {
		t.Fatalf("duplicate setup key: %d %s", resp.StatusCode, b)
	}
}

// Finding 6: ESC, BEL, NUL and the other control characters in a player's
// move text or the arbiter's notes are refused where they enter, and no
// PDN export carries one raw.
func TestHoldControlBytesNeverReachPDN(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"international","beginner":true}`)
	for _, c := range []struct {
		role, intent, field string
	}{
		{"white", `{"kind":"move","move":"32-28\u001b[2J"}`, "move"},
		{"white", `{"kind":"move","move":"\u0007"}`, "move"},
		{"white", `{"kind":"move","path":["32","28\u0000"]}`, "path"},
		{"arbiter", `{"kind":"annotate","text":"look \u001b]0;pwned\u0007"}`, "text"},
		{"arbiter", `{"kind":"pause","text":"NUL\u0000"}`, "text"},
		{"arbiter", `{"kind":"annotate","text":"C1 \u009b31m"}`, "text"},
		{"white", `{"kind":"claim","claim":"threefold\u001b"}`, "claim"},
	} {
		status, b := e.act(g.tokens[c.role], c.intent)
		if status != 400 || errorCode(b) != "refused.bad-input" || !strings.Contains(string(b), `"field":"`+c.field+`"`) {
			t.Errorf("%s %s: %d %s, want 400 refused.bad-input naming %s", c.role, c.intent, status, b, c.field)
		}
	}
	// Line ends and tabs are text, not control: a note may have them.
	if status, b := e.act(g.tokens["arbiter"], `{"kind":"annotate","text":"two\nlines\tand a tab"}`); status != 200 {
		t.Fatalf("a note on two lines: %d %s", status, b)
	}
	e.playLegal(g)
	resp, pdn := e.do("GET", "/api/g/"+g.tokens["spectator"]+"/pdn", "")
	if resp.StatusCode != 200 || !strings.Contains(string(pdn), "two") {
		t.Fatalf("PDN: %d %s", resp.StatusCode, pdn)
	}
	for i, c := range string(pdn) {
		if c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0x7f || c >= 0x80 && c <= 0x9f {
			t.Fatalf("the PDN holds the control character %U at byte %d:\n%q", c, i, pdn)
		}
	}
}
