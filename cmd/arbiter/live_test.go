package main

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

var liveRE = regexp.MustCompile(`match: live view at (http://\S+)/`)

// liveState is what the tests read of GET /api/live.
type liveState struct {
	Event struct {
		Name     string `json:"name"`
		Started  bool   `json:"started"`
		Finished int    `json:"finished"`
	} `json:"event"`
}

func getLive(t *testing.T, url string) (int, liveState) {
	t.Helper()
	resp, err := http.Get(url + "/api/live")
	if err != nil {
		return 0, liveState{}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var st liveState
	if resp.StatusCode == 200 {
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatalf("GET /api/live: %v in %s", err, b)
		}
	}
	return resp.StatusCode, st
}

// `match --serve` serves the live view of the running match, and `serve
// --watch DIR`, another process, the same event from its store; both
// read-only.
func TestLiveServeAndWatch(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "ev")
	m, _, merr := startWatched(t, dir, "match", "--engine", "name=A cmd=self engine --level random --seed 1",
		"--engine", "name=B cmd=self engine --level random --seed 2", "--games-per-encounter", "400", "--out", out,
		"--progress", "off", "--serve", "127.0.0.1:0")
	t.Cleanup(func() {
		if m.ProcessState == nil {
			m.Process.Signal(syscall.SIGINT)
			m.Process.Signal(syscall.SIGINT) // the second stops at once
			m.Wait()
		}
	})
	waitFor(t, m, "live view line", func() bool { return liveRE.MatchString(merr.String()) }, merr)
	url := liveRE.FindStringSubmatch(merr.String())[1]
	var st liveState
	waitFor(t, m, "a finished game in the live view", func() bool {
		_, st = getLive(t, url)
		return st.Event.Finished >= 1
	}, merr)
	if st.Event.Name != "A vs B" {
		t.Errorf("the live view's event is %q; want A vs B", st.Event.Name)
	}

	w := startServe(t, dir, "--watch", out)
	waitFor(t, w.cmd, "the watched event's finished games", func() bool {
		_, ws := getLive(t, w.url)
		return ws.Event.Name == "A vs B" && ws.Event.Finished >= 1
	}, w.errb)
	for _, u := range []string{url, w.url} {
		if code, body := (&server{url: u, errb: merr}).call(t, "POST", "/api/live", "{}"); code != http.StatusMethodNotAllowed {
			t.Errorf("POST %s/api/live: %d %s; want 405", u, code, body)
		}
		resp, err := http.Get(u + "/")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), "live.js") {
			t.Errorf("GET %s/: %d %.100s; want the live page", u, resp.StatusCode, b)
		}
	}
	if code, _ := w.call(t, "POST", "/api/games", `{"variant":"english"}`); code == http.StatusCreated {
		t.Error("serve --watch created a game: it must serve the live view only")
	}
}

// Bad addresses and combinations are usage errors.
func TestLiveUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--watch", filepath.Join(dir, "nothing")}, "no event there"},
		{[]string{"serve", "--watch", dir, "--db", "x.db"}, "--watch serves an event's live view only"},
		{[]string{"demo", "--out", filepath.Join(dir, "d"), "--serve", "a:b:c"}, "--serve"},
	} {
		_, stderr, code := runArbiter(t, dir, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("arbiter %v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
