package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// An engine author points match at a program that is not a Hub engine (a
// chess engine speaking UCI, a DXP program, a script that knows no "hub"):
// the run stops before the first game with exit 2, quoting what the program
// printed, saying the arbiter expected Hub and suggesting proto= and
// engine-check. It is the first line that shows it, not the 60 s start-up
// timeout: the message of the fast path ("it is not a Hub engine") differs
// from the timeout's ("no "wait" from it within ..."), and the default
// timeout is left as it is.
func TestMatchNotAHubEngine(t *testing.T) {
	dir := t.TempDir()
	scripts := map[string]string{
		"uci.sh": `while read l; do case "$l" in quit) exit 0;; *) echo "id name Fake 1.0"; echo "id author Nobody"; echo uciok;; esac; done`,
		"dxp.sh": `printf 'R01%-32sW0300050\n' Sloth; while read l; do :; done`,
	}
	for name, body := range scripts {
		writeFile(t, filepath.Join(dir, name), body+"\n")
	}
	for _, tt := range []struct{ script, quote, looks string }{
		{"uci.sh", `"id name Fake 1.0"`, "UCI"},
		{"dxp.sh", `"R01Sloth`, "DXP"},
	} {
		t.Run(tt.script, func(t *testing.T) {
			out, errOut, code := runArbiter(t, dir, "match",
				"--engine", "name=U cmd=/bin/sh "+filepath.Join(dir, tt.script),
				"--engine", "name=S cmd=self engine",
				"--games-per-encounter", "2", "--out", filepath.Join(t.TempDir(), "m"))
			all := out + errOut
			if code != 2 {
				t.Fatalf("exit %d, want 2 (an engine that cannot play):\n%s", code, all)
			}
			for _, want := range []string{"engine U (engines.0) cannot play", "it is not a Hub engine", tt.quote, tt.looks,
				"expected Hub version 2", "proto=", `arbiter engine-check --engine SPEC`} {
				if !strings.Contains(all, want) {
					t.Errorf("the message lacks %s:\n%s", want, all)
				}
			}
			if strings.Contains(all, `no "wait"`) {
				t.Errorf("the run waited for the start-up timeout:\n%s", all)
			}
			// The suggested next step says the same.
			out, errOut, code = runArbiter(t, dir, "engine-check", "--engine", "cmd=/bin/sh "+filepath.Join(dir, tt.script))
			if code != 1 || !strings.Contains(out+errOut, "[FAIL] handshake: not a Hub engine") || !strings.Contains(out+errOut, tt.looks) {
				t.Errorf("engine-check: exit %d:\n%s%s", code, out, errOut)
			}
		})
	}
}
