package web

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// The first hour of two players and of one player against the built-in
// engine, done as they do it: typing and clicking on the pages, asserting
// what they read there (issue 22).

// fullShot sizes the viewport to w×h, asserts that nothing overflows
// sideways and takes a picture of the whole page (p.picture).
func (p *page) fullShot(name string, w, h int64) {
	p.t.Helper()
	p.do("viewport", chromedp.EmulateViewport(w, h))
	p.wait("the layout settles", `innerWidth === `+itoa(int(w)))
	if sw := eval[float64](p, `document.scrollingElement.scrollWidth`); sw > float64(w) {
		p.t.Errorf("%s at %d px: the page is %v px wide", name, w, sw)
	}
	p.picture(name, chromedp.FullScreenshot(100))
}

// waitAcross is wait across a navigation: an evaluation that the page's
// unloading interrupts is tried again.
func (p *page) waitAcross(what, cond string) {
	p.t.Helper()
	p.wait(what, cond) // wait itself takes a navigation as "not yet"
}

// text is the trimmed text of the element with id.
func (p *page) text(id string) string {
	p.t.Helper()
	return eval[string](p, `(document.getElementById('`+id+`').textContent || '').trim()`)
}

// TestBrowserModeChosenWhileLoading: on a slow connection the create page
// shows its form before its script has loaded the variants; a player who
// types the clock and chooses a friendly game meanwhile keeps that choice
// (the first default, tournament rules for a game with a clock, overwrote
// it: two mis-clicks then lost the game). The variants' request is held
// until the choice is made, so that the test does not depend on timing.
func TestBrowserModeChosenWhileLoading(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	p := newPage(t, "creator")
	held := make(chan fetch.RequestID, 1)
	if err := chromedp.Listen(p.ctx, func(ev any) {
		if ev, ok := ev.(*fetch.EventRequestPaused); ok {
			select {
			case held <- ev.RequestID:
			default: // one is held; the page asks once
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/api/variants*"}}}); err != nil {
		t.Fatal(err)
	}
	p.do("open the create page", chromedp.Navigate(e.hs.URL+"/"))
	id := <-held // the page's script is waiting for it
	p.do("type 5+3 and choose a friendly game",
		chromedp.SendKeys(chromedp.CSS("#tc"), "5+3"),
		chromedp.Click(chromedp.CSS("#mode-friendly")))
	if _, err := chromedp.Call(p.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil {
		t.Fatal(err)
	}
	p.wait("the clock is read", `document.getElementById('tc-echo').textContent === '5 minutes each, 3 seconds added per move.' && document.getElementById('mode-why').textContent !== ''`)
	if !eval[bool](p, `document.getElementById('mode-friendly').checked && !document.getElementById('mode-tournament').checked && document.getElementById('policy-box').hidden`) {
		t.Error("the friendly game chosen while the page loaded was replaced by tournament rules")
	}
}

// TestBrowserFirstGame: two people create an English game with the clock
// typed as players say it ("5+3"), see it echoed in words, choose a
// friendly game, read whose move it is, have an illegal click refused
// without a penalty, play, resign, and start the rematch with the colours
// swapped from the finished game's page.
func TestBrowserFirstGame(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})

	creator := newPage(t, "creator")
	creator.do("open the create page", chromedp.Navigate(e.hs.URL+"/"))
	creator.wait("the variants load", `document.querySelector('#variant option[value="english"]') && document.querySelectorAll('#tc-presets button').length === 6`)

	// Someone used to PDN seconds types 300+3: it is read as minutes, and
	// the page says so and how to write 5 minutes.
	creator.do("type 300+3", chromedp.SendKeys(chromedp.CSS("#tc"), "300+3"))
	creator.wait("the hint", `!document.getElementById('tc-hint').hidden`)
	if got := creator.text("tc-hint"); got != "That is 300 minutes each. If you meant 300 seconds, write 5+3." {
		t.Errorf("the hint for 300+3 says %q", got)
	}
	if got := creator.text("tc-echo"); got != "5 hours each, 3 seconds added per move." {
		t.Errorf("300+3 is echoed as %q", got)
	}
	// The players' way: 5+3.
	creator.do("erase it and type 5+3",
		chromedp.SendKeys(chromedp.CSS("#tc"), strings.Repeat(kb.Backspace, 5)+"5+3"))
	creator.wait("the echo in words", `document.getElementById('tc-echo').textContent === '5 minutes each, 3 seconds added per move.'`)
	if got := creator.text("tc-read"); !strings.Contains(got, "minutes, then seconds per move") || !strings.Contains(got, "300+3") {
		t.Errorf("the page does not say how it read 5+3: %q", got)
	}
	if !eval[bool](creator, `document.getElementById('tc-hint').hidden && document.getElementById('tc-short').hidden`) {
		t.Error("5+3 shows a warning")
	}
	// A timed game between two people: tournament rules unless chosen
	// otherwise; the players choose a friendly game.
	if !eval[bool](creator, `document.getElementById('mode-tournament').checked && !document.getElementById('policy-box').hidden`) {
		t.Error("a timed game between people does not default to tournament rules")
	}
	if got := creator.text("mode-why"); !strings.Contains(got, "With a clock") {
		t.Errorf("the default is not explained: %q", got)
	}
	creator.do("choose a friendly game", chromedp.Click(chromedp.CSS("#mode-friendly")))
	creator.wait("the policy is hidden", `document.getElementById('policy-box').hidden`)
	creator.do("the names",
		chromedp.SendKeys(chromedp.CSS("#white"), "Ann"),
		chromedp.SendKeys(chromedp.CSS("#black"), "Bob"))
	creator.fullShot("create-390", 390, 844)
	creator.fullShot("create-1366", 1366, 900)
	creator.do("create", chromedp.Click(chromedp.CSS("#create-button")))
	creator.wait("the links are shown", `!document.getElementById('links').hidden`)
	links := eval[map[string]string](creator, `Object.fromEntries(['white', 'black', 'spectator'].map(r => [r, document.getElementById('link-' + r).value]))`)
	// Served on loopback: the page says that an opponent on another device
	// cannot open these links, and how to serve beyond this computer.
	if got := eval[string](creator, `document.getElementById('links-local').hidden ? '' : document.getElementById('links-local').textContent`); !strings.Contains(got, "open on this computer only (127.0.0.1)") ||
		!strings.Contains(got, "“arbiter serve --addr :8080”") {
		t.Errorf("no notice that the links open on this computer only: %q", got)
	}
	creator.fullShot("links-local-390", 390, 844)
	creator.fullShot("links-local-1366", 1366, 900)

	ann, bob, watcher := newPage(t, "Ann (White)"), newPage(t, "Bob (Black)"), newPage(t, "spectator")
	ann.open(links["white"])
	bob.open(links["black"])
	watcher.open(links["spectator"])

	// Whose move, in words, for each of them; the clocks show 5:00.
	const starts = "Black starts in English checkers (WCDF)"
	bob.wait("Bob's turn is said", `document.getElementById('turn').textContent === 'Your move: `+starts+`'`)
	// Ann's line has named the side to move: the variant alone follows.
	ann.wait("Ann reads whose move it is", `document.getElementById('turn').textContent === 'Black to move: English checkers (WCDF)'`)
	watcher.wait("the spectator too", `document.getElementById('turn').textContent === 'Black to move: English checkers (WCDF)'`)
	if got := eval[string](watcher, `Array.from(document.querySelectorAll('.player')).filter(b => !b.querySelector('.to-move-mark').hidden).map(b => b.dataset.color).join()`); got != "black" {
		t.Errorf("the spectator's page marks %q as to move, want black", got)
	}
	if got := eval[string](ann, `document.querySelector('#bar-bottom .clock').textContent`); got != "5:00" {
		t.Errorf("Ann's clock shows %q, want 5:00", got)
	}
	if got := ann.text("mode-note"); !strings.HasPrefix(got, "Friendly game") {
		t.Errorf("the game's mode is said as %q", got)
	}
	// The first visit is an arrival, not a return.
	ann.wait("Bob's arrival", `Array.from(document.querySelectorAll('#log li[data-type="presence"]')).some(li => li.textContent === 'Black has opened the game.')`)
	if log := ann.logText("presence"); strings.Contains(log, "is back") {
		t.Errorf("a first visit is logged as a return: %q", log)
	}

	bob.click("11")
	bob.click("15")
	ann.waitMoves(1)
	ann.wait("Ann's turn", `document.getElementById('turn').textContent === 'Your move'`)
	bob.wait("Bob waits", `document.getElementById('turn').textContent === 'White to move'`)
	ann.click("22")
	ann.click("18")
	bob.waitMoves(2)

	// Two wrong clicks: each refused and explained, nothing counted.
	for i := 0; i < 2; i++ {
		bob.click("9")
		bob.click("13")
		bob.wait("the refusal", `!document.getElementById('error').hidden`)
		if got := bob.text("error"); !strings.Contains(got, "9-13 is not a legal move") || !strings.Contains(got, "15x22") || !strings.Contains(got, "Nothing is counted") ||
			!strings.Contains(got, "(15x22) (WCDF rules,\u00a01.20).") { // the rule's article, as an arbiter cites it
			t.Errorf("the refusal says %q", got)
		}
		eval[bool](bob, `(document.getElementById('error').hidden = true, true)`)
	}
	if got := eval[string](bob, `arbiterGame.state.status + ' ' + arbiterGame.state.warnings.black + ' ' + arbiterGame.moves.length`); got != "running 0 2" {
		t.Errorf("after two refused moves: %q, want running 0 2", got)
	}
	bob.click("15")
	bob.click("22")
	ann.waitMoves(3)
	ann.click("25")
	ann.click("18")
	bob.waitMoves(4)
	bob.wait("the error is gone after a move", `document.getElementById('error').hidden`)
	// The referee has said nothing to the spectator: no "Referee" heading
	// over an empty list (it stood there, seen walking docs/internet.md);
	// the players, told of each other's arrival, see it.
	if got := eval[string](watcher, `document.querySelectorAll('#log li').length + ' ' + document.getElementById('log-title').hidden`); got != "0 true" {
		t.Errorf("the spectator's referee list: %q entries and heading hidden; want \"0 true\"", got)
	}
	if eval[bool](ann, `document.getElementById('log-title').hidden`) {
		t.Error("Ann's page hides the referee's heading over her list of arrivals")
	}
	bob.fullShot("game-390", 390, 844)
	watcher.fullShot("game-spectator-1366", 1366, 900)
	bob.checkLayout("game-board-390", 390, 844)

	// Bob resigns: the banner says who won and how, in a sentence.
	bob.do("resign", chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#resign-yes")))
	for _, p := range []*page{ann, bob, watcher} {
		p.wait("the result", `!document.getElementById('banner').hidden`)
		banner := p.text("banner")
		if !strings.HasPrefix(banner, "White wins (1-0)") || !strings.Contains(banner, "Black resigned.") || strings.Contains(banner, "resignation") {
			t.Errorf("%s's banner says %q", p.name, banner)
		}
	}
	// After the game: the record, the final position, and a rematch for
	// the players only.
	if fen := eval[string](watcher, `document.getElementById('after-fen').value`); !strings.HasPrefix(fen, "W:") && !strings.HasPrefix(fen, "B:") {
		t.Errorf("the final position is %q", fen)
	}
	checkPDN(t, eval[string](watcher, `fetch(document.getElementById('after-pdn').href).then(r => r.text())`), 4)
	if eval[bool](watcher, `!document.getElementById('rematch').hidden`) {
		t.Error("the spectator is offered a rematch")
	}
	ann.fullShot("over-390", 390, 844)
	ann.fullShot("over-1366", 1366, 900)

	// Ann asks for the rematch: her page opens the new game, where she is
	// Black; Bob's old page offers him his link, as White. Bob's page
	// fetches the game again for his link and keeps its live connection:
	// the log does not say that Bob, who never left, went away and came
	// back.
	eval[bool](bob, `(window.streamBefore = arbiterGame.es, true)`)
	ann.do("rematch", chromedp.Click(chromedp.CSS("#rematch")))
	ann.waitAcross("Ann is in the rematch as Black", `window.arbiterGame && arbiterGame.snap && arbiterGame.role === 'black' && !document.getElementById('game').hidden`)
	if got := eval[string](ann, `arbiterGame.snap.setup.white + '-' + arbiterGame.snap.setup.black + ' ' + arbiterGame.snap.setup.clock`); got != "Bob-Ann 5+3" {
		t.Errorf("the rematch is %q, want Bob-Ann 5+3", got)
	}
	ann.wait("Ann's turn in the rematch", `document.getElementById('turn').textContent === 'Your move: `+starts+`'`)
	bob.wait("Bob is offered the rematch", `!document.getElementById('rematch-link').hidden`)
	if got := bob.text("rematch-link"); got != "Open the rematch: you play White" {
		t.Errorf("Bob's rematch link says %q", got)
	}
	if !eval[bool](bob, `arbiterGame.es === window.streamBefore && arbiterGame.es.readyState === 1`) {
		t.Error("Bob's page dropped its live connection to fetch the rematch link (the log tells both players Bob went away)")
	}
	if log := bob.logText("presence"); strings.Contains(log, "Black is away") {
		t.Errorf("Bob's log says he went away: %q", log)
	}
	bob.do("open the rematch", chromedp.Click(chromedp.CSS("#rematch-link")))
	bob.waitAcross("Bob is White in the rematch", `window.arbiterGame && arbiterGame.snap && arbiterGame.role === 'white' && !document.getElementById('game').hidden`)
}

// TestBrowserPhoneEngine: on a phone-size page (390 px) a player creates a
// game against the built-in engine without touching anything but the
// opponent, reads that it is friendly, and plays it to a result by
// clicking and typing the moves the page shows.
func TestBrowserPhoneEngine(t *testing.T) {
	browserTest(t)
	bin := arbiterBinary(t)
	e := newEngineEnv(t, online.BuiltInEngines(bin))

	p := newPage(t, "player")
	p.do("a phone", chromedp.EmulateViewport(390, 844))
	p.do("open the create page", chromedp.Navigate(e.hs.URL+"/"))
	p.wait("the engines are offered", `document.querySelector('#engine option[value="sparring-beginner"]')`)
	if got := eval[string](p, `Array.from(document.querySelectorAll('#engine option')).map(o => o.textContent).join('|')`); !strings.Contains(got, "Built-in engine: beginner") || !strings.Contains(got, "Built-in engine: strong") {
		t.Errorf("the opponents offered: %q", got)
	}
	p.do("choose the beginner engine", chromedp.SendKeys(chromedp.CSS("#engine"), kb.ArrowDown))
	p.wait("the engine is chosen", `document.getElementById('engine').value === 'sparring-beginner' && !document.getElementById('side-box').hidden`)
	if !eval[bool](p, `document.getElementById('mode-friendly').checked`) {
		t.Error("a game against the engine does not default to friendly")
	}
	if got := p.text("mode-why"); !strings.Contains(got, "Against the engine") {
		t.Errorf("the default is not explained: %q", got)
	}
	p.do("show the legal moves", chromedp.Click(chromedp.CSS("#beginner")))
	p.do("name", chromedp.SendKeys(chromedp.CSS("#white"), "Eve"))
	p.fullShot("create-engine-390", 390, 844)
	p.do("create", chromedp.Click(chromedp.CSS("#create-button")))
	p.wait("the links are shown", `!document.getElementById('links').hidden`)
	if eval[bool](p, `!!document.getElementById('link-black')`) {
		t.Error("a link was issued for the engine's side")
	}
	p.do("open White's board", chromedp.Click(chromedp.CSS("#open-white")))
	p.wait("the game loads", `window.arbiterGame && arbiterGame.snap && !document.getElementById('game').hidden && arbiterGame.es && arbiterGame.es.readyState === 1`)
	p.wait("the engine moves first", `arbiterGame.moves.length >= 1`)
	p.wait("the player's turn", `document.getElementById('turn').textContent === 'Your move'`)
	p.wait("the legal moves are marked", `document.querySelectorAll('#board circle.hint').length > 0`)
	if got := eval[string](p, `document.querySelector('#bar-top .pname').textContent`); got != "Built-in engine: beginner" {
		t.Errorf("the engine's side is named %q", got)
	}
	p.checkLayout("engine-board-390", 390, 844)
	p.fullShot("engine-game-390", 390, 844)
	if got := eval[float64](p, `(() => { const i = document.getElementById('pdn-input'); return i.scrollWidth - i.clientWidth; })()`); got > 0 {
		t.Errorf("the move box is %v px too narrow for its placeholder", got)
	}

	// Play: a capture is typed as the page lists it, a plain move tapped
	// with a finger that slips a little on the piece, as fingers do.
	// The beginner engine plays at random; after 12 of her moves Eve
	// resigns if the game is not over (a quick test on a loaded machine).
	p.do("a phone's touch screen", chromedp.EmulateViewport(390, 844, chromedp.EmulateTouch))
	for ply := 0; ; ply++ {
		p.wait("Eve's turn or the end", `arbiterGame.state.status === 'over' || (arbiterGame.state.turn === 'white' && (arbiterGame.state.legal || arbiterGame.snap.legal || []).length > 0 && document.getElementById('turn').textContent === 'Your move')`)
		if eval[bool](p, `arbiterGame.state.status === 'over'`) {
			break
		}
		if ply >= 12 {
			p.do("resign", chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#resign-yes")))
			break
		}
		n := eval[int](p, `arbiterGame.moves.length`)
		mv := eval[string](p, `(() => { const l = arbiterGame.state.legal || arbiterGame.snap.legal; const c = l.filter(m => m.includes('x'));
			return c.length ? c.sort((a, b) => b.length - a.length)[0] : l[`+itoa(ply)+` % l.length]; })()`)
		if strings.Contains(mv, "x") {
			p.do("type "+mv, chromedp.SendKeys(chromedp.CSS("#pdn-input"), mv+kb.Enter))
		} else {
			sq := strings.Split(mv, "-")
			p.tap(sq[0], 10)
			p.wait("the piece is picked up", `arbiterGame.sel.join() === '`+sq[0]+`'`)
			p.tap(sq[1], 0)
		}
		p.wait("the move is played", `arbiterGame.moves.length > `+itoa(n)+` || arbiterGame.state.status === 'over'`)
		if !eval[bool](p, `document.getElementById('error').hidden`) {
			t.Fatalf("move %s refused: %s", mv, p.text("error"))
		}
	}
	p.wait("the result", `!document.getElementById('banner').hidden`)
	banner := p.text("banner")
	if !strings.Contains(banner, "wins") && !strings.Contains(banner, "Draw") || strings.Contains(banner, "resignation") {
		t.Errorf("the banner says %q", banner)
	}
	if eval[string](p, `arbiterGame.state.termination`) == "resignation" && !strings.Contains(banner, "White resigned.") {
		t.Errorf("the banner after Eve's resignation says %q", banner)
	}
	t.Logf("against the beginner engine after %d moves: %s", eval[int](p, `arbiterGame.moves.length`), banner)
	p.fullShot("engine-over-390", 390, 844)
}

// tap touches the centre of a square with a finger, which slips slip px
// sideways before it leaves the screen (a tap on a phone is seldom still).
func (p *page) tap(sq string, slip float64) {
	p.t.Helper()
	x, y := p.squareCenter(sq)
	touch := func(typ input.DispatchTouchEventType, dx float64) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			pts := []*input.TouchPoint{{X: x + dx, Y: y}}
			if typ == input.DispatchTouchEventTypeTouchEnd {
				pts = []*input.TouchPoint{}
			}
			_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
			return err
		})
	}
	acts := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, 0)}
	for i := 1; i <= 4; i++ {
		acts = append(acts, touch(input.DispatchTouchEventTypeTouchMove, slip*float64(i)/4))
	}
	acts = append(acts, touch(input.DispatchTouchEventTypeTouchEnd, 0))
	p.do("tap "+sq, acts...)
}

// newEngineEnv is newEnv over a Hall with engines.
func newEngineEnv(t *testing.T, engines map[string]online.EngineSpec) *env {
	t.Helper()
	e := &env{t: t, log: &syncBuffer{}}
	log := zerolog.New(e.log).Level(zerolog.DebugLevel).With().Timestamp().Logger()
	hall, err := online.Open(context.Background(), online.Config{Path: filepath.Join(t.TempDir(), "web.db"), Log: log, Engines: engines})
	if err != nil {
		t.Fatal(err)
	}
	e.hall = hall
	srv, err := New(Config{Hall: hall, Log: log, Limits: unlimited})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	e.hs = httptest.NewUnstartedServer(srv.Handler())
	e.hs.Config = srv.HTTPServer()
	e.hs.Start()
	t.Cleanup(func() {
		srv.Stop()
		e.hs.Close()
		if err := hall.Close(); err != nil {
			t.Errorf("closing the Hall: %v", err)
		}
	})
	return e
}
