package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/draughts-arbiter/arbiter/internal/browser"
	"github.com/draughts-arbiter/arbiter/match/people/director"
)

// shot sizes the viewport to w×h, asserts that nothing overflows
// sideways, scrolls sel (if any) to the top and takes a picture of it
// (p.picture).
func (p *page) shot(name string, w, h int64, sel string) {
	p.t.Helper()
	p.do("viewport", chromedp.EmulateViewport(w, h))
	p.wait("the layout settles", `innerWidth === `+fmt.Sprint(w))
	scroll := `scrollTo(0, 0)`
	if sel != "" {
		scroll = `document.querySelector(` + jsString(sel) + `).scrollIntoView()`
	}
	wide := eval[float64](p, `new Promise(ok => { `+scroll+`; requestAnimationFrame(() => requestAnimationFrame(() => ok(document.scrollingElement.scrollWidth))); })`)
	if wide > float64(w) {
		p.t.Errorf("%s at %dx%d: the page is %v px wide", name, w, h, wide)
	}
	p.picture(name, chromedp.CaptureScreenshot())
}

// picture takes a picture of the page by capture as name.png (see
// browser.Keep: only when ARBITER_ARTIFACTS asks for pictures).
func (p *page) picture(name string, capture chromedp.Action[[]byte]) {
	p.t.Helper()
	browser.Keep(p.t, "web/"+name+".png", func() ([]byte, error) {
		ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
		defer cancel()
		return chromedp.Run(ctx, capture)
	})
}

// follow opens the link sel as a click would (navigating to its href:
// a click's navigation may tear down the page under the next poll).
func follow(p *page, sel string) {
	p.t.Helper()
	href := eval[string](p, `document.querySelector(`+jsString(sel)+`).href`)
	if href == "" {
		p.t.Fatalf("%s: no link %s", p.name, sel)
	}
	p.do("follow "+sel, chromedp.Navigate(href))
}

