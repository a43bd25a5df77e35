package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
)

// proxyWarning is what `arbiter serve --trust-proxy` logs when its proxy
// does not set X-Forwarded-For.
const proxyWarning = "--trust-proxy is given but a request came without an X-Forwarded-For address"

// TestServeBehindProxy follows docs/internet.md's reverse proxy: `arbiter
// serve --trust-proxy` behind a proxy (a Go reverse proxy standing in for
// nginx), a hostile client that sends its own X-Forwarded-For with every
// game it creates. Behind the doc's proxy (X-Forwarded-For set to the
// client's address) the game creation limit holds (20, then 429) and
// another real client is counted apart. Behind a bare "proxy_pass" (the
// client's header passed on untouched) the client escapes the limit, which
// the server cannot see; but an ordinary request without the header shows
// the proxy sets none, and the log says so and what to set (before, nothing
// said it: the operator learnt of it from players locked out together).
func TestServeBehindProxy(t *testing.T) {
	cases := []struct {
		name    string
		forward func(pr *httputil.ProxyRequest) // sets the request's X-Forwarded-For
		limited bool                            // the 21st game is refused
		warned  bool
	}{
		{"the doc's proxy sets X-Forwarded-For", forwardClient, true, false},
		{"a bare proxy_pass passes the client's on", func(pr *httputil.ProxyRequest) {
			pr.Out.Header["X-Forwarded-For"] = pr.In.Header["X-Forwarded-For"]
		}, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := startServe(t, t.TempDir(), "--trust-proxy")
			proxy := startProxy(t, s.url, c.forward)

			if code, _ := proxyCall(t, http.DefaultClient, proxy.URL+"/", ""); code != http.StatusOK {
				t.Fatalf("the create page through the proxy: %d", code)
			}
			var codes []int
			var last string
			for i := 1; i <= 21; i++ {
				code, body := proxyCall(t, http.DefaultClient, proxy.URL+"/api/games", fmt.Sprintf("10.0.0.%d", i))
				codes, last = append(codes, code), body
			}
			if got := codes[20] == http.StatusTooManyRequests; got != c.limited {
				t.Errorf("21 games from one client claiming 21 addresses: %v; want the 21st refused: %v", codes, c.limited)
			}
			if c.limited && !strings.Contains(last, "try again in a minute") {
				t.Errorf("the 21st game's refusal does not say when to try again: %s", last)
			}
			if c.limited {
				// The operator learns of it too: a club behind one address
				// creating friendly games would be refused all evening.
				waitFor(t, s.cmd, "the log's hint", func() bool { return strings.Contains(s.errb.String(), "limit of games created") }, s.errb)
			}
			if c.limited {
				other := otherClient(t)
				if other != nil {
					if code, body := proxyCall(t, other, proxy.URL+"/api/games", ""); code != http.StatusCreated {
						t.Errorf("another client (127.0.0.2) creating a game: %d %s; want 201", code, body)
					}
				}
			}
			// The warning comes before its request's own log line.
			proxyCall(t, http.DefaultClient, proxy.URL+"/api/variants", "")
			waitFor(t, s.cmd, "log of the last request", func() bool {
				return strings.Contains(s.errb.String(), `"route":"GET /api/variants"`)
			}, s.errb)
			log := s.errb.String()
			if got := strings.Count(log, proxyWarning); got != map[bool]int{true: 1, false: 0}[c.warned] {
				t.Errorf("the log has the proxy warning %d times; want it %v (once)\n%s", got, c.warned, log)
			}
			if c.warned && !strings.Contains(log, "proxy_set_header X-Forwarded-For $remote_addr") {
				t.Errorf("the warning does not say what to set in the proxy:\n%s", log)
			}
		})
	}
}

// startProxy is a reverse proxy in front of the server at serverURL (a Go
// one standing in for docs/internet.md's nginx), closed when the test ends;
// forward sets the X-Forwarded-For it passes on.
func startProxy(t *testing.T, serverURL string, forward func(pr *httputil.ProxyRequest)) *httptest.Server {
	t.Helper()
	target, err := url.Parse(serverURL)
	if err != nil {
		t.Fatalf("the server's address %q: %v", serverURL, err)
	}
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(target)
		forward(pr)
	}})
	t.Cleanup(proxy.Close)
	return proxy
}

// forwardClient is the doc's proxy ("proxy_set_header X-Forwarded-For
// $remote_addr"): the address the client's connection came from replaces
// whatever the client claimed.
func forwardClient(pr *httputil.ProxyRequest) {
	host, _, _ := net.SplitHostPort(pr.In.RemoteAddr)
	pr.Out.Header.Set("X-Forwarded-For", host)
}

