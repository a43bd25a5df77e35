package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The README's four quick starts, followed in a real browser against the
// real binary (issue 27). Each test reads from the README what it runs, the
// values it types and the names of the buttons it presses, so that the text
// cannot drift from the program: a renamed button or a changed command
// fails here. With ARBITER_DOC_SHOTS=DIR (make doc-shots: docs/img) they
// also write the pictures of the README and the guides.

// quickStart is the text of the README's section "## Quick start: NAME".
func quickStart(t *testing.T, name string) string {
	t.Helper()
	text, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	i := strings.Index(s, "\n## Quick start: "+name+"\n")
	if i < 0 {
		t.Fatalf("README.md has no section %q", "Quick start: "+name)
	}
	s = s[i+1:]
	if j := strings.Index(s, "\n## "); j >= 0 {
		s = s[:j]
	}
	return s
}

// quickStartServe is the serve command the section shows (its
// `bin/arbiter serve` line), made to listen on a free port with its files in
// dir; the README's own words come first.
func quickStartServe(t *testing.T, section, dir string) []string {
	t.Helper()
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "bin/arbiter serve") {
			args := shellWords(t, strings.TrimSpace(line))[1:]
			return append(args, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "web.db"), "--events-db", filepath.Join(dir, "events.db"))
		}
	}
	t.Fatalf("the quick start shows no `bin/arbiter serve` line:\n%s", section)
	return nil
}

// buttons are the texts the section sets in bold: the buttons it says to press.
func buttons(section string) []string {
	var b []string
	for _, m := range regexp.MustCompile(`\*\*([^*]+)\*\*`).FindAllStringSubmatch(section, -1) {
		b = append(b, strings.Join(strings.Fields(m[1]), " "))
	}
	return b
}

// serveAsREADME starts the serve command of a quick start and checks the
// line the README says it prints; it returns the address.
func serveAsREADME(t *testing.T, section string) string {
	t.Helper()
	dir := t.TempDir()
	if !strings.Contains(section, "It prints `arbiter serve: http://127.0.0.1:8080/`") && !strings.Contains(section, "\nbin/arbiter serve") {
		t.Fatal("the section neither shows nor describes serve")
	}
	cmd, out, errb := startWatched(t, dir, quickStartServe(t, section, dir)...)
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	waitFor(t, cmd, "the line `arbiter serve: http://...`", func() bool { return servingRE.MatchString(out.String()) }, errb)
	return servingRE.FindStringSubmatch(out.String())[1]
}

// tabs is the headless Chromium (the package's shared one, for three
// minutes); each tab is a person's own browser context.
type tabs struct {
	t       *testing.T
	browser context.Context
}

func newTabs(t *testing.T) *tabs {
	t.Helper()
	return &tabs{t: t, browser: browserFor(t, 3*time.Minute)}
}

// open opens url in a new browser context and waits for cond.
func (b *tabs) open(url, cond string) context.Context {
	b.t.Helper()
	ctx := newTab(b.t, b.browser)
	do(b.t, ctx, "open "+url, chromedp.EmulateViewport(1366, 900), chromedp.Navigate(url))
	wait(b.t, ctx, "the page at "+url, cond)
	return ctx
}

// do runs actions in a tab, failing the test on an error.
func do(t *testing.T, ctx context.Context, what string, acts ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, acts...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// wait waits until a JavaScript condition holds in a tab.
func wait(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		err := chromedp.Do(wctx, chromedp.Poll[chromedp.Void](cond))
		if err == nil {
			return
		}
		// A navigation (the director's page after Create) ends the
		// poll's page, not the wait.
		if wctx.Err() != nil || !strings.Contains(err.Error(), "navigated") && !strings.Contains(err.Error(), "context was destroyed") && !strings.Contains(err.Error(), "Cannot find context") {
			t.Fatalf("waiting for %s (%s): %v", what, cond, err)
		}
	}
}

