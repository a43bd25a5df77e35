package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// engine-check passes a sound engine and names the check each fault of
// the sparring engine fails (with a fix), exit 1.
func TestEngineCheck(t *testing.T) {
	tests := []struct {
		name   string
		engine string
		code   int
		failed []string // checks that must fail; every other must pass
	}{
		{"sound", "cmd=self engine --level 1", 0, nil},
		{"illegal first move", "cmd=self engine --fault illegal-at=1", 1, []string{"position 1"}},
		{"garbage done", "cmd=self engine --fault garbage-at=2", 1, []string{"position 2"}},
		{"slow", "cmd=self engine --fault slow-at=5", 1, []string{"level moves+time"}},
		{"crash", "cmd=self engine --fault crash-at=4", 1, []string{"level time+inc"}},
		{"hang", "cmd=self engine --fault hang-at=3", 1, []string{"position 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			logFile := filepath.Join(dir, "check.log")
			out, errOut, code := runArbiter(t, dir, "engine-check", "--variant", "english", "--log", logFile, "--engine", tt.engine)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out, errOut)
			}
			if !regexp.MustCompile(`(?m)^\d+ checks: \d+ passed, \d+ warnings, \d+ failed$`).MatchString(out) {
				t.Errorf("no summary line:\n%s", out)
			}
			for _, want := range []string{"[PASS] handshake", "[PASS] init", "position 3", "level depth", "stop during a search", "ping during a search", "unknown and malformed input", "quit"} {
				if !strings.Contains(out, want) {
					t.Errorf("checklist lacks %q:\n%s", want, out)
				}
			}
			var fails []string
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "[FAIL] ") {
					fails = append(fails, line)
				}
			}
			for _, name := range tt.failed {
				found := false
				for _, f := range fails {
					found = found || strings.HasPrefix(f, "[FAIL] "+name)
				}
				if !found {
					t.Errorf("%q did not fail:\n%s", name, out)
				}
			}
			if tt.failed == nil && len(fails) > 0 {
				t.Errorf("a sound engine failed:\n%s", out)
			}
			if tt.code == 1 && !strings.Contains(out, "       fix: ") {
				t.Errorf("no fix for the failure:\n%s", out)
			}
			data, err := os.ReadFile(logFile)
			if err != nil || !strings.Contains(string(data), "> go think") || !strings.Contains(string(data), "< done move=") && tt.name == "sound" {
				t.Errorf("log: %v\n%s", err, data)
			}
		})
	}
	// A DXP spec is refused as DXP whether or not it has an address: the
	// spec without one was told to add an address first.
	for _, spec := range []string{"proto=dxp addr=127.0.0.1:1", "proto=dxp cmd=self engine --dxp 127.0.0.1:0"} {
		t.Run("dxp "+spec, func(t *testing.T) {
			_, errOut, code := runArbiter(t, t.TempDir(), "engine-check", "--engine", spec)
			if code != 2 || !strings.Contains(errOut, "protocol dxp is not checked: DXP has no search limits") {
				t.Errorf("exit %d: %s", code, errOut)
			}
		})
	}
}

// engine-check speaks Hub-1 to a Hub-1 engine (the sparring engine with
// --hub1): a sound one passes every check, and its faults fail the checks
// they fall in, as in version 2.
func TestEngineCheckHub1(t *testing.T) {
	tests := []struct {
		name   string
		fault  string
		code   int
		failed string // the check that must fail ("": none may)
	}{
		{"sound", "", 0, ""},
		{"illegal first move", "--fault illegal-at=1", 1, "position 1"},
		{"garbage move", "--fault garbage-at=2", 1, "position 2"},
		{"crash", "--fault crash-at=4", 1, "level time+inc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			logFile := filepath.Join(dir, "check.log")
			spec := "proto=hub1 cmd=self engine --hub1 --variant english --level 1 " + tt.fault
			out, errOut, code := runArbiter(t, dir, "engine-check", "--variant", "english", "--log", logFile, "--engine", spec)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out, errOut)
			}
			for _, want := range []string{"(hub1, english)", `[PASS] handshake: name "sparring 1.0"`, "[PASS] init", "level depth (depth 2)",
				"stop during a search", "ping during a search", "unknown and malformed input", "[PASS] quit"} {
				if !strings.Contains(out, want) {
					t.Errorf("checklist lacks %q:\n%s", want, out)
				}
			}
			var fails []string
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "[FAIL] ") {
					fails = append(fails, line)
				}
			}
			switch {
			case tt.failed == "" && len(fails) > 0:
				t.Errorf("a sound engine failed:\n%s", out)
			case tt.failed != "" && (len(fails) == 0 || !strings.HasPrefix(fails[0], "[FAIL] "+tt.failed)):
				t.Errorf("%q did not fail first:\n%s", tt.failed, out)
			}
			data, err := os.ReadFile(logFile)
			if err != nil || !strings.Contains(string(data), "> go\n") || !strings.Contains(string(data), "> pos b") ||
				tt.name == "sound" && !strings.Contains(string(data), "< move ") {
				t.Errorf("log: %v\n%s", err, data)
			}
		})
	}
}

// TestEngineCheckHub1NoVariant: a Hub-1 engine is told its variant only by
// its options (Hub 1 declares no parameters). One that plays international
// by default refuses the English positions and never moves; engine-check
// advised "answer every go with done" (Hub 2's word, and not the cause) and
// did not show the engine's error line. It now quotes the line, as a
// match's forfeit reason does, and says how to tell the engine its variant;
// told it, the same engine passes.
func TestEngineCheckHub1NoVariant(t *testing.T) {
	dir := t.TempDir()
	const fix = "fix: a Hub-1 engine learns its variant only from its options: add option.variant=english to the engine spec " +
		"(--engine 'proto=hub1 option.variant=english cmd=...'), unless it plays english by default; then answer every go with a move line"
	out, errOut, code := runArbiter(t, dir, "engine-check", "--variant", "english", "--engine", "proto=hub1 cmd=self engine --hub1 --level 1")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	lines := strings.Split(out, "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "[FAIL] position 1 ") })
	if i < 0 || i+1 >= len(lines) {
		t.Fatalf("position 1 did not fail:\n%s", out)
	}
	if want := `; the engine said: error hub pos "`; !strings.Contains(lines[i], "no move within") || !strings.Contains(lines[i], want) {
		t.Errorf("the failure does not quote the engine's error line (%q):\n%s", want, lines[i])
	}
	if got := strings.TrimSpace(lines[i+1]); !strings.HasPrefix(got, fix) {
		t.Errorf("fix line:\n%s\nwant it to begin\n%s", got, fix)
	}
	if strings.Contains(out, "with done") {
		t.Errorf("Hub 2's advice given to a Hub-1 engine:\n%s", out)
	}
	// The refusal is said once: the checks after it would each fail the
	// same way after waiting out their time.
	if !strings.Contains(out, "[SKIP] the remaining checks: not run") || strings.Contains(out, "[FAIL] position 2 ") ||
		!strings.Contains(out, "[PASS] quit") || !strings.HasSuffix(strings.TrimSpace(out), ", 1 not run") {
		t.Errorf("the checks after the refused position were run, or the skip is not said:\n%s", out)
	}
	out, errOut, code = runArbiter(t, dir, "engine-check", "--variant", "english", "--engine", "proto=hub1 option.variant=english cmd=self engine --hub1 --level 1")
	if code != 0 || !strings.Contains(out, "[PASS] position 1 ") {
		t.Errorf("told its variant: exit %d\n%s%s", code, out, errOut)
	}
}
