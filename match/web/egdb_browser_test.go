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
	browserTest(t)
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

// TestBrowserEndgameDatabaseNone: on a server started without --egdb the
// arbiter who presses "Ask the endgame database" reads that there is none
// and what the server's operator does about it: build one and start
// arbiter serve with --egdb DIR (docs/egdb.md), in the page's language.
// It said only "This server has no endgame database for this variant."
// Screenshots at phone and desktop widths.
func TestBrowserEndgameDatabaseNone(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	cases := []struct{ locale, want string }{
		{"en-GB", "This server has no endgame database for this variant. Its operator builds one (arbiter egdb build) and starts the server with arbiter serve --egdb DIR; see docs/egdb.md."},
		{"ru-RU", "На этом сервере нет базы окончаний для этого варианта. Администратор сервера строит её (arbiter egdb build) и запускает сервер командой arbiter serve --egdb DIR; см. docs/egdb.md."},
	}
	for _, tc := range cases {
		t.Run(tc.locale, func(t *testing.T) {
			g := e.create(`{"variant":"english","fen":"B:WK18,K27:BK1","white":"Ann","black":"Bob"}`)
			arb := newPage(t, "arbiter")
			browserSpeaks(arb, tc.locale)
			arb.open(g.links["arbiter"])
			arb.do("ask", chromedp.Click(chromedp.CSS("#arb-egdb")))
			arb.wait("the answer is shown", `!document.getElementById('arb-egdb-out').hidden`)
			if got := eval[string](arb, `document.getElementById('arb-egdb-value').textContent`); got != tc.want {
				t.Errorf("the arbiter reads\n%q, want\n%q", got, tc.want)
			}
			if !eval[bool](arb, `document.getElementById('arb-egdb-moves').hidden`) {
				t.Error("no database, yet the answer lists moves")
			}
			for _, w := range []int64{390, 1366} {
				name := "egdb-none-" + tc.locale + "-" + strconv.FormatInt(w, 10)
				arb.checkLayout(name, w, 900)
				arb.picture(name+"-panel", chromedp.Screenshot(chromedp.CSS("#arbiter")))
			}
		})
	}
}

func withTimeout(t *testing.T, ctx context.Context) context.Context {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(cancel)
	return ctx
}
