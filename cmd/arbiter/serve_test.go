package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/poll"
)

// server is a running `arbiter serve` process.
type server struct {
	cmd       *exec.Cmd
	url       string
	out, errb *syncBuffer
}

var servingRE = regexp.MustCompile(`arbiter serve: (http://\S+)/`)

// startServe starts `arbiter serve` on a free loopback port and waits for
// the line that gives its address.
func startServe(t *testing.T, dir string, args ...string) *server {
	t.Helper()
	cmd, out, errb := startWatched(t, dir, append([]string{"serve", "--addr", "127.0.0.1:0", "--log-format", "json", "--log-level", "debug"}, args...)...)
	s := &server{cmd: cmd, out: out, errb: errb}
	waitFor(t, cmd, "serving line", func() bool { return servingRE.MatchString(out.String()) }, errb)
	s.url = servingRE.FindStringSubmatch(out.String())[1]
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return s
}

// call sends a JSON request and returns the status and body.
func (s *server) call(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v\nstderr:\n%s", method, path, err, s.errb.String())
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// webSnapshot is what the tests read of a Snapshot.
type webSnapshot struct {
	Legal []string `json:"legal"`
	Moves []struct {
		Text string `json:"text"`
	} `json:"moves"`
	Messages []struct {
		Type string `json:"type"`
	} `json:"messages"`
	State struct {
		Turn   string `json:"turn"`
		Status string `json:"status"`
		Ply    int    `json:"ply"`
		Clocks struct {
			White   int64  `json:"white"`
			Black   int64  `json:"black"`
			Running string `json:"running"`
		} `json:"clocks"`
	} `json:"state"`
}

func (s *server) snapshot(t *testing.T, token string) webSnapshot {
	t.Helper()
	code, body := s.call(t, "GET", "/api/g/"+token, "")
	if code != 200 {
		t.Fatalf("snapshot: %d %s", code, body)
	}
	var snap webSnapshot
	if err := json.Unmarshal(body, &snap); err != nil {
		t.Fatalf("snapshot: %v in %s", err, body)
	}
	return snap
}

// createGame creates a game and returns the token of each role.
func (s *server) createGame(t *testing.T, setup string) map[string]string {
	t.Helper()
	code, body := s.call(t, "POST", "/api/games", setup)
	if code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	var c struct {
		Links map[string]string `json:"links"`
	}
	if err := json.Unmarshal(body, &c); err != nil {
		t.Fatal(err)
	}
	tokens := map[string]string{}
	for role, link := range c.Links {
		if !strings.HasPrefix(link, s.url+"/g/") {
			t.Fatalf("%s link %q is not under %s/g/", role, link, s.url)
		}
		tokens[role] = strings.TrimPrefix(link, s.url+"/g/")
	}
	return tokens
}

// play plays the first legal move of the side to move.
func (s *server) play(t *testing.T, tokens map[string]string) {
	t.Helper()
	turn := s.snapshot(t, tokens["spectator"]).State.Turn
	legal := s.snapshot(t, tokens[turn]).Legal
	if len(legal) == 0 {
		t.Fatalf("no legal moves for %s", turn)
	}
	if code, body := s.call(t, "POST", "/api/g/"+tokens[turn]+"/act", `{"kind":"move","move":"`+legal[0]+`"}`); code != 200 {
		t.Fatalf("move %s: %d %s", legal[0], code, body)
	}
}

// waitPly waits for the game's ply to reach want (an engine's move), polled
// at 10 a second, within the server's 20 requests a second per client.
func (s *server) waitPly(t *testing.T, tokens map[string]string, what string, want int) {
	t.Helper()
	if !poll.Until(2*time.Minute, 100*time.Millisecond, func() bool { return s.snapshot(t, tokens["spectator"]).State.Ply == want }) {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		t.Fatalf("no %s in time; stderr:\n%s", what, s.errb.String())
	}
}

// A timed game survives a SIGKILL of the server: after the restart on the
// same database the game, its moves and its clocks are there (the time the
// server was down charged to no one), play goes on, and the PDN download
// passes `arbiter check`. SIGTERM then stops the server cleanly (status 3).
func TestServeRestartAfterKill(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "games.db")
	s := startServe(t, dir, "--db", db)
	tokens := s.createGame(t, `{"variant":"english","time_control":"600+5","beginner":true,"white":"Ann","black":"Bob"}`)
	for i := 0; i < 5; i++ {
		s.play(t, tokens)
	}
	t1 := time.Now()
	before := s.snapshot(t, tokens["spectator"])
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()
	t2 := time.Now()
	// The server stays down for a while: that time must not be charged.
	// (Not a wait for something: the outage under test is time passing.)
	const down = 2 * time.Second
	time.Sleep(down)
	t3 := time.Now()
	s2 := startServe(t, dir, "--db", db)
	after := s2.snapshot(t, tokens["spectator"])
	t4 := time.Now()

	if len(after.Moves) != 5 || after.State.Ply != 5 {
		t.Fatalf("after the restart: %d moves, ply %d; want 5", len(after.Moves), after.State.Ply)
	}
	for i := range before.Moves {
		if after.Moves[i].Text != before.Moves[i].Text {
			t.Errorf("move %d: %q before, %q after", i+1, before.Moves[i].Text, after.Moves[i].Text)
		}
	}
	if after.State.Status != "running" || after.State.Turn != before.State.Turn {
		t.Fatalf("after the restart: status %q turn %q (before: %q)", after.State.Status, after.State.Turn, before.State.Turn)
	}
	clock := func(s webSnapshot, c string) int64 {
		if c == "white" {
			return s.State.Clocks.White
		}
		return s.State.Clocks.Black
	}
	running, waiting := before.State.Turn, "white"
	if running == "white" {
		waiting = "black"
	}
	if b, a := clock(before, waiting), clock(after, waiting); a != b {
		t.Errorf("%s's clock (not running) went from %d to %d ms", waiting, b, a)
	}
	// The running side was charged at most the time the server was up
	// between the two snapshots; never the down time [t2, t3]. It may be
	// charged less, down to a second given back: the server counts as down
	// from its last heartbeat (written every second, online/doc.go), and a
	// SIGKILL falls at any moment of that second, the first snapshot too.
	charged := time.Duration(clock(before, running)-clock(after, running)) * time.Millisecond
	up := t4.Sub(t1) - t3.Sub(t2)
	const heartbeat = time.Second
	if charged < -heartbeat || charged > up+10*time.Millisecond {
		t.Errorf("%s was charged %v across the restart; the server was up %v of %v (down %v)", running, charged, up, t4.Sub(t1), t3.Sub(t2))
	}
	t.Logf("%s charged %v; up %v, down %v; clocks before %+v after %+v", running, charged, up, t3.Sub(t2), before.State.Clocks, after.State.Clocks)
	restarted := false
	for _, m := range after.Messages {
		restarted = restarted || m.Type == "resume-after-restart"
	}
	if !restarted {
		t.Errorf("no resume-after-restart message in the record: %+v", after.Messages)
	}
	s2.play(t, tokens)
	if got := s2.snapshot(t, tokens["spectator"]).State.Ply; got != 6 {
		t.Fatalf("the game did not go on after the restart: ply %d", got)
	}

	code, pdnText := s2.call(t, "GET", "/api/g/"+tokens["white"]+"/pdn", "")
	if code != 200 {
		t.Fatalf("pdn: %d %s", code, pdnText)
	}
	file := filepath.Join(dir, "game.pdn")
	if err := os.WriteFile(file, pdnText, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runCheck(t, file); code != exitOK || !strings.HasSuffix(strings.TrimSpace(out), "games=1 ok=1 illegal=0 unreadable=0") {
		t.Errorf("arbiter check on the download: exit %d\n%s\nPDN:\n%s", code, out, pdnText)
	}

	// No token in the log of either run.
	for _, log := range []string{s.errb.String(), s2.errb.String()} {
		for role, tok := range tokens {
			if strings.Contains(log, tok) {
				t.Errorf("the %s token is in the server's log", role)
			}
		}
	}

	if err := s2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(t, s2.cmd); code != exitRuntime {
		t.Errorf("exit %d after SIGTERM, want %d\n%s", code, exitRuntime, s2.errb.String())
	}
	if !strings.Contains(s2.errb.String(), "interrupted by SIGTERM") {
		t.Errorf("stderr does not say SIGTERM:\n%s", s2.errb.String())
	}
}

// A plain serve offers the built-in engine at its named strengths, and one
// of them plays.
func TestServeBuiltInEngine(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, dir, "--db", filepath.Join(dir, "g.db"))
	code, body := s.call(t, "GET", "/api/variants", "")
	if code != 200 || !strings.Contains(string(body), `"engines":["sparring-beginner","sparring-casual","sparring-club","sparring-strong"]`) {
		t.Fatalf("variants of a plain serve: %d %s", code, body)
	}
	tokens := s.createGame(t, `{"variant":"english","engine":"sparring-club","engine_side":"black","mode":"friendly"}`)
	s.waitPly(t, tokens, "the built-in engine's first move", 1)
}

