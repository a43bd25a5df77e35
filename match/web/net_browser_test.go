package web

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/internal/testbin"
	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// Players on phones: a connection that drops for a while, a slow one, a
// reloaded page, a restarted server, a tab left in the background. The
// tests cut one player's network as DevTools does (that player's whole
// browser context) and assert what each player then sees.

// net sets p's network offline or back online, as a phone losing its
// signal: new requests fail and navigator.onLine and the window's
// online/offline events follow. (Chromium's emulation leaves a stream
// that is already open alone; a phone's page learns of the loss from the
// offline event.)
func (p *page) net(offline bool) {
	p.t.Helper()
	p.do("network", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		cond := &network.Conditions{Offline: offline, DownloadThroughput: -1, UploadThroughput: -1}
		if _, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{cond}}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: offline, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	}))
}

// hold holds p's requests whose URL matches pattern (Fetch's wildcards)
// before they reach the server, until release lets each go: a network as
// slow as the test needs, decided by the test rather than by a clock.
// held receives the id of each request held.
func (p *page) hold(pattern string) (held <-chan fetch.RequestID, release func(fetch.RequestID)) {
	p.t.Helper()
	ids := make(chan fetch.RequestID, 16)
	p.hook(func(ev any) {
		if ev, ok := ev.(*fetch.EventRequestPaused); ok {
			ids <- ev.RequestID
		}
	})
	p.do("hold "+pattern, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: pattern}}})
		return err
	}))
	return ids, func(id fetch.RequestID) {
		p.t.Helper()
		p.do("release a request", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
			return err
		}))
	}
}

// nextHeld is the next request hold has held, what naming it for the
// failure; the bound is generous for a loaded machine, not a timing.
func nextHeld(t *testing.T, held <-chan fetch.RequestID, what string) fetch.RequestID {
	t.Helper()
	select {
	case id := <-held:
		return id
	case <-time.After(time.Minute):
		t.Fatalf("%s was never sent", what)
		return ""
	}
}

// loseAnswers lets p's requests matching pattern reach the server and
// loses their answers on the way back (the connection is reset), as a
// phone that moves out of reach while the server answers.
func (p *page) loseAnswers(pattern string) {
	p.t.Helper()
	ids := make(chan fetch.RequestID, 16)
	p.hook(func(ev any) {
		if ev, ok := ev.(*fetch.EventRequestPaused); ok && ev.ResponseStatusCode != 0 {
			ids <- ev.RequestID
		}
	})
	p.do("lose answers to "+pattern, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: pattern, RequestStage: fetch.RequestStageResponse}}})
		return err
	}))
	go func() {
		for {
			select {
			case id := <-ids:
				chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
					_, err := cdp.Call(ctx, t, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: network.ErrorReasonConnectionReset})
					return err
				}))
			case <-p.ctx.Done(): // the tab is closed
				return
			}
		}
	}()
}

// lifecycle freezes p's page ("frozen": no task runs, as a phone does to
// a tab left in the background) or wakes it ("active").
func (p *page) lifecycle(state string) {
	p.t.Helper()
	p.do("page "+state, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, cdppage.SetWebLifecycleState, cdppage.SetWebLifecycleStateParams{State: cdppage.SetWebLifecycleStateState(state)})
		return err
	}))
}

// drawn is the board as the page draws it: "black:1 ... white:32".
func (p *page) drawn() string {
	p.t.Helper()
	return eval[string](p, `Array.from(document.querySelectorAll('#board .piece')).map(e => (e.classList.contains('pc-white') ? 'white:' : 'black:') + e.dataset.sq + (e.classList.contains('king') ? 'K' : '')).sort().join(' ')`)
}

