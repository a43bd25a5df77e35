package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/internal/browser"
)

// A spectator follows a running match's live view (match --serve) on a
// phone that goes offline while an engine thinks (it hangs: its clock runs
// for the whole test). The page says at once that the connection is lost
// (it said nothing for three of the server's beats, 45 s) and the engines'
// clocks stand, greyed in a dashed box titled "Not current: no connection
// to the server", though more than a second passes (they ticked on,
// unmarked). Back online the page reconnects by itself, the notice goes
// and the thinking engine's clock runs again from the server's figures.
func TestMatchLiveViewOffline(t *testing.T) {
	browserTest(t)
	browser.Require(t)
	dir := t.TempDir()
	m, _, stderr := startWatched(t, dir, "match",
		"--engine", "cmd=self engine --variant english --level 1 --fault hang-at=2",
		"--engine", "cmd=self engine --variant english --level 1",
		"--variant", "english", "--games-per-encounter", "2", "--time-control", "600",
		"--out", filepath.Join(dir, "ev"), "--progress", "off", "--serve", "127.0.0.1:0")
	t.Cleanup(func() {
		if m.ProcessState == nil {
			m.Process.Kill()
			m.Wait()
		}
	})
	waitFor(t, m, "the live view's address", func() bool { return liveRE.MatchString(stderr.String()) }, stderr)
	url := liveRE.FindStringSubmatch(stderr.String())[1]

	tab := newTab(t, browserFor(t, 3*time.Minute))
	wait := func(what, cond string) {
		t.Helper()
		if err := chromedp.Do(tab, chromedp.Poll[chromedp.Void](cond)); err != nil {
			t.Fatalf("%s (%s): %v", what, cond, err)
		}
	}
	text := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(tab, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return s
	}
	// offline cuts the tab's network as DevTools does (new requests fail,
	// navigator.onLine and the offline and online events follow).
	offline := func(off bool) {
		t.Helper()
		err := chromedp.Do(tab, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
				return err
			}
			cond := &network.Conditions{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}
			if _, err := cdp.Call(ctx, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{cond}}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, tg, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
			return err
		}))
		if err != nil {
			t.Fatalf("offline %v: %v", off, err)
		}
	}
	shots := func(name string) {
		for _, w := range []int64{390, 1366} {
			if err := chromedp.Do(tab, chromedp.EmulateViewport(w, 900)); err != nil {
				t.Fatal(err)
			}
			browser.Keep(t, fmt.Sprintf("cmd/live-offline-%s-%d.png", name, w), func() ([]byte, error) {
				return chromedp.Run(tab, chromedp.CaptureScreenshot())
			})
		}
	}

	if err := chromedp.Do(tab, chromedp.EmulateViewport(390, 900), chromedp.Navigate(url+"/")); err != nil {
		t.Fatal(err)
	}
	wait("an engine's clock runs", `document.querySelector('.game-card .clock.running') && document.getElementById('conn').hidden`)
	clock := `document.querySelector('.game-card .player-` + text(`document.querySelector('.game-card .clock.running').closest('.player').classList.contains('player-white') ? 'white' : 'black'`) + ` .clock')`

	offline(true)
	wait("the notice, the clocks marked", `document.getElementById('conn').textContent === 'Connection lost: waiting for the network…' && !document.getElementById('conn').hidden &&
		document.querySelectorAll('.game-card .clock.stale').length === 2 && !document.querySelector('.game-card .clock.running')`)
	shown := text(clock + `.textContent`)
	wait("a second passes", `performance.now() - arbiterLive.stream.stand.at > 1500`)
	if got := text(clock + `.textContent`); got != shown {
		t.Errorf("offline the thinking engine's clock went from %s to %s", shown, got)
	}
	if got := text(clock + `.title`); got != "Not current: no connection to the server" {
		t.Errorf("the clock not current says %q", got)
	}
	shots("stands")

	offline(false)
	wait("the notice goes, the clock runs", `document.getElementById('conn').hidden && `+clock+`.classList.contains('running') && !document.querySelector('.game-card .clock.stale')`)
	shots("back")
}
