package online

import (
	"time"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/internal/sqlitefile"
)

// A game whose write fails (a full disk, a file size limit, an I/O error)
// is not broken: it stalls. What the store does not hold never happened:
// the game in memory is replayed from the store (so the input that failed
// is answered as not done, and nothing acknowledged is lost), its clocks
// stop, and the hall retries. When a write works again the time stopped is
// booked as down time (nobody is charged for it) and the game goes on by
// itself. Meanwhile every act is answered 503 refused.cannot-save with the
// reason, and a snapshot shows the game paused with that reason.

// DefaultRetryEvery is how often a stalled game's write is tried again.
const DefaultRetryEvery = 2 * time.Second

// cannotSave names why the store did not take a write, for a person.
func cannotSave(err error) string {
	if reason, ok := sqlitefile.CannotWrite(err); ok {
		return reason
	}
	return "the game store failed"
}

// stall rolls g back to what the store holds and stops its clocks; it
// holds g.mu. It reports false when the store cannot even be read (the
// game is then broken).
func (h *Hall) stall(g *game, at time.Time, err error) bool {
	reason := cannotSave(err)
	rows, rerr := h.st.games(h.ctx, "WHERE id = ?", g.id)
	if rerr != nil || len(rows) == 0 {
		return false
	}
	fresh, rerr := h.restore(h.ctx, rows[0], false, time.Time{})
	if rerr != nil {
		return false
	}
	// The stored game, with this game's watchers, engine and lock.
	g.sp, g.ref, g.clk, g.v, g.lastAt = fresh.sp, fresh.ref, fresh.clk, fresh.v, fresh.lastAt
	g.offer, g.hasOffer, g.seen, g.last = fresh.offer, fresh.hasOffer, fresh.seen, fresh.last
	g.lastClaimAccepted, g.lastClaimAuto, g.lastAutoEvidence = fresh.lastClaimAccepted, fresh.lastClaimAuto, fresh.lastAutoEvidence
	g.pending = g.pending[:0]
	if g.stalled == "" {
		g.stalledAt = at
		h.mu.Lock()
		h.stalled[g] = struct{}{}
		h.mu.Unlock()
		h.wakeRetry()
	}
	g.stalled = reason
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
	// Watchers hear of it now (the event is not stored: its version is
	// the last stored one, so a reconnecting page misses nothing).
	st := g.stalledState()
	g.publish(&Event{V: g.v, Type: EvPause, At: at, Msg: newMsg("store.cannot-save", kv("reason", reason)), State: st})
	return true
}

// stalledRefusal answers an act on a stalled game.
func (g *game) stalledRefusal() *Refusal {
	return refuse(message.Unavailable, "refused.cannot-save", "reason", g.stalled)
}

// stalledState is the game's state while it waits for the store: paused,
// the clocks stopped at the failure, and why.
func (g *game) stalledState() State {
	g.clk.t = g.stalledAt
	st := g.state()
	if st.Status != "over" {
		st.Status = "paused"
		st.Reason = "the server cannot save: " + g.stalled
		st.Clocks.Running = ""
	}
	return st
}

func (h *Hall) wakeRetry() {
	select {
	case h.retry <- struct{}{}:
	default:
	}
}

// retrier tries the stalled games' writes again, every RetryEvery while
// any is stalled.
func (h *Hall) retrier() {
	defer h.wg.Done()
	every := h.cfg.RetryEvery
	if every <= 0 {
		every = DefaultRetryEvery
	}
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-h.retry:
		}
		for {
			t := time.NewTimer(every)
			select {
			case <-h.ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			if h.retryStalled() == 0 {
				break
			}
		}
	}
}

// retryStalled books the stop of each stalled game as down time (a
// write): the games whose write works go on. It returns how many are
// still stalled.
func (h *Hall) retryStalled() int {
	h.mu.Lock()
	games := make([]*game, 0, len(h.stalled))
	for g := range h.stalled {
		games = append(games, g)
	}
	h.mu.Unlock()
	left := 0
	for _, g := range games {
		if !h.resume(g) {
			left++
		}
	}
	return left
}

// resume tries to take stalled game g up again; whether it did (or the
// game is gone).
func (h *Hall) resume(g *game) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stalled == "" || g.closed || g.broken != nil || g.evicted {
		h.unstall(g)
		return true
	}
	now := h.now()
	why := "the server could not save (" + g.stalled + ")"
	stop := max(0, now.Sub(g.stalledAt))
	if _, r, err := h.run(g, now, input{Internal: "downtime", Amount: stop, Why: why}, nil); err != nil || r != nil {
		return false // still stalled (run rolled it back)
	}
	h.log.Info().Str("game", g.id).Dur("stopped", stop).Msg("the store takes writes again; game resumed")
	h.unstall(g)
	h.resumeLive(g)
	return true
}

// unstall forgets that g was stalled; it holds g.mu.
func (h *Hall) unstall(g *game) {
	g.stalled = ""
	h.mu.Lock()
	delete(h.stalled, g)
	h.mu.Unlock()
}

// Stalled lists the games waiting for the store, by id, with why.
func (h *Hall) Stalled() map[string]string {
	h.mu.Lock()
	games := make([]*game, 0, len(h.stalled))
	for g := range h.stalled {
		games = append(games, g)
	}
	h.mu.Unlock()
	out := map[string]string{}
	for _, g := range games {
		g.mu.Lock()
		if g.stalled != "" {
			out[g.id] = g.stalled
		}
		g.mu.Unlock()
	}
	return out
}
