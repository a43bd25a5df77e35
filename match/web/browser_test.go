package web

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/draughts-arbiter/arbiter/internal/browser"
	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// The browser tests drive the real client in headless Chromium against a
// real server (newEnv: SQLite, a Hall, the HTTP server on a socket). One
// browser serves every test of the binary; each player gets a browser
// context of its own (separate storage, as two people's browsers).

var shared struct {
	once    sync.Once
	ctx     context.Context // the browser (its first tab keeps it alive)
	cancel  context.CancelFunc
	err     error
	missing bool
}

// TestMain closes the shared browser after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if shared.cancel != nil {
		shared.cancel()
	}
	removeLiveBinary() // live_run_test.go
	os.Exit(code)
}

// needBrowser starts the shared browser on first use, or skips the test
// when Chromium is missing (and fails under CI=true, where it must be).
func needBrowser(t *testing.T) context.Context {
	t.Helper()
	browser.SkipShort(t)
	shared.once.Do(func() {
		bin := browser.Find()
		if bin == "" {
			shared.missing = true
			return
		}
		dir, err := os.MkdirTemp("", "arbiter-web-chromium-")
		if err != nil {
			shared.err = err
			return
		}
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
			browser.Options(bin, dir, chromedp.WindowSize(1366, 900))...)
		bctx, cancelB := chromedp.NewContext(actx)
		if err := chromedp.Do(bctx); err != nil {
			cancelB()
			cancelAlloc()
			shared.err = fmt.Errorf("starting %s: %w", bin, err)
			return
		}
		shared.ctx = bctx
		shared.cancel = func() { cancelB(); cancelAlloc(); os.RemoveAll(dir) }
	})
	if shared.missing {
		browser.Missing(t)
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.ctx
}

// browserTest begins a top-level browser test: it needs the shared browser
// (needBrowser) and runs beside the package's other browser tests
// (t.Parallel, as many at once as go test's -parallel: GOMAXPROCS, two on
// CI). Each has its own server, SQLite file and browser contexts, and its
// waits are for conditions, so none depends on another's pace. They spend
// most of their time waiting on the page (a stream's reconnection, a
// retry, an engine's move): one after another they took some 190 s, and
// eleven of them used some 40 CPU seconds (browser included) in 72 s.
func browserTest(t *testing.T) {
	t.Helper()
	browser.SkipShort(t) // a skip, not a pause for a test that will not run
	t.Parallel()
	needBrowser(t)
}

// page is one tab in a browser context of its own.
type page struct {
	t        *testing.T
	name     string
	ctx      context.Context
	mu       sync.Mutex
	problems []string
	hooks    []func(any) // more listeners (p.hook), called with p.mu held
}

// hook adds a listener for the tab's events; it must not block.
func (p *page) hook(f func(any)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hooks = append(p.hooks, f)
}

// newPage opens a tab in a new browser context; its script errors, console
// errors and CSP violations are collected and fail the test at its end.
func newPage(t *testing.T, name string) *page {
	t.Helper()
	p := &page{t: t, name: name}
	listener := func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, f := range p.hooks {
			f(ev)
		}
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			p.problems = append(p.problems, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var args []string
				for _, a := range ev.Args {
					args = append(args, strings.TrimSpace(string(a.Value)+" "+a.Description))
				}
				p.problems = append(p.problems, "console.error: "+strings.Join(args, " "))
			}
		case *log.EventEntryAdded:
			// A refused request (a 4xx the page expects and shows) is
			// logged as a network error; a CSP violation is not.
			if ev.Entry.Level == log.EntryLevelError && ev.Entry.Source != log.EntrySourceNetwork {
				p.problems = append(p.problems, "browser log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	}
	ctx, cancel := chromedp.NewContext(needBrowser(t), chromedp.WithNewBrowserContext(), chromedp.WithListener(listener))
	p.ctx = ctx
	// The first action opens the tab, on ctx itself: a tab opened under a
	// context with a deadline closes when that context ends.
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		t.Fatalf("opening a tab for %s: %v", name, err)
	}
	t.Cleanup(func() {
		cancel()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, pr := range p.problems {
			t.Errorf("%s's page: %s", name, pr)
		}
	})
	return p
}

// do runs browser actions, failing the test on error.
func (p *page) do(what string, acts ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, acts...); err != nil {
		p.t.Fatalf("%s: %s: %v", p.name, what, err)
	}
}

// eval evaluates js in the page (awaiting a promise) into T.
func eval[T any](p *page, js string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: evaluating %s: %v", p.name, js, err)
	}
	return v
}

