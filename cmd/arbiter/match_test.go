package main

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/match/dxp"
	"github.com/draughts-arbiter/arbiter/match/hub"
)

func TestParseEngineSpec(t *testing.T) {
	tests := []struct {
		in   string
		want engineSpec
	}{
		{"name=A cmd=./scan hub", engineSpec{Name: "A", Proto: "hub", Command: []string{"./scan", "hub"}}},
		{`name='My Engine' dir=/opt/e option.book=false option.threads=2 cmd=/opt/my\ engine/run --opt "a b" 'c d'`,
			engineSpec{Name: "My Engine", Proto: "hub", Dir: "/opt/e", Command: []string{"/opt/my engine/run", "--opt", "a b", "c d"},
				Options: []hub.Param{{Name: "book", Value: "false"}, {Name: "threads", Value: "2"}}}},
		{"proto=dxp addr=127.0.0.1:27531", engineSpec{Name: "127.0.0.1:27531", Proto: "dxp", Addr: "127.0.0.1:27531"}},
		{"name=D proto=dxp addr=127.0.0.1:0 listen=true cmd=engine --dxp-connect {addr}",
			engineSpec{Name: "D", Proto: "dxp", Addr: "127.0.0.1:0", Listen: true, Command: []string{"engine", "--dxp-connect", "{addr}"}}},
		{"cmd=/usr/bin/scan hub", engineSpec{Name: "scan", Proto: "hub", Command: []string{"/usr/bin/scan", "hub"}}},
		{"name=K init=2m30s cmd=kr hub", engineSpec{Name: "K", Proto: "hub", Command: []string{"kr", "hub"}, Init: 150 * time.Second}},
	}
	for _, tt := range tests {
		got, err := parseEngineSpec(tt.in)
		if err != nil {
			t.Errorf("parseEngineSpec(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseEngineSpec(%q) =\n %+v, want\n %+v", tt.in, got, tt.want)
		}
	}
	self, err := parseEngineSpec("name=S cmd=self engine --level 2")
	if exe, _ := os.Executable(); err != nil || self.Command[0] != exe || self.Command[1] != "engine" {
		t.Errorf("self: %+v, %v", self, err)
	}
	for _, in := range []string{"", "name=A", "cmd=", "name=A proto=uci cmd=x", "proto=dxp cmd=x", "bogus=1 cmd=x",
		"name='A cmd=x", `cmd=x "y`, "name A cmd=x", "init=soon cmd=x", "init=-1s cmd=x"} {
		if _, err := parseEngineSpec(in); err == nil {
			t.Errorf("parseEngineSpec(%q) accepted", in)
		}
	}
}

// arbiter match plays colour-reversed pairs from openings, prints the
// results and the score, writes PDN that arbiter check accepts, and logs
// each engine's protocol exchange.
func TestMatchCommand(t *testing.T) {
	dir := t.TempDir()
	ballot := `{"all": {"b": "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,6,7,8,9",
	                    "a": "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,5,7,8,9"},
	            "standard": {"a": "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,10,11,12,13,2,3,4,5,7,8,9"}}`
	if err := os.WriteFile(filepath.Join(dir, "ballot.json"), []byte(ballot), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runArbiter(t, dir, "match", "--variant", "english",
		"--engine", "name=Deep cmd=self engine --level 2 --seed 1",
		"--engine", "name=Rand cmd=self engine --level random --seed 2",
		"--tc", "5+0.1", "--openings", "ballot.json", "--pdn", "games.pdn", "--log-dir", "logs")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("want 4 game lines and a score line:\n%s", out)
	}
	for i, want := range []string{"game 1: Deep - Rand", "game 2: Rand - Deep", "game 3: Deep - Rand", "game 4: Rand - Deep", "score: Deep "} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], want)
		}
	}
	check, _, code := runArbiter(t, dir, "check", "games.pdn")
	if code != 0 || !strings.Contains(check, "games=4 ok=4") {
		t.Errorf("arbiter check: exit %d\n%s", code, check)
	}
	pdnText, _ := os.ReadFile(filepath.Join(dir, "games.pdn"))
	for _, tag := range []string{`[FEN "W:W17,22`, `[Opening "a"]`, `[Opening "b"]`, `[TimeControl "5+0.1"]`, `[Termination "`, `[PlyCount "`, `[GameType "21"]`} {
		if !bytes.Contains(pdnText, []byte(tag)) {
			t.Errorf("PDN lacks %s", tag)
		}
	}
	for _, name := range []string{"Deep.log", "Rand.log"} {
		data, err := os.ReadFile(filepath.Join(dir, "logs", name))
		if err != nil || !bytes.Contains(data, []byte(`"line":"go think"`)) {
			t.Errorf("engine log %s: %v, %d bytes", name, err, len(data))
		}
	}
}

