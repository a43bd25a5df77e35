package reports

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/internal/browser"
	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/rules"
)

// TestViewerLoadsTheSidecar: when the records are too large to embed (a
// large event: here the bounds are lowered), report.html carries none,
// they are in files beside it (games-0.js, games-1.js, ... of 25 games
// each; older files of records are removed), and the viewer loads the one
// file of a game when the game is opened (a file:// page, offline), and
// replays it to the position the rules reach.
func TestViewerLoadsTheSidecar(t *testing.T) {
	bin := browser.Require(t)
	defer func(n, m int) { maxEmbeddedRecords, recordsPerFile = n, m }(maxEmbeddedRecords, recordsPerFile)
	maxEmbeddedRecords, recordsPerFile = 1000, 25
	ev := synthEvent(4, 60, 3)
	dir := t.TempDir()
	for _, stale := range []string{RecordsFile, RecordsChunkFile(3), RecordsChunkFile(12)} {
		os.WriteFile(filepath.Join(dir, stale), []byte("stale"), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "games-x.js"), []byte("not ours"), 0o644)
	if err := WriteAll(dir, ev); err != nil {
		t.Fatal(err)
	}
	var files []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "games") && strings.HasSuffix(e.Name(), ".js") {
			files = append(files, e.Name())
		}
	}
	if strings.Join(files, " ") != "games-0.js games-1.js games-2.js games-x.js" {
		t.Errorf("files of records beside the page: %v, want games-0.js to games-2.js (and games-x.js, not ours)", files)
	}
	page, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), `id="records-data"`) || !strings.Contains(string(page), `"sidecar":true`) {
		t.Fatal("report.html embeds the records or does not name the sidecar")
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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a bound for a loaded machine, not a timing
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
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](fmt.Sprintf("window.arbiterViewer.open(%d)", k))); err != nil {
		t.Fatal(err)
	}
	var readyErr error
	if !poll.Until(30*time.Second, 50*time.Millisecond, func() bool {
		ready, err := chromedp.Run(bctx, chromedp.Evaluate[bool]("window.arbiterViewer.ready()"))
		readyErr = err
		return err == nil && ready
	}) {
		t.Fatalf("the viewer never got the records from games.js (%v)", readyErr)
	}
	// Only the file of game k's records (the second) was loaded.
	keys, err := chromedp.Run(bctx, chromedp.Evaluate[string]("Object.keys(window.arbiterRecords || {}).join(',')"))
	if err != nil || keys != "1" {
		t.Errorf("records loaded: files %q (%v), want only 1", keys, err)
	}
	last, err := chromedp.Run(bctx, chromedp.Evaluate[int]("window.arbiterViewer.last()"))
	if err != nil || last != len(g.Moves) {
		t.Fatalf("last: ply %d of %d, %v", last, len(g.Moves), err)
	}
	got, err := chromedp.Run(bctx, chromedp.Evaluate[string]("window.arbiterViewer.position()"))
	if err != nil || got != positionString(pos) {
		t.Errorf("viewer's last position %s (%v), the rules' %s", got, err, positionString(pos))
	}
	// A smaller report over the same directory embeds its records and
	// leaves no stale file of records.
	maxEmbeddedRecords = 3 << 20
	if err := WriteAll(dir, ev); err != nil {
		t.Fatal(err)
	}
	for n := range 3 {
		if _, err := os.Stat(filepath.Join(dir, RecordsChunkFile(n))); err == nil {
			t.Errorf("%s left beside a report that embeds its records", RecordsChunkFile(n))
		}
	}
}

func TestIsRecordsChunk(t *testing.T) {
	for name, want := range map[string]int{"games-0.js": 0, "games-17.js": 17, "games-01.js": -1, "games-.js": -1, "games-1.jsx": -1,
		"games.js": -1, "games--1.js": -1, "games-+1.js": -1} {
		n, ok := isRecordsChunk(name)
		if ok != (want >= 0) || ok && n != want {
			t.Errorf("isRecordsChunk(%q) = %d, %v; want %d", name, n, ok, want)
		}
	}
}
