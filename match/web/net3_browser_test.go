package web

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/rules"
)

// A spectator's poor connection on the live pages (net_browser_test.go
// has the helpers): the live view of an engine event and the live boards
// of a round, through a connection that goes silent (a tunnel) or a
// device that goes offline.

// livePage is a live page to watch: its server's address and the page's
// path, a condition that holds once the page is drawn, the page's stream
// (a JS expression), a change on the server and a condition that holds
// once the page shows it. clock is the clock that runs on the page (a JS
// expression; "" on a page without clocks), stood what it reads once the
// change is shown and has stopped it.
type livePage struct {
	name               string
	target, path       string
	ready, es, changed string
	change             func()
	clock, stood       string
}

// livePages sets up the live view and the live boards, their servers
// beating every lim.Heartbeat. On the live view an engine game is under
// way (an engine's first move, the clocks 1:00 and 0:55, the other
// engine's running); the change is the second move, the clocks 0:50 and
// 0:55. On the live boards board 1 of the round is played online; the
// change is White's 32-28.
func livePages(t *testing.T, lim Limits) []livePage {
	t.Helper()
	v, _ := rules.Lookup("english")
	h := NewLive()
	h.EventStarted(liveEvent(), nil)
	first := rules.NewPosition(v).Turn()
	h.GameStarted(store.Game{ID: 0, Round: 1, Board: 1, White: 0, Black: 1, FirstMover: first.String(), Status: store.Running})
	texts, _ := legalTexts(t, v, 2)
	h.GameMoved(0, 1, store.Move{Text: texts[0]}, [2]time.Duration{time.Minute, 55 * time.Second})
	hs := liveServer(t, h, lim)
	running := first.Opponent().String()

	e := newDirEnvLimits(t, lim)
	tok := e.publishedRound()
	g, _ := e.op(tok, "game", `{"round":1,"board":1}`, http.StatusOK)
	white := secretOf(g.Links["1.1"]["white"])
	return []livePage{
		{
			name:   "live-view",
			target: hs.Listener.Addr().String(), path: "/live",
			ready: `document.querySelectorAll('.game-card .moves .mv').length === 1 && document.querySelector('.game-card .clock.running')`,
			es:    `arbiterLive.es`,
			change: func() {
				h.GameMoved(0, 2, store.Move{Text: texts[1]}, [2]time.Duration{50 * time.Second, 55 * time.Second})
			},
			changed: `document.querySelectorAll('.game-card .moves .mv').length === 2`,
			clock:   `document.querySelector('.game-card .player-` + running + ` .clock')`,
			stood:   map[string]string{"white": "0:50", "black": "0:55"}[running],
		},
		{
			name:   "live-boards",
			target: e.hs.Listener.Addr().String(), path: "/e/" + e.view(tok).Event.ID + "/round/1/boards",
			ready: `document.querySelector('.live-board[data-board="1"] svg.board') && document.querySelector('.live-board[data-board="1"] .pl-white.to-move')`,
			es:    `arbiterBoards.es`,
			change: func() {
				if code, body := e.act(white, `{"kind":"move","move":"32-28"}`); code != http.StatusOK {
					t.Fatalf("32-28: %d %s", code, body)
				}
			},
			changed: `document.querySelector('.live-board[data-board="1"] .pl-black.to-move')`,
		},
	}
}