// A faulty engine's games end with the right termination in the output.
func TestMatchCommandFaultsAndDXP(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := runArbiter(t, dir, "match", "--variant", "international", "--games", "2", "--policy", "strict",
		"--engine", "name=Bad cmd=self engine --fault illegal-at=2",
		"--engine", "name=Net proto=dxp addr=127.0.0.1:0 listen=true cmd=self engine --dxp-connect {addr} --level 1",
		"--tc", "5+0.1", "--pdn", "f.pdn", "--log-dir", "logs")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if strings.Count(out, "(illegal move:") != 2 || !strings.Contains(out, "score: Bad 0 - Net 2") {
		t.Errorf("output:\n%s", out)
	}
	if check, _, code := runArbiter(t, dir, "check", "f.pdn"); code != 0 {
		t.Errorf("arbiter check: exit %d\n%s", code, check)
	}
}

func TestMatchUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"match", "--engine", "cmd=x"},
		{"match", "--engine", "cmd=x", "--engine", "cmd=y", "--variant", "chess"},
		{"match", "--engine", "cmd=x", "--engine", "cmd=y", "--tc", "fast"},
		{"match", "--engine", "cmd=x", "--engine", "oops", "--tc", "5"},
		{"match", "--engine", "cmd=x", "--engine", "cmd=y", "--openings", "missing.txt"},
		// Bad values the referee refuses are usage errors too, found before
		// any engine starts (they used to fail game 1 with exit 3).
		{"match", "--engine", "cmd=self engine", "--engine", "cmd=self engine", "--margin", "-1s", "--log-dir", "l"},
		{"match", "--engine", "cmd=self engine", "--engine", "cmd=self engine", "--max-moves", "-1", "--log-dir", "l"},
		{"match", "--engine", "cmd=self engine", "--engine", "cmd=self engine", "--policy", "opponent-decides", "--log-dir", "l"},
		{"engine", "--level", "99"},
		{"engine", "--fault", "explode-at=1"},
	} {
		if _, errs, code := runArbiter(t, dir, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errs)
		}
	}
	// An engine that cannot be started: the match cannot be played.
	if _, errs, code := runArbiter(t, dir, "match", "--engine", "cmd=/no/such/engine", "--engine", "cmd=self engine", "--log-dir", "l"); code != 3 {
		t.Errorf("missing engine: exit %d, want 3 (%s)", code, errs)
	}
	// One that runs but dies at start-up: two games tell, the match stops
	// there with exit status 3 and the engine's last words.
	out, errs, code := runArbiter(t, dir, "match", "--engine", "name=dies cmd=/bin/sh -c 'echo cannot open book >&2; exit 1'",
		"--engine", "name=ok cmd=self engine", "--games", "8", "--log-dir", "l")
	if code != 3 || strings.Count(out, "game ") != 2 || !strings.Contains(errs, "no game got going with: dies (2 attempts)") || !strings.Contains(errs, "cannot open book") {
		t.Errorf("engine dying at start-up: exit %d, want 3 after 2 games\n%s\n%s", code, out, errs)
	}
}

// refusingDXP is a DXP engine on a real socket (a test double) that answers
// every GAMEREQ with GAMEACC code 2 (refused), or never answers when silent.
func refusingDXP(t *testing.T, silent bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					raw, err := dxp.ReadMessage(br)
					if err != nil {
						return
					}
					if m, err := dxp.Parse(raw); err == nil && m.Type == dxp.GameReq && !silent {
						s, _ := dxp.Message{Type: dxp.GameAcc, Name: "refuser", Code: '2'}.Encode()
						c.Write([]byte(s + "\x00"))
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// A DXP engine that refuses GAMEREQ, or never answers it, never gets a game
// going: as for a Hub engine that dies at start-up, the match stops after
// two games with exit status 3 and the reason.
func TestMatchDXPEngineThatNeverStarts(t *testing.T) {
	for _, tt := range []struct {
		silent bool
		want   string
	}{
		{false, "engine refused the game: GAMEACC code 2"},
		{true, "no GAMEACC in answer to GAMEREQ within 1s (the start-up timeout, init=)"},
	} {
		dir := t.TempDir()
		addr := refusingDXP(t, tt.silent)
		out, errs, code := runArbiter(t, dir, "match", "--variant", "international", "--games", "6", "--log-dir", "logs",
			"--engine", "name=ok cmd=self engine", "--engine", "name=R proto=dxp init=1s addr="+addr)
		if code != exitRuntime || strings.Count(out, "game ") != 2 || !strings.Contains(errs, "no game got going with: R (2 attempts)") || !strings.Contains(errs, tt.want) {
			t.Errorf("silent=%v: exit %d, want %d after 2 games naming %q\n%s\n%s", tt.silent, code, exitRuntime, tt.want, out, errs)
		}
	}
}

// The sparring engine whose GUI closed its output says so on stderr and
// exits with status 3 (it used to die of SIGPIPE without a word, or carry
// on writing into the void).
func TestEngineWriteErrorExits(t *testing.T) {
	cmd := exec.Command(arbiterBin, "engine")
	cmd.Stdin = strings.NewReader("hub\n")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // nobody reads the engine's output
	cmd.Stdout = w
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	w.Close()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitRuntime || !strings.Contains(errb.String(), "writing to the GUI") {
		t.Errorf("engine with a closed output: %v, stderr %q; want exit %d naming the write", err, errb.String(), exitRuntime)
	}
}
