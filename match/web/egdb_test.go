package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
)

// TestArbiterAsksTheEndgameDatabase: with serve --egdb, the arbiter's link
// of a game in a three-piece English ending gets the position's value and
// each move's; the players' and the spectator's links get the 404 of an
// unknown link, byte for byte; a position the database does not hold is
// "unknown" with an empty list, not null.
func TestArbiterAsksTheEndgameDatabase(t *testing.T) {
	dir := t.TempDir()
	if _, err := egdb.Build(context.Background(), rules.MustLookup("english"), dir, egdb.BuildOptions{Pieces: 3}); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Config{Limits: unlimited, EGDB: dir})
	g := e.create(`{"variant":"english","fen":"B:WK18,K27:BK1"}`)
	resp, body := e.do("GET", "/api/g/"+g.tokens["arbiter"]+"/egdb", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("arbiter: %d %s", resp.StatusCode, body)
	}
	var a egdbAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		t.Fatal(err)
	}
	if a.Value != "loss" || a.Result != "1-0" || a.Pieces != 3 || a.Held != 3 || len(a.Moves) != 2 || a.Moves[0].Value != "loss" {
		t.Errorf("arbiter's answer: %s", body)
	}
	_, unknown := e.do("GET", "/api/g/no-such-token/egdb", "")
	for _, role := range []string{"white", "black", "spectator"} {
		resp, body := e.do("GET", "/api/g/"+g.tokens[role]+"/egdb", "")
		if resp.StatusCode != http.StatusNotFound || !bytes.Equal(body, unknown) {
			t.Errorf("%s's link: %d %s; want the unknown link's 404 %s", role, resp.StatusCode, body, unknown)
		}
	}
	start := e.create(`{"variant":"english"}`)
	_, body = e.do("GET", "/api/g/"+start.tokens["arbiter"]+"/egdb", "")
	if !bytes.Contains(body, []byte(`"value":"unknown"`)) || !bytes.Contains(body, []byte(`"moves":[]`)) || !bytes.Contains(body, []byte(`"pieces":24`)) {
		t.Errorf("the start position: %s", body)
	}
	// Without --egdb the question is answered, unknown.
	plain := newEnv(t, Config{Limits: unlimited})
	g = plain.create(`{"variant":"english","fen":"B:WK18,K27:BK1"}`)
	_, body = plain.do("GET", "/api/g/"+g.tokens["arbiter"]+"/egdb", "")
	if !bytes.Contains(body, []byte(`"value":"unknown"`)) || !bytes.Contains(body, []byte(`"held":0`)) {
		t.Errorf("without databases: %s", body)
	}
}
