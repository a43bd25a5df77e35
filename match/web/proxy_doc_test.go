package web

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/people/director"
)

// TestDocProxyConfig reads the nginx config of docs/internet.md, the one an
// operator copies (the internet walk ran it as it stands in front of the
// binary; CI has no nginx): every location that forwards sets
// X-Forwarded-For to the client's address (what --trust-proxy counts), and
// every route whose path holds a secret (a {token}, {dtoken} or {pass} of
// the routes in this package's source) falls in a location with the access
// log off. A route with a secret added under a new prefix fails here until
// the doc's config keeps it out of the log too.
func TestDocProxyConfig(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "internet.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```nginx\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/internet.md gives no nginx config (```nginx): an operator is left to guess the proxy's headers and log")
	}
	locations := regexp.MustCompile(`(?s)location\s+(~\s+)?(\S+)\s*\{(.*?)\}`).FindAllSubmatch(m[1], -1)
	var unlogged []*regexp.Regexp
	for _, l := range locations {
		body := string(l[3])
		if strings.Contains(body, "proxy_pass") && !strings.Contains(body, "proxy_set_header X-Forwarded-For $remote_addr;") {
			t.Errorf("location %s forwards without setting X-Forwarded-For to the client's address", l[2])
		}
		if len(l[1]) > 0 && strings.Contains(body, "access_log off;") {
			unlogged = append(unlogged, regexp.MustCompile(string(l[2])))
		}
	}
	secrets := secretRoutes(t)
	if len(secrets) < 10 {
		t.Fatalf("found %d routes with a secret in this package's source; the reading of HandleFunc is out of date", len(secrets))
	}
	for _, path := range secrets {
		if !matchesAny(unlogged, path) {
			t.Errorf("the doc's nginx config logs %s: its secret reaches the access log", path)
		}
	}
	// nginx refuses a body over 1 MiB unless told; the largest body a
	// route reads (a director's rating list) must get through.
	size := regexp.MustCompile(`(?m)^\s*client_max_body_size\s+(\d+)([kKmM]?);`).FindSubmatch(m[1])
	allowed := int64(1 << 20) // nginx's default
	if size != nil {
		n, _ := strconv.ParseInt(string(size[1]), 10, 64)
		allowed = n << map[string]int{"": 0, "k": 10, "m": 20}[strings.ToLower(string(size[2]))]
	}
	if largest := largestBody(t); allowed < largest {
		t.Errorf("the doc's nginx config lets bodies of %d bytes through; a route reads up to %d (client_max_body_size)", allowed, largest)
	}
}

// largestBody is the largest request body a route of this package reads:
// the limit of every readBody and MaxBytesReader call in its source. A
// limit this test does not know fails it, so that a new upload is weighed
// against the doc's proxy config.
func largestBody(t *testing.T) int64 {
	t.Helper()
	known := map[string]int64{
		"s.lim.MaxBody":          DefaultLimits.MaxBody,
		"director.MaxTRF":        director.MaxTRF,
		"director.MaxCSV":        director.MaxCSV,
		"director.MaxRatingList": director.MaxRatingList,
		"limit":                  0, // readBody's own parameter
	}
	call := regexp.MustCompile(`(?:readBody\(w, r, "[^"]*", |MaxBytesReader\(w, r\.Body, )([^)]+)\)`)
	var largest int64
	calls := 0
	for f, src := range sources(t) {
		for _, c := range call.FindAllStringSubmatch(src, -1) {
			n, ok := known[c[1]]
			if !ok {
				t.Errorf("%s reads a body of at most %s: give its size here and check docs/internet.md's proxy configs let it through", f, c[1])
			}
			largest = max(largest, n)
			calls++
		}
	}
	if calls < 4 {
		t.Fatalf("found %d reads of a request body in this package's source; the reading of readBody is out of date", calls)
	}
	return largest
}

// secretRoutes are the paths of the routes that hold a link's secret, with
// each wildcard replaced by a sample value.
func secretRoutes(t *testing.T) []string {
	t.Helper()
	route := regexp.MustCompile(`HandleFunc\("(?:[A-Z]+ )?(/[^"]*)"`)
	wild := regexp.MustCompile(`\{[a-z.$]*\}`)
	var paths []string
	for _, src := range sources(t) {
		for _, r := range route.FindAllStringSubmatch(src, -1) {
			if p := r[1]; strings.Contains(p, "{token}") || strings.Contains(p, "{dtoken}") || strings.Contains(p, "{pass}") {
				paths = append(paths, wild.ReplaceAllString(p, "x1"))
			}
		}
	}
	return paths
}

// sources is this package's source, tests aside, by file name.
func sources(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(src)
	}
	return out
}

func matchesAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
