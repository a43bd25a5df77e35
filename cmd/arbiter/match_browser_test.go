package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/internal/browser"
)

// TestEngineAuthorCleanMatchReport follows an engine author through the
// README: run a match between two engines with nothing unusual in it (no
// forfeit, no adjudication, no incident), open the report.html it prints in
// a browser, see the games in the list, open one and step through it in the
// board viewer. The clean match is the case that broke: results with no
// incident at all left the page's lists null and the page dead.
func TestEngineAuthorCleanMatchReport(t *testing.T) {
	browserTest(t)
	browser.Require(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "m")
	stdout, stderr, code := runArbiter(t, dir, "match",
		"--engine", "name=A cmd=self engine --level 2 --seed 1",
		"--engine", "name=B cmd=self engine --level 3 --seed 2",
		"--games-per-encounter", "4", "--time-control", "60+1", "--out", out)
	if code != 0 {
		t.Fatalf("match: exit %d\n%s\n%s", code, stdout, stderr)
	}
	all := stdout + stderr
	report := filepath.Join(out, "report.html")
	if !strings.Contains(all, "report: "+report) {
		t.Fatalf("the run does not say where its report is:\n%s", all)
	}
	results, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"encounters", "terminations", "engines", "participants"} {
		if strings.Contains(string(results), fmt.Sprintf("%q: null", key)) {
			t.Errorf("results.json holds %q: null", key)
		}
	}

	var mu sync.Mutex
	var problems []string
	browserCtx := browserFor(t, 5*time.Minute)
	listener := func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			mu.Lock()
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			problems = append(problems, msg)
			mu.Unlock()
		}
	}
	for _, width := range []int64{1366, 390} {
		// A new tab per width, as a person opening the file anew.
		bctx := newTab(t, browserCtx, chromedp.WithListener(listener))
		if err := chromedp.Do(bctx, chromedp.EmulateViewport(width, 900),
			chromedp.Navigate("file://"+report),
			chromedp.WaitVisible(chromedp.CSS("#games-table tbody tr"))); err != nil {
			t.Fatalf("at %d px the games list shows no row: %v", width, err)
		}
		rows, err := chromedp.Run(bctx, chromedp.Evaluate[int]("document.querySelectorAll('#games-table tbody tr').length"))
		if err != nil || rows != 4 {
			t.Errorf("at %d px the games list has %d rows (%v), want the 4 games played", width, rows, err)
		}
		count, _ := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#game-count")))
		if !strings.Contains(count, "4 of 4 games") {
			t.Errorf("the list says %q, want 4 of 4 games", count)
		}
		empty, _ := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#incidents")))
		if !strings.Contains(empty, "No incidents") {
			t.Errorf("the incident log of a clean match says %q, want No incidents", empty)
		}
		// Open the second game as a person does: a tap on its row (on the
		// white engine's name: at 390 px the row is wider than its box).
		board := `[...document.querySelectorAll('#board circle.piece')].map(c => c.getAttribute('class') + '@' + c.getAttribute('cx') + ',' + c.getAttribute('cy')).join(' ')`
		if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#games-table tbody tr:nth-child(2) td:nth-child(3)")),
			chromedp.Poll[chromedp.Void](`/ply \d+ of [1-9]/.test(document.getElementById('v-ply').textContent)`)); err != nil {
			t.Fatalf("at %d px a click on game 2 opens nothing in the viewer: %v", width, err)
		}
		title, _ := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#viewer-title")))
		if !strings.Contains(title, "board 1") && !strings.Contains(title, "Round") {
			t.Errorf("the viewer's title is %q", title)
		}
		if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#v-first")),
			chromedp.Poll[chromedp.Void](`/^ply 0 of/.test(document.getElementById('v-ply').textContent)`)); err != nil {
			t.Fatal(err)
		}
		before, err := chromedp.Run(bctx, chromedp.Evaluate[string](board))
		if err != nil || before == "" {
			t.Fatalf("the start position shows no piece (%v)", err)
		}
		if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#v-next")),
			chromedp.Poll[chromedp.Void](`/^ply 1 of/.test(document.getElementById('v-ply').textContent)`)); err != nil {
			t.Fatalf("next ply: %v", err)
		}
		after, err := chromedp.Run(bctx, chromedp.Evaluate[string](board))
		if err != nil || after == before {
			t.Errorf("at %d px the board did not change after the first ply (%v)", width, err)
		}
		if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#v-last")),
			chromedp.Poll[chromedp.Void](`(() => { const m = /^ply (\d+) of (\d+)/.exec(document.getElementById('v-ply').textContent); return m && m[1] === m[2]; })()`)); err != nil {
			t.Fatalf("last ply: %v", err)
		}
		end, _ := chromedp.Run(bctx, chromedp.Evaluate[string](board))
		if end == before || end == after {
			t.Errorf("at %d px the last position is the start or the first ply's", width)
		}
		wide, err := chromedp.Run(bctx, chromedp.Evaluate[bool]("document.documentElement.scrollWidth > window.innerWidth"))
		if err != nil || wide {
			t.Errorf("at %d px the report scrolls sideways (%v)", width, err)
		}
		browser.Keep(t, fmt.Sprintf("cmd/report-clean-match-%d.png", width), func() ([]byte, error) {
			return chromedp.Run(bctx, chromedp.FullScreenshot(100))
		})
		// What the person looks at: the games list and the viewer.
		browser.Keep(t, fmt.Sprintf("cmd/report-clean-match-games-%d.png", width), func() ([]byte, error) {
			if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(document.getElementById('games') || document.getElementById('games-table')).scrollIntoView(), true`)); err != nil {
				return nil, err
			}
			return chromedp.Run(bctx, chromedp.CaptureScreenshot())
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the page threw:\n%s", strings.Join(problems, "\n"))
	}
}
