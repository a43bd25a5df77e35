package web

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

// clubPlayers is a club's list as a spreadsheet saves it for Excel in
// Dutch or Norwegian settings: a byte order mark, semicolons, CRLF, the
// header's words capitalised, out of rating order.
const clubPlayers = "\ufeffName;Club;Federation;Fed_id;Rating\r\n" +
	"Jan de Vries;DC Utrecht;NED;1001;2105\r\n" +
	"Anna Berg;DC Oslo;NOR;2001;2310\r\n" +
	"Piet Bakker;DC Utrecht;NED;1002;1890\r\n" +
	"Olga Ivanova;DC Moskva;RUS;3001;2250\r\n" +
	"Bo Dahl;DK Aarhus;DEN;4001;1720\r\n" +
	"Erik Fjell;DC Bergen;NOR;2002;2040\r\n" +
	"Fie Gram;DK Odense;DEN;4002;1655\r\n" +
	"Kees Smit;DC Amersfoort;NED;1003;1980\r\n" +
	"Lena Holm;DC Oslo;NOR;2003;1560\r\n" +
	"Ivan Petrov;DC Moskva;RUS;3002;2190\r\n"

// looked is what a page says of itself that a reader would call broken.
type looked struct {
	Wide  float64 // the document's width, over the viewport's when it scrolls sideways
	Width float64
	Bad   []string // text with null, undefined or NaN
	Boxes []string // boxes of their own that scroll sideways (a table cut at the viewport's edge)
}

// lookAt sizes the viewport to w, checks that the page does not scroll
// sideways and prints no null, undefined or NaN, and takes its picture.
func lookAt(p *page, name string, w, h int64) {
	p.t.Helper()
	p.do("viewport", chromedp.EmulateViewport(w, h))
	p.wait("the layout settles", `innerWidth === `+fmt.Sprint(w))
	l := eval[looked](p, `new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(() => {
		const bad = [];
		const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			if (/\b(null|undefined|NaN)\b/.test(n.textContent) && n.parentElement.offsetParent !== null) bad.push(n.textContent.trim().slice(0, 80));
		}
		const boxes = [...document.querySelectorAll('body *')].filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1 &&
			['auto', 'scroll'].includes(getComputedStyle(e).overflowX)).map(e => (e.querySelector('table') || e).id + ' ' + e.scrollWidth + '/' + e.clientWidth);
		ok({Wide: document.scrollingElement.scrollWidth, Width: innerWidth, Bad: bad, Boxes: boxes});
	})))`)
	p.picture(name+fmt.Sprintf("-%d", w), chromedp.FullScreenshot(100))
	if l.Wide > l.Width {
		p.t.Errorf("%s at %d px: the page is %v px wide, it scrolls sideways", name, w, l.Wide)
	}
	// A player reads the pairings, the standings and their card on a
	// phone: those fit. The crosstable's rounds, the director's rating
	// table's, scroll in their box.
	mustFit := strings.Contains(name, "pairings") || strings.Contains(name, "cards") || strings.HasSuffix(name, "-print") || strings.Contains(name, "standings")
	// The director's standings and boards too: the tie-breaks are what a
	// director looks at between rounds, the boards where results go in.
	for _, b := range l.Boxes {
		mustFit = mustFit || strings.HasPrefix(b, "standings ") || strings.HasPrefix(b, "boards ")
	}
	if len(l.Boxes) > 0 && mustFit {
		p.t.Errorf("%s at %d px: tables that scroll sideways, cut at the screen's edge: %q", name, w, l.Boxes)
	} else if len(l.Boxes) > 0 {
		p.t.Logf("%s at %d px: tables that scroll sideways: %q", name, w, l.Boxes)
	}
	if len(l.Bad) > 0 {
		p.t.Errorf("%s at %d px: the page prints %q", name, w, l.Bad)
	}
}

// lookBoth is lookAt at a phone's and a desktop's width.
func lookBoth(p *page, name string) {
	p.t.Helper()
	lookAt(p, name, 390, 844)
	lookAt(p, name, 1366, 900)
}

