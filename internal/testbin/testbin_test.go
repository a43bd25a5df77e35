package testbin

import (
	"net"
	"strconv"
	"testing"
)

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

// UnboundAddr gives addresses nobody listens on, never one twice, below
// the ephemeral range.
func TestUnboundAddr(t *testing.T) {
	seen := map[string]bool{}
	for range 50 {
		addr := UnboundAddr(t)
		if seen[addr] {
			t.Fatalf("%s handed out twice", addr)
		}
		seen[addr] = true
		_, port, _ := net.SplitHostPort(addr)
		if n, _ := strconv.Atoi(port); n < 20000 || n >= 32000 {
			t.Errorf("%s: port outside 20000-31999", addr)
		}
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			t.Errorf("%s answers", addr)
		}
	}
}