func jsString(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// text is the text of the first element matching sel ("" if none).
func text(p *page, sel string) string {
	return eval[string](p, `(document.querySelector(`+jsString(sel)+`) || {textContent: ''}).textContent`)
}

// TestBrowserPlayersAtBoards: a six-player Swiss run with the players at
// the boards, in headless Chromium, as its director and players use it.
// Check-in: the director prints the check-in links; one player checks in
// from a phone-size page by their link, four at the tablet page; the
// director gives the sixth, absent, a zero-point bye with one click and
// pairs round 1 without them. Results: from the printed pairing sheet's
// links, board 1's two players report 1-0 from two 390 px pages and it is
// recorded; board 2's disagree, the director's page flags it and the
// director settles it with one click. Round 2: the live boards page shows
// the online game's position moving and a result coming in. Screenshots of
// every page at 390 and 1366 px.
func TestBrowserPlayersAtBoards(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	tok, id := e.createEvent(`{"name":"Fjord Open","site":"Bergen","rounds":3}`)
	if resp, b := e.do("POST", "/api/d/"+tok+"/import", sixPlayers, "Content-Type", "text/csv"); resp.StatusCode != http.StatusOK {
		t.Fatalf("import: %d %s", resp.StatusCode, b)
	}

	// The director opens the check-in links sheet from the page.
	d := newPage(t, "director")
	d.do("viewport", chromedp.EmulateViewport(1366, 900))
	d.do("open the director's page", chromedp.Navigate(e.hs.URL+"/d/"+tok))
	d.wait("the panel", `window.arbiterDirector && arbiterDirector.ready && !document.getElementById('at-boards').hidden && document.getElementById('atb-checkin-links')`)
	if got := text(d, "#atb-checkin-title"); got != "Check-in for round 1" {
		t.Errorf("the check-in heading says %q", got)
	}
	if got := text(d, "#atb-count"); got != "0 of 6 players checked in." {
		t.Errorf("the count says %q", got)
	}
	follow(d, "#atb-checkin-links")
	d.wait("the check-in sheet", `document.querySelectorAll('.slip').length === 7 && document.querySelector('#tablet-slip svg.qr')`)
	d.shot("checkin-links-1366", 1366, 900, "")
	d.shot("checkin-links-390", 390, 844, "")
	tablet := text(d, "#tablet-slip .url")
	annaLink := eval[string](d, `[...document.querySelectorAll('.slip')].find(s => s.textContent.includes('Anna Berg')).querySelector('.url').textContent`)
	if !strings.Contains(tablet, "/c/") || !strings.Contains(annaLink, "/c/") || tablet == annaLink {
		t.Fatalf("links on the sheet: tablet %q, Anna %q", tablet, annaLink)
	}

	// Anna checks in from her phone.
	anna := newPage(t, "anna-checkin")
	anna.do("phone", chromedp.EmulateViewport(390, 844))
	anna.do("open Anna's link", chromedp.Navigate(annaLink))
	anna.wait("her page", `!document.getElementById('checkin').hidden && !document.getElementById('here').hidden`)
	anna.shot("checkin-player-before-390", 390, 844, "")
	anna.do("I am here", chromedp.Click(chromedp.CSS("#here")))
	anna.wait("checked in", `document.getElementById('status').classList.contains('ok')`)
	if got := text(anna, "#status"); got != "Anna Berg is checked in for round 1." {
		t.Errorf("Anna's page says %q", got)
	}
	anna.shot("checkin-player-390", 390, 844, "")
	anna.shot("checkin-player-1366", 1366, 900, "")

	// Four more at the tablet; Fie Gram does not come.
	tab := newPage(t, "tablet")
	tab.do("tablet size", chromedp.EmulateViewport(1366, 900))
	tab.do("open the tablet", chromedp.Navigate(tablet))
	tab.wait("the list", `document.querySelectorAll('#arrivals li').length === 6`)
	search := func(q string) { // typing into the search box
		eval[bool](tab, `(f => { f.value = `+jsString(q)+`; return f.dispatchEvent(new Event('input')); })(document.getElementById('filter'))`)
	}
	for _, name := range []string{"Bo Dahl", "Cas de Vries", "Dina Eng", "Erik Fjell"} {
		search(strings.Split(name, " ")[0])
		tab.wait("one name", `document.querySelectorAll('#arrivals li').length === 1`)
		tab.do(name+" is here", chromedp.Click(chromedp.CSS("#arrivals li button")))
		tab.wait(name+" checked in", `document.getElementById('status').textContent.includes(`+jsString(name)+`)`)
	}
	search("")
	tab.wait("the whole list", `document.querySelectorAll('#arrivals li').length === 6 && document.querySelectorAll('#arrivals li.in').length === 5`)
	tab.shot("checkin-tablet-1366", 1366, 900, "")
	tab.shot("checkin-tablet-390", 390, 844, "")

	// The director: five of six; one click gives Fie the zero bye; pair.
	d.do("back to the director's page", chromedp.Navigate(e.hs.URL+"/d/"+tok))
	d.wait("the count", `document.getElementById('atb-count') && document.getElementById('atb-count').textContent === '5 of 6 players checked in. Not yet: Fie Gram (6).'`)
	if got := text(d, "#atb-absent-byes"); got != "Zero-point bye for the 1 not checked in" {
		t.Errorf("the bye button says %q", got)
	}
	d.shot("director-checkin-1366", 1366, 900, "#at-boards")
	d.shot("director-checkin-390", 390, 844, "#at-boards")
	d.do("zero bye for the absent", chromedp.Click(chromedp.CSS("#atb-absent-byes")))
	d.wait("the bye", `arbiterDirector.view.audit.some(a => a.action === 'bye' && a.detail.includes('Fie Gram'))`)
	if got := eval[string](d, `[...document.querySelectorAll('#atb-arrivals li')].find(li => li.textContent.includes('Fie Gram')).querySelector('.help').textContent`); !strings.HasPrefix(got, "not checked in: zero-point bye") {
		t.Errorf("the panel says of Fie Gram %q", got)
	}
	if !eval[bool](d, `document.getElementById('atb-absent-byes').disabled`) {
		t.Error("the bye button is still on with nobody left to give it")
	}
	d.do("pair round 1", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("round 1 paired", `(arbiterDirector.view.rounds || []).length === 1`)
	if n := eval[int](d, `arbiterDirector.view.rounds[0].boards.length`); n != 2 {
		t.Fatalf("round 1 has %d boards, want 2 (five players)", n)
	}
	if eval[bool](d, `arbiterDirector.view.rounds[0].boards.some(b => [b.white, b.black].includes(arbiterDirector.view.players.find(p => p.name === 'Fie Gram').id))`) {
		t.Fatal("the absent player is paired")
	}
	d.do("publish round 1", chromedp.Click(chromedp.CSS("#publish")))
	d.wait("the sheet link", `arbiterDirector.view.rounds[0].state === 'published' && document.getElementById('atb-sheet')`)
	// The director reached the server on loopback: the page says, before
	// the sheet is printed, that phones cannot open its links, and how to
	// serve the club's network.
	if got := eval[string](d, `(document.getElementById('atb-local') || {}).textContent || ''`); !strings.Contains(got, "127.0.0.1, which players' phones cannot reach") ||
		!strings.Contains(got, "“arbiter serve --addr :8080”") {
		t.Errorf("no notice that the links open on this computer only: %q", got)
	}
	d.shot("director-local-links-390", 390, 844, "#at-boards")

	// The pairing sheet with result links. Board 1's White has a name
	// long enough to take two lines on a slip.
	ev := e.view(tok)
	longName := ev.Players[slices.IndexFunc(ev.Players, func(p director.Player) bool { return p.ID == ev.Rounds[0].Boards[0].White })]
	longName.Name = "Cornelis van den Hoogenband-Ruys"
	edit, _ := json.Marshal(map[string]any{"player": longName.ID, "edit": longName})
	e.op(tok, "edit-player", string(edit), 200)
	follow(d, "#atb-sheet")
	d.wait("two boards' slips", `document.querySelectorAll('.slip').length === 2 && document.querySelectorAll('.slip svg.qr').length === 4 &&
		document.querySelector('.slip[data-board="1"] .name').textContent.startsWith('Cornelis')`)
	// The sheet says too that its links open on this computer only; the
	// notice is for the screen, not the paper.
	if got := eval[string](d, `document.getElementById('local').hidden ? '' : document.getElementById('local').textContent`); !strings.Contains(got, "which players' phones cannot reach") {
		t.Errorf("the sheet does not say its links open on this computer only: %q", got)
	}
	d.shot("result-links-1366", 1366, 900, "")
	d.slipsAligned("result-links-1366")
	d.shot("result-links-390", 390, 844, "")
	d.slipsAligned("result-links-390")
	// On paper: A4 portrait less its margins (190 mm, 718 px), print media.
	d.do("print media", printMedia("print"), chromedp.EmulateViewport(718, 1000))
	d.wait("the print layout", `innerWidth === 718 && matchMedia('print').matches`)
	d.slipsAligned("result-links-print")
	d.picture("result-links-print", chromedp.CaptureScreenshot())
	d.do("screen media", printMedia(""))
	link := func(board int, side int) string {
		return eval[string](d, fmt.Sprintf(`document.querySelectorAll('.slip[data-board="%d"] .side')[%d].querySelector('.url').textContent`, board, side))
	}
	w1, b1, w2, b2 := link(1, 0), link(1, 1), link(2, 0), link(2, 1)

	phone := func(name, url string) *page {
		p := newPage(t, name)
		p.do("phone", chromedp.EmulateViewport(390, 844))
		p.do("open "+name, chromedp.Navigate(url))
		p.wait("the board", `!document.getElementById('report').hidden && document.querySelectorAll('#choices button').length === 3`)
		return p
	}
	send := func(p *page, outcome string) {
		p.do("choose "+outcome, chromedp.Click(chromedp.CSS(`#choices button[data-outcome="`+outcome+`"]`)))
		p.wait("send enabled", `!document.getElementById('send').disabled`)
		p.do("send", chromedp.Click(chromedp.CSS("#send")))
	}

	// Board 1: both say White won.
	pw1 := phone("board1-white", w1)
	pw1.shot("report-empty-390", 390, 844, "")
	send(pw1, "1-0")
	pw1.wait("waiting", `document.getElementById('status').textContent.startsWith('You reported White won')`)
	pw1.shot("report-waiting-390", 390, 844, "")
	pb1 := phone("board1-black", b1)
	if got := text(pb1, "#status"); !strings.HasPrefix(got, "Your opponent reported White won (2-0)") {
		t.Errorf("Black's page before reporting says %q", got)
	}
	send(pb1, "1-0")
	pb1.wait("recorded", `document.getElementById('status').classList.contains('ok')`)
	if got := text(pb1, "#status"); got != "Recorded: White won (2-0). Both players agree." {
		t.Errorf("board 1 after agreeing: %q", got)
	}
	pb1.shot("report-agreed-390", 390, 844, "")
	pb1.shot("report-agreed-1366", 1366, 900, "")

	// Board 2: they disagree; the director settles it.
	pw2 := phone("board2-white", w2)
	send(pw2, "=-=")
	pw2.wait("waiting", `document.getElementById('status').textContent.startsWith('You reported Draw')`)
	pb2 := phone("board2-black", b2)
	send(pb2, "0-1")
	pb2.wait("disputed", `document.getElementById('status').classList.contains('warn')`)
	if got := text(pb2, "#status"); !strings.HasPrefix(got, "You reported Black won (0-2), your opponent Draw (1-1). The director") {
		t.Errorf("board 2's disagreement: %q", got)
	}
	pb2.shot("report-disputed-390", 390, 844, "")
	pb2.shot("report-disputed-1366", 1366, 900, "")
	d.do("back to the director's page", chromedp.Navigate(e.hs.URL+"/d/"+tok))
	d.wait("the flag", `document.querySelector('#atb-reports tr.disputed[data-board="2"] .atb-flag') && document.querySelector('#atb-disputes p[data-board="2"]')`)
	// The row's "The players disagree:" is followed by what to do: the
	// buttons that record either word (it once ended at the colon).
	if got := eval[string](d, `[...document.querySelectorAll('#atb-reports tr.disputed[data-board="2"] button')].map(b => b.textContent).join('|')`); got != "Record 1-1|Record 0-2" {
		t.Errorf("the disputed row's buttons read %q", got)
	}
	if got := text(d, `#atb-disputes p[data-board="2"] .atb-flag`); got != "Board 2, Erik Fjell (4) – Anna Berg (2): White says Draw, Black says Black won." {
		t.Errorf("the director's flag says %q", got)
	}
	if got := text(d, `#atb-reports tr[data-board="1"] td:last-child`); got != "recorded: 2-0" {
		t.Errorf("board 1 in the director's panel: %q", got)
	}
	d.shot("director-disputed-1366", 1366, 900, "#at-boards")
	d.shot("director-disputed-390", 390, 844, "#at-boards")
	d.do("settle: a draw", chromedp.Click(chromedp.CSS(`#atb-disputes p[data-board="2"] button[data-outcome="=-="]`)))
	d.wait("settled", `arbiterDirector.view.results['1.2'] && arbiterDirector.view.results['1.2'].label === '1-1' && !document.querySelector('#atb-reports tr.disputed')`)
	pb2.do("reload", chromedp.Reload())
	pb2.wait("the director's result", `document.getElementById('status').classList.contains('ok')`)
	if got := text(pb2, "#status"); got != "Recorded by the director: 1-1." {
		t.Errorf("board 2 after the director decided: %q", got)
	}
	pb2.shot("report-settled-390", 390, 844, "")

	// Round 2, with board 1 played online: the live boards page.
	d.do("close round 1", chromedp.Click(chromedp.CSS("#close")))
	d.wait("closed", `arbiterDirector.view.rounds[0].state === 'closed'`)
	d.do("pair round 2", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("round 2 paired", `(arbiterDirector.view.rounds || []).length === 2`)
	d.do("publish round 2", chromedp.Click(chromedp.CSS("#publish")))
	d.wait("published", `arbiterDirector.view.rounds[1].state === 'published'`)
	v, _ := e.op(tok, "game", `{"round":2,"board":1}`, http.StatusOK)
	// From the public pairing sheet to the live boards page.
	live := newPage(t, "live-boards")
	live.do("wide", chromedp.EmulateViewport(1366, 900))
	live.do("open the public pairings", chromedp.Navigate(e.hs.URL+"/e/"+id))
	live.wait("the link to the live boards", `document.querySelector('a[href$="/round/2/boards"]')`)
	follow(live, `a[href$="/round/2/boards"]`)
	live.wait("three boards, one drawn", `document.querySelectorAll('.live-board').length === 3 && document.querySelectorAll('.live-board svg.board').length === 1 &&
		document.querySelectorAll('.live-board[data-board="1"] svg.board circle, .live-board[data-board="1"] svg.board use, .live-board[data-board="1"] svg.board g').length > 0`)
	pieces := `document.querySelector('.live-board[data-board="1"] svg.board').innerHTML`
	before := eval[string](live, pieces)
	white := secretOf(v.Links["2.1"]["white"])
	if code, body := e.act(white, `{"kind":"move","move":"32-28"}`); code != http.StatusOK {
		t.Fatalf("32-28: %d %s", code, body)
	}
	live.wait("the move drawn", `document.querySelector('.live-board[data-board="1"] svg.board').innerHTML !== `+jsString(before)+` && document.querySelector('.live-board[data-board="1"] .pl-black').classList.contains('to-move')`)
	// Board 2's players agree from their links; the result comes in.
	var rl reportLinksView
	e.getJSON("/api/d/"+tok+"/round/2/links", &rl)
	for _, l := range []string{rl.Boards[1].White.Link, rl.Boards[1].Black.Link} {
		if resp, b := e.do("POST", "/api/r/"+secretOf(l), `{"outcome":"0-1"}`); resp.StatusCode != http.StatusOK {
			t.Fatalf("report: %d %s", resp.StatusCode, b)
		}
	}
	live.wait("board 2's result", `document.querySelector('.live-board[data-board="2"] .res').textContent === '0-2' && document.getElementById('progress').textContent === '1 of 3 results in.'`)
	live.shot("live-boards-1366", 1366, 900, "")
	live.shot("live-boards-390", 390, 844, "")
	if got := eval[int](live, `document.querySelectorAll('#rounds a[aria-current=page]').length`); got != 1 {
		t.Errorf("the round navigation marks %d rounds current", got)
	}
}

// printMedia emulates a CSS media type ("print"; "" for the screen again).
func printMedia(media string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media})
		return err
	})
}