// wait polls the JS condition until it holds (an event the page reacts to;
// the bound is generous for a loaded machine, not a timing). A page that
// is navigating (a link followed, a form sent) has no document to ask:
// its evaluation fails with "Inspected target navigated or closed" or a
// destroyed context, which is "not yet", not a failure.
func (p *page) wait(what, cond string) {
	p.t.Helper()
	var last error
	held := poll.Until(30*time.Second, 0, func() bool {
		ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
		defer cancel()
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+cond+")", chromedp.EvalAwaitPromise))
		last = err
		return err == nil && ok
	})
	if !held {
		p.t.Fatalf("%s: %s: not within 30 s (%s; last evaluation error: %v)", p.name, what, cond, last)
	}
}

// open loads a game link and waits for the snapshot to be drawn and the
// event stream to be open.
func (p *page) open(url string) {
	p.t.Helper()
	p.do("open "+url, chromedp.Navigate(url))
	p.wait("the game loads", `window.arbiterGame && arbiterGame.snap && !document.getElementById('game').hidden && arbiterGame.es && arbiterGame.es.readyState === 1`)
}

// squareCenter is the viewport position of a square's centre.
func (p *page) squareCenter(sq string) (float64, float64) {
	p.t.Helper()
	xy := eval[[]float64](p, `(() => { const r = document.querySelector('#sq-`+sq+` rect').getBoundingClientRect();
		return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	return xy[0], xy[1]
}

// click clicks a square with the mouse.
func (p *page) click(sq string) {
	p.t.Helper()
	x, y := p.squareCenter(sq)
	p.do("click "+sq, chromedp.MouseClickXY(x, y))
}

// drag drags the piece on from to the square to with the mouse button held.
func (p *page) drag(from, to string) {
	p.t.Helper()
	x0, y0 := p.squareCenter(from)
	x1, y1 := p.squareCenter(to)
	held := func(q *input.DispatchMouseEventParams) {
		q.Button = input.MouseButtonLeft
		q.Buttons = 1
		q.ClickCount = 1
	}
	acts := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(chromedp.MousePressed, x0, y0, held)}
	for i := 1; i <= 8; i++ {
		f := float64(i) / 8
		acts = append(acts, chromedp.MouseEvent(chromedp.MouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, held))
	}
	acts = append(acts, chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, held))
	p.do("drag "+from+" to "+to, acts...)
}

// keyTo moves the board's keyboard focus to sq with the arrow keys and
// presses Enter there.
func (p *page) keyTo(sq string) {
	p.t.Helper()
	// Screen rows and columns of the focus and of the target.
	pos := eval[[]int](p, `(() => { const b = arbiterGame.board; if (!b.focus) b.focusDefault();
		const s = b.byName.get('`+sq+`');
		return [...b.screen(b.focus.row, b.focus.col), ...b.screen(s.row, s.col)]; })()`)
	var keys strings.Builder
	for r := pos[0]; r < pos[2]; r++ {
		keys.WriteString(kb.ArrowDown)
	}
	for r := pos[0]; r > pos[2]; r-- {
		keys.WriteString(kb.ArrowUp)
	}
	for c := pos[1]; c < pos[3]; c++ {
		keys.WriteString(kb.ArrowRight)
	}
	for c := pos[1]; c > pos[3]; c-- {
		keys.WriteString(kb.ArrowLeft)
	}
	keys.WriteString(kb.Enter)
	p.do("keys to "+sq, chromedp.KeyEvent(keys.String()))
	if got := eval[string](p, `arbiterGame.board.focusedName() || ''`); got != sq {
		p.t.Fatalf("%s: the keyboard focus is on %q, want %q", p.name, got, sq)
	}
}

// waitMoves waits until the page shows n moves in its move list.
func (p *page) waitMoves(n int) {
	p.t.Helper()
	p.wait(fmt.Sprintf("%d moves shown", n), fmt.Sprintf(`document.querySelectorAll('#moves .mv').length === %d && arbiterGame.moves.length === %d`, n, n))
}

// logText is the text of the page's referee log entries of a type.
func (p *page) logText(typ string) string {
	return eval[string](p, `Array.from(document.querySelectorAll('#log li[data-type="`+typ+`"]')).map(li => li.textContent).join('\n')`)
}

// layout is what the page says about its own layout.
type layout struct {
	ScrollWidth, InnerWidth, InnerHeight float64
	Board                                struct{ Left, Top, Right, Bottom float64 }
}

// checkLayout sizes the viewport, asserts that nothing overflows sideways
// and that the whole board is in view, and takes a picture (p.picture).
func (p *page) checkLayout(name string, w, h int64) {
	p.t.Helper()
	p.do("viewport", chromedp.EmulateViewport(w, h))
	p.wait("the layout settles", `innerWidth === `+fmt.Sprint(w))
	eval[bool](p, `(scrollTo(0, 0), true)`)
	l := eval[layout](p, `new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(() => {
		const el = document.getElementById('board');
		const b = el ? el.getBoundingClientRect() : {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
		ok({ScrollWidth: document.scrollingElement.scrollWidth, InnerWidth: innerWidth, InnerHeight: innerHeight,
		    Board: {Left: b.left, Top: b.top, Right: b.right, Bottom: b.bottom}});
	})))`)
	p.picture(name, chromedp.CaptureScreenshot())
	if l.ScrollWidth > l.InnerWidth {
		p.t.Errorf("%s at %dx%d: the page is %v px wide in a %v px viewport", name, w, h, l.ScrollWidth, l.InnerWidth)
	}
	b := l.Board
	if b.Left < 0 || b.Top < 0 || b.Right > l.InnerWidth || b.Bottom > l.InnerHeight || b.Right-b.Left < float64(w)/4 {
		p.t.Errorf("%s at %dx%d: the board %+v is not inside the viewport %vx%v", name, w, h, b, l.InnerWidth, l.InnerHeight)
	}
}

// barsCut lists the parts of the players' bars (the name, its marks, the
// clock) that the page cuts short with an ellipsis, breaks over two lines
// or pushes past the viewport's right edge; "" when each is read whole.
func (p *page) barsCut() string {
	p.t.Helper()
	return eval[string](p, `Array.from(document.querySelectorAll('.player > *')).filter(e => e.offsetParent && e.textContent.trim()).filter(e => {
		const r = document.createRange();
		r.selectNodeContents(e);
		return e.scrollWidth > e.clientWidth || r.getClientRects().length > 1 || e.getBoundingClientRect().right > innerWidth;
	}).map(e => JSON.stringify(e.textContent.trim()) + ' (' + e.className + ', ' + e.clientWidth + ' of ' + e.scrollWidth + ' px)').join(', ')`)
}

// TestBrowserGame creates an English game on the create page, plays it by
// mouse, drag, keyboard and typed PDN in two browser contexts with a
// spectator watching, has the referee warn both players of an illegal move
// and end the game on the second, checks the PDN download and the layout
// at phone and desktop widths.
func TestBrowserGame(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})

	// The creator fills in the form.
	creator := newPage(t, "creator")
	creator.do("open the create page", chromedp.Navigate(e.hs.URL+"/"))
	creator.wait("the variants load", `document.querySelector('#variant option[value="english"]')`)
	// A bad start position is refused with the field named.
	creator.do("send a bad FEN",
		chromedp.SetValue(chromedp.CSS("#fen"), "W:W99:Bgarbage"),
		chromedp.Click(chromedp.CSS("#create-button")))
	creator.wait("the error is shown", `!document.getElementById('create-error').hidden`)
	if msg := eval[string](creator, `document.getElementById('create-error').textContent`); !strings.Contains(msg, "fen") {
		t.Errorf("the refused setup says %q, without naming the field", msg)
	}
	eval[bool](creator, `(document.getElementById('fen').value = '', true)`)
	creator.wait("the create button is ready again", `!document.getElementById('create-button').disabled`)
	creator.do("fill in the form",
		chromedp.SetValue(chromedp.CSS("#variant"), "english"),
		chromedp.SetValue(chromedp.CSS("#policy"), "wcdf"),
		chromedp.SetValue(chromedp.CSS("#tc"), "60+5"),
		chromedp.SetValue(chromedp.CSS("#white"), "Ann"),
		chromedp.SetValue(chromedp.CSS("#black"), "Bob"),
		chromedp.Click(chromedp.CSS("#create-button")))
	creator.wait("the links are shown", `!document.getElementById('links').hidden`)
	links := eval[map[string]string](creator, `Object.fromEntries(['white', 'black', 'spectator', 'arbiter'].map(r => [r, document.getElementById('link-' + r).value]))`)
	for _, r := range []string{"white", "black", "spectator", "arbiter"} {
		if !strings.Contains(links[r], "/g/") {
			t.Fatalf("the %s link is %q", r, links[r])
		}
	}
	creator.checkLayout("create-phone", 360, 740)

	white, black, watcher := newPage(t, "white"), newPage(t, "black"), newPage(t, "spectator")
	white.open(links["white"])
	black.open(links["black"])
	watcher.open(links["spectator"])
	all := []*page{white, black, watcher}
	waitAll := func(n int) {
		t.Helper()
		for _, p := range all {
			p.waitMoves(n)
		}
	}

	// The spectator has no controls, and clicking its board does nothing.
	hidden := eval[bool](watcher, `['controls', 'pdn-form', 'decide', 'arbiter'].every(id => document.getElementById(id).hidden) && !arbiterGame.board.interactive`)
	if !hidden {
		t.Error("the spectator's page shows controls")
	}
	watcher.click("11")
	if n := eval[int](watcher, `arbiterGame.sel.length`); n != 0 {
		t.Error("the spectator could select a piece")
	}
	if eval[bool](black, `document.getElementById('controls').hidden || document.getElementById('resign').hidden`) {
		t.Error("the player's page shows no controls")
	}

	// Black moves first in English: 11-15 by clicking, White 22-18.
	black.click("11")
	black.click("15")
	waitAll(1)
	white.click("22")
	white.click("18")
	waitAll(2)

	// Black must capture (15x22) and tries a plain move: the referee
	// refuses it with a warning that every viewer sees; Black moves again.
	black.click("9")
	black.click("13")
	for _, p := range all {
		p.wait("the warning is shown", `document.querySelector('#log li[data-type="warning"]') && !document.getElementById('speech').hidden`)
		text := p.logText("warning")
		if !strings.Contains(text, "9-13") || !strings.Contains(text, "15x22") {
			t.Errorf("%s sees the warning %q: it should name the move played and the capture", p.name, text)
		}
	}
	if n := eval[int](black, `arbiterGame.state.warnings.black`); n != 1 {
		t.Errorf("black's warnings: %d, want 1", n)
	}
	// On a phone the warned player's bar holds the name, "(you)", "to
	// move", "warnings: 1" and the clock: each is read whole, none cut or
	// broken over two lines.
	black.checkLayout("warned-phone", 390, 844)
	if cut := black.barsCut(); cut != "" {
		t.Errorf("Black's bars on a phone, after a warning: %s", cut)
	}
	black.do("back to the desktop", chromedp.EmulateViewport(1366, 900))

	// The capture by clicking, White's recapture by dragging.
	black.click("15")
	black.click("22")
	waitAll(3)
	white.drag("25", "18")
	waitAll(4)

	// Black by keyboard alone, White types PDN.
	black.do("focus the board", chromedp.Focus(chromedp.CSS("#board")))
	black.keyTo("8")
	black.keyTo("11")
	waitAll(5)
	white.do("type a move", chromedp.SendKeys(chromedp.CSS("#pdn-input"), "29-25"+kb.Enter))
	waitAll(6)
	if got := eval[[]string](watcher, `arbiterGame.moves.map(m => m.text)`); strings.Join(got, " ") != "11-15 22-18 15x22 25x18 8-11 29-25" {
		t.Errorf("the spectator saw the moves %q", got)
	}

	// A second illegal move (a man backwards) loses.
	black.click("11")
	black.click("8")
	for _, p := range all {
		p.wait("the result is shown", `!document.getElementById('banner').hidden`)
	}
	if res := eval[string](white, `arbiterGame.state.result + ' ' + arbiterGame.state.termination`); !strings.HasPrefix(res, "1-0") || !strings.Contains(res, "illegal") {
		t.Errorf("the result is %q, want a win for White by an illegal move", res)
	}
	if banner := eval[string](black, `document.getElementById('banner').textContent`); !strings.Contains(banner, "White wins") {
		t.Errorf("the banner says %q", banner)
	}
	if eval[bool](black, `!document.getElementById('controls').hidden`) {
		t.Error("the controls are still shown after the game")
	}

	// The PDN download link gives a record the project's checker accepts.
	record := eval[string](watcher, `fetch(document.getElementById('pdn-link').href).then(r => r.text())`)
	checkPDN(t, record, 6)

	// The board at a phone's and a desktop's size.
	white.checkLayout("board-phone", 360, 740)
	white.checkLayout("board-desktop", 1366, 900)
	black.checkLayout("board-phone-black", 360, 740)
}

// checkPDN audits a PDN text as `arbiter check` does: one game, readable,
// every move legal, at least moves moves.
func checkPDN(t *testing.T, text string, moves int) {
	t.Helper()
	if !strings.Contains(text, "[GameType") {
		t.Errorf("the PDN has no GameType tag:\n%s", text)
	}
	var reps []pdn.Report
	if err := pdn.Audit(strings.NewReader(text), "download.pdn", nil, func(r pdn.Report) { reps = append(reps, r) }); err != nil {
		t.Fatalf("auditing the download: %v", err)
	}
	if len(reps) != 1 || reps[0].Status != pdn.OK {
		t.Fatalf("the download does not pass the check: %v\n%s", reps, text)
	}
	if n := strings.Count(text, "-") + strings.Count(text, "x"); n < moves {
		t.Errorf("the download has too few moves:\n%s", text)
	}
}

// TestBrowserClaims repeats a position with kings: a claim for the position
// after its second occurrence is refused with its reason shown to both
// players; a claim made with the move that would repeat it the third time
// is valid and draws the game.
func TestBrowserClaims(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"english","fen":"B:WK29:BK4","policy":"wcdf","draws":"claim","white":"Ann","black":"Bob"}`)
	white, black := newPage(t, "white"), newPage(t, "black")
	white.open(g.links["white"])
	black.open(g.links["black"])
	for i, mv := range [][2]string{{"4", "8"}, {"29", "25"}, {"8", "4"}, {"25", "29"}} {
		p := black
		if i%2 == 1 {
			p = white
		}
		p.click(mv[0])
		p.click(mv[1])
		white.waitMoves(i + 1)
		black.waitMoves(i + 1)
	}
	// The start position is on the board for the second time: too early.
	black.do("claim", chromedp.Click(chromedp.CSS("#claim-rep")))
	for _, p := range []*page{white, black} {
		p.wait("the refusal is shown", `document.querySelector('#log li[data-type="claim"]')`)
	}
	refused := eval[map[string]any](white, `arbiterGame.messages.filter(m => m.type === 'claim').map(m => m.msg)[0]`)
	if refused["code"] != "claim.refused" {
		t.Fatalf("the premature claim: %v", refused)
	}
	// The reason is shown from its evidence's code (the catalog's words,
	// here the same as the server's English text of that code).
	why, _ := refused["why"].(map[string]any)
	reason, _ := why["text"].(string)
	if why["code"] != "evidence.threefold-short-start" || reason == "" || !strings.Contains(reason, "at the start and at moves 2...") ||
		!strings.Contains(white.logText("claim"), reason) || !strings.Contains(black.logText("claim"), reason) {
		t.Errorf("the refusal's reason %v is not shown to both (%q)", why, white.logText("claim"))
	}
	if st := eval[string](black, `arbiterGame.state.status`); st != "running" {
		t.Fatalf("after a refused claim the game is %s", st)
	}
	// Three more moves; White claims with the move that would make the
	// third occurrence (the claim before the move).
	for i, mv := range [][2]string{{"4", "8"}, {"29", "25"}, {"8", "4"}} {
		p := black
		if i%2 == 1 {
			p = white
		}
		p.click(mv[0])
		p.click(mv[1])
		white.waitMoves(5 + i)
		black.waitMoves(5 + i)
	}
	white.do("claim with the next move", chromedp.Click(chromedp.CSS("#claim-with")))
	white.click("25")
	white.click("29")
	for _, p := range []*page{white, black} {
		p.wait("the draw is shown", `!document.getElementById('banner').hidden`)
	}
	st := eval[map[string]string](white, `({result: arbiterGame.state.result, termination: arbiterGame.state.termination})`)
	if !strings.Contains(st["termination"], "threefold") {
		t.Errorf("the game ended %v, want a threefold repetition draw", st)
	}
	if !strings.Contains(black.logText("claim"), "valid") {
		t.Errorf("the valid claim is not shown: %q", black.logText("claim"))
	}
	if mv := eval[string](white, `arbiterGame.messages.filter(m => m.msg.code === 'claim.accepted').map(m => m.msg.args.move || '').join()`); mv != "25-29" {
		t.Errorf("the accepted claim was made with the move %q, want 25-29", mv)
	}
	if eval[bool](white, `document.getElementById('claim-with').checked`) {
		t.Error("the claim-with-the-next-move box is still ticked after the claim")
	}
	// The record keeps both claims and passes the check.
	record := eval[string](black, `fetch(document.getElementById('pdn-link').href).then(r => r.text())`)
	checkPDN(t, record, 7)
	if strings.Count(record, "claim") < 2 {
		t.Errorf("the PDN does not record both claims:\n%s", record)
	}
}

