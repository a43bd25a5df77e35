package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Scan 3.1 aborts on a line it cannot read. engine-check failed "unknown
// and malformed input" with the exit, then failed it again with "search
// after it: write to engine: write |1: broken pipe", a second failure of
// the same cause in words an author cannot act on, and did not say which
// line it had sent. The script is the sparring engine exiting as Scan does
// on the unknown command.
func TestEngineCheckBadInputFailsOnceNamingTheLines(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "abortson")
	writeFile(t, script, `#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    xyzzy*) echo "terminate called after throwing an instance of 'std::exception'" >&2; exit 134 ;;
    quit) echo quit; exit 0 ;;
  esac
  printf '%s\n' "$line"
done | `+arbiterBin+` engine --level random
`)
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runArbiter(t, dir, "engine-check", "--engine", "cmd=./abortson", "--move-time", "50ms")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	if n := strings.Count(out, "[FAIL] unknown and malformed input"); n != 1 || strings.Contains(out, "search after it") ||
		!strings.Contains(out, `after the lines "xyzzy-unknown-command arg=1"`) || !strings.Contains(out, " 1 failed") {
		t.Errorf("want one failure naming the lines sent, got %d\n%s", n, out)
	}
}