// lose cuts a live page's connection (cut), changes the game on the
// server meanwhile, and checks what the page says: the notice, and on a
// page with clocks that they stand, marked as not current, though a second
// and more passes (the live view's ran on, unmarked). Once mend restores
// the connection the page shows the change, the notice goes, and the
// clocks run again from the server's figures. shots names the pictures.
func lose(t *testing.T, p *page, l livePage, cut, mend func(), notice, shots string) {
	t.Helper()
	cut()
	l.change()
	p.wait("the page says "+notice, `!document.getElementById('conn').hidden && document.getElementById('conn').textContent === `+jsString(notice))
	if l.clock != "" {
		p.wait("the clocks stand, marked", `document.querySelectorAll('.game-card .clock.stale').length === 2 && !document.querySelector('.game-card .clock.running')`)
		shown := eval[string](p, l.clock+`.textContent`)
		p.wait("a second passes", `performance.now() - arbiterLive.stream.stand.at > 1500`)
		if got := eval[string](p, l.clock+`.textContent`); got != shown {
			t.Errorf("while not connected the running clock went from %s to %s", shown, got)
		}
		if got := eval[string](p, l.clock+`.title`); got != "Not current: no connection to the server" {
			t.Errorf("the clock not current says %q", got)
		}
	}
	p.shot(shots+"-390", 390, 844, "")
	p.shot(shots+"-1366", 1366, 900, "")
	mend()
	p.wait("the page shows the change, the notice goes", l.changed+` && document.getElementById('conn').hidden`)
	if l.clock != "" {
		p.wait("the clocks run again", `document.querySelector('.game-card .clock.running') && !document.querySelector('.game-card .clock.stale, .game-card .clock[title]')`)
		if got := eval[string](p, l.clock+`.textContent`); got != l.stood {
			t.Errorf("back in touch the clock stopped by the move reads %s; the server says %s", got, l.stood)
		}
		p.shot(shots+"-back-390", 390, 844, "")
		p.shot(shots+"-back-1366", 1366, 900, "")
	}
}

// TestBrowserNetLiveSilent: the live view of an engine event and the live
// boards of a round, each opened through a connection that then goes
// silent without a word (a phone in a tunnel) while a game moves: an
// engine's second move on the live view, White's 32-28 on board 1 of the
// round, played online. Each page notices within a few of the server's
// beats and says it is reconnecting (it showed the old position with no
// sign); the live view's clocks stand meanwhile, marked as not current
// (they ticked on unmarked). When the connection comes back the page shows
// the move, the notice goes and the clocks run from the server's figures.
func TestBrowserNetLiveSilent(t *testing.T) {
	browserTest(t)
	lim := Limits{RequestRate: -1, GameRate: -1, Heartbeat: 200 * time.Millisecond}
	for _, l := range livePages(t, lim) {
		t.Run(l.name, func(t *testing.T) {
			tn := newTunnel(t, l.target)
			p := newPage(t, "viewer")
			p.do("open the page", chromedp.Navigate(tn.url()+l.path))
			p.wait("the page is drawn", l.ready+` && document.getElementById('conn').hidden && `+l.es)
			// The stream is live: a beat comes (the page draws the live
			// boards from a fetch, before its stream opens).
			eval[bool](p, `(window.beats = 0, `+l.es+`.addEventListener('beat', () => beats++), true)`)
			p.wait("a beat", `beats > 0`)
			var resume func()
			lose(t, p, l, func() { resume = tn.silent() }, func() { resume() }, "Reconnecting…", "net-"+l.name+"-reconnecting")
		})
	}
}

// TestBrowserNetLiveOffline: a spectator's phone goes offline on the live
// view and on the live boards while a game moves. The page says at once
// that the connection is lost (it noticed only after three of the
// server's beats, 45 s by default: here not within the 30 s a test
// waits); the live view's clocks stand, marked as not current. Back
// online, the page reconnects by itself (its stream, left open by the
// offline network, had nothing more to say), shows the move and the
// notice goes.
func TestBrowserNetLiveOffline(t *testing.T) {
	browserTest(t)
	lim := Limits{RequestRate: -1, GameRate: -1} // the default beat, 15 s
	for _, l := range livePages(t, lim) {
		t.Run(l.name, func(t *testing.T) {
			p := newPage(t, "viewer")
			p.do("open the page", chromedp.Navigate("http://"+l.target+l.path))
			p.wait("the page is drawn", l.ready+` && document.getElementById('conn').hidden && `+l.es+` && `+l.es+`.readyState === EventSource.OPEN`)
			lose(t, p, l, func() { p.net(true) }, func() { p.net(false) }, "Connection lost: waiting for the network…", fmt.Sprintf("net-%s-offline", l.name))
		})
	}
}