// printed emulates print media and takes the picture of the page as the
// printer gets it; it fails when something is wider than the A4 width.
func printed(p *page, name string) {
	p.t.Helper()
	p.do("print media", printMedia("print"), chromedp.EmulateViewport(718, 1000))
	p.wait("print layout", `matchMedia('print').matches && innerWidth === 718`)
	wide := eval[float64](p, `document.scrollingElement.scrollWidth`)
	p.picture(name+"-print", chromedp.FullScreenshot(100))
	if wide > 718 {
		p.t.Errorf("%s printed: %v px wide on A4 (718 px inside the margins), cut", name, wide)
	}
	p.do("screen media", printMedia(""))
}

// TestBrowserWalkDirector is a club's ordinary Swiss of ten players over
// five rounds, run in the browser only: the list pasted from a
// spreadsheet, check-in with one player absent, the rounds paired,
// published, printed, their results entered by the director or reported
// by both players from phones, one corrected after its round closed, to
// the final standings, crosstable, TRF and rating report; then the same
// pages in Dutch and Russian.
func TestBrowserWalkDirector(t *testing.T) {
	browserTest(t)
	e := newDirEnv(t)

	d := newPage(t, "director")
	d.do("open the create page", chromedp.Navigate(e.hs.URL+"/director"))
	d.wait("the variants load", `document.querySelector('#ev-variant option[value="international"]')`)
	d.do("fill in the event",
		chromedp.SetValue(chromedp.CSS("#ev-name"), "Club Championship"),
		chromedp.SetValue(chromedp.CSS("#ev-site"), "Utrecht"),
		chromedp.SetValue(chromedp.CSS("#ev-variant"), "international"),
		chromedp.SetValue(chromedp.CSS("#ev-rounds"), "5"),
		chromedp.SetValue(chromedp.CSS("#ev-tc"), "5400+30"),
		chromedp.Click(chromedp.CSS("#event-create")))
	d.wait("the director's page", `location.pathname.startsWith('/d/') && window.arbiterDirector && arbiterDirector.ready`)
	token := strings.TrimPrefix(eval[string](d, `location.pathname`), "/d/")
	d.wait("the link to keep", `document.getElementById('keep-box').open`)
	d.do("the link is kept", chromedp.Click(chromedp.CSS("#keep-done")))
	d.wait("no more guard", `!arbiterDirector.guarded`)

	// Pasted: a textarea's value set as a paste sets it (SetValue does not take the BOM).
	paste, _ := json.Marshal(clubPlayers)
	eval[bool](d, `(() => { const a = document.getElementById('import-text'); a.value = `+string(paste)+`; a.dispatchEvent(new Event('input')); return true; })()`)
	d.do("import", chromedp.Click(chromedp.CSS("#import")))
	d.wait("ten players", `document.querySelectorAll('#players tbody tr').length === 10 && document.getElementById('dir-error').hidden`)
	if got := eval[string](d, `arbiterDirector.view.players.slice().sort((a, b) => a.number - b.number).map(p => p.rating).join(',')`); got != "2310,2250,2190,2105,2040,1980,1890,1720,1655,1560" {
		t.Errorf("the starting numbers by rating: ratings in number order %s", got)
	}
	if got := eval[string](d, `arbiterDirector.view.players.map(p => p.club).join(',')`); strings.Contains(got, ";") || strings.Contains(got, "\ufeff") {
		t.Errorf("the clubs read %q", got)
	}
	lookBoth(d, "walk-players")

	pubURL := e.view(token).Public
	pub := newPage(t, "public")
	var r1Absent int
	var report string
	start := time.Now()
	for round := 1; round <= 5; round++ {
		report = walkRound(t, e, d, pub, token, pubURL, round, &r1Absent)
	}
	t.Logf("the walk's five rounds took %v", time.Since(start))

	// The director's view with 10 players × 5 rounds: the time of a load.
	var ms []float64
	for range 5 {
		ms = append(ms, eval[float64](d, `(async () => { const t0 = performance.now(); const r = await fetch('/api/d/`+token+`'); await r.json(); return performance.now() - t0; })()`))
	}
	t.Logf("the director's view (10 players, 5 rounds): %v ms", ms)
	d.do("reload", chromedp.Reload())
	d.wait("ready", `window.arbiterDirector && arbiterDirector.ready`)
	load := eval[float64](d, `performance.getEntriesByType('navigation')[0].loadEventEnd`)
	t.Logf("the director's page loads in %.0f ms", load)
	lookBoth(d, "walk-director-final")
	for _, w := range []int64{390, 1366} {
		d.do("viewport", chromedp.EmulateViewport(w, 900))
		d.wait("the layout settles", `innerWidth === `+fmt.Sprint(w))
		d.picture(fmt.Sprintf("walk-director-standings-%d", w), chromedp.Screenshot(chromedp.CSS("#standings-box")))
	}
	if got := eval[string](d, `document.getElementById('round-state').textContent`); !strings.Contains(got, "final") {
		t.Errorf("after round 5 the director reads %q", got)
	}

	for _, c := range []struct{ path, name string }{
		{"/standings", "walk-standings"}, {"/crosstable", "walk-crosstable"}, {"/cards", "walk-cards"},
	} {
		pub.do("open "+c.path, chromedp.Navigate(pubURL+c.path))
		pub.wait(c.path, `document.body && document.body.textContent.includes('Club Championship')`)
		lookBoth(pub, c.name)
		printed(pub, c.name)
	}
	checkFinal(t, pub, pubURL)
	checkRatings(t, eval[string](d, `fetch('/d/`+token+`/ratings.csv').then(r => r.text())`))

	for _, lang := range []string{"nl", "ru"} {
		for _, c := range []struct{ path, name string }{
			{"", "pairings"}, {"/standings", "standings"}, {"/crosstable", "crosstable"}, {"/cards", "cards"}, {"/round/5/print", "print"},
		} {
			pub.do("open "+c.path, chromedp.Navigate(pubURL+c.path+"?lang="+lang))
			pub.wait(c.path, `document.body && document.body.textContent.includes('Club Championship')`)
			lookBoth(pub, "walk-"+lang+"-"+c.name)
			englishLeft(t, pub, lang+" "+c.name)
		}
		// A player's result link after the round, on a phone in that language.
		ph := newPage(t, "phone-"+lang)
		speaks(ph, report, lang)
		ph.do("reload", chromedp.Reload())
		ph.wait("the board", `!document.getElementById('report').hidden && document.getElementById('status').textContent`)
		lookAt(ph, "walk-"+lang+"-report", 390, 844)
		englishLeft(t, ph, lang+" report")
		d.do("choose "+lang, chromedp.SetValue(chromedp.CSS("#lang"), lang))
		eval[bool](d, `document.getElementById('lang').dispatchEvent(new Event('change')), true`)
		d.wait("the page in "+lang, `document.documentElement.lang === '`+lang+`'`)
		lookBoth(d, "walk-"+lang+"-director")
		englishLeft(t, d, lang+" director")
	}
}

