package poll

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestUntil(t *testing.T) {
	var n atomic.Int32
	if !Until(time.Minute, time.Millisecond, func() bool { return n.Add(1) == 3 }) {
		t.Fatal("a condition that comes true was not seen")
	}
	if n.Load() != 3 {
		t.Fatalf("asked %d times after it held", n.Load())
	}
	if Until(30*time.Millisecond, 0, func() bool { return false }) {
		t.Fatal("a condition that never holds was reported as held")
	}
}