// TestBrowserArbiter plays the parts of the referee and arbiter the other
// tests leave out: a draw offer declined, an illegal move under
// opponent-decides corrected at the opponent's choice, the arbiter's
// pause, added time, note and declared result seen by both players, a
// reissued link that replaces the old one, and the interface in bokmål.
func TestBrowserArbiter(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"english","time_control":"600","policy":"opponent-decides","white":"Ann","black":"Bob"}`)
	white, black, arb := newPage(t, "white"), newPage(t, "black"), newPage(t, "arbiter")
	white.open(g.links["white"])
	black.open(g.links["black"])
	arb.open(g.links["arbiter"])
	players := []*page{white, black}

	// Black offers a draw; White sees the offer and declines.
	black.do("offer", chromedp.Click(chromedp.CSS("#offer")))
	white.wait("the offer reaches White", `!document.getElementById('offer-got').hidden`)
	black.wait("Black sees its offer open", `!document.getElementById('offer-sent').hidden`)
	white.do("decline", chromedp.Click(chromedp.CSS("#decline")))
	black.wait("the offer is declined", `arbiterGame.state.offer === '' && !document.getElementById('offer').hidden`)

	// Black's man jumps two squares without a capture: White decides.
	black.click("9")
	black.click("18")
	white.wait("White is asked", `!document.getElementById('decide').hidden`)
	if eval[bool](black, `!document.getElementById('decide').hidden`) {
		t.Error("the offender is asked to decide")
	}
	if text := eval[string](white, `document.getElementById('decide-text').textContent`); !strings.Contains(text, "9-18") {
		t.Errorf("the decision prompt %q does not name the move", text)
	}
	white.do("correct it", chromedp.Click(chromedp.CSS("#decide-correct")))
	for _, p := range players {
		p.wait("the correction is shown", `document.querySelector('#log li[data-code="decision.corrected"]')`)
	}
	black.click("9")
	black.click("14")
	white.waitMoves(1)

	// The arbiter pauses the clocks: both players see it and no clock runs.
	arb.do("pause", chromedp.Click(chromedp.CSS("#arb-pause")))
	for _, p := range players {
		p.wait("the pause is shown", `!document.getElementById('paused').hidden && !document.querySelector('.clock.running')`)
	}
	arb.do("resume", chromedp.Click(chromedp.CSS("#arb-resume")))
	white.wait("the clock runs again", `document.querySelector('#bar-bottom .clock.running')`)

	// Added time and a note reach both players' logs.
	before := eval[float64](white, `arbiterGame.state.clocks.white`)
	arb.do("add time",
		chromedp.SetValue(chromedp.CSS(`#arb-time select[name="color"]`), "white"),
		chromedp.SetValue(chromedp.CSS(`#arb-time input[name="seconds"]`), "120"),
		chromedp.SetValue(chromedp.CSS(`#arb-time input[name="text"]`), "a noisy hall"),
		chromedp.Click(chromedp.CSS(`#arb-time button`)))
	arb.do("annotate",
		chromedp.SetValue(chromedp.CSS(`#arb-note input[name="text"]`), "Bob asked for water"),
		chromedp.Click(chromedp.CSS(`#arb-note button`)))
	for _, p := range players {
		p.wait("the note is shown", `document.querySelector('#log li[data-code="arbiter.annotation"]')`)
		if log := p.logText("clock") + p.logText("annotation"); !strings.Contains(log, "a noisy hall") || !strings.Contains(log, "Bob asked for water") {
			t.Errorf("%s's log lacks the arbiter's decisions: %q", p.name, log)
		}
	}
	if after := eval[float64](white, `arbiterGame.state.clocks.white`); after < before+60_000 {
		t.Errorf("White's clock went from %v to %v ms after 120 s were added", before, after)
	}
	// The arbiter's page gets the note by its own stream, in its own time.
	arb.wait("the note reaches the arbiter", `document.querySelector('#log li[data-code="arbiter.annotation"]')`)
	if rec := arb.logText("annotation"); !strings.Contains(rec, "Bob asked for water") {
		t.Errorf("the arbiter's record lacks the note: %q", rec)
	}

	// A reissued link: the arbiter gets the new one, the old one is dead.
	arb.do("reissue",
		chromedp.SetValue(chromedp.CSS(`#arb-reissue select[name="role"]`), "white"),
		chromedp.Click(chromedp.CSS(`#arb-reissue button`)))
	arb.wait("the new link is shown", `!document.getElementById('arb-link').hidden`)
	newLink := eval[string](arb, `document.getElementById('arb-link').textContent`)
	if newLink == g.links["white"] || !strings.Contains(newLink, "/g/") {
		t.Fatalf("the reissued link is %q (old %q)", newLink, g.links["white"])
	}
	if code := eval[int](arb, `fetch('/api/g/`+g.tokens["white"]+`').then(r => r.status)`); code != 404 {
		t.Errorf("the old link answers %d after the reissue", code)
	}
	white.wait("the page of the old link says it is gone", `!document.getElementById('fatal').hidden && document.getElementById('game').hidden`)
	// ... and what to do: the player asks the arbiter, who has the new link.
	if got := white.text("fatal"); !strings.Contains(got, "ask whoever gave it to you for a new one") {
		t.Errorf("the page of a revoked link says %q: not what to do", got)
	}
	if w := eval[float64](white, `document.getElementById('role').getBoundingClientRect().width`); w != 0 {
		t.Errorf("the page of a revoked link still shows a role badge (%v px)", w)
	}
	white.open(newLink)

	// The interface in bokmål, remembered across a reload.
	white.do("choose bokmål", chromedp.SetValue(chromedp.CSS("#lang"), "nb"))
	eval[bool](white, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	white.wait("the page speaks bokmål", `document.getElementById('resign').textContent === 'Gi opp'`)
	white.open(newLink)
	white.wait("bokmål is remembered", `document.documentElement.lang === 'nb' && document.getElementById('resign').textContent === 'Gi opp'`)
	if text := white.logText("annotation"); !strings.Contains(text, "Dommerens merknad") {
		t.Errorf("the referee's message is not translated: %q", text)
	}
	// The explanation inside a message is translated too, not left in English.
	why := eval[string](white, `arbiterGame.messages.filter(m => m.msg.code === 'decision.pending').map(m => m.msg.args.why)[0] || ''`)
	pending := white.logText("illegal")
	if why == "" || !strings.Contains(pending, "9-18") || strings.Contains(pending, why) {
		t.Errorf("the illegal move's explanation %q is not translated in %q", why, pending)
	}
	// A claim's answer: the reason (its evidence) in bokmål, not the
	// English args.reason.
	newToken := newLink[strings.LastIndex(newLink, "/g/")+3:]
	if code, body := e.act(newToken, `{"kind":"claim","claim":"threefold"}`); code != 200 {
		t.Fatalf("White's claim: %d %s", code, body)
	}
	white.wait("the claim's answer is shown", `document.querySelector('#log li[data-code="claim.refused"]')`)
	reason := eval[string](white, `arbiterGame.messages.filter(m => m.msg.code === 'claim.refused').map(m => m.msg.args.reason)[0] || ''`)
	if answer := white.logText("claim"); reason == "" || strings.Contains(answer, reason) || !strings.Contains(answer, "avvist") ||
		!strings.Contains(answer, "Denne stillingen har oppstått 1 av de tre gangene som trengs siden") {
		t.Errorf("the claim's answer %q is not in bokmål (English reason %q)", answer, reason)
	}

	// The arbiter declares the result; both players see it with the reason.
	arb.do("declare",
		chromedp.SetValue(chromedp.CSS(`#arb-declare select[name="outcome"]`), "1/2-1/2"),
		chromedp.SetValue(chromedp.CSS(`#arb-declare input[name="text"]`), "the hall closes"),
		chromedp.Click(chromedp.CSS(`#arb-declare button`)))
	for _, p := range players {
		p.wait("the result is shown", `!document.getElementById('banner').hidden`)
		if banner := eval[string](p, `document.getElementById('banner').textContent`); !strings.Contains(banner, "the hall closes") {
			t.Errorf("%s's banner %q lacks the arbiter's reason", p.name, banner)
		}
	}
}

