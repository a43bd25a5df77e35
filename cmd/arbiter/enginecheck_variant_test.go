package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// An engine author checks an English-only CheckerBoard engine as
// docs/engines.md writes the command, without --variant: engine-check's
// default is international, the engine refuses the position, and the
// variant warning says to give --variant english. Its fix said only "name
// the variants as the arbiter does, or set the option variant in the
// event", which sent the author to the engine's code.
func TestEngineCheckDefaultVariantSaysVariantFlag(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no C compiler (gcc) under CI=true: .ci/run should have installed it")
		}
		t.Skip("skipped: no C compiler (gcc) to build the CheckerBoard test library (apt-get install gcc)")
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "cbtest.so")
	args := []string{"-shared", "-fPIC", "-O1", "-o", lib, "../../match/engines/cb/testdata/cbtest.c", `-DNAME_SUFFIX="variant"`}
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, msg)
	}
	out, errOut, code := runArbiter(t, dir, "engine-check", "--engine", "proto=cb cmd=./cbtest.so", "--move-time", "50ms")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the international position refused)\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, `[WARN] variant: param variant offers "english", none called international`) ||
		!strings.Contains(out, "run engine-check again with --variant english") {
		t.Errorf("the variant warning does not say to give --variant english:\n%s", out)
	}
}

// Scan, the reference Hub engine, calls international draughts "normal"
// (param variant values "normal killer bt frisian losing") and exits when
// told a variant it does not know. A match sets "normal"; engine-check
// looked for "international" only: it warned that none was offered, told the
// author to check with --variant killer, and when it restarted the engine
// after a crash it sent set-param variant=international, so Scan exited
// before "ready" and every check after failed. The script is the sparring
// engine behind Scan's variant parameter, exiting as Scan does on any other
// value.
func TestEngineCheckScanVariantNames(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "scanlike")
	writeFile(t, script, `#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    *"name=variant value=normal"*) continue ;;
    *"name=variant value="*) echo "error: variant = $line" >&2; exit 1 ;;
    quit) echo quit; exit 0 ;;
  esac
  printf '%s\n' "$line"
done | `+arbiterBin+` engine --variant international --level random "$@" |
  sed -u 's/^param name=variant .*/param name=variant value=normal type=enum values="normal killer bt frisian losing"/'
`)
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runArbiter(t, dir, "engine-check", "--engine", "cmd=./scanlike", "--move-time", "50ms")
	if code != 0 || strings.Contains(out, "[WARN] variant") || strings.Contains(out, "--variant killer") ||
		!strings.Contains(out, " 0 warnings, 0 failed") {
		t.Fatalf("exit %d, want 0 with no variant warning and nothing failed\n%s\n%s", code, out, errOut)
	}
	// A crash at the second search: the engine is restarted for the
	// checks after it, and must be told nothing it exits on.
	out, errOut, _ = runArbiter(t, dir, "engine-check", "--engine", "cmd=./scanlike --fault crash-at=2", "--move-time", "50ms")
	if strings.Contains(out, "[FAIL] init") || !strings.Contains(out, "[PASS] position 3") {
		t.Fatalf("the restarted engine was not checked as the first start was\n%s\n%s", out, errOut)
	}
}
