// Package browser is what the project's browser tests share: where headless
// Chromium is, the rule for a machine without it (the test skips with a
// clear message, except under CI=true, where it fails: CI installs it), and
// the flags every test starts it with. It is imported by tests only.
package browser

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// Find returns the browser to drive, or "" when there is none. Debian's
// package installs /usr/bin/chromium; CHROMIUM may point elsewhere (an
// explicit choice that does not exist counts as missing).
func Find() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		p, _ = exec.LookPath(p)
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TB is the part of testing.TB that Require uses.
type TB interface {
	Helper()
	Fatal(args ...any)
	Skip(args ...any)
}

// Require returns the browser, or ends the test when there is none: a skip
// naming the package to install, or under CI=true a failure. Under -short
// (make test-quick) every browser test skips.
func Require(t TB) string {
	t.Helper()
	SkipShort(t)
	bin := Find()
	if bin == "" {
		Missing(t)
	}
	return bin
}

// SkipShort skips a browser test under go test -short: the quick edit
// loop (make test-quick) runs no browser.
func SkipShort(t TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test: skipped under -short (make test-quick); make test runs it")
	}
}

// Missing ends a test that found no browser (see Require).
func Missing(t TB) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found (install Debian's chromium package); required when CI=true")
	}
	t.Skip("chromium not found: install Debian's chromium package (apt-get install chromium) to run the browser tests")
}

// Options are the allocator options of a headless browser at bin with its
// profile in dir: no first-run pages, no background network or updates (a
// test's page asks for nothing it did not load), background tabs that
// keep their timers and event streams live (two players' tabs at once),
// and no address bar's suggestion popup (see noBrowserUI). More options (a
// window size) may follow.
func Options(bin, dir string, more ...chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	return append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-features", noBrowserUI),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.UserDataDir(dir),
	}, more...)
}

// noBrowserUI names the features (Chromium's, by name; a browser that
// lacks one ignores it) that draw the address bar's suggestion popup as a
// web page: Chromium 156 opens two such pages, in a renderer process of
// their own, with every window, and each tab a test opens in a browser
// context of its own is a window. A headless browser never shows that
// popup; the tests' own pages are untouched. Without them a test's new tab
// cost some 50% more CPU, and the browser tests open some 100.
const noBrowserUI = "WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup,PreloadTopChromeWebUI"

// Keep saves what take makes (a screenshot, a printed PDF) as file in the
// folder ARBITER_ARTIFACTS names, for a person to judge a page by (at 390
// and 1366 px, say). Without it take is not called: make test asserts the
// layout and keeps no pictures, which cost a loaded machine time that
// nobody looks at. A picture that fails is logged, not fatal: the test's
// assertions are elsewhere.
func Keep(t testing.TB, file string, take func() ([]byte, error)) {
	t.Helper()
	dir := os.Getenv("ARBITER_ARTIFACTS")
	if dir == "" {
		return
	}
	data, err := take()
	if err != nil {
		t.Logf("%s not taken: %v", file, err)
		return
	}
	path := filepath.Join(dir, file)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("kept %s", path)
}