// TestBrowserCaptures enters a two-piece capture square by square (sent by
// its last click where the variant says it cannot go on, by "Send move"
// where the page cannot know), answers the referee's question when a short
// move text matches two captures, and shows the legal moves in a beginner
// game.
func TestBrowserCaptures(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	// White's man on 23 can take 18 and 10, or 19 and 11, landing on 7.
	const fen = `{"variant":"english","fen":"W:W23:B5,10,11,18,19"}`
	// white opens White's board of a new game, in the same tab (a new
	// browser context costs seconds); took checks what the last move
	// captured.
	tab := newPage(t, "white")
	white := func(setup string) *page {
		tab.open(e.create(setup).links["white"])
		return tab
	}
	took := func(p *page, want string) {
		t.Helper()
		p.waitMoves(1)
		if got := eval[string](p, `arbiterGame.state.last.captured.slice().sort().join()`); got != want {
			t.Errorf("%s: the capture took %q, want %s", p.name, got, want)
		}
	}

	// Step by step: 23, 14 (over 18), 7 (over 10). Black's 11 lies
	// behind the man on 7 with 16 empty, but an English man captures
	// forward only: the click on 7 ends the capture and sends it, as a
	// plain move's second click does (no "Send move" to find while the
	// clock runs).
	p := white(fen)
	for _, sq := range []string{"23", "14"} {
		p.click(sq)
	}
	p.wait("the capture goes on", `arbiterGame.sel.join() === '23,14' && !document.getElementById('entry').hidden`)
	p.click("7")
	took(p, "10,18")
	if !eval[bool](p, `document.getElementById('entry').hidden`) {
		t.Error("the capture box is still shown after the capture was played")
	}

	// The same under house rules (a custom rule set, here English's own):
	// the page does not read a rule set, so from 7 the capture might go on
	// over 11, and the player sends it.
	p = white(`{"rules":"preset: english\nname: house-rules\n","fen":"W:W23:B5,10,11,18,19"}`)
	for _, sq := range []string{"23", "14", "7"} {
		p.click(sq)
	}
	p.wait("the capture waits to be sent", `arbiterGame.sel.join() === '23,14,7' && !document.getElementById('entry').hidden`)
	p.do("send", chromedp.Click(chromedp.CSS("#entry-done")))
	took(p, "10,18")

	// Russian: the man crowned on d8 in mid-capture goes on as a flying
	// king, over b6 from two squares away; the click on d8 does not send
	// the capture short of its end (an illegal move), the click on a5 does.
	p = white(`{"variant":"russian","fen":"W:Wf6:Be7,b6"}`)
	for _, sq := range []string{"f6", "d8"} {
		p.click(sq)
	}
	p.wait("the crowned man's capture goes on", `arbiterGame.sel.join() === 'f6,d8' && !document.getElementById('entry').hidden`)
	p.click("a5")
	took(p, "b6,e7")

	// The short form 23x7 matches both captures: the page asks which.
	p = white(fen)
	p.do("type a move", chromedp.SendKeys(chromedp.CSS("#pdn-input"), "23x7"+kb.Enter))
	p.wait("the page asks which capture", `!document.getElementById('choose').hidden && document.querySelectorAll('#choose-list button').length === 2`)
	if n := eval[int](p, `arbiterGame.moves.length`); n != 0 {
		t.Fatalf("an ambiguous move was played")
	}
	eval[string](p, `(() => { const b = Array.from(document.querySelectorAll('#choose-list button')).find(b => b.textContent.includes('16')); b.click(); return b.textContent; })()`)
	took(p, "11,19")

	// A beginner game marks the squares the player to move can move from.
	g := e.create(`{"variant":"english","beginner":true}`)
	black := newPage(t, "beginner")
	black.open(g.links["black"])
	black.wait("the legal moves are shown", `document.querySelectorAll('#board circle.hint').length === 4`)
	black.click("11")
	black.wait("the destinations are shown", `document.querySelectorAll('#board circle.hint').length === 2`)
	// After the move the list is the opponent's: Black, not to move, sees none.
	black.click("15")
	black.waitMoves(1)
	black.wait("no hints off turn", `document.querySelectorAll('#board circle.hint').length === 0`)
	p = newPage(t, "beginner white")
	p.open(g.links["white"])
	p.wait("White sees its moves", `document.querySelectorAll('#board circle.hint').length > 0`)
	p.click("22")
	p.click("18")
	black.waitMoves(2)
	black.wait("Black sees the capture it must make", `document.querySelectorAll('#board circle.hint').length === 1`)
}