// englishLeft reports English words left on a translated page, outside
// names, CSV column names and words the language shares ("rating" in Dutch).
func englishLeft(t *testing.T, p *page, name string) {
	t.Helper()
	left := eval[[]string](p, `(() => {
		const words = /\b(the|round|board|results?|standings|points|player|players|print|close|pair|publish|white|black|and|by|after|not|yet|enter|save|bye)\b/i;
		const out = [];
		const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			const s = n.textContent.trim();
			if (!s || n.parentElement.closest('script,style,option,#lang,.url,code') || n.parentElement.offsetParent === null) continue;
			if (words.test(s) && !/name, |\bname\b.*\brating\b/.test(s)) out.push(s.slice(0, 100));
		}
		return out;
	})()`)
	if len(left) > 0 {
		t.Errorf("%s: English left: %q", name, left)
	}
}

// walkRound plays one round of the walk: check-in before round 1, the
// pairing published and printed, the odd boards entered by the director,
// the even ones reported by both players from phones, a correction after
// round 2 closed, the round closed.
func walkRound(t *testing.T, e *dirEnv, d, pub *page, token, pubURL string, n int, absent *int) (reportLink string) {
	t.Helper()
	d.do("desktop", chromedp.EmulateViewport(1366, 900))
	if n == 1 {
		d.wait("the check-in", `!document.getElementById('atb-checkin').hidden && document.querySelectorAll('#atb-arrivals li').length === 10`)
		*absent = eval[int](d, `arbiterDirector.view.players.find(p => p.number === 7).id`)
		for i := 0; i < 9; i++ {
			eval[bool](d, fmt.Sprintf(`(() => { const li = [...document.querySelectorAll('#atb-arrivals li:not(.in)')].find(li => li.dataset.player !== '%d'); li.querySelector('button').click(); return true; })()`, *absent))
			d.wait("checked in", fmt.Sprintf(`document.querySelectorAll('#atb-arrivals li.in').length === %d && !arbiterDirector.busy`, i+1))
		}
		lookBoth(d, "walk-checkin")
		d.do("the absent player's bye", chromedp.Click(chromedp.CSS("#atb-absent-byes")))
		d.wait("the bye given", `document.getElementById('atb-absent-byes').disabled && !arbiterDirector.busy`)
	}
	d.do("pair", chromedp.Click(chromedp.CSS("#pair")))
	d.wait("paired", fmt.Sprintf(`(arbiterDirector.view.rounds || []).length === %d && !arbiterDirector.busy`, n))
	d.do("publish", chromedp.Click(chromedp.CSS("#publish")))
	d.wait("published", fmt.Sprintf(`arbiterDirector.view.rounds[%d].state === 'published' && document.getElementById('r%db1-result')`, n-1, n))
	v := e.view(token)
	boards := v.Rounds[n-1].Boards
	if n == 1 {
		lookBoth(d, "walk-r1-published")
		for _, w := range []int64{390, 1366} {
			d.do("viewport", chromedp.EmulateViewport(w, 900))
			d.wait("the layout settles", `innerWidth === `+fmt.Sprint(w))
			d.picture(fmt.Sprintf("walk-r1-boards-%d", w), chromedp.Screenshot(chromedp.CSS("#round-box")))
		}
		if len(boards) != 4 {
			t.Fatalf("round 1 with one absent of ten: %d boards", len(boards))
		}
	}

	// The printed sheet with the result links, as the director opens it.
	sheet := newPage(t, fmt.Sprintf("sheet-r%d", n))
	href := eval[string](d, `document.getElementById('atb-sheet').href`)
	sheet.do("open the sheet", chromedp.Navigate(href))
	sheet.wait("the slips", fmt.Sprintf(`document.querySelectorAll('#slips section.slip').length === %d`, len(boards)))
	if n == 1 {
		lookBoth(sheet, "walk-r1-slips")
		printed(sheet, "walk-r1-slips")
		pub.do("the public pairings", chromedp.Navigate(pubURL))
		pub.wait("pairings", `document.body.textContent.includes('Club Championship')`)
		lookBoth(pub, "walk-r1-pairings")
		pub.do("the printed round", chromedp.Navigate(pubURL+"/round/1/print"))
		pub.wait("print", `document.body.textContent.includes('Club Championship')`)
		printed(pub, "walk-r1-print")
	}
	links := eval[[][]string](sheet, `[...document.querySelectorAll('#slips section.slip')].map(s => [s.dataset.board, ...[...s.querySelectorAll('.url')].map(u => u.textContent)])`)

	results := []string{"1-0", "0-1", "=", "1-0", "0-1"}
	for i, b := range boards {
		res := results[(i+n)%len(results)]
		if b.Board%2 == 1 {
			opt := eval[string](d, fmt.Sprintf(`[...document.querySelectorAll('#r%db%d-result option')].map(o => o.value).find(v => v && (%q === '=' ? !v.includes('1-0') && !v.includes('0-1') && !v.startsWith('+') && !v.startsWith('-') : v === %q)) || ''`, n, b.Board, res, res))
			if n == 2 && b.Board == 1 {
				opt = "0-1" // the wrong result, corrected after the round
			}
			d.do("enter a result", chromedp.SetValue(chromedp.CSS(fmt.Sprintf("#r%db%d-result", n, b.Board)), opt),
				chromedp.Click(chromedp.CSS(fmt.Sprintf("#r%db%d-save", n, b.Board))))
			d.wait("saved", fmt.Sprintf(`document.getElementById('r%db%d-result-cell').dataset.result && !arbiterDirector.busy`, n, b.Board))
			continue
		}
		var pair []string
		for _, l := range links {
			if l[0] == fmt.Sprint(b.Board) {
				pair = l[1:]
			}
		}
		if len(pair) != 2 {
			t.Fatalf("round %d board %d: links %q", n, b.Board, pair)
		}
		for side, link := range pair {
			ph := newPage(t, fmt.Sprintf("phone-r%db%d-%d", n, b.Board, side))
			ph.do("phone", chromedp.EmulateViewport(390, 844))
			ph.do("open the link", chromedp.Navigate(link))
			ph.wait("the choices", `document.querySelectorAll('#choices button').length >= 3`)
			sel := fmt.Sprintf(`#choices button[data-outcome=%q]`, res)
			if res == "=" {
				sel = `#choices button:nth-child(3)`
			}
			ph.do("choose", chromedp.Click(chromedp.CSS(sel)), chromedp.Click(chromedp.CSS("#send")))
			ph.wait("sent", `document.getElementById('send').disabled && !document.getElementById('status').textContent.includes('…')`)
			if n == 1 && b.Board == 2 {
				lookAt(ph, fmt.Sprintf("walk-r1-report-%d", side), 390, 844)
			}
		}
		d.wait("the players' result on the director's page", fmt.Sprintf(`(async () => { const r = await fetch('/api/d/%s'); const v = await r.json(); return v.results['%d.%d']; })()`, token, n, b.Board))
	}
	d.do("look again", chromedp.Reload())
	d.wait("ready", `window.arbiterDirector && arbiterDirector.ready`)
	d.do("close", chromedp.Click(chromedp.CSS("#close")))
	d.wait("closed", fmt.Sprintf(`arbiterDirector.view.rounds[%d].state === 'closed' && !arbiterDirector.busy`, n-1))
	if got := eval[string](d, `document.getElementById('dir-error').hidden ? '' : document.getElementById('dir-error').textContent`); got != "" {
		t.Errorf("closing round %d: %s", n, got)
	}
	if n == 2 {
		d.do("correct round 2 board 1", chromedp.Click(chromedp.CSS("#fix-box summary")),
			chromedp.SetValue(chromedp.CSS("#fix-round"), "2"))
		d.do("the board", chromedp.SetValue(chromedp.CSS("#fix-board"), "1"), chromedp.SetValue(chromedp.CSS("#fix-result"), "1-0"), chromedp.Click(chromedp.CSS("#fix-save")))
		d.wait("corrected", `arbiterDirector.view.results['2.1'].outcome === '1-0' && !arbiterDirector.busy`)
		lookBoth(d, "walk-r2-corrected")
	}
	return links[0][1]
}

