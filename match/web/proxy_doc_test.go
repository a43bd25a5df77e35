package web

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
}

// secretRoutes are the paths of the routes that hold a link's secret, with
// each wildcard replaced by a sample value.
func secretRoutes(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	route := regexp.MustCompile(`HandleFunc\("(?:[A-Z]+ )?(/[^"]*)"`)
	wild := regexp.MustCompile(`\{[a-z.$]*\}`)
	var paths []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range route.FindAllStringSubmatch(string(src), -1) {
			if p := r[1]; strings.Contains(p, "{token}") || strings.Contains(p, "{dtoken}") || strings.Contains(p, "{pass}") {
				paths = append(paths, wild.ReplaceAllString(p, "x1"))
			}
		}
	}
	return paths
}

func matchesAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
