package web

import (
	"encoding/json"
	"net/http"
	"testing"
)

// A new game's snapshot, as a client reads it from the API before the first
// move: its moves and messages are [] ("moves" and "messages" were null).
func TestGameSnapshotEmptyListsAreEmpty(t *testing.T) {
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"english","time_control":"300+3"}`)
	for _, role := range []string{"white", "black", "spectator", "arbiter"} {
		resp, b := e.do("GET", "/api/g/"+g.tokens[role], "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s's snapshot: %d %s", role, resp.StatusCode, b)
		}
		var v map[string]json.RawMessage
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"moves", "messages"} {
			if string(v[k]) != "[]" {
				t.Errorf("%s's snapshot: %q is %s, want []", role, k, v[k])
			}
		}
	}
}