// checkFinal reads the final TRF's numbers: five rounds for everyone,
// and the points of all add up to the games' and byes' (round 1: four
// games, the pairing bye's 2 and the absent player's 0; rounds 2 to 5:
// five games; 2 points a game).
func checkFinal(t *testing.T, pub *page, pubURL string) {
	t.Helper()
	text := eval[string](pub, `fetch('`+pubURL+`/trf').then(r => r.text())`)
	ev, err := trf.Read(strings.NewReader(text))
	if err != nil {
		t.Fatalf("the TRF export: %v\n%s", err, text)
	}
	total := 0
	for _, p := range ev.Players {
		if len(p.History) != 5 {
			t.Errorf("TRF player %d has %d rounds", p.Number, len(p.History))
		}
		total += p.Points
	}
	if want := (4*2 + 2 + 4*5*2) * 10; total != want { // in tenths
		t.Errorf("the TRF's points add up to %d tenths, want %d\n%s", total, want, text)
	}
}

// checkRatings reads the rating report: each player's change is the sum
// of the rounds' changes, rounded (B.02 art. 8.3.4), and the new rating
// the old plus the change.
func checkRatings(t *testing.T, text string) {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(rows) != 11 {
		t.Fatalf("the rating report (%v, %d rows):\n%s", err, len(rows), text)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, r := range rows[1:] {
		sum := 0.0
		for n := 1; n <= 5; n++ {
			if v := r[col[fmt.Sprintf("round_%d", n)]]; v != "" {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatalf("%s round %d: %q", r[col["name"]], n, v)
				}
				sum += f
			}
		}
		change, err1 := strconv.Atoi(r[col["change"]])
		old, err2 := strconv.Atoi(r[col["rating"]])
		now, err3 := strconv.Atoi(r[col["new_rating"]])
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("%s: %q", r[col["name"]], r)
		}
		if want := int(math.Round(sum)); change != want || now != old+change {
			t.Errorf("%s: change %d and new rating %d from %d, the rounds sum to %.1f", r[col["name"]], change, now, old, sum)
		}
	}
}
