package web

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
)

// TestBrowserEndgameDatabase: the arbiter of a web game in a three-piece
// English ending presses "Ask the endgame database" and reads who wins
// and what each move gives; in the start position the answer says the
// position is not in the database and why. The players' pages never show
// the button. An answer goes when a move changes the position.
// Screenshots at phone and desktop widths.
func TestBrowserEndgameDatabase(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	if _, err := egdb.Build(context.Background(), rules.MustLookup("english"), dir, egdb.BuildOptions{Pieces: 3}); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Config{Limits: unlimited, EGDB: dir})
	g := e.create(`{"variant":"english","fen":"B:WK18,K27:BK1","white":"Ann","black":"Bob"}`)
	arb, white := newPage(t, "arbiter"), newPage(t, "white")
	arb.open(g.links["arbiter"])
	white.open(g.links["white"])

	if !eval[bool](white, `(() => { const b = document.getElementById('arb-egdb'); return !b || b.offsetParent === null; })()`) {
		t.Error("the player's page shows the endgame database button")
	}
	if eval[bool](white, `document.getElementById('arb-egdb-out') && !document.getElementById('arb-egdb-out').hidden`) {
		t.Error("the player's page shows an endgame database answer")
	}
	if !eval[bool](arb, `document.getElementById('arb-egdb').offsetParent !== null`) {
		t.Fatal("the arbiter's page has no visible endgame database button")
	}
	arb.do("ask", chromedp.Click(chromedp.CSS("#arb-egdb")))
	arb.wait("the answer is shown", `!document.getElementById('arb-egdb-out').hidden`)
	value := eval[string](arb, `document.getElementById('arb-egdb-value').textContent`)
	moves := eval[string](arb, `document.getElementById('arb-egdb-moves').textContent`)
	// Black to move with a king against two: lost, whatever Black plays.
	if value != "White wins with perfect play (3 pieces)." {
		t.Errorf("the arbiter reads %q", value)
	}
	if !strings.Contains(moves, "1-5 loses") || !strings.Contains(moves, "1-6 loses") {
		t.Errorf("the moves read %q", moves)
	}

	for _, w := range []int64{390, 1366} {
		arb.checkLayout("egdb-arbiter-"+strconv.FormatInt(w, 10), w, 900)
		arb.picture("egdb-arbiter-panel-"+strconv.FormatInt(w, 10), chromedp.Screenshot(chromedp.CSS("#arbiter")))
	}
	white.checkLayout("egdb-player-390", 390, 900)

	// Black moves: the answer was about the position before, so it goes.
	black := newPage(t, "black")
	black.open(g.links["black"])
	black.click("1")
	black.click("5")
	arb.waitMoves(1)
	arb.wait("the old answer is withdrawn", `document.getElementById('arb-egdb-out').hidden`)

	// A position with more pieces than the database holds.
	start := e.create(`{"variant":"english"}`)
	arb.open(start.links["arbiter"])
	arb.do("ask", chromedp.Click(chromedp.CSS("#arb-egdb")))
	arb.wait("the answer is shown", `!document.getElementById('arb-egdb-out').hidden`)
	if got := eval[string](arb, `document.getElementById('arb-egdb-value').textContent`); got != "Not in the database: 24 pieces (it holds up to 3)." {
		t.Errorf("the start position: the arbiter reads %q", got)
	}
	if !eval[bool](arb, `document.getElementById('arb-egdb-moves').hidden`) {
		t.Error("a position not in the database lists moves")
	}
}

func withTimeout(t *testing.T, ctx context.Context) context.Context {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(cancel)
	return ctx
}
