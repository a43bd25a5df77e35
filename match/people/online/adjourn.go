package online

import (
	"context"
	"fmt"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/message"
)

// A game nobody touches for long (no clock running, no move, no viewer
// for Config.IdleAfter) is adjourned: it stops counting as running (the
// hall's MaxGames, the web's per-address budget), is marked so in the
// store (a restart does not load it) and may leave memory. Its links still
// work: a look or an act through one takes it up again where it stood.
// The director's follower of a board's game (Follow) is no viewer: it
// neither keeps a game from adjournment nor takes it up.

// DefaultIdleAfter is how long a game may stand untouched before it is
// adjourned.
const DefaultIdleAfter = 6 * time.Hour

func (h *Hall) idleAfter() time.Duration {
	if h.cfg.IdleAfter == 0 {
		return DefaultIdleAfter
	}
	return h.cfg.IdleAfter
}

// adjourner adjourns idle games now and then.
func (h *Hall) adjourner() {
	defer h.wg.Done()
	idle := h.idleAfter()
	if idle < 0 {
		return
	}
	t := time.NewTicker(min(max(idle/10, time.Second), time.Minute))
	defer t.Stop()
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-t.C:
			h.AdjournIdle()
		}
	}
}

// AdjournIdle adjourns every game untouched for Config.IdleAfter (the
// hall does it by itself now and then; tests call it with their clock). It
// returns how many it adjourned.
func (h *Hall) AdjournIdle() int {
	idle := h.idleAfter()
	if idle < 0 {
		return 0
	}
	h.mu.Lock()
	games := make([]*game, 0, len(h.games))
	for _, g := range h.games {
		games = append(games, g)
	}
	h.mu.Unlock()
	n := 0
	for _, g := range games {
		if h.adjourn(g, idle) {
			n++
			go h.finished(g.id) // may leave memory, as a finished game
		}
	}
	return n
}

// adjourn adjourns g if it is idle.
func (h *Hall) adjourn(g *game, idle time.Duration) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.broken != nil || g.closed || g.evicted || g.adjourned || g.stalled != "" || g.ref.Done() || g.sp.engine != "" {
		return false
	}
	now := h.now()
	if now.Sub(g.touched()) < idle || g.timer != nil || g.viewers() > 0 {
		return false // touched lately, a clock running (its flag will end it), or watched
	}
	if err := h.st.setStatus(h.ctx, g.id, "adjourned"); err != nil {
		h.log.Warn().Str("game", g.id).Err(err).Msg("not adjourned: the store did not take it")
		return false
	}
	g.adjourned = true
	h.mu.Lock()
	h.running--
	h.mu.Unlock()
	h.log.Info().Str("game", g.id).Time("touched", g.touched()).Msg("game adjourned (untouched); its links take it up again")
	return true
}

// touched is when g was last acted on or looked at.
func (g *game) touched() time.Time {
	if g.seenAt.After(g.lastAt) {
		return g.seenAt
	}
	return g.lastAt
}

// viewers counts g's watchers, the followers left out.
func (g *game) viewers() int {
	n := 0
	for s := range g.subs {
		if !s.passive {
			n++
		}
	}
	return n
}

// takeUp brings adjourned game g back to running (a look or an act through
// its link); it holds g.mu. Refused, as a new game would be, when the hall
// is full.
func (h *Hall) takeUp(g *game) error {
	g.seenAt = h.now()
	if !g.adjourned {
		return nil
	}
	h.mu.Lock()
	if h.running >= h.cfg.MaxGames {
		h.mu.Unlock()
		return refuse(message.Unavailable, "refused.too-many-games", "limit", fmt.Sprint(h.cfg.MaxGames))
	}
	h.running++
	h.mu.Unlock()
	if err := h.st.setStatus(h.ctx, g.id, "running"); err != nil {
		h.mu.Lock()
		h.running--
		h.mu.Unlock()
		return fmt.Errorf("online: taking up game %s: %w", g.id, err)
	}
	g.adjourned = false
	h.log.Info().Str("game", g.id).Msg("adjourned game taken up")
	h.resumeLive(g)
	return nil
}

// Follow is Watch for a follower that is no viewer (the director's record
// of a board's result): it does not keep the game from adjournment, nor
// take an adjourned one up.
func (h *Hall) Follow(ctx context.Context, id string, since int64) ([]Event, <-chan *Event, error) {
	return h.watch(ctx, id, since, true)
}
