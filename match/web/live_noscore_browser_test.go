package web

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match"
)

// quietPlayer is an engine that tells nothing of its search: no info
// line before its move, as a DXP engine or a terse Hub engine plays.
type quietPlayer struct{ match.Player }

func (p quietPlayer) Play(ctx context.Context, req match.Request) (match.Reply, error) {
	r, err := p.Player.Play(ctx, req)
	r.Info = nil
	return r, err
}

// TestBrowserLiveNoScore: a spectator watches the live view of an event
// whose engines send no score, depth or line. Once both have moved, the
// game card shows the moves and no evaluation lines at all, not even
// empty ones; it showed a bare "White:" and "Black:" under the board. Screenshots at 390 and
// 1366 px.
func TestBrowserLiveNoScore(t *testing.T) {
	browserTest(t)
	opt := liveTournament(t, 2, 60, 150*time.Millisecond)
	loud := opt.NewPlayer
	opt.NewPlayer = func(spec configs.EngineSpec, log zerolog.Logger) match.Player {
		return quietPlayer{loud(spec, log)}
	}
	h := NewLive()
	opt.Observer = h
	hs := liveServer(t, h, Limits{})
	runInBackground(t, opt)

	p := newPage(t, "spectator")
	p.do("open the live view", chromedp.Navigate(hs.URL+"/"))
	p.wait("both engines have moved in a game", `document.querySelector('.game-card') && document.querySelector('.game-card').querySelectorAll('.moves .mv').length >= 2`)
	for _, w := range []int64{390, 1366} {
		lines := eval[[]string](p, `Array.from(document.querySelectorAll('.game-card .info')).map(e => e.offsetParent === null ? '' : e.textContent || '(an empty line)')`)
		if len(lines) == 0 {
			t.Fatal("the game card has no evaluation lines to look at")
		}
		for _, l := range lines {
			if l != "" {
				t.Errorf("at %d px an engine that sent no score has the line %q", w, l)
			}
		}
		p.shot("live-noscore-"+strconv.FormatInt(w, 10), w, 900, ".game-card")
	}
}
