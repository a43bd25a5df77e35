package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

// TestBrowserDirector: the director creates a six-player Swiss on its
// page, imports the players from CSV, pairs and publishes round 1 and
// makes online games for boards 1 and 2. Board 1 is played in two browser
// tabs through its links (moves by mouse, Black resigns with the button),
// board 2 through the players' link API (a move each, a draw agreed);
// board 3 is entered by hand. The results of the games reach their boards
// by themselves. Before round 1 the public pairings and standings say
// that nothing is published or closed yet; with its results in but round
// 1 open, the cards show them pending. Round 1 is closed, round 2 paired
// and published; the standings and the TRF export follow; screenshots at
// 360 and 1400 px; the PDN of the online games is linked once there is
// one. Last, an English event's page prints its standings'
// points in halves as the server formats them, and once its last round is
// closed, says that the standings are final and what is left to do.
func TestBrowserDirector(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)

	d := newPage(t, "director")
	d.do("open the create page", chromedp.Navigate(e.hs.URL+"/director"))
	d.wait("the variants load", `document.querySelector('#ev-variant option[value="international"]')`)
	d.do("fill in the event",
		chromedp.SetValue(chromedp.CSS("#ev-name"), "Browser Open"),
		chromedp.SetValue(chromedp.CSS("#ev-site"), "Bergen"),
		chromedp.SetValue(chromedp.CSS("#ev-rounds"), "3"),
		chromedp.SetValue(chromedp.CSS("#ev-tc"), "900+10"),
		chromedp.Click(chromedp.CSS("#event-create")))
	d.wait("the director's page opens", `location.pathname.startsWith('/d/') && window.arbiterDirector && arbiterDirector.ready`)
	token := strings.TrimPrefix(eval[string](d, `location.pathname`), "/d/")
	// The new event's link is shown to keep; the director says it is kept.
	d.wait("the link to keep", `document.getElementById('keep-box').open && arbiterDirector.guarded`)
	d.do("the link is kept", chromedp.Click(chromedp.CSS("#keep-done")))
	d.wait("no more guard", `!arbiterDirector.guarded && location.hash === ''`)
	if eval[string](d, `document.getElementById('ev-title').textContent`) != "Browser Open" {
		t.Fatal("the page does not show the event's name")
	}

	// A bad CSV is refused with its line; the good one imports six.
	d.do("import a bad CSV", chromedp.SetValue(chromedp.CSS("#import-text"), "name,rating\nAnna,lots\n"), chromedp.Click(chromedp.CSS("#import")))
	d.wait("the CSV error", `!document.getElementById('dir-error').hidden`)
	if msg := eval[string](d, `document.getElementById('dir-error').textContent`); !strings.Contains(msg, "line 2") {
		t.Errorf("the CSV error says %q", msg)
	}
	d.do("import six players", chromedp.SetValue(chromedp.CSS("#import-text"), sixPlayers), chromedp.Click(chromedp.CSS("#import")))
	d.wait("six players", `document.querySelectorAll('#players tbody tr').length === 6 && document.getElementById('dir-error').hidden`)
	// On a phone every player's actions are in view, no sideways scrolling.
	d.playersReachable("director-players-390", 390, 844)
	d.do("back to the desktop", chromedp.EmulateViewport(1366, 900))

	// Before round 1 the public pages answer with the event and a line
	// saying what is missing (they were a 500 once).
	early := newPage(t, "public-early")
	pubURL := e.view(token).Public
	for _, c := range []struct{ path, shot, text string }{
		{"", "public-none", "No round has been published yet."},
		{"/standings", "standings-none", "No round has been closed yet: standings appear when round 1 is closed."},
	} {
		early.do("open "+c.shot, chromedp.Navigate(pubURL+c.path))
		early.wait(c.shot+"'s notice", `document.querySelector('p.notice') && document.querySelector('h1').textContent === 'Browser Open'`)
		if got := eval[string](early, `document.querySelector('p.notice').textContent`); got != c.text {
			t.Errorf("%s says %q, want %q", c.shot, got, c.text)
		}
		early.checkLayout(c.shot+"-360", 360, 800)
		early.checkLayout(c.shot+"-1400", 1400, 900)
		// No game is played online yet: no link to a PDN that would be empty.
		if eval[bool](early, `[...document.querySelectorAll('a')].some(a => a.textContent === 'PDN')`) {
			t.Errorf("%s links the PDN of the online games before there is one", c.shot)
		}
	}
	if eval[bool](d, `!!document.getElementById('link-pdn')`) {
		t.Error("the director's page links the PDN of the online games before there is one")
	}

	// A player withdrawn by mistake is reinstated.
	d.do("withdraw player 6", chromedp.Click(chromedp.CSS("#withdraw-6")))
	d.wait("player 6 withdrawn", `document.getElementById('reinstate-6') && arbiterDirector.view.players.find(p => p.id === 6).withdrawn === 1`)
	d.do("reinstate player 6", chromedp.Click(chromedp.CSS("#reinstate-6")))
	d.wait("player 6 back", `document.getElementById('withdraw-6') && !arbiterDirector.view.players.find(p => p.id === 6).withdrawn &&
		arbiterDirector.view.audit.some(a => a.action === 'reinstate')`)

	// The event's details: an empty name is refused naming the field; then
	// the new name, site, first day and time control are saved.
	d.do("open the details", chromedp.Click(chromedp.CSS("#edit-box summary")))
	d.wait("the details filled in", `document.getElementById('edit-name').value === 'Browser Open' && document.getElementById('edit-tc').value === '900+10'`)
	d.do("an empty name", chromedp.SetValue(chromedp.CSS("#edit-name"), " "), chromedp.Click(chromedp.CSS("#edit-save")))
	d.wait("the refusal", `!document.getElementById('dir-error').hidden`)
	if msg := eval[string](d, `document.getElementById('dir-error').textContent`); !strings.Contains(msg, "name") {
		t.Errorf("the empty name's refusal says %q", msg)
	}
	d.do("new details",
		chromedp.SetValue(chromedp.CSS("#edit-name"), "Browser Open 2026"),
		chromedp.SetValue(chromedp.CSS("#edit-site"), "Bergen, Norway"),
		chromedp.SetValue(chromedp.CSS("#edit-start"), "2026-06-01"),
		chromedp.SetValue(chromedp.CSS("#edit-tc"), "1800+30"),
		chromedp.Click(chromedp.CSS("#edit-save")))
	d.wait("the details saved", `document.getElementById('ev-title').textContent === 'Browser Open 2026' && document.getElementById('dir-error').hidden &&
		document.getElementById('ev-facts').textContent.includes('Bergen, Norway') && document.getElementById('ev-facts').textContent.includes('1800+30') &&
		arbiterDirector.view.audit.some(a => a.action === 'edit')`)

	d.do("pair round 1", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("round 1 paired", `(arbiterDirector.view.rounds || []).length === 1 && document.querySelectorAll('#boards tbody tr').length === 3`)
	d.do("publish", chromedp.Click(chromedp.CSS("#publish")))
	d.wait("round 1 published", `arbiterDirector.view.rounds[0].state === 'published' && document.getElementById('r1b1-game')`)
	d.do("board 1 online", chromedp.Click(chromedp.CSS("#r1b1-game")))
	d.wait("board 1's links", `document.querySelector('#r1b1-online a.link-white') && !arbiterDirector.busy`)
	d.wait("the PDN's link", `document.getElementById('link-pdn')`)
	d.do("board 2 online", chromedp.Click(chromedp.CSS("#r1b2-game")))
	d.wait("board 2's links", `document.querySelector('#r1b2-online a.link-black')`)
	link := func(board int, role string) string {
		return eval[string](d, fmt.Sprintf(`document.querySelector('#r1b%d-online a.link-%s').href`, board, role))
	}

	// Board 1 in the browser: a move each by mouse, then Black resigns.
	white, black := newPage(t, "white"), newPage(t, "black")
	white.open(link(1, "white"))
	black.open(link(1, "black"))
	white.click("32")
	white.click("28")
	black.waitMoves(1)
	black.click("19")
	black.click("23")
	white.waitMoves(2)
	black.do("resign", chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#resign-yes")))
	white.wait("the game is over", `!document.getElementById('banner').hidden && arbiterGame.state.status === 'over'`)

	// Board 2 through the link API: a move each, a draw agreed.
	tokenOf := func(l string) string { return l[strings.LastIndex(l, "/g/")+3:] }
	w2, b2 := tokenOf(link(2, "white")), tokenOf(link(2, "black"))
	for _, step := range []struct{ tok, intent string }{
		{w2, `{"kind":"move","move":"31-27"}`}, {b2, `{"kind":"move","move":"20-24"}`},
		{w2, `{"kind":"offer"}`}, {b2, `{"kind":"accept"}`},
	} {
		if code, body := e.act(step.tok, step.intent); code != http.StatusOK {
			t.Fatalf("board 2 %s: %d %s", step.intent, code, body)
		}
	}
	var bs []director.Board
	waitUntil(t, "the games' results reach their boards", func() bool {
		bs = e.view(token).Rounds[0].Boards
		return bs[0].Done() && bs[1].Done()
	})
	if bs[0].Score() != "1-0" || bs[1].Score() != "=-=" || bs[0].Source != "online" {
		t.Fatalf("boards from their games: %+v", bs)
	}

	// Board 3 by hand; then the round closes and round 2 is paired.
	// The page looks again by itself and shows the games' results.
	d.wait("the games' results shown", `document.getElementById('r1b1-result-cell').dataset.result === '1-0' &&
		document.getElementById('r1b2-result-cell').dataset.result === '=-='`)
	// Round 1 is open: the standings count its two results so far and say so.
	d.wait("provisional standings", `document.getElementById('standings-note').textContent.startsWith('Provisional standings after round 1 (2 of 3 results in)') &&
		document.getElementById('standings-box').classList.contains('provisional')`)
	if got := eval[string](d, `[...document.querySelectorAll('#standings tbody tr td:nth-child(3)')].map(x => x.textContent).join(',')`); got != "2,1,1,0,0,0" {
		t.Errorf("provisional points %q, want the winner's 2 and the draw's 1 and 1", got)
	}
	// The page writes results as the event (FMJD, 2-1-0) does, from the
	// server's labels: 2-0 and 1-1, not 1-0 and ½-½.
	if got := eval[string](d, `[...document.querySelectorAll('#r1b3-result option')].map(o => o.textContent).join('|')`); got != "…|2-0|0-2|1-1|2-0 by forfeit|0-2 by forfeit|0-0 by forfeit" {
		t.Errorf("the result menu reads %q", got)
	}
	if got := eval[string](d, `document.getElementById('r1b2-result-cell').dataset.label`); got != "1-1" {
		t.Errorf("board 2's draw is labelled %q", got)
	}
	// Closing with board 3 still open is refused with what to do.
	d.do("close too early", chromedp.Click(chromedp.CSS("#close")))
	d.wait("the refusal", `!document.getElementById('dir-error').hidden`)
	if got := eval[string](d, `document.getElementById('dir-error').textContent`); got != "Round 1 cannot be closed: board 3 has no result yet. Enter its result, then close the round." {
		t.Errorf("closing too early says %q", got)
	}
	d.do("board 3's result", chromedp.SetValue(chromedp.CSS("#r1b3-result"), "0-1"), chromedp.Click(chromedp.CSS("#r1b3-save")))
	d.wait("board 3 saved", `document.getElementById('r1b3-result-cell').dataset.result === '0-1'`)
	if !eval[bool](d, `arbiterDirector.view.audit.some(a => a.action === 'result' && a.detail === 'round 1 board 3: 0-2 (director)')`) {
		t.Error("the audit log does not write board 3's result as 0-2")
	}
	d.wait("3 of 3 in", `document.getElementById('standings-note').textContent.includes('(3 of 3 results in)')`)
	// Every result is in but round 1 is open: the public cards list its
	// games pending, outside their totals, and there is no crosstable yet.
	early.do("open the cards", chromedp.Navigate(pubURL+"/cards"))
	early.wait("six cards", `document.querySelectorAll('section.card').length === 6`)
	if got := eval[string](early, `[...document.querySelectorAll('.card-table tbody td.res')].map(x => x.textContent).join(',') + '|' +
		[...document.querySelectorAll('.card-table td.total')].map(x => x.textContent).join(',')`); got != "…,…,…,…,…,…|0,0,0,0,0,0" {
		t.Errorf("the cards of the open round read %q", got)
	}
	early.checkLayout("cards-open-360", 360, 800)
	early.checkLayout("cards-open-1400", 1400, 900)
	early.do("open the crosstable", chromedp.Navigate(pubURL+"/crosstable"))
	early.wait("the crosstable's notice", `document.querySelector('p.notice') && document.querySelector('p.notice').textContent.startsWith('No round has been closed yet')`)
	d.do("close round 1", chromedp.Click(chromedp.CSS("#close")))
	d.wait("round 1 closed", `arbiterDirector.view.rounds[0].state === 'closed' && !document.getElementById('pair').hidden`)
	d.wait("final standings", `document.getElementById('standings-note').textContent === 'After round 1.' &&
		!document.getElementById('standings-box').classList.contains('provisional')`)
	d.do("pair round 2", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("round 2 paired", `(arbiterDirector.view.rounds || []).length === 2 && document.querySelectorAll('#boards tbody tr').length === 3`)
	d.do("swap board 1's colours", chromedp.Click(chromedp.CSS("#r2b1-swap")))
	d.wait("the swap in the audit log", `arbiterDirector.view.audit.some(a => a.action === 'fix')`)
	d.do("publish round 2", chromedp.Click(chromedp.CSS("#publish")))
	d.wait("round 2 published", `arbiterDirector.view.rounds[1].state === 'published'`)
	// No pairing in round 2 repeats round 1.
	v := e.view(token)
	met := map[[2]int]bool{}
	for _, b := range v.Rounds[0].Boards {
		met[[2]int{min(b.White, b.Black), max(b.White, b.Black)}] = true
	}
	for _, b := range v.Rounds[1].Boards {
		if met[[2]int{min(b.White, b.Black), max(b.White, b.Black)}] {
			t.Fatalf("round 2 repeats %d-%d", b.White, b.Black)
		}
	}
	if n := eval[int](d, `document.querySelectorAll('#standings tbody tr').length`); n != 6 {
		t.Fatalf("the standings show %d players", n)
	}
	d.checkLayout("director-360", 360, 800)
	d.playersReachable("director-players-360", 360, 800)
	d.checkLayout("director-1400", 1400, 900)

	// The public standings and the TRF export.
	pub := newPage(t, "public")
	pub.do("open the standings", chromedp.Navigate(v.Public+"/standings"))
	pub.wait("the standings", `document.body && document.body.textContent.includes('Browser Open') && document.body.textContent.includes('Anna Berg')`)
	if !eval[bool](pub, `[...document.querySelectorAll('a')].some(a => a.textContent === 'PDN' && a.getAttribute('href').endsWith('/pdn'))`) {
		t.Error("the public standings do not link the PDN of the games played online")
	}
	pub.checkLayout("standings-360", 360, 800)
	pub.checkLayout("standings-1400", 1400, 900)
	text := eval[string](pub, `fetch('/e/`+v.Event.ID+`/trf').then(r => r.text())`)
	ev, err := trf.Read(strings.NewReader(text))
	if err != nil {
		t.Fatalf("the TRF export: %v\n%s", err, text)
	}
	if len(ev.Players) != 6 || ev.Name != "Browser Open 2026" || ev.City != "Bergen, Norway" || ev.Rounds != 3 {
		t.Fatalf("TRF: %d players, %q, %d rounds", len(ev.Players), ev.Name, ev.Rounds)
	}
	points := 0
	for _, p := range ev.Players {
		if len(p.History) != 1 {
			t.Fatalf("TRF player %d has %d rounds (round 1 closed, round 2 open)", p.Number, len(p.History))
		}
		points += p.Points
	}
	if points != 60 { // three games of 2 points, in tenths
		t.Fatalf("TRF points %d, want 60", points)
	}

	// An English event's standings in halves (1-½-0): the page prints the
	// points the server formats (FormatScore), with none of its own.
	etok, _ := e.createEvent(`{"name":"English Open","variant":"english","half_points":true,"rounds":2}`)
	e.op(etok, "add-players", `{"players":[{"name":"A","rating":2000},{"name":"B","rating":1900},{"name":"C","rating":1800},{"name":"D","rating":1700},{"name":"E","rating":1600},{"name":"F","rating":1500}]}`, 200)
	e.op(etok, "pair", `{"round":1}`, 200)
	e.op(etok, "publish", `{"round":1}`, 200)
	for b, res := range []string{"1-0", "½-½", "-+"} {
		e.op(etok, "result", fmt.Sprintf(`{"round":1,"board":%d,"result":"%s"}`, b+1, res), 200)
	}
	d.do("open the English event", chromedp.Navigate(e.hs.URL+"/d/"+etok))
	d.wait("its standings", `window.arbiterDirector && arbiterDirector.ready && arbiterDirector.view.event.name === 'English Open' &&
		document.querySelectorAll('#standings tbody tr').length === 6`)
	if got := eval[string](d, `[...document.querySelectorAll('#standings tbody tr td:nth-child(3)')].map(x => x.textContent).join(',') + '|' +
		arbiterDirector.view.standings.map(s => s.points).join(',')`); got != "1,1,½,½,0,0|1,1,½,½,0,0" {
		t.Errorf("the English standings' points (page|view) %q, want 1,1,½,½,0,0 in both", got)
	}
	d.checkLayout("director-english-360", 360, 800)
	d.checkLayout("director-english-1400", 1400, 900)

	// The English event played to its end: the round's line says that the
	// standings are final and where the director finds what is left to do.
	e.op(etok, "close", `{"round":1}`, 200)
	e.op(etok, "pair", `{"round":2}`, 200)
	e.op(etok, "publish", `{"round":2}`, 200)
	for b := 1; b <= 3; b++ {
		e.op(etok, "result", fmt.Sprintf(`{"round":2,"board":%d,"result":"1-0"}`, b), 200)
	}
	e.op(etok, "close", `{"round":2}`, 200)
	d.do("look again", chromedp.Reload())
	d.wait("the event over", `window.arbiterDirector && arbiterDirector.ready && (arbiterDirector.view.rounds || []).length === 2 && document.getElementById('pair').hidden`)
	if got := eval[string](d, `document.getElementById('round-state').textContent`); got != "Closed. All 2 rounds are played: the standings below are final. Print them from the public pages above; for the federation, the TRF16 export above and the rating report (CSV) below." {
		t.Errorf("after the last round the page says %q", got)
	}
}

// playersReachable sizes the viewport to w×h and asserts what a director
// on a phone needs of the players' table: each control of every row (the
// seeding arrows, Edit, Withdraw, the bye, Remove) lies inside the
// viewport's width without scrolling the table or the page sideways, and
// is a target of about 40 px a finger can tap; a picture of the table.
func (p *page) playersReachable(name string, w, h int64) {
	p.t.Helper()
	p.do("viewport", chromedp.EmulateViewport(w, h))
	p.wait("the layout settles", `innerWidth === `+fmt.Sprint(w))
	bad := eval[[]string](p, `new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(() => {
		const out = [], box = document.getElementById('players').closest('.table-box');
		if (box.scrollWidth > box.clientWidth) out.push('the table scrolls sideways: ' + box.scrollWidth + ' px in ' + box.clientWidth);
		if (document.scrollingElement.scrollWidth > innerWidth) out.push('the page scrolls sideways: ' + document.scrollingElement.scrollWidth + ' px');
		for (const c of document.querySelectorAll('#players tbody button, #players tbody select')) {
			const r = c.getBoundingClientRect();
			if (r.left < 0 || r.right > innerWidth) out.push(c.id + ' at ' + Math.round(r.left) + '..' + Math.round(r.right) + ' px');
			if (r.width < 38 || r.height < 38) out.push(c.id + ' is ' + Math.round(r.width) + '×' + Math.round(r.height) + ' px');
		}
		ok(out);
	})))`)
	if len(bad) > 8 {
		bad = append(bad[:8], fmt.Sprintf("and %d more", len(bad)-8))
	}
	if len(bad) > 0 {
		p.t.Errorf("%s: the players' table at %d px: %s", name, w, strings.Join(bad, "; "))
	}
	p.picture(name, chromedp.Screenshot(chromedp.CSS("#players-box")))
}