// serverBoard is the board as the server has it, drawn as drawn writes it.
func serverBoard(t *testing.T, base, token string) string {
	t.Helper()
	resp, err := http.Get(base + "/api/g/" + token)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s struct {
		State struct {
			Board struct {
				Pieces []struct {
					Sq    string `json:"sq"`
					Color string `json:"color"`
					King  bool   `json:"king"`
				} `json:"pieces"`
			} `json:"board"`
		} `json:"state"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatalf("the snapshot: %v", err)
	}
	var out []string
	for _, p := range s.State.Board.Pieces {
		k := ""
		if p.King {
			k = "K"
		}
		out = append(out, p.Color+":"+p.Sq+k)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// clocks is what the page's clocks read, White's then Black's.
func (p *page) clocks() string {
	return eval[string](p, `document.querySelector('.player-white .clock').textContent + ' ' + document.querySelector('.player-black .clock').textContent`)
}

// TestBrowserNetOffline: Black, whose page speaks French, loses the
// network after the first move. The page says the connection is lost
// (Black's opponent sees Black away); a move Black tries meanwhile is not
// shown as played: the page says in French that it was not sent and what
// to do, and so does a draw offer. White moves. Back online, without a
// reload, Black's page shows White's move, White's stopped clock as
// White's own page reads it, that it is Black's move, and the notice is
// gone; Black then plays on and the board is the server's. An online
// event with the stream unbroken (Wi-Fi to mobile data) leaves no notice.
// Left in the background (frozen, as a phone freezes a hidden tab) while
// White moves again, the page shows that move when it wakes.
func TestBrowserNetOffline(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"english","time_control":"300+3","white":"Ann","black":"Bob"}`)
	white, black := newPage(t, "white"), newPage(t, "black")
	browserSpeaks(black, "fr-FR")
	white.open(g.links["white"])
	black.open(g.links["black"])
	black.click("11")
	black.click("15")
	white.waitMoves(1)

	black.net(true)
	black.wait("the page says the connection is lost, in French", `!document.getElementById('conn').hidden && document.getElementById('conn').textContent === 'Connexion perdue : en attente du réseau…'`)
	white.wait("White sees Black away", `!document.querySelector('.player-black .away').hidden`)
	before := black.drawn()
	black.click("9")
	black.click("13")
	black.wait("the page says the move was not sent", `!document.getElementById('error').hidden`)
	if got := black.text("error"); got != "Votre coup 9-13 n’a pas été envoyé : pas de connexion au serveur. Vérifiez votre connexion, puis rejouez-le." {
		t.Errorf("Black's page says %q after a move it could not send", got)
	}
	if got := black.drawn(); got != before || eval[int](black, `arbiterGame.moves.length`) != 1 {
		t.Errorf("the move not sent is shown as played: the board went from\n%s to\n%s", before, got)
	}
	black.shot("net-offline-390", 390, 844, "")
	black.shot("net-offline-1366", 1366, 900, "")
	black.do("offer a draw", chromedp.Click(chromedp.CSS("#offer")))
	black.wait("the page says the offer was not sent", `document.getElementById('error').textContent === 'Non envoyé : pas de connexion au serveur. Vérifiez votre connexion, puis réessayez.'`)

	white.click("22")
	white.click("18")
	white.waitMoves(2)
	black.net(false)
	black.waitMoves(2)
	black.wait("the notice goes, the page says whose move it is", `document.getElementById('conn').hidden && document.getElementById('turn').textContent === 'À vous de jouer'`)
	black.wait("Black's clock runs, White's stands", `document.querySelector('.player-black .clock.running') && !document.querySelector('.player-white .clock.running')`)
	if b, w := black.clocks(), white.clocks(); strings.Fields(b)[0] != strings.Fields(w)[0] {
		t.Errorf("White's stopped clock reads %s on Black's page, %s on White's", b, w)
	}
	white.wait("White sees Black back", `document.querySelector('.player-black .away').hidden`)

	black.click("15")
	black.click("22")
	white.waitMoves(3)
	black.waitMoves(3)
	if got, want := black.drawn(), serverBoard(t, e.hs.URL, g.tokens["black"]); got != want {
		t.Errorf("Black's board after the capture:\n%s\nthe server's:\n%s", got, want)
	}
	if !eval[bool](black, `document.getElementById('error').hidden`) {
		t.Errorf("the page still says %q after a move that was played", black.text("error"))
	}

	// The device says it is online again though its stream never broke
	// (a switch from Wi-Fi to mobile data): nothing to reconnect, no notice.
	eval[bool](black, `(dispatchEvent(new Event('online')), true)`)
	black.wait("the page is quiet after the check", `arbiterGame.refetching === null && document.getElementById('conn').hidden`)

	black.lifecycle("frozen")
	white.click("25")
	white.click("18")
	white.waitMoves(4)
	black.lifecycle("active")
	black.waitMoves(4)
	if got, want := black.drawn(), serverBoard(t, e.hs.URL, g.tokens["black"]); got != want {
		t.Errorf("Black's board after the page woke:\n%s\nthe server's:\n%s", got, want)
	}
}