// TestBrowserEveryVariant draws the start of every preset the server offers
// from the snapshot's geometry alone: every playable square and piece is
// drawn, on a board with the variant's width and height. One page draws
// them all with the page's own board module (a page load per variant
// costs seconds on a loaded machine).
func TestBrowserEveryVariant(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	_, body := e.do("GET", "/api/variants", "")
	var info struct {
		Variants []string `json:"variants"`
	}
	if err := json.Unmarshal(body, &info); err != nil || len(info.Variants) < 10 {
		t.Fatalf("variants: %v %s", err, body)
	}
	var tokens []string
	for _, v := range info.Variants {
		tokens = append(tokens, e.create(`{"variant":"` + v + `"}`).tokens["spectator"])
	}
	p := newPage(t, "spectator")
	p.open(e.hs.URL + "/g/" + tokens[0])
	list, _ := json.Marshal(tokens)
	type drawn struct {
		Variant              string
		Squares, WantSquares int
		Pieces, WantPieces   int
		Width, Height, W, H  float64
	}
	got := eval[[]drawn](p, `(async () => {
		const { Board } = await import('/assets/board.js');
		const out = [];
		for (const tok of `+string(list)+`) {
			const s = await (await fetch('/api/g/' + tok)).json();
			const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
			document.body.append(svg);
			const b = new Board(svg, { onSquare() {}, onDrag() {} });
			b.setGeometry(s.geometry);
			b.set({ pieces: s.state.board.pieces });
			const vb = svg.viewBox.baseVal;
			out.push({ Variant: s.variant, Squares: svg.querySelectorAll('g.squares > g').length, WantSquares: s.geometry.squares.length,
				Pieces: svg.querySelectorAll('g.piece').length, WantPieces: s.state.board.pieces.length,
				Width: vb.width / 100, Height: vb.height / 100, W: s.geometry.width, H: s.geometry.height });
			svg.remove();
		}
		return out;
	})()`)
	if len(got) != len(info.Variants) {
		t.Fatalf("drew %d boards for %d variants", len(got), len(info.Variants))
	}
	for _, d := range got {
		if d.Squares != d.WantSquares || d.Pieces != d.WantPieces || d.Pieces == 0 || d.Width != d.W || d.Height != d.H {
			t.Errorf("%s: drew %d of %d squares, %d of %d pieces, a %vx%v board for %vx%v", d.Variant, d.Squares, d.WantSquares, d.Pieces, d.WantPieces, d.Width, d.Height, d.W, d.H)
		}
	}
}