// An engine from the operator's list plays one side; the browser names it,
// never a command.
func TestServeEngineOpponent(t *testing.T) {
	dir := t.TempDir()
	engines := filepath.Join(dir, "engines.yaml")
	writeFile(t, engines, "# the operator's engines\nengines:\n  - name: sparring\n    command: self engine --level 3 --seed 1\n")
	s := startServe(t, dir, "--db", filepath.Join(dir, "g.db"), "--engines", engines)
	code, body := s.call(t, "GET", "/api/variants", "")
	// The built-in engine's strengths first, then the operator's.
	if code != 200 || !strings.Contains(string(body), `"engines":["sparring-beginner","sparring-casual","sparring-club","sparring-strong","sparring"]`) {
		t.Fatalf("variants: %d %s", code, body)
	}
	tokens := s.createGame(t, `{"variant":"english","engine":"sparring","engine_side":"black","beginner":true}`)
	// English: black moves first; the engine does.
	s.waitPly(t, tokens, "the engine's first move", 1)
	s.play(t, tokens)
	s.waitPly(t, tokens, "the engine's reply", 3)
	if _, ok := tokens["black"]; ok {
		t.Error("a link was issued for the engine's side")
	}
	if code, body := s.call(t, "POST", "/api/games", `{"variant":"english","engine":"/bin/sh","engine_side":"black"}`); code != 400 {
		t.Errorf("an engine not on the list: %d %s", code, body)
	}
}