// slipsAligned asserts that on each result slip the two players' QR codes
// sit at one height, though one name takes two lines (a name on the sheet
// must), and that everything on a slip lies inside the slip and each slip
// inside the sheet's width.
func (p *page) slipsAligned(name string) {
	p.t.Helper()
	got := eval[struct {
		Wrapped  int
		Problems []string
	}](p, `new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(() => {
		const out = {Wrapped: 0, Problems: []}, sheet = document.getElementById('slips').getBoundingClientRect();
		for (const slip of document.querySelectorAll('.slip')) {
			const s = slip.getBoundingClientRect(), b = slip.dataset.board;
			if (s.left < sheet.left - .5 || s.right > sheet.right + .5) out.Problems.push('slip ' + b + ' outside the sheet');
			for (const n of slip.querySelectorAll('.name')) {
				if (n.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(n).lineHeight || '16')) out.Wrapped++;
			}
			const tops = [...slip.querySelectorAll('svg.qr')].map(q => Math.round(q.getBoundingClientRect().top));
			if (new Set(tops).size > 1) out.Problems.push('board ' + b + "'s QR codes at " + tops.join(' and ') + ' px');
			for (const c of slip.querySelectorAll('h2, .side, .side > *, svg.qr')) {
				const r = c.getBoundingClientRect();
				if (r.left < s.left - .5 || r.right > s.right + .5 || r.top < s.top - .5 || r.bottom > s.bottom + .5) {
					out.Problems.push('board ' + b + ': ' + (c.className.baseVal ?? c.className) + ' outside its slip');
				}
			}
		}
		ok(out);
	})))`)
	if got.Wrapped == 0 {
		p.t.Errorf("%s: no player's name takes two lines: the alignment is not tested", name)
	}
	if len(got.Problems) > 0 {
		p.t.Errorf("%s: %s", name, strings.Join(got.Problems, "; "))
	}
}