// TestBrowserFlag watches a clock run down in the page and the flag fall on
// the server's clock, with the absent opponent shown as away.
func TestBrowserFlag(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"english","time_control":"3"}`)
	black := newPage(t, "black")
	black.open(g.links["black"])
	black.wait("White, who never opened the link, shown away (and Black not)", `!document.querySelector('.player-white .away').hidden && document.querySelector('.player-black .away').hidden`)
	// The clocks start with the first move; then White's runs out.
	black.click("11")
	black.click("15")
	black.waitMoves(1)
	black.wait("White's clock ticks in the page", `document.querySelector('.player-white .clock.running') && document.querySelector('.player-white .clock').textContent < '0:02.9'`)
	black.wait("the flag falls", `!document.getElementById('banner').hidden`)
	if st := eval[string](black, `arbiterGame.state.result + ' ' + arbiterGame.state.termination`); st != "0-1 time forfeit" {
		t.Errorf("after the flag: %q", st)
	}
	if clk := eval[string](black, `document.querySelector('.player-white .clock').textContent`); clk != "0:00.0" {
		t.Errorf("White's clock shows %q after the flag", clk)
	}
}

// TestEveryBrowserTestRunsBeside reads the package's tests: each top-level
// test that opens a page (newPage, directly or through a helper) begins
// with browserTest, so that it runs beside the others.
func TestEveryBrowserTestRunsBeside(t *testing.T) {
	browser.CheckTestsBegin(t, "browserTest", "newPage")
}