// TestBrowserNetSlowMove: on a network so slow that White's move has not
// reached the server yet, White's page says the move is on its way and
// shows it where it was entered, and a second tap sends nothing (a move
// typed meanwhile stays in its box); when the move arrives it is played
// once, with no error.
func TestBrowserNetSlowMove(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"english","time_control":"300+3","white":"Ann","black":"Bob"}`)
	white, black := newPage(t, "white"), newPage(t, "black")
	white.open(g.links["white"])
	black.open(g.links["black"])
	black.click("11")
	black.click("15")
	white.waitMoves(1)

	held, release := white.hold("*/act")
	white.click("22")
	white.click("18")
	id := nextHeld(t, held, "White's move")
	white.wait("the page says the move is on its way", `document.getElementById('turn').textContent === 'Sending 22-18…' && document.querySelector('#board .piece[data-sq="18"]') && !document.querySelector('#board .piece[data-sq="22"]')`)
	white.shot("net-sending-390", 390, 844, "")
	white.shot("net-sending-1366", 1366, 900, "")
	white.click("23")
	white.click("19")
	if sel := eval[string](white, `arbiterGame.sel.join()`); sel != "22,18" {
		t.Errorf("a tap while the move was on its way changed the entry to %q", sel)
	}
	// A move typed meanwhile is neither sent nor lost: it waits in its box.
	white.do("type a move", chromedp.SendKeys(chromedp.CSS("#pdn-input"), "23-19"+kb.Enter))
	if got := eval[string](white, `document.getElementById('pdn-input').value`); got != "23-19" {
		t.Errorf("the move typed while another was on its way: the box holds %q", got)
	}
	release(id)
	white.waitMoves(2)
	black.waitMoves(2)
	white.wait("the page says whose move it is", `document.getElementById('turn').textContent === 'Black to move'`)
	if n := eval[int](white, `performance.getEntriesByType('resource').filter(e => e.name.endsWith('/act')).length`); n != 1 {
		t.Errorf("White's page sent %d requests for one move", n)
	}
	if !eval[bool](white, `document.getElementById('error').hidden`) {
		t.Errorf("White's page says %q", white.text("error"))
	}
	if s := e.snap(g.tokens["white"]); s.State.Ply != 2 {
		t.Errorf("the server has %d moves, want 2", s.State.Ply)
	}

	// White's next move reaches the server, but its answer is lost: the
	// page must not say it was not sent once the game shows it played.
	black.click("15")
	black.click("22")
	white.waitMoves(3)
	white.loseAnswers("*/act")
	white.click("25")
	white.click("18")
	black.waitMoves(4)
	white.waitMoves(4)
	white.wait("the page has its answer", `arbiterGame.sending === null`)
	if !eval[bool](white, `document.getElementById('error').hidden`) {
		t.Errorf("White's page says %q with the move on its board", white.text("error"))
	}
}

// restartable is a server over a SQLite file that stops and starts again
// on the same address, as systemd restarts arbiter serve.
type restartable struct {
	t      *testing.T
	path   string
	addr   string
	hall   *online.Hall
	cancel context.CancelFunc
	done   chan error
}

func newRestartable(t *testing.T) *restartable {
	r := &restartable{t: t, path: filepath.Join(t.TempDir(), "web.db"), addr: testbin.UnboundAddr(t)}
	r.start()
	t.Cleanup(r.stop)
	return r
}

// start opens the Hall on the file and serves on the address. The address
// is below the kernel's ephemeral range (testbin.UnboundAddr): while the
// server is down, no other test's listener or outgoing connection (the
// browser's, beside it) can be given its port.
func (r *restartable) start() {
	r.t.Helper()
	log := zerolog.Nop()
	hall, err := online.Open(context.Background(), online.Config{Path: r.path, Log: log})
	if err != nil {
		r.t.Fatal(err)
	}
	srv, err := New(Config{Hall: hall, Log: log, Limits: unlimited})
	if err != nil {
		r.t.Fatal(err)
	}
	ln, err := net.Listen("tcp", r.addr)
	if err != nil {
		r.t.Fatal(err)
	}
	r.addr = ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	r.hall, r.cancel, r.done = hall, cancel, make(chan error, 1)
	go func() { r.done <- srv.Serve(ctx, ln, 5*time.Second) }()
}

// stop shuts the server down as a SIGTERM does, then closes the Hall.
func (r *restartable) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	if err := <-r.done; err != nil {
		r.t.Errorf("serve: %v", err)
	}
	if err := r.hall.Close(); err != nil {
		r.t.Errorf("closing the Hall: %v", err)
	}
	r.cancel = nil
}

func (r *restartable) url() string { return "http://" + r.addr }

// TestBrowserNetRestart: the server restarts (same address, same SQLite
// file) while both players' pages are open, White's straight to the
// server, Black's through a reverse proxy (as behind nginx, which answers
// 502 while the server is down: the browser gives up such a stream, and
// the page took the 502 of its snapshot for a dead link, for good). Each
// page says it is reconnecting while the server is down, recovers by
// itself, shows the
// game as it stood and the referee's word that the time down was not
// charged; play goes on. A page reloaded by its player (the same link)
// keeps the seat, the board, the moves and the clocks.
func TestBrowserNetRestart(t *testing.T) {
	browserTest(t)
	r := newRestartable(t)
	c, err := r.hall.Create(context.Background(), online.Setup{Variant: "english", TimeControl: "300+3", White: "Ann", Black: "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	tok := func(role online.Role) string { return c.Tokens[role] }
	target, _ := url.Parse(r.url())
	proxy := httputil.NewSingleHostReverseProxy(target)
	var refused atomic.Int32 // snapshots the proxy answered 502
	proxy.ErrorHandler = func(w http.ResponseWriter, req *http.Request, err error) {
		if !strings.HasSuffix(req.URL.Path, "/events") {
			refused.Add(1)
		}
		w.WriteHeader(http.StatusBadGateway)
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close) // after the pages close (cleanups run last first): a stream through it holds Close
	white, black := newPage(t, "white"), newPage(t, "black")
	white.open(r.url() + "/g/" + tok(online.RoleWhite))
	black.open(front.URL + "/g/" + tok(online.RoleBlack))
	both := []*page{white, black}
	black.click("11")
	black.click("15")
	white.waitMoves(1)
	board := serverBoard(t, r.url(), tok(online.RoleWhite))

	r.stop()
	for _, p := range both {
		p.wait("the page says it is reconnecting", `!document.getElementById('conn').hidden && document.getElementById('conn').textContent === 'Reconnecting…'`)
	}
	waitUntil(t, "Black's page asks the proxy for the snapshot while the server is down", func() bool { return refused.Load() > 0 })
	r.start()
	for _, p := range both {
		p.wait("the page recovers by itself", `document.getElementById('conn').hidden && arbiterGame.es && arbiterGame.es.readyState === 1`)
		p.wait("the referee says the time down was not charged", `/^The server was down for [0-9.]+ seconds; that time was not charged to anyone\.$/.test(document.getElementById('speech').textContent)`)
		p.waitMoves(1)
		if !eval[bool](p, `document.getElementById('fatal').hidden`) {
			t.Errorf("%s's page says %q", p.name, p.text("fatal"))
		}
		if got := p.drawn(); got != board {
			t.Errorf("%s's board after the restart:\n%s\nbefore:\n%s", p.name, got, board)
		}
	}
	black.shot("net-restarted-390", 390, 844, "")
	black.shot("net-restarted-1366", 1366, 900, "")
	white.click("22")
	white.click("18")
	black.waitMoves(2)
	white.waitMoves(2)

	clocks := black.clocks()
	white.open(r.url() + "/g/" + tok(online.RoleWhite))
	white.waitMoves(2)
	if got := white.text("role"); got != "White" {
		t.Errorf("the reloaded page's seat: %q", got)
	}
	if got := eval[string](white, `Array.from(document.querySelectorAll('#moves .mv')).map(m => m.textContent).join(' ')`); got != "11-15 22-18" {
		t.Errorf("the reloaded page's moves: %q", got)
	}
	if got, want := white.drawn(), serverBoard(t, r.url(), tok(online.RoleWhite)); got != want {
		t.Errorf("the reloaded page's board:\n%s\nthe server's:\n%s", got, want)
	}
	white.wait("the reloaded page: Black's clock runs", `document.querySelector('.player-black .clock.running') && document.getElementById('turn').textContent === 'Black to move'`)
	if got := white.clocks(); strings.Fields(got)[0] != strings.Fields(clocks)[0] {
		t.Errorf("White's stopped clock reads %s after the reload, %s on Black's page", got, clocks)
	}
}

// tunnel is a TCP relay to a server that can go silent without closing
// anything, as a phone's connection in a tunnel: bytes sent meanwhile wait
// in the relay, the connections stay open, and nobody is told.
type tunnel struct {
	ln   net.Listener
	gate sync.RWMutex // held for writing while the tunnel is silent
	mu   sync.Mutex
	open []net.Conn
}

func newTunnel(t *testing.T, target string) *tunnel {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tn := &tunnel{ln: ln}
	go tn.serve(target)
	t.Cleanup(func() {
		ln.Close()
		tn.mu.Lock()
		defer tn.mu.Unlock()
		for _, c := range tn.open {
			c.Close()
		}
	})
	return tn
}

func (tn *tunnel) serve(target string) {
	for {
		c, err := tn.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", target)
		if err != nil {
			c.Close()
			continue
		}
		tn.mu.Lock()
		tn.open = append(tn.open, c, s)
		tn.mu.Unlock()
		go tn.pipe(c, s)
		go tn.pipe(s, c)
	}
}

// pipe copies src to dst, each chunk when the tunnel lets it through.
func (tn *tunnel) pipe(dst, src net.Conn) {
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			tn.gate.RLock()
			_, werr := dst.Write(buf[:n])
			tn.gate.RUnlock()
			if werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (tn *tunnel) url() string { return "http://" + tn.ln.Addr().String() }

// silent stops the tunnel's traffic; the returned func lets it flow again.
func (tn *tunnel) silent() (resume func()) {
	tn.gate.Lock()
	return tn.gate.Unlock
}

// TestBrowserNetSilentDrop: White's connection goes silent without a
// word (no offline event, no error: a tunnel) while Black moves. White's
// page notices within a few of the server's beats and says it is
// reconnecting; when the connection comes back it shows Black's move and
// that it is White's turn, and the notice goes.
func TestBrowserNetSilentDrop(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: Limits{RequestRate: -1, GameRate: -1, Heartbeat: 200 * time.Millisecond}})
	g := e.create(`{"variant":"english","time_control":"300+3","white":"Ann","black":"Bob"}`)
	tn := newTunnel(t, e.hs.Listener.Addr().String())
	white, black := newPage(t, "white"), newPage(t, "black")
	white.open(tn.url() + "/g/" + g.tokens["white"])
	black.open(g.links["black"])
	black.click("11")
	black.click("15")
	white.waitMoves(1)
	white.click("22")
	white.click("18")
	black.waitMoves(2)

	resume := tn.silent()
	black.click("15")
	black.click("22")
	black.waitMoves(3)
	white.wait("the page says it is reconnecting", `!document.getElementById('conn').hidden && document.getElementById('conn').textContent === 'Reconnecting…'`)
	resume()
	white.waitMoves(3)
	white.wait("the notice goes, the page says whose move it is", `document.getElementById('conn').hidden && document.getElementById('turn').textContent === 'Your move'`)
	if got, want := white.drawn(), serverBoard(t, e.hs.URL, g.tokens["white"]); got != want {
		t.Errorf("White's board after the silence:\n%s\nthe server's:\n%s", got, want)
	}
}

// A refusal answers the move before: when the player sends the next one,
// the refusal goes at once, not when the server answers. It stood beside
// the move on its way, so a test waiting for a second refusal saw the
// first and tapped on while the move was still out (the board takes no
// taps then): its next move was lost (TestBrowserFirstGame in a fresh
// clone's CI).
func TestBrowserNetRefusalGoesWithNextMove(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"english","time_control":"300+3","mode":"friendly","white":"Ann","black":"Bob"}`)
	white, black := newPage(t, "white"), newPage(t, "black")
	white.open(g.links["white"])
	black.open(g.links["black"])
	black.click("11")
	black.click("15")
	white.waitMoves(1)
	white.click("22")
	white.click("18")
	black.waitMoves(2)
	black.click("9")
	black.click("13")
	black.wait("the refusal", `!document.getElementById('error').hidden && document.getElementById('error').textContent.includes('9-13 is not a legal move')`)

	held, release := black.hold("*/act")
	black.click("15")
	black.click("22")
	id := nextHeld(t, held, "Black's capture")
	black.wait("the capture on its way", `document.getElementById('turn').textContent.startsWith('Sending 15')`)
	if !eval[bool](black, `document.getElementById('error').hidden`) {
		t.Errorf("with the capture on its way the page still says %q", black.text("error"))
	}
	release(id)
	white.waitMoves(3)
	black.waitMoves(3)
}
