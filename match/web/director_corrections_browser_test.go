package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// fourteen are a 14-player Swiss's entries as a CSV: line 7 is Ingrid
// Hansen again (entered by the form first), the look-alike to refuse.
const fourteen = "name,club,federation,fed_id,rating,title\n" +
	"Anna Berg,DC Oslo,NOR,1001,2210,\n" +
	"Bo Dahl,DK Aarhus,DEN,2002,2150,\n" +
	"Cas de Vries,DC Utrecht,NED,3003,2300,MF\n" +
	"Dina Eng,DC Oslo,NOR,,1980,\n" +
	"Erik Fjell,DC Bergen,NOR,1005,2050,\n" +
	"Ingrid Hansen,Bergen SK,NOR,4711,1850,\n" +
	"Fie Gram,DK Odense,DEN,,1900,\n" +
	"Gus Holm,DC Bergen,NOR,1007,1870,\n" +
	"Hana Isaksen,DC Tromsø,NOR,1008,1830,\n" +
	"Ivo Jansen,DC Utrecht,NED,3009,2300,MI\n" +
	"Jon Kvam,DC Oslo,NOR,1010,1700,\n" +
	"Kari Lie,DC Bodø,NOR,1011,1650,\n" +
	"Per Olsen,Oslo DK,NOR,,1600,\n" +
	"Siv Moe,DC Bergen,NOR,1013,0,\n"

