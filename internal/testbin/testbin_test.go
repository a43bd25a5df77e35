package testbin

import "testing"

// TestIsArbiter: only cmd/arbiter takes the prebuilt binary; any other
// main package a test builds is built from its own source.
func TestIsArbiter(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want bool
	}{
		{"../../cmd/arbiter", true}, {"/src/arbiter/cmd/arbiter", true}, {".", false},
		{"../../cmd/arbiter/sub", false}, {"../../cmd/notarbiter", false}, {"/src/xcmd/arbiter", false},
	} {
		if got := isArbiter(c.dir); got != c.want {
			t.Errorf("isArbiter(%q) = %v, want %v", c.dir, got, c.want)
		}
	}
}
