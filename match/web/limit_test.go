package web

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

func TestBucketsRefillAndBound(t *testing.T) {
	now := time.Unix(1000, 0)
	b := newBuckets(2, 3, 2) // 2 a second, burst 3, two clients tracked
	b.now = func() time.Time { return now }
	for i := 0; i < 3; i++ {
		if !b.allow("a") {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	if b.allow("a") {
		t.Fatal("a fourth request within the same instant was allowed (burst 3)")
	}
	now = now.Add(500 * time.Millisecond) // one token back
	if !b.allow("a") || b.allow("a") {
		t.Fatal("after 0.5 s at 2/s exactly one more request should pass")
	}
	if !b.allow("b") {
		t.Fatal("a second client was refused")
	}
	// The table is full (a, b) and neither bucket has refilled: a third
	// client is refused rather than the table grown.
	if b.allow("c") {
		t.Fatal("a third client was let in beyond the table's bound")
	}
	now = now.Add(10 * time.Second) // both full again: their places are freed
	if !b.allow("c") {
		t.Fatal("a third client was refused after the others went quiet")
	}
	if len(b.m) > 2 {
		t.Fatalf("%d buckets tracked, bound 2", len(b.m))
	}
	off := newBuckets(-1, 1, 1)
	for i := 0; i < 10; i++ {
		if !off.allow(strconv.Itoa(i)) {
			t.Fatal("a negative rate should turn the limit off")
		}
	}
}

func TestStreamCounter(t *testing.T) {
	c := newStreamCounter(2, 3)
	for _, tt := range []struct {
		client string
		want   int
	}{
		{"a", 0}, {"a", 0}, {"a", http.StatusTooManyRequests}, {"b", 0}, {"c", http.StatusServiceUnavailable},
	} {
		if got := c.acquire(tt.client); got != tt.want {
			t.Fatalf("acquire(%s) = %d, want %d", tt.client, got, tt.want)
		}
	}
	c.release("a")
	if got := c.acquire("c"); got != 0 {
		t.Fatalf("after a release: %d", got)
	}
	if c.open() != 3 {
		t.Fatalf("open %d, want 3", c.open())
	}
	for _, cl := range []string{"a", "b", "c"} {
		c.release(cl)
	}
	if c.open() != 0 || len(c.per) != 0 {
		t.Fatalf("after releasing all: open %d, per-client %v", c.open(), c.per)
	}
}

func TestClientIP(t *testing.T) {
	for _, tt := range []struct {
		name   string
		remote string
		xff    []string
		trust  bool
		want   string
	}{
		{"v4", "192.0.2.7:5123", nil, false, "192.0.2.7"},
		{"xff ignored without trust", "192.0.2.7:5123", []string{"203.0.113.9"}, false, "192.0.2.7"},
		{"xff trusted: last entry", "127.0.0.1:5123", []string{"10.9.9.9, 203.0.113.9"}, true, "203.0.113.9"},
		{"xff trusted: last header", "127.0.0.1:5123", []string{"10.9.9.9", "203.0.113.10"}, true, "203.0.113.10"},
		{"xff garbage falls back to the peer", "127.0.0.1:5123", []string{"not-an-ip"}, true, "127.0.0.1"},
		{"v6 per /64", "[2001:db8:1:2:aaaa::1]:443", nil, false, "2001:db8:1:2::/64"},
		{"v4-mapped v6", "[::ffff:192.0.2.1]:80", nil, false, "192.0.2.1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.remote
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := clientIP(r, tt.trust); got != tt.want {
				t.Errorf("clientIP = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDecodeStrict(t *testing.T) {
	type v struct {
		Kind string `json:"kind"`
	}
	for _, tt := range []struct {
		body string
		ok   bool
	}{
		{`{"kind":"move"}`, true},
		{` {"kind":"move"} `, true},
		{`{"kind":"move"}{"kind":"move"}`, false},
		{`{"kind":"move"} x`, false},
		{`{"kind":"move","extra":1}`, false},
		{`{"kind":1}`, false},
		{``, false},
		{`[`, false},
	} {
		var x v
		if err := decodeStrict([]byte(tt.body), &x); (err == nil) != tt.ok {
			t.Errorf("decodeStrict(%q) = %v, want ok=%v", tt.body, err, tt.ok)
		}
	}
}

// Shared multiplies the limits of one address, and only those: a room
// behind one address gets n people's share, the server's totals stay.
func TestLimitsShared(t *testing.T) {
	one := DefaultLimits
	for _, n := range []int{0, 1, 3, 40} {
		got := one.Shared(n)
		k := max(n, 1)
		if got.RequestRate != one.RequestRate*float64(k) || got.RequestBurst != one.RequestBurst*k ||
			got.GameRate != one.GameRate*float64(k) || got.GameBurst != one.GameBurst*k ||
			got.StreamsPerClient != one.StreamsPerClient*k {
			t.Errorf("Shared(%d) = %+v; want the per-address limits times %d", n, got, k)
		}
		if got.GamesPerClient != 0 || got.Streams != one.Streams || got.MaxBody != one.MaxBody || got.Clients != one.Clients {
			t.Errorf("Shared(%d) changed a total or a size: %+v", n, got)
		}
	}
	if got := (Limits{GamesPerClient: 5}).Shared(4).GamesPerClient; got != 20 {
		t.Errorf("Shared(4) of 5 running games an address: %d; want 20", got)
	}
}
