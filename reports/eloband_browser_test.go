package reports

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/internal/browser"
	"github.com/draughts-arbiter/arbiter/internal/poll"
)

// bandProbe reads, for every point of the "Elo over the event" chart where
// an engine's interval band is drawn, where echarts stacked the band's top
// and the interval's upper end the option gives (lower + width): the two
// must agree (the point's Elo is where its encode says, at 1 without one).
const bandProbe = `(() => {
  const inst = echarts.getInstanceByDom(document.getElementById('chart-elo-progress'));
  if (!inst) return null;
  const series = inst.getOption().series, model = inst.getModel(), out = [];
  for (let i = 2; i < series.length; i += 3) {
    const data = model.getSeriesByIndex(i).getData();
    const dim = data.getCalculationInfo('stackResultDimension');
    let y = series[i].encode ? series[i].encode.y : 1; // which value of a point is the Elo
    if (Array.isArray(y)) y = y[0];
    series[i].data.forEach((p, k) => {
      const low = series[i-1].data[k][y];
      if (typeof p[y] !== 'number' || typeof low !== 'number') return;
      out.push({lower: low, upper: low + p[y], top: data.get(dim, k)});
    });
  }
  return out;
})()`

// The Elo progress chart draws each engine's interval as a band stacked on
// its lower end. echarts stacked the points' first value, the games, not
// the Elo: a match of Scan against itself at -29 ± 91 Elo showed a shaded
// band from 0 up to +750. The page in Chromium must stack the band's width
// on its lower end, negative or not.
func TestBrowserEloBandOnItsLowerEnd(t *testing.T) {
	bin := browser.Require(t)
	dir := t.TempDir()
	if err := WriteAll(dir, synthEvent(2, 200, 22)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a bound for a loaded machine, not a timing
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, browser.Options(bin, t.TempDir(), chromedp.WindowSize(1366, 1000))...)
	defer cancelAlloc()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	if err := chromedp.Do(bctx, chromedp.Navigate("file://"+filepath.Join(dir, HTMLFile)), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatal(err)
	}
	type point struct{ Lower, Upper, Top float64 }
	var points []point
	var err error
	poll.Until(time.Minute, 0, func() bool {
		points, err = chromedp.Run(bctx, chromedp.Evaluate[[]point](bandProbe))
		return err != nil || len(points) > 0
	})
	if err != nil {
		t.Fatal(err)
	}
	negative := 0
	for _, p := range points {
		if p.Lower < 0 {
			negative++
		}
		if d := p.Top - p.Upper; d > 0.05 || d < -0.05 {
			t.Errorf("band from %.1f to %.1f drawn up to %.1f", p.Lower, p.Upper, p.Top)
		}
	}
	if negative == 0 {
		t.Fatalf("no band with a lower end below zero among %d points: the test shows nothing", len(points))
	}
}
