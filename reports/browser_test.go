package reports

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/internal/browser"
	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// chartState is what the page reports about one chart div.
type chartState struct {
	ID       string `json:"id"`
	Instance bool   `json:"instance"`
	Series   int    `json:"series"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Painted  int    `json:"painted"` // non-transparent pixels sampled on the canvas
}

// chartProbe inspects every chart div: an echarts instance must be bound to
// it, and its canvas must have a size and visible pixels.
const chartProbe = `(() => Array.from(document.querySelectorAll('div.chart')).map(el => {
  const inst = (typeof echarts !== 'undefined') ? echarts.getInstanceByDom(el) : null;
  const cv = el.querySelector('canvas');
  let painted = 0;
  if (cv && cv.width > 0 && cv.height > 0) {
    const data = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
    for (let i = 3; i < data.length; i += 4 * 7) { if (data[i] !== 0) painted++; }
  }
  return { id: el.id, instance: !!inst, series: inst ? (inst.getOption().series || []).length : 0,
           width: cv ? cv.width : 0, height: cv ? cv.height : 0, painted: painted };
}))()`

// TestReportInChromium opens report.html of a synthetic event in headless
// Chromium from a file:// URL and checks that every chart rendered, that no
// script error or console error occurred and that the page asked for
// nothing beyond its own file.
func TestReportInChromium(t *testing.T) {
	bin := browser.Require(t)
	ev := synthEvent(5, 400, 21)
	cfg := stats.SPRTConfig{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	_ = cfg // a round-robin has no SPRT; the SPRT panel is covered by the match below
	dir := t.TempDir()
	if err := WriteAll(dir, ev); err != nil {
		t.Fatal(err)
	}
	match := synthEvent(2, 200, 22)
	match.SPRT = &cfg
	matchDir := filepath.Join(dir, "match")
	if err := WriteAll(matchDir, match); err != nil {
		t.Fatal(err)
	}
	// A deliberately broken copy proves the checks can fail: a script
	// error, a console error, a request to the network and a chart whose
	// option is missing.
	brokenDir := filepath.Join(dir, "broken")
	page, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(page), `"chart-length":`, `"chart-length-gone":`, 1)
	end := strings.LastIndex(broken, "</body>") // the last one: echarts's code holds the string too
	broken = broken[:end] + `<script>console.error("boom"); noSuchFunction();</script>` +
		`<img src="http://127.0.0.1:9/pixel.png">` + broken[end:]
	os.MkdirAll(brokenDir, 0o755)
	if err := os.WriteFile(filepath.Join(brokenDir, HTMLFile), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}

	allocOpts := browser.Options(bin, t.TempDir(), chromedp.WindowSize(1280, 1000))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a bound for a loaded machine, not a timing
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, allocOpts...)
	defer cancelAlloc()

	for _, page := range []struct {
		dir    string
		charts int
		sprt   bool
		broken bool
	}{{dir, 9, false, false}, {matchDir, 9, true, false}, {brokenDir, 9, false, true}} {
		t.Run(filepath.Base(page.dir), func(t *testing.T) {
			var mu sync.Mutex
			var problems, requests []string
			// The listener is installed before the tab starts, so it sees
			// every event of the page load. It only records (it runs on the
			// tab's reader goroutine).
			listener := func(ev any) {
				mu.Lock()
				defer mu.Unlock()
				switch ev := ev.(type) {
				case *runtime.EventExceptionThrown:
					d := ev.ExceptionDetails
					msg := d.Text
					if d.Exception != nil {
						msg += " " + d.Exception.Description
					}
					problems = append(problems, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
				case *runtime.EventConsoleAPICalled:
					if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
						var args []string
						for _, a := range ev.Args {
							args = append(args, strings.TrimSpace(string(a.Value)+" "+a.Description))
						}
						problems = append(problems, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
					}
				case *log.EventEntryAdded:
					if ev.Entry.Level == log.EntryLevelError {
						problems = append(problems, "browser log: "+ev.Entry.Text+" "+ev.Entry.URL)
					}
				case *network.EventRequestWillBeSent:
					requests = append(requests, ev.Request.URL)
				}
			}
			bctx, cancelB := chromedp.NewContext(actx, chromedp.WithListener(listener))
			defer cancelB()
			url := "file://" + filepath.Join(page.dir, HTMLFile)
			if err := chromedp.Do(bctx, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
				t.Fatalf("open %s: %v", url, err)
			}
			// echarts paints on the next animation frame: wait until every
			// chart that can paint has (in the broken copy one never will).
			var states []chartState
			var probeErr error
			poll.Until(time.Minute, 0, func() bool {
				states, probeErr = chromedp.Run(bctx, chromedp.Evaluate[[]chartState](chartProbe))
				if probeErr != nil {
					return true
				}
				painted := 0
				for _, s := range states {
					if s.Painted > 0 {
						painted++
					}
				}
				want := len(states)
				if page.broken {
					want--
				}
				return len(states) > 0 && painted >= want
			})
			if probeErr != nil {
				t.Fatalf("probe: %v", probeErr)
			}
			browser.Keep(t, "reports/"+filepath.Base(page.dir)+".png", func() ([]byte, error) {
				return chromedp.Run(bctx, chromedp.FullScreenshot(100))
			})
			if page.sprt {
				verdict, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#sprt .verdict")))
				if err != nil {
					t.Errorf("SPRT panel: %v", err)
				} else if strings.TrimSpace(verdict) == "" {
					t.Errorf("SPRT verdict empty")
				}
			}
			// Every browser command is done: only now take the lock the
			// listener uses (holding it earlier would stall the tab).
			cancelB()
			if len(states) != page.charts {
				t.Errorf("%d chart divs, want %d", len(states), page.charts)
			}
			var failed []string
			for _, s := range states {
				if !s.Instance || s.Series == 0 || s.Width == 0 || s.Height == 0 || s.Painted < 50 {
					failed = append(failed, fmt.Sprintf("chart %s did not render: %+v", s.ID, s))
				}
			}
			mu.Lock()
			defer mu.Unlock()
			var external []string
			for _, r := range requests {
				if !strings.HasPrefix(r, "file://") {
					external = append(external, "page requested "+r)
				}
			}
			if len(requests) == 0 {
				t.Errorf("no request seen at all: the network listener is not working")
			}
			if page.broken {
				// Each planted fault must be caught.
				if len(failed) != 1 || !strings.Contains(failed[0], "chart-length") {
					t.Errorf("missing chart not detected: %v", failed)
				}
				if len(external) == 0 {
					t.Errorf("network request not detected (requests %v)", requests)
				}
				joined := strings.Join(problems, "\n")
				if !strings.Contains(joined, "noSuchFunction") || !strings.Contains(joined, "boom") {
					t.Errorf("script errors not detected: %v", problems)
				}
				return
			}
			for _, f := range append(failed, external...) {
				t.Error(f)
			}
			for _, p := range problems {
				t.Errorf("page error: %s", p)
			}
		})
	}
}
