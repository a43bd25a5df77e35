package sheets

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/internal/browser"
	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

// bigEvent is a 29-player event of 7 rounds paired by the circle method
// (each round one player gets the bye), with long names and clubs, so that
// every sheet is as wide and as long as a real open's.
func bigEvent() *Event { return circleEvent(29, 7) }

// circleEvent is n players (n odd) and rounds rounds of the circle method;
// with rounds = n it is a whole round-robin.
func circleEvent(n, rounds int) *Event {
	ev := &Event{
		Name: "International Open of the Draughts Club of Somewhere Far Away 2026", Site: "Amsterdam",
		Dates: "10-16 July 2026", Variant: "international", System: "Swiss (Dutch)", Rounds: rounds,
		TieBreaks: tiebreak.Order{tiebreak.BuchholzCut1, tiebreak.Buchholz, tiebreak.SonnebornBerger, tiebreak.Wins, tiebreak.ProgressiveScore},
		Links:     []Link{{"Event", "/director/1"}, {"Pairings", "/director/1/pairings"}, {"Standings", "/director/1/standings"}},
	}
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("Player Number %d", i)
		if i%5 == 0 {
			name = fmt.Sprintf("Maximilian Alexandrovich Vandersloot-Kowalczyk-%d", i)
		}
		ev.Players = append(ev.Players, Player{Number: i, Name: name, Club: "Damclub Het Witte Paard van Oost-Vlaanderen", Federation: "NED", Rating: 2400 - 17*i})
	}
	// The circle: position 0 is fixed (the bye), the others turn.
	ring := make([]int, n+1)
	for i := range ring {
		ring[i] = i // 0 is the bye
	}
	for r := range rounds {
		var rd Round
		for k := 0; k < (n+1)/2; k++ {
			a, b := ring[k], ring[n-k]
			if r%2 == 1 {
				a, b = b, a
			}
			switch {
			case a == 0:
				rd.Byes = append(rd.Byes, Bye{b, tally.PairingBye})
			case b == 0:
				rd.Byes = append(rd.Byes, Bye{a, tally.PairingBye})
			default:
				res := []Result{WhiteWins, WhiteWins, Draw, BlackWins, Draw, BlackForfeitWin}[(a*7+b*3+r)%6]
				rd.Boards = append(rd.Boards, Board{White: a, Black: b, Result: res})
			}
		}
		ev.Played = append(ev.Played, rd)
		// Turn every position but the first.
		last := ring[n]
		copy(ring[2:], ring[1:n])
		ring[1] = last
	}
	return ev
}

// overflowProbe reports what sticks out of the window sideways; on screen
// a table may scroll inside its .table-wrap, on paper nothing may.
const overflowProbe = `((paper) => {
  const w = window.innerWidth, wide = [];
  document.querySelectorAll('body *').forEach(el => {
    if (!paper && el.closest('.table-wrap')) { return; }
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 1) { wide.push(el.tagName + (el.className ? '.' + el.className : '') + ' ' + Math.round(r.right)); }
  });
  const nav = document.querySelector('nav');
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: w, wide: wide.slice(0, 5),
    nav: nav ? getComputedStyle(nav).display : 'none', rows: document.querySelectorAll('tbody tr').length };
})`

type layout struct {
	ScrollWidth int      `json:"scrollWidth"`
	InnerWidth  int      `json:"innerWidth"`
	Wide        []string `json:"wide"`
	Nav         string   `json:"nav"`
	Rows        int      `json:"rows"`
}

