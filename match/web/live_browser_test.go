package web

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// liveMoves is the number of moves the page lists for its first game card,
// and that card's game number.
const liveFirstCard = `(() => { const c = document.querySelector('.game-card'); if (!c) return [0, 0, ''];
	return [Number(c.dataset.game), c.querySelectorAll('.moves .mv').length,
	  Array.from(c.querySelectorAll('svg .piece')).map(p => p.dataset.sq + (p.classList.contains('pc-white') ? 'w' : 'b')).join(',')]; })()`

// The live view in headless Chromium while a tournament of sparring
// engines runs in this process (as `tournament --serve` runs it): a move an
// engine makes appears on the page (the move list grows, the board
// changes), the standings count a game once it ends, and the page fits a
// phone and a desktop screen without scrolling sideways.
func TestBrowserLive(t *testing.T) {
	browserTest(t)
	opt := liveTournament(t, 2, 10, 150*time.Millisecond)
	h := NewLive()
	opt.Observer = h
	hs := liveServer(t, h, Limits{})
	wait := runInBackground(t, opt)

	p := newPage(t, "viewer")
	p.do("open the live view", chromedp.Navigate(hs.URL+"/"))
	p.wait("the stream is open and the snapshot drawn", `window.arbiterLive && arbiterLive.snap && arbiterLive.es.readyState === 1`)
	p.wait("a game in progress with a move", `document.querySelector('.game-card .moves .mv')`)
	// Before its first game ends an engine has no score: a dash, not
	// "0.0%", which read as every game lost. The first game is some twenty
	// plies of 150 ms away from its end when its first move is on, but a
	// loaded machine may open the page later: the page's own count of
	// finished games, read with the standings, says whether it applies.
	if cells := eval[[]string](p, `[String(arbiterLive.snap.event.finished)].concat(Array.from(document.querySelectorAll('#standings tbody tr')).map(tr => tr.dataset.games + ':' + tr.lastElementChild.textContent))`); cells[0] != "0" {
		t.Logf("a game had ended when the page showed its first move (%q): the dash before any result is not checked", cells)
	} else if len(cells) != 3 || cells[1] != "0:–" || cells[2] != "0:–" {
		t.Errorf("before any game ended the standings' games and scores are %q; want 0 games and a dash for both engines", cells[1:])
	}
	first := eval[[]any](p, liveFirstCard)
	game, moves, board := first[0], first[1].(float64), first[2].(string)
	p.wait("the engines' next move appears", fmt.Sprintf(`(() => { const c = document.querySelector('.game-card[data-game="%v"]');
		return !c || c.querySelectorAll('.moves .mv').length > %v; })()`, game, moves))
	if now := eval[[]any](p, liveFirstCard); now[0] == game {
		if now[1].(float64) <= moves || now[2].(string) == board {
			t.Errorf("game %v after a move: %v moves (was %v), board %q (was %q)", game, now[1], moves, now[2], board)
		}
		// The page's pieces are the server's.
		if srv := h.Snapshot(); len(srv.Games) > 0 && srv.Games[0].ID == int(game.(float64)) && len(srv.Games[0].Pieces) == 0 {
			t.Error("the server has no pieces for the game shown")
		}
	}
	if text := eval[string](p, `document.querySelector('.game-card .info').textContent + document.querySelector('.game-card .player-white .pname').textContent`); text == "" {
		t.Error("the game card shows no engine name or search information")
	}

	p.checkLayout("live-360", 360, 740)
	p.checkLayout("live-1400", 1400, 900)

	p.wait("a finished game counted in the standings", `Number(document.getElementById('standings').dataset.games || 0) >= 1 &&
		document.querySelectorAll('#standings tbody tr').length === 2 && document.querySelectorAll('#recent li').length >= 1`)
	rows := eval[[]string](p, `Array.from(document.querySelectorAll('#standings tbody tr')).map(tr => tr.dataset.engine + ':' + tr.dataset.games)`)
	if len(rows) != 2 || rows[0] == rows[1] {
		t.Errorf("standings rows %v; want both engines", rows)
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	p.wait("every game counted", `Number(document.getElementById('standings').dataset.games) === 2 && !document.querySelector('.game-card')`)
	// The crosstable: each engine's points against the other, of 2 games.
	if cells := eval[[]string](p, `Array.from(document.querySelectorAll('#cross tbody td:not(.self)')).map(td => td.textContent)`); len(cells) != 2 ||
		!strings.HasSuffix(cells[0], " (2)") || !strings.HasSuffix(cells[1], " (2)") {
		t.Errorf("crosstable cells %q; want two cells of 2 games", cells)
	}
	// Someone who opens the page now is told the event is over, not that
	// "no game is being played right now".
	if over := eval[string](p, `(() => { const n = document.getElementById('no-games'); return n.hidden ? '(hidden)' : n.textContent; })()`); over != "The event is over; its final standings are below." {
		t.Errorf("after the last game the games' place says %q", over)
	}
	p.checkLayout("live-end-360", 360, 740)
}
