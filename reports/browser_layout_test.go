package reports

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/internal/browser"
	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/rules"
)

// layoutState is what the page reports about its width.
type layoutState struct {
	ScrollWidth int      `json:"scrollWidth"`
	InnerWidth  int      `json:"innerWidth"`
	Wide        []string `json:"wide"` // elements sticking out of the viewport
}

const layoutProbe = `(() => {
  const w = window.innerWidth, wide = [];
  document.querySelectorAll('body *').forEach(el => {
    if (el.closest('.table-wrap') || el.closest('ol.moves')) { return; } // these scroll inside themselves
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 1) { wide.push(el.tagName + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className : '') + ' ' + Math.round(r.right)); }
  });
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: w, wide: wide.slice(0, 5) };
})()`

// TestReportLayoutAndViewer opens report.html at a phone's, a tablet's and
// a desktop's width: nothing may stick out sideways, every chart must
// paint, and the board viewer must step through a game to the position
// the rules package reaches at the end of its record.
func TestReportLayoutAndViewer(t *testing.T) {
	bin := browser.Require(t)
	ev := synthEvent(4, 120, 5)
	for i := range ev.Games { // as a cluster's event: the list gains a worker column
		ev.Games[i].Worker = fmt.Sprintf("box-%d", i%2+1)
	}
	dir := t.TempDir()
	if err := WriteAll(dir, ev); err != nil {
		t.Fatal(err)
	}
	// The game the viewer replays, and where the rules say it ends.
	k := 7
	g := &ev.Games[ordered(ev.Games)[k]]
	v := rules.MustLookup("english")
	pos := rules.NewPosition(v)
	for _, m := range g.Moves {
		mv, err := pos.ParseMove(m.Text)
		if err != nil {
			t.Fatal(err)
		}
		pos = pos.Play(mv)
	}
	want := positionString(pos)
	flagged := 0 // games with a side's latency high
	for i := range ev.Games {
		w, b, _, _ := sideLatency(&ev.Games[i], moveBudget(ev.TimeControl))
		if w.High || b.High {
			flagged++
		}
	}
	if flagged == 0 || flagged == len(ev.Games) {
		t.Fatalf("%d of %d games flagged: the test cannot tell", flagged, len(ev.Games))
	}

	allocOpts := browser.Options(bin, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a bound for a loaded machine, not a timing
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, allocOpts...)
	defer cancelAlloc()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	url := "file://" + filepath.Join(dir, HTMLFile)
	for _, width := range []int64{360, 768, 1400} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			if err := chromedp.Do(bctx, chromedp.EmulateViewport(width, 900),
				chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
				t.Fatalf("open %s: %v", url, err)
			}
			var states []chartState
			var probeErr error
			poll.Until(time.Minute, 0, func() bool {
				states, probeErr = chromedp.Run(bctx, chromedp.Evaluate[[]chartState](chartProbe))
				if probeErr != nil {
					return true
				}
				done := len(states) > 0
				for _, s := range states {
					done = done && s.Painted >= 50
				}
				return done
			})
			if probeErr != nil {
				t.Fatal(probeErr)
			}
			for _, s := range states {
				if s.Painted < 50 || s.Width == 0 {
					t.Errorf("chart %s not drawn at %d px: %+v", s.ID, width, s)
				}
			}
			lay, err := chromedp.Run(bctx, chromedp.Evaluate[layoutState](layoutProbe))
			if err != nil {
				t.Fatal(err)
			}
			if lay.ScrollWidth > lay.InnerWidth || len(lay.Wide) > 0 {
				t.Errorf("at %d px the page is %d px wide (window %d): %v", width, lay.ScrollWidth, lay.InnerWidth, lay.Wide)
			}
			browser.Keep(t, fmt.Sprintf("reports/layout-%d.png", width), func() ([]byte, error) {
				return chromedp.Run(bctx, chromedp.FullScreenshot(90))
			})
			// The viewer: open game k, step one ply, then to the end.
			if _, err := chromedp.Run(bctx, chromedp.Evaluate[any](fmt.Sprintf("window.arbiterViewer.open(%d)", k))); err != nil {
				t.Fatal(err)
			}
			ply, err := chromedp.Run(bctx, chromedp.Evaluate[int]("window.arbiterViewer.step(1)"))
			if err != nil || ply != 1 {
				t.Fatalf("step: ply %d, %v", ply, err)
			}
			last, err := chromedp.Run(bctx, chromedp.Evaluate[int]("window.arbiterViewer.last()"))
			if err != nil || last != len(g.Moves) {
				t.Fatalf("last: ply %d of %d, %v", last, len(g.Moves), err)
			}
			got, err := chromedp.Run(bctx, chromedp.Evaluate[string]("window.arbiterViewer.position()"))
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("viewer's last position %s, the record's %s", got, want)
			}
			pieces, err := chromedp.Run(bctx, chromedp.Evaluate[int]("document.querySelectorAll('#board circle.piece').length"))
			if err != nil || pieces != strings.Count(want, "w")+strings.Count(want, "W")+strings.Count(want, "b")+strings.Count(want, "B") {
				t.Errorf("board shows %d pieces (%v), the position has %d", pieces, err, len(strings.Trim(want, ".")))
			}
			// The filter narrows the list.
			n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`(() => { const f = document.getElementById('game-filter');
				f.value = 'r2 engine-A'; f.dispatchEvent(new Event('input'));
				return document.querySelectorAll('#games-table tbody tr').length; })()`))
			if err != nil || n == 0 || n >= len(ev.Games) {
				t.Errorf("filter 'r2 engine-A' shows %d rows of %d (%v)", n, len(ev.Games), err)
			}
			// The worker column, and the filter reads it too.
			n, err = chromedp.Run(bctx, chromedp.Evaluate[int](`(() => { const f = document.getElementById('game-filter');
				f.value = 'box-2'; f.dispatchEvent(new Event('input'));
				const head = [...document.querySelectorAll('#games-table thead th')].map(th => th.textContent);
				const rows = [...document.querySelectorAll('#games-table tbody tr')];
				if (head[head.length - 1] !== 'Worker' || rows.some(tr => tr.lastChild.textContent !== 'box-2')) { return -1; }
				return rows.length; })()`))
			if err != nil || n <= 0 || n >= len(ev.Games) {
				t.Errorf("filter 'box-2' with a worker column: %d rows of %d (%v)", n, len(ev.Games), err)
			}
			// The latency column: "high-latency" finds the flagged games,
			// each shown in red with a "!", and the engines' table.
			n, err = chromedp.Run(bctx, chromedp.Evaluate[int](`(() => { const f = document.getElementById('game-filter');
				f.value = 'high-latency'; f.dispatchEvent(new Event('input'));
				const head = [...document.querySelectorAll('#games-table thead th')].map(th => th.textContent);
				const col = head.indexOf('Latency');
				const rows = [...document.querySelectorAll('#games-table tbody tr')];
				if (col < 0 || rows.some(tr => !tr.children[col].classList.contains('hi') || !/ms !$/.test(tr.children[col].textContent))) { return -1; }
				return rows.length; })()`))
			if err != nil || n != flagged {
				t.Errorf("filter 'high-latency': %d rows (%v), want the %d flagged games", n, err, flagged)
			}
			lrows, err := chromedp.Run(bctx, chromedp.Evaluate[int]("document.querySelectorAll('#latency-table tbody tr').length"))
			if err != nil || lrows != len(ev.Engines) {
				t.Errorf("latency table has %d rows (%v), want one per engine (%d)", lrows, err, len(ev.Engines))
			}
			inc, err := chromedp.Run(bctx, chromedp.Evaluate[int]("document.querySelectorAll('#incident-table tbody tr a').length"))
			if err != nil || inc == 0 {
				t.Errorf("incident log has %d linked rows (%v)", inc, err)
			}
		})
	}
}