// Bad flags and engines files are usage errors (2); a taken port is 3.
func TestServeUsage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	writeFile(t, bad, "engines:\n  - name: x\n    protocol: smoke\n    command: \"true\"\n")
	twice := filepath.Join(dir, "twice.yaml")
	writeFile(t, twice, "engines:\n  - name: x\n    command: \"true\"\n  - name: x\n    command: \"false\"\n")
	empty := filepath.Join(dir, "empty.yaml")
	writeFile(t, empty, "# nothing\n")
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"public URL", []string{"--public-url", "ftp://example.org"}, "--public-url"},
		{"addr", []string{"--addr", "nowhere"}, "--addr"},
		{"missing engines file", []string{"--engines", filepath.Join(dir, "none.yaml")}, "none.yaml"},
		{"bad engine", []string{"--engines", bad}, "smoke"},
		{"engine twice", []string{"--engines", twice}, "already the name"},
		{"no engine", []string{"--engines", empty}, "no engines"},
		{"log level", []string{"--log-level", "loud"}, "--log-level"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd, _, errb := startWatched(t, dir, append([]string{"serve", "--db", filepath.Join(dir, "u.db")}, tt.args...)...)
			if code := exitStatus(t, cmd); code != exitUsage || !strings.Contains(errb.String(), tt.want) {
				t.Errorf("exit %d, want %d; stderr %q should name %q", code, exitUsage, errb.String(), tt.want)
			}
		})
	}
	s := startServe(t, dir, "--db", filepath.Join(dir, "a.db"))
	addr := strings.TrimPrefix(s.url, "http://")
	cmd, _, errb := startWatched(t, dir, "serve", "--addr", addr, "--db", filepath.Join(dir, "b.db"))
	if code := exitStatus(t, cmd); code != exitRuntime || !strings.Contains(errb.String(), "address already in use: another program (perhaps another arbiter) listens there; stop it, or choose another port") {
		t.Errorf("a taken address: exit %d, want %d and what to do\n%s", code, exitRuntime, errb.String())
	}
}

// A server on every interface (--addr :8080, 0.0.0.0:8080) prints the
// addresses players can open, this machine's network address first and
// loopback last, never http://[::]:8080/, which opens nothing; a server on
// one address prints that one.
func TestOpenAt(t *testing.T) {
	first, others := openAt(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080})
	if first != "http://127.0.0.1:8080" || len(others) != 0 {
		t.Errorf("loopback: %q %q", first, others)
	}
	for _, ip := range []net.IP{net.IPv6unspecified, net.IPv4zero} {
		first, others = openAt(&net.TCPAddr{IP: ip, Port: 8080})
		all := append([]string{first}, others...)
		if all[len(all)-1] != "http://127.0.0.1:8080" {
			t.Errorf("%v: %q, want loopback last", ip, all)
		}
		for _, u := range all {
			if strings.Contains(u, "[::]") || strings.Contains(u, "0.0.0.0") || !strings.HasSuffix(u, ":8080") {
				t.Errorf("%v: %q is not an address to open", ip, u)
			}
		}
	}
}
