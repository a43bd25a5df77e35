package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An engine author runs a fast match with --serve: the match ends before
// anyone opened the page, and the live view stays up with the final state,
// saying so, how to stop it and how to serve the event again; a Ctrl-C
// (SIGINT) then ends the command with status 0: the match was complete.
func TestMatchServeKeepsFinalState(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "ev")
	m, stdout, stderr := startWatched(t, dir, "match", "--engine", "name=A cmd=self engine --level 1 --seed 1",
		"--engine", "name=B cmd=self engine --level 2 --seed 2", "--games-per-encounter", "2", "--time-control", "30+0.5",
		"--out", out, "--progress", "off", "--serve", "127.0.0.1:0")
	t.Cleanup(func() {
		if m.ProcessState == nil {
			m.Process.Kill()
			m.Wait()
		}
	})
	waitFor(t, m, "live view line", func() bool { return liveRE.MatchString(stderr.String()) }, stderr)
	url := liveRE.FindStringSubmatch(stderr.String())[1]
	waitFor(t, m, "the end of the match", func() bool { return strings.Contains(stdout.String(), "match: finished; the live view at") }, stderr)
	line := stdout.String()[strings.Index(stdout.String(), "match: finished;"):]
	for _, want := range []string{url + "/", "keeps showing the final state", "Ctrl-C", "arbiter serve --watch " + out} {
		if !strings.Contains(line, want) {
			t.Errorf("the closing line lacks %q: %s", want, line)
		}
	}
	// Still there, with every game.
	code, st := getLive(t, url)
	if code != 200 || st.Event.Finished != 2 || st.Event.Name != "A vs B" {
		t.Errorf("after the match, GET /api/live: %d %+v; want the 2 finished games of A vs B", code, st.Event)
	}
	if err := m.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if got := exitStatus(t, m); got != 0 {
		t.Errorf("exit status %d after Ctrl-C on the finished match's live view; want 0\n%s", got, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stopping the live view") || strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}
