package reports

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/internal/browser"
	"github.com/draughts-arbiter/arbiter/rules"
)

// TestViewerLoadsTheSidecar: when the records are too large to embed (a
// large event: here the bound is lowered), report.html carries none, they
// are in games.js beside it, and the viewer loads them from there (a
// file:// page, offline) when a game is opened, and replays the game to
// the position the rules reach.
func TestViewerLoadsTheSidecar(t *testing.T) {
	bin := browser.Require(t)
	defer func(n int) { maxEmbeddedRecords = n }(maxEmbeddedRecords)
	maxEmbeddedRecords = 1000
	ev := synthEvent(4, 60, 3)
	dir := t.TempDir()
	if err := WriteAll(dir, ev); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), `id="records-data"`) || !strings.Contains(string(page), `"sidecar":true`) {
		t.Fatal("report.html embeds the records or does not name the sidecar")
	}
	if fi, err := os.Stat(filepath.Join(dir, RecordsFile)); err != nil || fi.Size() <= int64(maxEmbeddedRecords) {
		t.Fatalf("games.js: %v, %v", fi, err)
	}
	k := 41
	g := &ev.Games[ordered(ev.Games)[k]]
	pos := rules.NewPosition(rules.MustLookup("english"))
	for _, m := range g.Moves {
		mv, err := pos.ParseMove(m.Text)
		if err != nil {
			t.Fatal(err)
		}
		pos = pos.Play(mv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, browser.Options(bin, t.TempDir())...)
	defer cancelAlloc()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	if err := chromedp.Do(bctx, chromedp.Navigate("file://"+filepath.Join(dir, HTMLFile)), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatal(err)
	}
	loaded, err := chromedp.Run(bctx, chromedp.Evaluate[bool]("typeof window.arbiterRecords !== 'undefined'"))
	if err != nil || loaded {
		t.Fatalf("games.js loaded before any game was opened (%v)", err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[any]("window.arbiterViewer.open(41)")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		ready, err := chromedp.Run(bctx, chromedp.Evaluate[bool]("window.arbiterViewer.ready()"))
		if err != nil {
			t.Fatal(err)
		}
		if ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the viewer never got the records from games.js")
		}
		time.Sleep(50 * time.Millisecond)
	}
	last, err := chromedp.Run(bctx, chromedp.Evaluate[int]("window.arbiterViewer.last()"))
	if err != nil || last != len(g.Moves) {
		t.Fatalf("last: ply %d of %d, %v", last, len(g.Moves), err)
	}
	got, err := chromedp.Run(bctx, chromedp.Evaluate[string]("window.arbiterViewer.position()"))
	if err != nil || got != positionString(pos) {
		t.Errorf("viewer's last position %s (%v), the rules' %s", got, err, positionString(pos))
	}
}
