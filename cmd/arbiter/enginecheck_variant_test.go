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
