package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// More of a player's poor connection (net_browser_test.go has the
// helpers): what the clocks say while the page is not connected.

// clockMS reads a time as the game page shows it (m:ss, h:mm:ss, or
// m:ss.t under ten seconds) in milliseconds.
func clockMS(t *testing.T, s string) int64 {
	t.Helper()
	var ms int64
	whole, tenths, _ := strings.Cut(s, ".")
	for _, part := range strings.Split(whole, ":") {
		n, err := strconv.ParseInt(part, 10, 64)
		if err != nil {
			t.Fatalf("the clock reads %q", s)
		}
		ms = ms*60 + n
	}
	ms *= 1000
	if tenths != "" {
		n, _ := strconv.ParseInt(tenths, 10, 64)
		ms += n * 100
	}
	return ms
}

// postAct sends an intent to the server at base with a token, as a
// player's page does.
func postAct(t *testing.T, base, token, intent string) {
	t.Helper()
	resp, err := http.Post(base+"/api/g/"+token+"/act", "application/json", strings.NewReader(intent))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d", intent, resp.StatusCode)
	}
}

// TestBrowserNetClockStands: White's clock runs on White's page when the
// page loses the server, first by the player's own network (offline),
// then by a server restart. While the page is not connected the clock
// stands where it was, marked as not current, though a second and more
// passes (it ran on, and jumped back when the restarted server, which
// charges no one for its own outage, came back). Back in touch it runs
// again from the server's figures, which after the time offline are lower
// by that time: the server charged it to White.
func TestBrowserNetClockStands(t *testing.T) {
	browserTest(t)
	r := newRestartable(t)
	c, err := r.hall.Create(context.Background(), online.Setup{Variant: "english", TimeControl: "300+3", White: "Ann", Black: "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	white := newPage(t, "white")
	white.open(r.url() + "/g/" + c.Tokens[online.RoleWhite])
	postAct(t, r.url(), c.Tokens[online.RoleBlack], `{"kind":"move","move":"11-15"}`)
	white.waitMoves(1)

	const clock = `document.querySelector('.player-white .clock')`
	// stoodAt is the time White's clock stands at on the page, exactly.
	const stoodAt = `arbiterGame.state.clocks.white - (Math.max(arbiterGame.stand.at, arbiterGame.clockAt) - arbiterGame.clockAt)`
	// server is the server's figure for White's clock and, read at once
	// after it came, what the page shows.
	server := func() (srv, shown int64) {
		t.Helper()
		got := eval[[]any](white, `fetch('/api/g/`+c.Tokens[online.RoleWhite]+`').then(r => r.json()).then(s => [s.state.clocks.white, `+clock+`.textContent])`)
		return int64(got[0].(float64)), clockMS(t, got[1].(string))
	}
	cases := []struct {
		name      string
		cut, mend func()
		notice    string
		charged   bool // the server charges White the time away (a restart's is given back from its last heartbeat, a second apart: not asserted)
		shots     bool
	}{
		{"offline", func() { white.net(true) }, func() { white.net(false) }, "Connection lost: waiting for the network…", true, false},
		{"restart", r.stop, r.start, "Reconnecting…", false, true},
	}
	for _, tc := range cases {
		white.wait("White's clock runs", clock+`.classList.contains('running') && !`+clock+`.classList.contains('stale')`)
		tc.cut()
		white.wait("the notice, the clock marked", `document.getElementById('conn').textContent === `+jsString(tc.notice)+` && `+clock+`.classList.contains('stale') && !`+clock+`.classList.contains('running')`)
		shown := eval[string](white, clock+`.textContent`)
		stood := int64(eval[float64](white, stoodAt))
		// A second and more of White's time passes by the page's own clock.
		white.wait("a second passes", fmt.Sprintf(`arbiterGame.state.clocks.white - (performance.now() - arbiterGame.clockAt) < %d`, stood-1000))
		if got := eval[string](white, clock+`.textContent`); got != shown {
			t.Errorf("%s: while not connected White's clock went from %s to %s", tc.name, shown, got)
		}
		if got := eval[string](white, clock+`.title`); got != "Not current: no connection to the server" {
			t.Errorf("%s: the clock not current says %q", tc.name, got)
		}
		if tc.shots {
			white.shot("net-clock-stands-390", 390, 844, "")
			white.shot("net-clock-stands-1366", 1366, 900, "")
		}

		tc.mend()
		white.wait("the notice goes, the clock runs", `document.getElementById('conn').hidden && `+clock+`.classList.contains('running') && !`+clock+`.classList.contains('stale') && !`+clock+`.title`)
		srv, now := server()
		if now < srv-1500 || now > srv+1000 {
			t.Errorf("%s: back in touch the page shows %d ms on White's clock, the server %d", tc.name, now, srv)
		}
		if tc.charged && srv >= stood-1000 {
			t.Errorf("%s: White's clock stood at %d ms; the server has %d after more than a second offline", tc.name, stood, srv)
		}
	}
}

// failHeld fails a request hold holds as a lost network does (no answer
// at all: fetch rejects with the browser's own TypeError).
func (p *page) failHeld(id fetch.RequestID) {
	p.t.Helper()
	p.do("fail a request", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: network.ErrorReasonInternetDisconnected})
		return err
	}))
}

