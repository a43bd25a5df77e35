package web

import (
	"context"
	"maps"
	"slices"
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
	askWithoutAnswer(t, "egdb-none", `{"variant":"english","fen":"B:WK18,K27:BK1","white":"Ann","black":"Bob"}`, map[string]string{
		"en-GB": "This server has no endgame database for this variant. Its operator builds one (arbiter egdb build) and starts the server with arbiter serve --egdb DIR; see docs/egdb.md.",
		"ru-RU": "На этом сервере нет базы окончаний для этого варианта. Администратор сервера строит её (arbiter egdb build) и запускает сервер командой arbiter serve --egdb DIR; см. docs/egdb.md.",
	})
}

// TestBrowserEndgameDatabaseImpossible: the arbiter of a Frisian game who
// asks the endgame database reads that no database can be built for the
// variant (a position's value depends on more than the board), in the
// page's language; it was told that the server's operator builds one, and
// the command it named refuses Frisian. Screenshots at phone and desktop
// widths.
func TestBrowserEndgameDatabaseImpossible(t *testing.T) {
	browserTest(t)
	askWithoutAnswer(t, "egdb-impossible", `{"variant":"frisian","fen":"W:WK28:BK5","white":"Ann","black":"Bob"}`, map[string]string{
		"en-GB": "No endgame database can be built for this variant, so this server cannot have one; see docs/egdb.md.",
		"ru-RU": "Для этого варианта нельзя построить базу окончаний, поэтому на сервере её нет и быть не может; см. docs/egdb.md.",
	})
}

// askWithoutAnswer creates the game (its JSON) on a server without
// endgame databases and has its arbiter ask the database in each locale:
// the panel must say want[locale] and list no moves. Pictures are named
// after shots.
func askWithoutAnswer(t *testing.T, shots, game string, want map[string]string) {
	e := newEnv(t, Config{Limits: unlimited})
	for _, locale := range slices.Sorted(maps.Keys(want)) {
		t.Run(locale, func(t *testing.T) {
			g := e.create(game)
			arb := newPage(t, "arbiter")
			browserSpeaks(arb, locale)
			arb.open(g.links["arbiter"])
			arb.do("ask", chromedp.Click(chromedp.CSS("#arb-egdb")))
			arb.wait("the answer is shown", `!document.getElementById('arb-egdb-out').hidden`)
			if got := eval[string](arb, `document.getElementById('arb-egdb-value').textContent`); got != want[locale] {
				t.Errorf("the arbiter reads\n%q, want\n%q", got, want[locale])
			}
			if !eval[bool](arb, `document.getElementById('arb-egdb-moves').hidden`) {
				t.Error("no database, yet the answer lists moves")
			}
			for _, w := range []int64{390, 1366} {
				name := shots + "-" + locale + "-" + strconv.FormatInt(w, 10)
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