// js evaluates an expression in a tab.
func js[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// clickText clicks the element sel after checking that it reads text, the
// README's name for it.
func clickText(t *testing.T, ctx context.Context, sel, text string) {
	t.Helper()
	if got := js[string](t, ctx, `document.querySelector('`+sel+`').textContent.trim()`); got != text {
		t.Fatalf("the README says to press **%s**; %s reads %q", text, sel, got)
	}
	do(t, ctx, "press "+text, chromedp.Click(chromedp.CSS(sel)))
}

// clickSquare clicks a square of the board as a player does.
func clickSquare(t *testing.T, ctx context.Context, sq string) {
	t.Helper()
	xy := js[[]float64](t, ctx, `(() => { const r = document.querySelector('#sq-`+sq+` rect').getBoundingClientRect();
		return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	do(t, ctx, "click "+sq, chromedp.MouseClickXY(xy[0], xy[1]))
}

// docShot writes the tab's picture (1366 px wide, height px tall, from the
// element with id top, or the page's top) to $ARBITER_DOC_SHOTS/name.png,
// compressed, when that is set.
func docShot(t *testing.T, ctx context.Context, name string, height int64, top string) {
	t.Helper()
	dir := os.Getenv("ARBITER_DOC_SHOTS")
	if dir == "" {
		return
	}
	do(t, ctx, "viewport for "+name, chromedp.EmulateViewport(1366, height))
	wait(t, ctx, "the layout at 1366 px", `innerWidth === 1366`)
	scroll := `(scrollTo(0, 0), true)`
	if top != "" {
		scroll = `(document.getElementById('` + top + `').scrollIntoView(), true)`
	}
	js[bool](t, ctx, scroll)
	raw, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var small bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&small, img); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, name+".png")
	if err := os.WriteFile(file, small.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("picture %s: %d KB", file, small.Len()/1024)
}

// playerGame follows the player's quick start up to the first move: serve,
// create the game as the README says, open Black's and White's links, and
// returns the links and White's tab.
func playerGame(t *testing.T, b *tabs) (map[string]string, context.Context) {
	t.Helper()
	section := quickStart(t, "a player")
	url := serveAsREADME(t, section)
	tc := regexp.MustCompile("the clock\\s+\\(`([0-9]+\\+[0-9]+)`").FindStringSubmatch(section)
	if tc == nil {
		t.Fatal("the player's quick start names no clock like (`5+3`")
	}
	creator := b.open(url+"/", `document.querySelector('#variant option[value="english"]') && document.querySelectorAll('#tc-presets button').length > 0`)
	do(t, creator, "choose English checkers and the clock "+tc[1],
		chromedp.SetValue(chromedp.CSS("#variant"), "english"), chromedp.SetValue(chromedp.CSS("#tc"), tc[1]))
	if js[string](t, creator, `document.getElementById('engine').value`) != "" {
		t.Error("the opponent is not a person by default")
	}
	b1 := buttons(section)
	if len(b1) == 0 {
		t.Fatal("the player's quick start names no button")
	}
	clickText(t, creator, "#create-button", b1[0])
	wait(t, creator, "the game's links", `!document.getElementById('links').hidden && document.getElementById('link-arbiter')`)
	links := js[map[string]string](t, creator, `Object.fromEntries(['white', 'black', 'spectator', 'arbiter'].map(r => [r, document.getElementById('link-' + r).value]))`)
	for _, role := range []string{"white", "black", "spectator", "arbiter"} {
		if !strings.Contains(links[role], "/g/") {
			t.Fatalf("the %s link is %q", role, links[role])
		}
	}
	board := `document.querySelector('#sq-11 rect') && document.querySelectorAll('.clock').length === 2`
	black := b.open(links["black"], board)
	white := b.open(links["white"], board)
	if got := js[string](t, white, `[...document.querySelectorAll('.clock')].map(c => c.textContent).join(' ')`); got != "5:00 5:00" {
		t.Errorf("White sees the clocks %q; the README's %s is 5 minutes each", got, tc[1])
	}
	clickSquare(t, black, "11")
	clickSquare(t, black, "15")
	wait(t, white, "Black's move on White's board", `document.querySelectorAll('#moves .mv').length === 1`)
	// White types the README's example of typed PDN: it must be a move
	// White can play in the game the README makes (it was 32-28, an
	// international move: refused, with a warning, in English checkers).
	typed := regexp.MustCompile("typed PDN \\(`([0-9]+[-x][0-9]+)`\\)").FindStringSubmatch(strings.Join(strings.Fields(section), " "))
	if typed == nil {
		t.Fatal("the player's quick start gives no typed PDN move like (`22-18`)")
	}
	do(t, white, "type "+typed[1], chromedp.SendKeys(chromedp.CSS("#pdn-input"), typed[1]+kb.Enter))
	wait(t, black, "White's typed "+typed[1]+" on Black's board", `document.querySelectorAll('#moves .mv').length === 2`)
	if w := js[string](t, white, `document.getElementById('banner').hidden ? '' : document.getElementById('banner').textContent`); w != "" {
		t.Errorf("White's typed %s drew %q", typed[1], w)
	}
	return links, white
}

// A player follows the README: serve, create a game with the clock it
// names, press the button it names, get the four links, and both players
// see the board and both clocks and move by click. The picture of the game
// page (docs/img/game.png) is White's view. Then an arbiter follows the
// README in that game (one test for both: the arbiter's quick start begins
// where the player's ends): the arbiter's link opens the board with the
// powers the README lists, and pausing the clocks is seen by the players.
// (The arbiter's `check --claims` is run by TestReadmeQuickStartsRun.)
func TestQuickStartPlayerAndArbiter(t *testing.T) {
	browserTest(t)
	section := quickStart(t, "an arbiter")
	for _, power := range []string{"pause the clocks", "add time", "declare a result", "add a note", "revoke and reissue"} {
		if !strings.Contains(strings.Join(strings.Fields(section), " "), power) {
			t.Errorf("the arbiter's quick start no longer lists %q: update this test", power)
		}
	}
	b := newTabs(t)
	links, white := playerGame(t, b)
	docShot(t, white, "game", 760, "")
	arb := b.open(links["arbiter"], `document.querySelector('#sq-11 rect') && !document.getElementById('arbiter').hidden`)
	if n := js[int](t, arb, `['arb-pause', 'arb-time', 'arb-declare', 'arb-note', 'arb-reissue'].filter(id => { const e = document.getElementById(id); return e && e.offsetParent !== null; }).length`); n != 5 {
		t.Errorf("the arbiter's page shows %d of its 5 powers", n)
	}
	do(t, arb, "pause the clocks", chromedp.Click(chromedp.CSS("#arb-pause")))
	for _, tab := range []context.Context{arb, white} {
		wait(t, tab, "the pause shown", `!document.getElementById('paused').hidden && !document.querySelector('.clock.running')`)
	}
}

// A director follows the README: /director, the event's name and pairing
// system, the buttons it names in its order, the CSV header it gives, a
// result per board, and the standings. The picture of the director's page
// (docs/img/director.png) is taken with round 1's results in.
func TestQuickStartDirector(t *testing.T) {
	browserTest(t)
	section := quickStart(t, "a tournament director")
	url := serveAsREADME(t, section)
	bs := buttons(section)
	want := []string{"Create the event", "Pair round 1", "Publish the pairing", "Close the round"}
	if strings.Join(bs, "|") != strings.Join(want, "|") {
		t.Fatalf("the director's quick start names the buttons %q; this test presses %q: update it", bs, want)
	}
	header := regexp.MustCompile("header\\s+row\\s+`([a-z_,]+)`").FindStringSubmatch(section)
	if header == nil {
		t.Fatal("the director's quick start gives no CSV header row")
	}
	if !strings.Contains(section, "`http://127.0.0.1:8080/director`") {
		t.Fatal("the director's quick start does not open /director")
	}
	b := newTabs(t)
	d := b.open(url+"/director", `document.querySelector('#ev-variant option[value="international"]')`)
	do(t, d, "name the event, Swiss",
		chromedp.SetValue(chromedp.CSS("#ev-name"), "Club Open"),
		chromedp.SetValue(chromedp.CSS("#ev-system"), "swiss"),
		chromedp.SetValue(chromedp.CSS("#ev-rounds"), "3"))
	clickText(t, d, "#event-create", bs[0])
	wait(t, d, "the director's link", `location.pathname.startsWith('/d/') && window.arbiterDirector && arbiterDirector.ready && document.getElementById('keep-box').open`)
	do(t, d, "the link is kept", chromedp.Click(chromedp.CSS("#keep-done")))
	wait(t, d, "the page", `!arbiterDirector.guarded`)
	csv := header[1] + "\nAnna Berg,Bergen DK,NOR,,1850\nBo Dahl,Oslo DK,NOR,,1720\nCarla Eik,,DEN,,1600\nDag Fjell,Bergen DK,NOR,,1500\n"
	do(t, d, "import the CSV", chromedp.SetValue(chromedp.CSS("#import-text"), csv), chromedp.Click(chromedp.CSS("#import")))
	wait(t, d, "four players", `document.querySelectorAll('#players tbody tr').length === 4 && document.getElementById('dir-error').hidden`)
	clickText(t, d, "#pair", bs[1])
	wait(t, d, "round 1 paired", `(arbiterDirector.view.rounds || []).length === 1 && document.querySelectorAll('#boards tbody tr').length === 2`)
	clickText(t, d, "#publish", bs[2])
	wait(t, d, "round 1 published", `arbiterDirector.view.rounds[0].state === 'published' && document.getElementById('r1b2-result')`)
	for _, r := range []struct{ board, result string }{{"1", "1-0"}, {"2", "0-1"}} {
		do(t, d, "board "+r.board+"'s result", chromedp.SetValue(chromedp.CSS("#r1b"+r.board+"-result"), r.result),
			chromedp.Click(chromedp.CSS("#r1b"+r.board+"-save")))
		wait(t, d, "board "+r.board+" saved", `document.getElementById('r1b`+r.board+`-result-cell').dataset.result === '`+r.result+`' && !arbiterDirector.busy`)
	}
	docShot(t, d, "director", 900, "round-box")
	clickText(t, d, "#close", bs[3])
	wait(t, d, "round 1 closed", `arbiterDirector.view.rounds[0].state === 'closed'`)
	public := js[string](t, d, `arbiterDirector.view.public || document.querySelector('#public-links a').href`)
	if !strings.Contains(public, "/e/") {
		t.Fatalf("the public link is %q", public)
	}
	pub := b.open(strings.TrimSuffix(public, "/")+"/standings", `document.querySelectorAll('table tbody tr').length === 4`)
	if got := js[string](t, pub, `document.querySelector('table tbody tr').textContent`); !strings.Contains(got, "Anna Berg") && !strings.Contains(got, "Bo Dahl") && !strings.Contains(got, "Carla Eik") && !strings.Contains(got, "Dag Fjell") {
		t.Errorf("the public standings' first row reads %q", got)
	}
}

// An engine author follows the README: the match block as written (its
// output directory moved to a temporary one) with the --serve the README
// suggests, the summary it names, the live view while the page stays up,
// and the report it prints. Pictures: docs/img/live.png, docs/img/report.png.
func TestQuickStartEngineAuthor(t *testing.T) {
	browserTest(t)
	section := quickStart(t, "an engine author")
	blocks := docBlocks(t, section)
	if len(blocks) == 0 || !blocks[0].run {
		t.Fatal("the engine author's quick start has no runnable block first")
	}
	if !strings.Contains(section, "Add `--serve 8080`") {
		t.Fatal("the engine author's quick start no longer suggests --serve 8080: update this test")
	}
	args := shellWords(t, blocks[0].command)[1:]
	dir := t.TempDir()
	out := filepath.Join(dir, "m")
	for k := 0; k+1 < len(args); k++ {
		if args[k] == "--out" {
			args[k+1] = out
		}
	}
	args = append(args, "--serve", "127.0.0.1:0", "--progress", "off")
	m, stdout, stderr := startWatched(t, dir, args...)
	t.Cleanup(func() {
		if m.ProcessState == nil {
			m.Process.Kill()
			m.Wait()
		}
	})
	waitFor(t, m, "the live view line", func() bool { return liveRE.MatchString(stderr.String()) }, stderr)
	url := liveRE.FindStringSubmatch(stderr.String())[1]
	waitFor(t, m, "the end of the match", func() bool { return strings.Contains(stdout.String(), "match: finished; the live view at") }, stderr)
	for _, want := range blocks[0].expect {
		if !strings.Contains(stdout.String()+stderr.String(), want) {
			t.Errorf("the README says the match shows %q; it printed:\n%s\n%s", want, stdout, stderr)
		}
	}
	b := newTabs(t)
	live := b.open(url+"/", `document.querySelectorAll('#standings tbody tr').length === 2 && Number(document.getElementById('standings').dataset.games) === 4`)
	docShot(t, live, "live", 420, "")
	report := filepath.Join(out, "report.html")
	if !strings.Contains(stdout.String()+stderr.String(), "report: "+report) {
		t.Fatalf("the match does not print its report's path")
	}
	rep := b.open("file://"+report, `document.querySelectorAll('#games-table tbody tr').length === 4`)
	docShot(t, rep, "report", 900, "match-summary")
}