// TestBrowserNetCatchUpFails: a page that must load the game again finds
// no network. Black's page, in Dutch, hears of the rematch White started
// and asks for its link; the request fails: the page says in Dutch that it
// is reconnecting (it said "TypeError: Failed to fetch" beside the board),
// tries again by itself, and shows the link. A spectator's page, in
// Russian, whose first load fails says so in Russian and what to do,
// not in the browser's words.
func TestBrowserNetCatchUpFails(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"english","time_control":"300+3","white":"Ann","black":"Bob"}`)
	black := newPage(t, "black")
	browserSpeaks(black, "nl-NL")
	black.open(g.links["black"])
	if code, body := e.act(g.tokens["white"], `{"kind":"resign"}`); code != http.StatusOK {
		t.Fatalf("resign: %d %s", code, body)
	}
	black.wait("the game is over", `!document.getElementById('banner').hidden`)

	held, release := black.hold("*/api/g/" + g.tokens["black"])
	if resp, body := e.do("POST", "/api/g/"+g.tokens["white"]+"/rematch", "{}"); resp.StatusCode != http.StatusOK {
		t.Fatalf("rematch: %d %s", resp.StatusCode, body)
	}
	black.failHeld(nextHeld(t, held, "Black's page's request for the rematch's link"))
	black.wait("the page says it is reconnecting, in Dutch", `!document.getElementById('conn').hidden && document.getElementById('conn').textContent === 'Opnieuw verbinden…'`)
	if got := eval[string](black, `[document.getElementById('error'), document.getElementById('fatal')].filter(e => !e.hidden).map(e => e.textContent).join(' ')`); got != "" {
		t.Errorf("the page says %q", got)
	}
	release(nextHeld(t, held, "the page's second try"))
	black.wait("the rematch's link, the notice gone", `!document.getElementById('rematch-link').hidden && document.getElementById('conn').hidden`)

	watcher := newPage(t, "spectator")
	browserSpeaks(watcher, "ru-RU")
	held, _ = watcher.hold("*/api/g/" + g.tokens["spectator"])
	watcher.do("open the link", chromedp.Navigate(g.links["spectator"]))
	watcher.failHeld(nextHeld(t, held, "the spectator's first load"))
	watcher.wait("the page says what is wrong, in Russian", `!document.getElementById('fatal').hidden`)
	if got := watcher.text("fatal"); got != "Не удалось загрузить партию: нет связи с сервером. Проверьте подключение и обновите страницу." {
		t.Errorf("the spectator's page says %q", got)
	}
}
