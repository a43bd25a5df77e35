package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/internal/browser"
)

// One headless Chromium serves the package's browser tests: the first
// starts it, TestMain closes it (closeBrowser). Each test had a browser of
// its own, whose start cost it 1.5 to 3 s on a loaded machine; each tab is
// now in a browser context of its own (a person's own browser: its own
// storage and cache), which is what the test's own browser gave it.
var chromium struct {
	once   sync.Once
	ctx    context.Context // the browser (its first tab keeps it alive)
	cancel context.CancelFunc
	err    error
}

// browserTest begins a test that opens pages in the shared browser: it runs
// beside the package's other parallel tests (t.Parallel, as many at once as
// go test's -parallel: GOMAXPROCS, two on CI). Each has its own processes,
// files and browser contexts, and waits for conditions; much of its time
// is spent waiting (a match to finish, a page to load), which another test
// can use.
func browserTest(t *testing.T) {
	t.Helper()
	t.Parallel()
}

// sharedBrowser starts the browser on first use, or ends the test as
// browser.Require does when there is none.
func sharedBrowser(t *testing.T) context.Context {
	t.Helper()
	bin := browser.Require(t)
	chromium.once.Do(func() {
		dir, err := os.MkdirTemp("", "arbiter-cmd-chromium-")
		if err != nil {
			chromium.err = err
			return
		}
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
			browser.Options(bin, dir, chromedp.WindowSize(1366, 900))...)
		bctx, cancelB := chromedp.NewContext(actx)
		if err := chromedp.Do(bctx); err != nil {
			cancelB()
			cancelAlloc()
			os.RemoveAll(dir)
			chromium.err = fmt.Errorf("starting %s: %w", bin, err)
			return
		}
		chromium.ctx = bctx
		chromium.cancel = func() { cancelB(); cancelAlloc(); os.RemoveAll(dir) }
	})
	if chromium.err != nil {
		t.Fatal(chromium.err)
	}
	return chromium.ctx
}

// closeBrowser closes the shared browser, if a test started it.
func closeBrowser() {
	if chromium.cancel != nil {
		chromium.cancel()
	}
}

// browserFor is the shared browser bounded for one test: every tab opened
// under it closes when the test ends or bound passes (a bound for a loaded
// machine, not a timing).
func browserFor(t *testing.T, bound time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(sharedBrowser(t), bound)
	t.Cleanup(cancel)
	return ctx
}

// newTab opens a tab of parent (browserFor's) in a new browser context,
// with opts (a listener); it closes when the test ends.
func newTab(t *testing.T, parent context.Context, opts ...chromedp.ContextOption) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent, append([]chromedp.ContextOption{chromedp.WithNewBrowserContext()}, opts...)...)
	t.Cleanup(cancel)
	// The first action opens the tab, on ctx itself.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return ctx
}

// TestEveryBrowserTestRunsBeside reads the package's tests: each top-level
// test that uses the shared browser (sharedBrowser, directly or through a
// helper) begins with browserTest, so that it runs beside the others.
func TestEveryBrowserTestRunsBeside(t *testing.T) {
	browser.CheckTestsBegin(t, "browserTest", "sharedBrowser")
}
