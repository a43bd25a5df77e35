package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// checkAnswer fails unless the answer is a success or a 4xx with a JSON
// error: whatever a client sends, never a 500 or a crash.
func checkAnswer(t *testing.T, rec *httptest.ResponseRecorder, body []byte) {
	t.Helper()
	if rec.Code >= 500 {
		t.Fatalf("body %q: %d %s", body, rec.Code, rec.Body.Bytes())
	}
	if rec.Code >= 400 && errorCode(rec.Body.Bytes()) == "" {
		t.Fatalf("body %q: %d without a JSON error: %s", body, rec.Code, rec.Body.Bytes())
	}
	if rec.Code < 300 && !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("body %q: %d with invalid JSON: %s", body, rec.Code, rec.Body.Bytes())
	}
	if rec.Header().Get("Content-Security-Policy") != contentSecurityPolicy {
		t.Fatalf("no CSP on %d", rec.Code)
	}
}

// FuzzActRequest posts arbitrary bodies to a player's act route, on a fresh
// game whenever the last one ended.
func FuzzActRequest(f *testing.F) {
	for _, s := range []string{
		`{"kind":"move","move":"11-15"}`, `{"kind":"move","move":"22-18"}`, `{"kind":"move","move":"9x18x27"}`,
		`{"kind":"move","path":["11","15"]}`, `{"kind":"claim","claim":"threefold","with_move":"11-15"}`,
		`{"kind":"offer"}`, `{"kind":"accept"}`, `{"kind":"decline"}`, `{"kind":"decide","correct":true}`,
		`{"kind":"add-time","seconds":-1e308,"color":"white"}`, `{"kind":"declare","outcome":"2-0"}`,
		`{"kind":"annotate","text":"\u0000"}`, `{"kind":"resign"}`, `{}`, `null`, `[]`, `"x"`, `{"kind":"move","move":null}`,
		"{\"kind\":\"move\",\"move\":\"\xff\"}", `{"kind":"move","move":"` + strings.Repeat("1-", 5000) + `"}`,
	} {
		f.Add([]byte(s))
	}
	e := newEnv(f, Config{Limits: unlimited})
	var tok string
	f.Fuzz(func(t *testing.T, body []byte) {
		e.t = t
		if tok == "" || e.hallOver(tok) {
			tok = e.create(beginnerGame).tokens["white"]
		}
		req := httptest.NewRequest("POST", "/api/g/"+tok+"/act", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		e.srv.Handler().ServeHTTP(rec, req)
		checkAnswer(t, rec, body)
	})
}

// FuzzCreateGame posts arbitrary setups.
func FuzzCreateGame(f *testing.F) {
	for _, s := range []string{
		beginnerGame, `{"variant":"international","time_control":"300+3","policy":"opponent-decides"}`,
		`{"variant":"english","fen":"W:W21,22:B1,2"}`, `{"rules":"board: 8\n"}`, `{"variant":"english","opening":"3move:17"}`,
		`{"variant":"english","white":"` + strings.Repeat("é", 100) + `"}`, `{"variant":"english","time_control":"40/7200:3600+60 delay=5"}`,
	} {
		f.Add([]byte(s))
	}
	e := newEnv(f, Config{Limits: unlimited})
	f.Fuzz(func(t *testing.T, body []byte) {
		e.t = t
		req := httptest.NewRequest("POST", "/api/games", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		e.srv.Handler().ServeHTTP(rec, req)
		if rec.Code == http.StatusTooManyRequests || rec.Code == http.StatusServiceUnavailable {
			return // the Hall is full: refused, as it should be
		}
		checkAnswer(t, rec, body)
	})
}

// hallOver says whether the game of token has ended (read from the Hall).
func (e *env) hallOver(token string) bool {
	id, role, ok := e.hall.Resolve(token)
	if !ok {
		return true
	}
	snap, err := e.hall.Snapshot(id, role)
	if err != nil {
		return true
	}
	b, _ := json.Marshal(snap)
	var s snapshot
	json.Unmarshal(b, &s)
	return s.State.Status == "over"
}
