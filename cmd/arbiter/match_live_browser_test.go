package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/internal/browser"
)

// An engine author opens the live view of a match that has just ended (it
// stays up after the match: --serve) on a phone and on a desktop: the
// standings show both engines with the report's points, and the engines'
// long names (a name taken from the command) make the tables wider than a
// 390 px screen: they scroll inside their own box, never the page.
func TestMatchLiveViewOnAPhone(t *testing.T) {
	browserTest(t)
	browser.Require(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "ev")
	m, stdout, stderr := startWatched(t, dir, "match",
		"--engine", "cmd=self engine --level 1 --seed 11 --variant international",
		"--engine", "cmd=self engine --level 3 --seed 12 --variant international",
		"--variant", "international", "--games-per-encounter", "2", "--time-control", "30+0.5",
		"--out", out, "--progress", "off", "--serve", "127.0.0.1:0")
	t.Cleanup(func() {
		if m.ProcessState == nil {
			m.Process.Kill()
			m.Wait()
		}
	})
	waitFor(t, m, "the end of the match", func() bool { return strings.Contains(stdout.String(), "match: finished; the live view at") }, stderr)
	url := liveRE.FindStringSubmatch(stderr.String())[1]

	bctx := newTab(t, browserFor(t, 5*time.Minute))
	for _, width := range []int64{390, 1366} {
		if err := chromedp.Do(bctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate(url+"/"),
			chromedp.Poll[chromedp.Void](`document.querySelectorAll('#standings tbody tr').length === 2 &&
				Number(document.getElementById('standings').dataset.games) === 2`)); err != nil {
			t.Fatalf("at %d px the live standings do not show the two engines' 2 games: %v", width, err)
		}
		type layout struct {
			Page, Window   int
			Box, BoxInside int
			Cross, CrossIn int
			Names          []string
			// Wide and Hint are, per table box, whether it is wider than
			// its box and whether the line saying to swipe it is shown.
			Wide, Hint []bool
		}
		lay, err := chromedp.Run(bctx, chromedp.Evaluate[layout](`(() => {
			const box = document.getElementById('standings').parentElement, cross = document.getElementById('cross').parentElement;
			return {Page: document.documentElement.scrollWidth, Window: window.innerWidth,
				Box: box.clientWidth, BoxInside: box.scrollWidth, Cross: cross.clientWidth, CrossIn: cross.scrollWidth,
				Names: [...document.querySelectorAll('#standings tbody tr td:nth-child(2)')].map(td => td.textContent),
				Wide: [...document.querySelectorAll('.scroll-x')].map(b => b.scrollWidth > b.clientWidth + 1),
				Hint: [...document.querySelectorAll('.scroll-x')].map(b => { const h = b.nextElementSibling;
					return !!h && h.classList.contains('scroll-hint') && !h.hidden && h.offsetHeight > 0; })}; })()`))
		if err != nil {
			t.Fatal(err)
		}
		if lay.Page > lay.Window {
			t.Errorf("at %d px the page is %d px wide: it scrolls sideways", width, lay.Page)
		}
		if lay.Box > lay.Window || lay.Cross > lay.Window {
			t.Errorf("at %d px a table's box is wider than the window: %+v", width, lay)
		}
		if width == 390 && lay.BoxInside <= lay.Box && lay.CrossIn <= lay.Cross {
			t.Errorf("at 390 px neither table is wider than its box (%+v): the test proves nothing about scrolling", lay)
		}
		// A table wider than the screen says so: its last columns (the
		// score) are out of sight, and nothing else shows that it scrolls.
		if len(lay.Wide) != 2 || !slices.Equal(lay.Wide, lay.Hint) {
			t.Errorf("at %d px the tables wider than their box %v, the swipe hints shown %v", width, lay.Wide, lay.Hint)
		}
		if len(lay.Names) != 2 || !strings.Contains(lay.Names[0], "engine --level") {
			t.Errorf("standings names %q", lay.Names)
		}
		browser.Keep(t, fmt.Sprintf("cmd/live-match-end-%d.png", width), func() ([]byte, error) {
			return chromedp.Run(bctx, chromedp.FullScreenshot(100))
		})
	}
	m.Process.Signal(syscall.SIGINT)
	if code := exitStatus(t, m); code != 0 {
		t.Errorf("exit %d", code)
	}
}