// proxyCall asks the proxy: a game's creation (a POST) when path ends in
// /api/games, else a GET; xff, if not empty, is the X-Forwarded-For the
// client claims.
func proxyCall(t *testing.T, client *http.Client, u, xff string) (int, string) {
	t.Helper()
	method, body := http.MethodGet, ""
	if strings.HasSuffix(u, "/api/games") {
		method, body = http.MethodPost, `{"variant":"english"}`
	}
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// otherClient is a client whose connections come from 127.0.0.2, another
// address on Linux's loopback; nil (logged) where the system has none.
func otherClient(t *testing.T) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	probe, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Logf("no second loopback address here (%v): another client is not tried", err)
		return nil
	}
	probe.Close()
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}}}
}

// TestServeStreamLimitBehindProxy: one machine behind the doc's proxy
// opens a game's live stream 33 times, each claiming another address in
// X-Forwarded-For. The 33rd is refused (429: the proxy's address for the
// client counts, not the claims), and the refusal says what to do: close
// some pages, then reload (it said only "Too many live connections from
// this address.").
func TestServeStreamLimitBehindProxy(t *testing.T) {
	s := startServe(t, t.TempDir(), "--trust-proxy")
	proxy := startProxy(t, s.url, forwardClient)
	tokens := s.createGame(t, `{"variant":"english"}`)
	stream := proxy.URL + "/api/g/" + tokens["spectator"] + "/events"
	for i := 1; i <= 32; i++ {
		req, _ := http.NewRequest(http.MethodGet, stream, nil)
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.0.0.%d", i))
		resp, err := http.DefaultClient.Do(req) // returns with the stream's headers: it is open
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("stream %d: %d", i, resp.StatusCode)
		}
	}
	code, body := proxyCall(t, http.DefaultClient, stream, "10.0.0.33")
	if code != http.StatusTooManyRequests {
		t.Fatalf("the 33rd stream from one machine: %d %s; want 429", code, body)
	}
	if !strings.Contains(body, "close some of the pages") || !strings.Contains(body, "reload") {
		t.Errorf("the refusal does not say what to do next: %s", body)
	}
}

// TestServeClubBehindOneAddress follows a director whose server is on the
// internet and whose players sit in a club, every phone on the club's
// Wi-Fi and so behind one public address: forty game pages open, each
// with its live stream, through the doc's proxy. At the defaults the 33rd
// page is refused (429), and the operator's log says, once, what to give;
// with --devices-per-address 40 every page is served.
func TestServeClubBehindOneAddress(t *testing.T) {
	const phones = 40
	for _, tt := range []struct {
		args    []string
		refused bool
	}{
		{[]string{"--trust-proxy"}, true},
		{[]string{"--trust-proxy", "--devices-per-address", fmt.Sprint(phones)}, false},
	} {
		s := startServe(t, t.TempDir(), tt.args...)
		proxy := startProxy(t, s.url, forwardClient) // the club's one address
		tokens := s.createGame(t, `{"variant":"english"}`)
		stream := proxy.URL + "/api/g/" + tokens["spectator"] + "/events"
		refusedAt := 0
		var open []io.Closer
		for i := 1; i <= phones && refusedAt == 0; i++ {
			resp, err := http.Get(stream) // returns with the stream's headers: it is open
			if err != nil {
				t.Fatal(err)
			}
			open = append(open, resp.Body)
			if resp.StatusCode == http.StatusTooManyRequests {
				refusedAt = i
			} else if resp.StatusCode != http.StatusOK {
				t.Fatalf("%v: page %d: %d", tt.args, i, resp.StatusCode)
			}
		}
		for _, c := range open {
			c.Close()
		}
		proxy.Close()
		hint := "--devices-per-address N"
		switch {
		case tt.refused && refusedAt != 33:
			t.Errorf("%v: the page refused was number %d; want 33 (32 streams an address)", tt.args, refusedAt)
		case tt.refused:
			waitFor(t, s.cmd, "the log's hint", func() bool { return strings.Contains(s.errb.String(), hint) }, s.errb)
			if n := strings.Count(s.errb.String(), hint); n != 1 {
				t.Errorf("the hint was logged %d times; want once", n)
			}
		case refusedAt != 0:
			t.Errorf("%v: page %d of %d refused; want every page served", tt.args, refusedAt, phones)
		}
	}
}
