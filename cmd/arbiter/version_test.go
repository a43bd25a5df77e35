package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// --version prints the version and the VCS revision the binary was built
// from, as `go version -m` reads them from the binary (or says there is
// none: a build with -buildvcs=false).
func TestVersion(t *testing.T) {
	out, errs, code := runArbiter(t, t.TempDir(), "--version")
	if code != 0 || !regexp.MustCompile(`^arbiter \S+, revision (unknown|[0-9a-f]{40})\b.*, go1\.`).MatchString(out) {
		t.Fatalf("--version: exit %d, %q %q", code, out, errs)
	}
	info, err := exec.Command("go", "version", "-m", arbiterBin).Output()
	if err != nil {
		t.Skipf("go version -m: %v", err)
	}
	rev := ""
	for _, l := range strings.Split(string(info), "\n") {
		if f := strings.Fields(l); len(f) == 2 && strings.HasPrefix(f[1], "vcs.revision=") {
			rev = strings.TrimPrefix(f[1], "vcs.revision=")
		}
	}
	if rev == "" {
		rev = "unknown"
	}
	if !strings.Contains(out, "revision "+rev) {
		t.Errorf("--version says %q; the binary holds revision %s", out, rev)
	}
}
