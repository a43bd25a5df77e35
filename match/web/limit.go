package web

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// buckets is a token bucket per client address: rate tokens a second up to
// burst. The table holds at most max addresses; when it is full, buckets
// that have filled up again (their client went quiet) are dropped, and if
// none has, the newcomer is refused rather than the table grown: a flood
// of addresses costs the flooder, not the memory.
type buckets struct {
	rate  float64
	burst float64
	max   int
	now   func() time.Time

	mu sync.Mutex
	m  map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newBuckets(rate float64, burst, max int) *buckets {
	return &buckets{rate: rate, burst: float64(burst), max: max, now: time.Now, m: make(map[string]*bucket)}
}

// allow takes a token for key; false when its bucket is empty.
func (b *buckets) allow(key string) bool {
	if b.rate < 0 {
		return true
	}
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	k, ok := b.m[key]
	if !ok {
		if len(b.m) >= b.max && !b.sweep(now) {
			return false
		}
		k = &bucket{tokens: b.burst, last: now}
		b.m[key] = k
	}
	k.tokens = min(b.burst, k.tokens+now.Sub(k.last).Seconds()*b.rate)
	k.last = now
	if k.tokens < 1 {
		return false
	}
	k.tokens--
	return true
}

// sweep drops the buckets that are full again; whether it freed a place.
func (b *buckets) sweep(now time.Time) bool {
	n := len(b.m)
	for key, k := range b.m {
		if k.tokens+now.Sub(k.last).Seconds()*b.rate >= b.burst {
			delete(b.m, key)
		}
	}
	return len(b.m) < n
}

// streamCounter bounds the open event streams, per client and in all.
type streamCounter struct {
	perClient, total int

	mu  sync.Mutex
	n   int
	per map[string]int
}

func newStreamCounter(perClient, total int) *streamCounter {
	return &streamCounter{perClient: perClient, total: total, per: make(map[string]int)}
}

// acquire takes a place for client: 0 when granted, else the HTTP status
// of the refusal (429 this client has too many, 503 the server is full).
func (c *streamCounter) acquire(client string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.per[client] >= c.perClient {
		return http.StatusTooManyRequests
	}
	if c.n >= c.total {
		return http.StatusServiceUnavailable
	}
	c.n++
	c.per[client]++
	return 0
}

func (c *streamCounter) release(client string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n--
	if c.per[client]--; c.per[client] <= 0 {
		delete(c.per, client)
	}
}

// open is the number of open streams.
func (c *streamCounter) open() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// clientIP is the address the limits count: the peer's IP, or with
// trustProxy the last X-Forwarded-For entry (the one the proxy added; the
// ones before it are the client's own claims). IPv6 clients are counted
// per /64, the block one subscriber usually holds.
func clientIP(r *http.Request, trustProxy bool) string {
	if trustProxy {
		if ip, ok := forwardedIP(r); ok {
			return ip
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil {
		return ipKey(ip)
	}
	return host
}

// forwardedIP is the last X-Forwarded-For entry as a limit's key, if the
// request has one that is an IP address.
func forwardedIP(r *http.Request) (string, bool) {
	xff := r.Header.Values("X-Forwarded-For")
	if len(xff) == 0 {
		return "", false
	}
	last := xff[len(xff)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	ip := net.ParseIP(strings.TrimSpace(last))
	if ip == nil {
		return "", false
	}
	return ipKey(ip), true
}

// checkForwarded warns once, with --trust-proxy, of a request that came
// without an X-Forwarded-For address. Its proxy does not set the header
// (an nginx "proxy_pass" alone): every client of it counts as the proxy's
// one address, so a few players lock out the rest, and a proxy that
// passes the client's own header on lets a script choose its address and
// escape the limits. Nothing else would tell the operator: the server
// answers as usual.
func (s *Server) checkForwarded(r *http.Request) {
	if _, ok := forwardedIP(r); ok || !s.unforwarded.CompareAndSwap(false, true) {
		return
	}
	s.log.Warn().Str("client", clientIP(r, false)).Msg("--trust-proxy is given but a request came without an X-Forwarded-For address: " +
		"the limits count every such client as this one address, and a proxy that passes on the header a client sent lets it choose its own; " +
		"have the proxy set X-Forwarded-For to the client's address (nginx: proxy_set_header X-Forwarded-For $remote_addr; see docs/internet.md)")
}

func ipKey(ip net.IP) string {
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// ownedGames is the per-address budget of running games: every game a
// client address creates, however it creates it, is noted under that
// address, and the address may have at most max of them running (those
// being created included). A game that ended, was adjourned or was
// discarded stops counting (live says which still run). At most clients
// addresses are tracked; an address whose games all ended is forgotten.
type ownedGames struct {
	max, clients int

	mu      sync.Mutex
	m       map[string]map[string]struct{} // address -> game ids
	pending map[string]int                 // address -> games being created
}

func newOwnedGames(max, clients int) *ownedGames {
	return &ownedGames{max: max, clients: clients, m: make(map[string]map[string]struct{}), pending: make(map[string]int)}
}

// reserve takes a place for one more game of client; live tells whether a
// game noted earlier still runs. done gives the place back, noting the
// game created in it (id "" when none was).
func (o *ownedGames) reserve(client string, live func(string) bool) (done func(id string), ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	ids := o.m[client]
	for id := range ids {
		if !live(id) {
			delete(ids, id)
		}
	}
	if len(ids) == 0 {
		delete(o.m, client)
		if o.pending[client] == 0 && len(o.m)+len(o.pending) >= o.clients {
			o.sweep(live)
			if len(o.m)+len(o.pending) >= o.clients {
				return nil, false
			}
		}
	}
	if len(ids)+o.pending[client] >= o.max {
		return nil, false
	}
	o.pending[client]++
	return func(id string) {
		o.mu.Lock()
		defer o.mu.Unlock()
		if o.pending[client]--; o.pending[client] <= 0 {
			delete(o.pending, client)
		}
		if id == "" {
			return
		}
		if o.m[client] == nil {
			o.m[client] = make(map[string]struct{})
		}
		o.m[client][id] = struct{}{}
	}, true
}

// sweep forgets the addresses whose games all ended.
func (o *ownedGames) sweep(live func(string) bool) {
	for c, ids := range o.m {
		for id := range ids {
			if !live(id) {
				delete(ids, id)
			}
		}
		if len(ids) == 0 {
			delete(o.m, c)
		}
	}
}

// warnCrowded tells the operator, once, that a client address reached a
// per-address limit (what: "requests", "live streams"): a script, or
// many people behind one address (a club's Wi-Fi reaching a server on the
// internet), whom the limits would refuse all evening.
func (s *Server) warnCrowded(client, what string) {
	if !s.crowded.CompareAndSwap(false, true) {
		return
	}
	s.log.Warn().Str("client", client).Str("limit", what).Msg("a client address reached its limit of " + what +
		" (answered 429): if many people share one address (a club's or a school's network), start the server with " +
		"--devices-per-address N, N the devices behind it (see docs/internet.md)")
}

// creationAllowed takes one of client's creations (a game or an event:
// Limits.GameRate and GameBurst), or answers 429 and reports false, the
// operator told once as for the other per-address limits (warnCrowded).
func (s *Server) creationAllowed(w http.ResponseWriter, client string) bool {
	if s.creations.allow(client) {
		return true
	}
	s.warnCrowded(client, "games created")
	w.Header().Set("Retry-After", "60")
	writeCode(w, http.StatusTooManyRequests, codeTooManyGames, nil)
	return false
}
