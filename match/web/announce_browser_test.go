package web

import "testing"

// TestBrowserAnnounceClearedAfterMove follows a player with a screen
// reader: tapping 32 announces "32 selected: ..." in the page's live
// region; once 32-28 is sent, that region no longer says a move is being
// entered (it kept "32 geselecteerd: nu het veld ..." after the move was
// played, refused or the game ended, in every language). Dutch.
func TestBrowserAnnounceClearedAfterMove(t *testing.T) {
	browserTest(t)
	e := newEnv(t, Config{Limits: unlimited})
	g := e.create(`{"variant":"international","time_control":"600+5","white":"Anna","black":"Bram"}`)
	white := newPage(t, "white-nl")
	speaks(white, e.hs.URL+"/", "nl")
	white.open(g.links["white"])
	white.click("32")
	white.wait("the selection is announced", `document.getElementById('announce').textContent.includes('32')`)
	white.click("28")
	white.waitMoves(1)
	if got := text(white, "#announce"); got != "" {
		t.Errorf("after the move the live region still says %q", got)
	}
}