// TestBrowserDirectorCorrections follows a director through a 14-player
// Swiss on its pages: from the home page to /director and back; the
// event created, its link shown to keep (Copy, the guard before leaving,
// the printable card with its QR codes); a player typed in, a CSV with her
// look-alike refused naming line 7, fixed and imported; a look-alike typed
// in, refused, entered anyway and removed; every field of a player
// corrected before round 1 and the seeding changed by hand and back;
// round 1 played by clicks, a rating corrected after it (audited); a
// player withdrawn; rounds 2 and 3 paired; a result of round 1 corrected
// with round 3 published. The public pages then link
// every round's pairings and the standings after each round, leave the
// withdrawn player off round 3's absent list and the cards, print the
// round with its slips, and keep the crosstable's and the boards' tables
// scrolling in their own box at 390 px. Screenshots at 390 and 1366 px.
func TestBrowserDirectorCorrections(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)
	both := func(p *page, name string) {
		p.checkLayout(name+"-390", 390, 844)
		p.checkLayout(name+"-1366", 1366, 900)
	}
	// part saves a screenshot of one part of a page at a width (below the
	// first screen, which checkLayout shows).
	part := func(p *page, name, sel string, w int64) {
		p.do("viewport", chromedp.EmulateViewport(w, 900))
		p.wait("the layout settles", fmt.Sprintf(`innerWidth === %d`, w))
		p.picture(name, chromedp.Screenshot(chromedp.CSS(sel)))
	}

	d := newPage(t, "director")
	d.do("open the home page", chromedp.Navigate(e.hs.URL+"/"))
	d.wait("the link to the director's pages", `document.getElementById('to-director') && document.getElementById('to-director').textContent === 'Run an event (director)'`)
	both(d, "home")
	d.do("go to /director", chromedp.Click(chromedp.CSS("#to-director")))
	d.wait("the create page", `location.pathname === '/director' && document.querySelector('#ev-variant option[value="international"]')`)
	if href := eval[string](d, `document.getElementById('to-home').getAttribute('href')`); href != "/" {
		t.Errorf("the create page links back to %q", href)
	}
	both(d, "director-new")
	d.do("create the event",
		chromedp.SendKeys(chromedp.CSS("#ev-name"), "Bergen Open 2026"),
		chromedp.SendKeys(chromedp.CSS("#ev-site"), "Bergen"),
		chromedp.SetValue(chromedp.CSS("#ev-rounds"), "5"),
		chromedp.Click(chromedp.CSS("#event-create")))
	d.wait("the director's page with the link to keep", `location.pathname.startsWith('/d/') && window.arbiterDirector && arbiterDirector.ready &&
		document.getElementById('keep-box').open && !document.getElementById('keep-new').hidden`)
	token := strings.TrimPrefix(eval[string](d, `location.pathname`), "/d/")
	if got := eval[string](d, `document.getElementById('keep-link').value`); got != e.hs.URL+"/d/"+token {
		t.Fatalf("the link to keep reads %q", got)
	}
	leaving := `(() => { const ev = new Event('beforeunload', {cancelable: true}); dispatchEvent(ev); return ev.defaultPrevented; })()`
	if !eval[bool](d, leaving) {
		t.Error("leaving the new event's page does not ask first")
	}
	both(d, "director-created")
	d.do("copy the link", chromedp.Click(chromedp.CSS("#keep-copy")))
	d.wait("copied", `document.getElementById('keep-status').textContent === 'Copied.' && !arbiterDirector.guarded && location.hash === '' &&
		document.getElementById('keep-new').hidden`)
	if eval[bool](d, leaving) {
		t.Error("leaving still asks once the link is copied")
	}
	if href := eval[string](d, `document.getElementById('keep-card-link').getAttribute('href')`); href != "/d/"+token+"/card?lang=en" {
		t.Errorf("the card's link is %q", href)
	}
	card := newPage(t, "card")
	card.do("open the card", chromedp.Navigate(e.hs.URL+"/d/"+token+"/card"))
	card.wait("the card", `document.querySelectorAll('svg.qr path').length === 2 && document.getElementById('card-link').textContent === '`+e.hs.URL+"/d/"+token+`'`)
	both(card, "keep-card")

	// A player typed in, then the CSV with her look-alike on line 7.
	d.do("type a player",
		chromedp.SendKeys(chromedp.CSS("#add-name"), "Ingrid Hansen"), chromedp.SendKeys(chromedp.CSS("#add-club"), "Bergen SK"),
		chromedp.SendKeys(chromedp.CSS("#add-fed"), "NOR"), chromedp.SendKeys(chromedp.CSS("#add-fedid"), "4711"),
		chromedp.SendKeys(chromedp.CSS("#add-rating"), "1850"), chromedp.Click(chromedp.CSS("#add")))
	d.wait("one player", `document.querySelectorAll('#players tbody tr').length === 1 && document.getElementById('add-name').value === ''`)
	d.do("import the CSV", chromedp.SetValue(chromedp.CSS("#import-text"), fourteen), chromedp.Click(chromedp.CSS("#import")))
	d.wait("the look-alike refused", `!document.getElementById('dir-error').hidden && !document.getElementById('confirm-anyway').hidden`)
	if msg := eval[string](d, `document.getElementById('dir-error').textContent`); !strings.HasPrefix(msg, "CSV line 7: Ingrid Hansen looks like Ingrid Hansen (Bergen SK, NOR 4711)") {
		t.Errorf("the refusal says %q", msg)
	}
	if n := eval[int](d, `document.querySelectorAll('#players tbody tr').length`); n != 1 {
		t.Fatalf("a refused CSV entered players: %d", n)
	}
	d.checkLayout("director-csv-refused-390", 390, 844)
	fixed := strings.Replace(fourteen, "Ingrid Hansen,Bergen SK,NOR,4711,1850,\n", "", 1)
	d.do("fix the CSV and import", chromedp.SetValue(chromedp.CSS("#import-text"), fixed), chromedp.Click(chromedp.CSS("#import")))
	d.wait("fourteen players", `document.querySelectorAll('#players tbody tr').length === 14 && document.getElementById('dir-error').hidden`)
	// The seeding: rating, then title (MI before MF), then name.
	if got := eval[string](d, `[...document.querySelectorAll('#players tbody tr')].slice(0, 3).map(r => r.children[1].textContent).join(',')`); got != "Ivo Jansen,Cas de Vries,Anna Berg" {
		t.Errorf("the first three starting numbers: %s", got)
	}

	// A look-alike typed in: refused, entered anyway, then removed.
	d.do("type Per Olsen again", chromedp.SendKeys(chromedp.CSS("#add-name"), "Per Olsen"), chromedp.SendKeys(chromedp.CSS("#add-club"), "Oslo DK"),
		chromedp.Click(chromedp.CSS("#add")))
	d.wait("the look-alike refused", `!document.getElementById('confirm-anyway').hidden && document.getElementById('confirm-anyway').textContent.startsWith('Enter anyway')`)
	d.do("enter anyway", chromedp.Click(chromedp.CSS("#confirm-anyway")))
	d.wait("fifteen players", `document.querySelectorAll('#players tbody tr').length === 15 && document.getElementById('dir-error').hidden`)
	d.do("remove the second Per Olsen", chromedp.Click(chromedp.CSS("#remove-15")))
	d.wait("asked again", `document.getElementById('remove-15').textContent === 'Remove Per Olsen? Click again'`)
	d.do("remove", chromedp.Click(chromedp.CSS("#remove-15")))
	d.wait("fourteen again", `document.querySelectorAll('#players tbody tr').length === 14 && arbiterDirector.view.audit.some(a => a.action === 'remove-player')`)

	// Every field of Siv Moe (entry 14, unrated, last) corrected.
	d.do("edit Siv Moe", chromedp.Click(chromedp.CSS("#edit-14")))
	d.wait("the form", `!document.getElementById('player-form').hidden && document.getElementById('ep-name').value === 'Siv Moe'`)
	d.do("correct every field",
		chromedp.SetValue(chromedp.CSS("#ep-name"), "Siv Moen"), chromedp.SetValue(chromedp.CSS("#ep-title"), "mff"),
		chromedp.SetValue(chromedp.CSS("#ep-club"), "DC Stavanger"), chromedp.SetValue(chromedp.CSS("#ep-fed"), "nor"),
		chromedp.SetValue(chromedp.CSS("#ep-fedid"), "1014"), chromedp.SetValue(chromedp.CSS("#ep-rating"), "2400"),
		chromedp.Click(chromedp.CSS("#ep-save")))
	d.wait("corrected", `document.getElementById('player-form').hidden && arbiterDirector.view.players.find(p => p.id === 14).number === 1`)
	if got := eval[string](d, `[...document.getElementById('player-14').children].slice(0, 8).map(c => c.textContent).join('|')`); !strings.HasPrefix(got, "1") ||
		!strings.Contains(got, "|Siv Moen|MFF|DC Stavanger|NOR|1014|2400|") {
		t.Errorf("the corrected row reads %q", got)
	}
	// The seeding by hand: Ivo Jansen (now 2) moves up, then back.
	d.do("move Ivo Jansen up", chromedp.Click(chromedp.CSS("#seed-up-10")))
	d.wait("by hand", `arbiterDirector.view.players.find(p => p.id === 10).number === 1 && arbiterDirector.view.event.seeding === 'manual' &&
		document.getElementById('seeding-note').textContent.startsWith('Starting numbers set by hand') && !document.getElementById('seeding-reset').hidden`)
	d.checkLayout("director-players-390", 390, 844)
	part(d, "director-players-part-390", "#players-box", 390)
	part(d, "director-players-part-1366", "#players-box", 1366)
	d.do("back to the ranking", chromedp.Click(chromedp.CSS("#seeding-reset")))
	d.wait("by the ranking", `arbiterDirector.view.players.find(p => p.id === 14).number === 1 && !arbiterDirector.view.event.seeding &&
		document.getElementById('seeding-note').textContent.startsWith('Starting numbers by rating, then title, then name')`)

	// Round 1 by clicks.
	d.do("pair round 1", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("seven boards", `(arbiterDirector.view.rounds || []).length === 1 && document.querySelectorAll('#boards tbody tr').length === 7`)
	d.do("publish", chromedp.Click(chromedp.CSS("#publish")))
	d.wait("published", `arbiterDirector.view.rounds[0].state === 'published' && document.getElementById('r1b7-result')`)
	d.checkLayout("director-round1-390", 390, 844)
	// A board a line, its result and online game on the next: nothing of
	// a board lies past the screen's edge (the table scrolled in its box).
	if got := eval[string](d, `(() => { const b = document.getElementById('boards').parentElement;
		const out = [...document.querySelectorAll('#boards select, #boards button')].filter(c => c.getBoundingClientRect().right > innerWidth).map(c => c.id);
		if (b.scrollWidth > b.clientWidth) out.push('the box scrolls: ' + b.scrollWidth + ' px in ' + b.clientWidth);
		return out.join(', '); })()`); got != "" {
		t.Errorf("at 390 px the boards' table is cut: %s", got)
	}
	d.checkLayout("director-round1-1366", 1366, 900)
	part(d, "director-boards-part-390", "#round-box", 390)
	part(d, "director-boards-part-1366", "#round-box", 1366)
	for b := 1; b <= 7; b++ {
		res := []string{"1-0", "0-1", "=-="}[b%3]
		d.do(fmt.Sprintf("board %d's result", b), chromedp.SetValue(chromedp.CSS(fmt.Sprintf("#r1b%d-result", b)), res),
			chromedp.Click(chromedp.CSS(fmt.Sprintf("#r1b%d-save", b))))
		d.wait(fmt.Sprintf("board %d saved", b), fmt.Sprintf(`document.getElementById('r1b%d-result-cell').dataset.result === '%s' && !arbiterDirector.busy`, b, res))
	}
	d.do("close round 1", chromedp.Click(chromedp.CSS("#close")))
	d.wait("closed", `arbiterDirector.view.rounds[0].state === 'closed' && !document.getElementById('pair').hidden`)
	if n := eval[int](d, `document.querySelectorAll('#players button[id^="remove-"]').length`); n != 0 {
		t.Errorf("after round 1, %d players who played can be removed", n)
	}
	// A rating corrected after round 1.
	d.do("edit Jon Kvam", chromedp.Click(chromedp.CSS("#edit-11")))
	d.wait("the form", `!document.getElementById('player-form').hidden && document.getElementById('ep-rating').value === '1700'`)
	d.do("his rating", chromedp.SetValue(chromedp.CSS("#ep-rating"), "1760"), chromedp.Click(chromedp.CSS("#ep-save")))
	d.wait("audited", `arbiterDirector.view.audit.some(a => a.action === 'edit-player' && a.detail.includes('rating "1700" -> "1760"') && a.detail.includes('after round 1'))`)
	if got := eval[string](d, `document.querySelector('#audit li').textContent`); !strings.Contains(got, `edit-player: 11 Jon Kvam, after round 1 was paired: rating "1700" -> "1760"`) {
		t.Errorf("the audit log's last line: %q", got)
	}
	// Kari Lie withdraws; rounds 2 (results by the API, as from elsewhere) and 3.
	d.do("withdraw Kari Lie", chromedp.Click(chromedp.CSS("#withdraw-12")))
	d.wait("withdrawn", `arbiterDirector.view.players.find(p => p.id === 12).withdrawn === 2`)
	d.do("pair round 2", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("six boards and a bye", `(arbiterDirector.view.rounds || []).length === 2 && document.querySelectorAll('#boards tbody tr').length === 6 && arbiterDirector.view.rounds[1].bye`)
	d.do("publish round 2", chromedp.Click(chromedp.CSS("#publish")))
	d.wait("published", `arbiterDirector.view.rounds[1].state === 'published'`)
	for b := 1; b <= 6; b++ {
		e.op(token, "result", fmt.Sprintf(`{"round":2,"board":%d,"result":"1-0"}`, b), 200)
	}
	d.do("reload", chromedp.Reload())
	d.wait("round 2's results", `window.arbiterDirector && arbiterDirector.ready && Object.keys(arbiterDirector.view.results).filter(k => k.startsWith('2.')).length === 6`)
	d.do("close round 2", chromedp.Click(chromedp.CSS("#close")))
	d.wait("round 2 closed", `arbiterDirector.view.rounds[1].state === 'closed' && !arbiterDirector.busy`)
	d.do("pair round 3", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("round 3", `(arbiterDirector.view.rounds || []).length === 3`)
	d.do("publish round 3", chromedp.Click(chromedp.CSS("#publish")))
	d.wait("published", `arbiterDirector.view.rounds[2].state === 'published' && document.getElementById('link-print')`)
	both(d, "director-round3")
	// A result of round 1 was entered wrongly (board 1 was won by White),
	// found out with round 3 published: the director corrects it in the
	// form under the round. The later rounds keep their pairings; the
	// standings follow, and the audit log says what changed, when.
	white := eval[int](d, `arbiterDirector.view.rounds[0].boards[0].white`)
	score := func() int {
		return eval[int](d, fmt.Sprintf(`arbiterDirector.view.standings.find(s => s.player.id === %d).score`, white))
	}
	before, later := score(), eval[string](d, `JSON.stringify(arbiterDirector.view.rounds.slice(1).map(r => r.boards))`)
	d.wait("the correction form", `!document.getElementById('fix-box').hidden`)
	d.do("open it", chromedp.Click(chromedp.CSS("#fix-box summary")))
	// It offers the last closed round first (round 2, closed on this page
	// after round 1: it once stayed on round 1).
	if got := eval[string](d, `document.getElementById('fix-round').value + '|' + [...document.querySelectorAll('#fix-round option')].map(o => o.value).join(',')`); got != "2|1,2" {
		t.Errorf("the form's round (chosen|offered) %q, want 2|1,2", got)
	}
	d.do("round 1", chromedp.SetValue(chromedp.CSS("#fix-round"), "1"))
	eval[bool](d, `document.getElementById('fix-round').dispatchEvent(new Event('change'))`)
	d.wait("round 1's boards", `document.querySelectorAll('#fix-board option').length === 7`)
	if got := text(d, "#fix-board option"); !strings.HasPrefix(got, "1: ") || !strings.HasSuffix(got, ", 0-2") {
		t.Errorf("the form offers round 1's board 1 as %q", got)
	}
	d.do("board 1: 2-0", chromedp.SetValue(chromedp.CSS("#fix-board"), "1"), chromedp.SetValue(chromedp.CSS("#fix-result"), "1-0"),
		chromedp.Click(chromedp.CSS("#fix-save")))
	d.wait("corrected", `arbiterDirector.view.results['1.1'].label === '2-0' && document.getElementById('dir-error').hidden &&
		arbiterDirector.view.audit.some(a => a.detail === 'round 1 board 1: 0-2 -> 2-0 (director, after the round was closed)')`)
	if got := score(); got != before+2 {
		t.Errorf("White of round 1's board 1 has %d points after the correction, %d before", got, before)
	}
	if got := eval[string](d, `JSON.stringify(arbiterDirector.view.rounds.slice(1).map(r => r.boards))`); got != later {
		t.Errorf("the correction changed the later rounds' boards: %s, were %s", got, later)
	}
	if got := text(d, "#fix-board option"); !strings.HasSuffix(got, ", 2-0") {
		t.Errorf("after the correction the form shows board 1 as %q", got)
	}
	part(d, "director-fix-390", "#round-box", 390)
	// In Norwegian: the new texts of the players' table and the card's link.
	d.do("Norwegian", chromedp.SetValue(chromedp.CSS("#lang"), "nb"))
	eval[bool](d, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	d.wait("the page in Norwegian", `document.getElementById('seeding-note').textContent === 'Startnumrene ligger fast siden runde 1 ble satt opp.' &&
		document.getElementById('edit-1').textContent === 'Rett' && document.getElementById('keep-card-link').getAttribute('href').endsWith('/card?lang=nb')`)
	part(d, "director-players-nb-390", "#players-box", 390)

	// The public pages.
	v := e.view(token)
	pub := newPage(t, "public")
	pub.do("open the event", chromedp.Navigate(v.Public))
	pub.wait("round 3's pairings", `document.querySelector('h2') && document.querySelector('h2').textContent === 'Pairings, round 3' &&
		document.querySelector('#nav-rounds a[aria-current="page"]').textContent === '3' &&
		document.querySelectorAll('#nav-rounds a').length === 3 && document.querySelectorAll('#nav-after a').length === 2`)
	if got := eval[string](pub, `[...document.querySelectorAll('ul.byes li')].map(li => li.textContent).join('|')`); strings.Contains(got, "Kari Lie") {
		t.Errorf("round 3 still lists the withdrawn player: %q", got)
	}
	both(pub, "public-round3")
	pub.do("round 1", chromedp.Click(chromedp.CSS(`#nav-rounds a:first-of-type`)))
	pub.wait("round 1's pairings", `document.querySelector('h2') && document.querySelector('h2').textContent === 'Pairings, round 1' &&
		document.querySelector('#nav-rounds a[aria-current="page"]').textContent === '1'`)
	pub.do("standings after round 1", chromedp.Click(chromedp.CSS(`#nav-after a:first-of-type`)))
	pub.wait("the standings after round 1", `document.querySelector('h2') && document.querySelector('h2').textContent === 'Standings after round 1' && document.querySelectorAll('table.standings tbody tr').length === 14`)
	both(pub, "public-standings1")
	pub.do("standings after round 2", chromedp.Click(chromedp.CSS(`#nav-after a:last-of-type`)))
	pub.wait("the standings after round 2", `document.querySelector('h2') && document.querySelector('h2').textContent === 'Standings after round 2'`)
	if got := eval[string](pub, `document.querySelector('tr[data-player] .note') ? [...document.querySelectorAll('.note')].map(n => n.closest('tr').querySelector('td.name').textContent).join('|') : ''`); !strings.Contains(got, "Kari Lie (withdrawn from round 2)") {
		t.Errorf("the standings note the withdrawal as %q", got)
	}
	pub.do("the crosstable", chromedp.Navigate(v.Public+"/crosstable"))
	pub.wait("the crosstable", `document.querySelectorAll('table.crosstable tbody tr').length === 14`)
	both(pub, "public-crosstable")
	pub.do("phone width", chromedp.EmulateViewport(390, 844))
	pub.wait("390 px", `innerWidth === 390`)
	if !eval[bool](pub, `(() => { const b = document.querySelector('.table-wrap'); return b.scrollWidth > b.clientWidth && document.scrollingElement.scrollWidth <= innerWidth; })()`) {
		t.Error("at 390 px the crosstable does not scroll in its own box")
	}
	pub.do("the cards", chromedp.Navigate(v.Public+"/cards"))
	pub.wait("the cards", `document.querySelectorAll('section.card').length > 0`)
	if got := eval[string](pub, `[...document.querySelectorAll('section.card')].map(s => s.dataset.player).join(',')`); got != "1,2,3,4,5,6,7,8,9,10,11,12,14" {
		t.Errorf("the cards' order %q (13 players in seeding order, the withdrawn one left out)", got)
	}
	both(pub, "public-cards")
	pub.do("print round 3", chromedp.Navigate(v.Public+"/round/3/print"))
	pub.wait("the print-out", `document.querySelector('h2') && document.querySelector('h2').textContent === 'Round 3: pairings and result slips'`)
	if n, m := eval[int](pub, `document.querySelectorAll('section.slip').length`), eval[int](pub, `document.querySelectorAll('table.pairings tbody tr').length`); n != m || n < 6 {
		t.Errorf("%d slips for %d boards", n, m)
	}
	both(pub, "public-print")
}
