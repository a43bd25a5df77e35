package online

import (
	"context"
	"fmt"
)

// MaxGames is the number of running games the hall takes at once.
func (h *Hall) MaxGames() int { return h.cfg.MaxGames }

// Live reports whether game id is running (created, not over, not
// adjourned, not broken): a game that counts against the limits.
func (h *Hall) Live(id string) bool {
	h.mu.Lock()
	g, ok := h.games[id]
	h.mu.Unlock()
	if !ok {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.broken == nil && !g.evicted && !g.closed && !g.adjourned && !g.ref.Done()
}

// Discard deletes game id, which was created but must not be played (its
// board got another game meanwhile): it never had an event and nobody has
// its links. A game that had an event is kept (an error says so).
func (h *Hall) Discard(ctx context.Context, id string) error {
	g, err := h.lockGame(ctx, id)
	if err != nil {
		return err
	}
	defer g.mu.Unlock()
	if g.v > 0 || g.eng != nil {
		return fmt.Errorf("online: game %s has events or an engine; not discarded", id)
	}
	if err := h.st.discard(ctx, id); err != nil {
		return fmt.Errorf("online: discarding game %s: %w", id, err)
	}
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
	g.evicted = true
	for s := range g.subs {
		delete(g.subs, s)
		close(s.ch)
	}
	h.mu.Lock()
	delete(h.games, id)
	for k, t := range h.tokens {
		if t.game == id {
			delete(h.tokens, k)
		}
	}
	if !g.ref.Done() && !g.adjourned {
		h.running--
	}
	h.mu.Unlock()
	return nil
}