// TestSheetsInBrowser opens every sheet of a 29-player event at a phone's
// and a desktop's width (nothing may stick out sideways; wide tables
// scroll in their own box), then as printed: the navigation hidden,
// nothing wider than the A4 sheet (the crosstable's landscape one), and a
// PDF that Chromium prints, one page per card. Screenshots and PDFs are
// kept with ARBITER_ARTIFACTS set (browser.Keep).
func TestSheetsInBrowser(t *testing.T) {
	bin := browser.Require(t)
	ev := bigEvent()
	dir := t.TempDir()
	cardsEv := bigEvent()
	cardsEv.Players = cardsEv.Players[:3]
	cardsEv.Played = nil
	rr := circleEvent(13, 13) // a club championship: 13 players, everyone meets everyone
	rr.RoundRobin = true
	rr.System = "Round-robin"
	// Some of its forfeits are half-point byes asked for: "1 bye" cells,
	// wider than a forfeit's "−", must fit the grid too.
	for r := range rr.Played {
		for b := range rr.Played[r].Boards {
			if bd := &rr.Played[r].Boards[b]; bd.Result == BlackForfeitWin && r%2 == 0 {
				bd.WhiteBye = tally.HalfBye
			}
		}
	}
	sheets := []struct {
		name  string
		write func(io.Writer) error
		rows  int
		paper int64 // the printable width of its A4 page in CSS px (96 dpi, less the margins)
		pages int   // at least this many PDF pages
	}{
		{"pairings", func(w io.Writer) error { return Pairings(w, ev, 7) }, 14, 703, 1},
		{"standings", func(w io.Writer) error { return Standings(w, ev, 7) }, 29, 703, 1},
		{"crosstable", func(w io.Writer) error { return Crosstable(w, ev) }, 29, 1047, 1},
		{"card", func(w io.Writer) error { return Card(w, ev, 5) }, 7, 703, 1},
		{"cards", func(w io.Writer) error { return Cards(w, cardsEv) }, 0, 703, 3},
		{"round-robin", func(w io.Writer) error { return Crosstable(w, rr) }, 13, 1047, 1},
	}
	allocOpts := browser.Options(bin, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a bound for a loaded machine, not a timing
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, allocOpts...)
	defer cancelAlloc()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	pageRe := regexp.MustCompile(`/Type\s*/Page[^s]`)
	for _, sh := range sheets {
		t.Run(sh.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := sh.write(&buf); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, sh.name+".html")
			if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			url := "file://" + file
			check := func(what string, width int64, paper bool) {
				t.Helper()
				if err := chromedp.Do(bctx, chromedp.EmulateViewport(width, 900),
					chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
					t.Fatalf("open %s: %v", url, err)
				}
				media := ""
				if paper {
					media = "print"
				}
				if err := chromedp.Do(bctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
					_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media})
					return chromedp.Void{}, err
				}); err != nil {
					t.Fatal(err)
				}
				lay, err := chromedp.Run(bctx, chromedp.Evaluate[layout](fmt.Sprintf("%s(%v)", overflowProbe, paper)))
				if err != nil {
					t.Fatal(err)
				}
				if lay.ScrollWidth > lay.InnerWidth || len(lay.Wide) > 0 {
					t.Errorf("%s at %d px: the page is %d px wide (window %d): %v", what, width, lay.ScrollWidth, lay.InnerWidth, lay.Wide)
				}
				if sh.rows > 0 && lay.Rows != sh.rows {
					t.Errorf("%s: %d table rows, want %d", what, lay.Rows, sh.rows)
				}
				if paper && lay.Nav != "none" {
					t.Errorf("%s: the navigation prints (display %s)", what, lay.Nav)
				}
				if !paper && lay.Nav == "none" {
					t.Errorf("%s: no navigation on screen", what)
				}
				browser.Keep(t, fmt.Sprintf("sheets/%s-%s-%d.png", sh.name, what, width), func() ([]byte, error) {
					return chromedp.Run(bctx, chromedp.FullScreenshot(100))
				})
			}
			check("screen", 360, false)
			check("screen", 1400, false)
			check("print", sh.paper, true)
			pdf, err := chromedp.Run(bctx, func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
				yes := true
				res, err := cdp.Call(ctx, tg, cdppage.PrintToPDF, cdppage.PrintToPDFParams{PreferCSSPageSize: &yes})
				return res.Data, err
			})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(pdf, []byte("%PDF")) {
				t.Fatalf("PrintToPDF gave %d bytes that are not a PDF", len(pdf))
			}
			if n := len(pageRe.FindAll(pdf, -1)); n < sh.pages {
				t.Errorf("%d pages printed, want at least %d", n, sh.pages)
			}
			browser.Keep(t, "sheets/"+sh.name+".pdf", func() ([]byte, error) { return pdf, nil })
		})
	}
}
