package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"
)

// claim is the worker playing a game, as the coordinator knows it.
type claim struct {
	claimant, worker string
	at               time.Time // its last claim or news
}

// claims is the coordinator's record of which worker plays which game.
// The server alone hands a game out again whenever its news is late, to
// any worker; the coordinator, which every worker asks before playing,
// keeps the game with the worker playing it.
type claims struct {
	life time.Duration
	m    map[int]claim
}

// take claims game id for claimant (worker) at now: granted when the game
// is free, already the claimant's, or its holder's claim has had no news
// for the claim's life (gone is then that holder). Not granted, holder is
// the worker playing it and left how long its claim lasts without news.
func (cs *claims) take(id int, claimant, worker string, now time.Time) (granted bool, holder claim, left time.Duration, gone *claim) {
	cur, ok := cs.m[id]
	if ok && cur.claimant != claimant {
		if left = cs.life - now.Sub(cur.at); left > 0 {
			return false, cur, left, nil
		}
		gone = &cur
	}
	cs.m[id] = claim{claimant: claimant, worker: worker, at: now}
	return true, claim{}, 0, gone
}

// lostTo is the claim on game id when it is another claimant's than
// claimant: claimant's own claim passed to it (a takeover while claimant
// was stalled), or claimant never had it. No claim, or no claimant (an
// older worker), is not lost: a coordinator just restarted knows no
// claims, and the first result is kept.
func (cs *claims) lostTo(id int, claimant string) (claim, bool) {
	cur, ok := cs.m[id]
	return cur, ok && claimant != "" && cur.claimant != claimant
}

// release ends claimant's claim on game id (another's stays).
func (cs *claims) release(id int, claimant string) {
	if cs.m[id].claimant == claimant {
		delete(cs.m, id)
	}
}

// onClaim answers a worker's claim, renewal or release of a game.
func (c *Coordinator) onClaim(m *nats.Msg) {
	var cm ClaimMsg
	err := json.Unmarshal(m.Data, &cm)
	switch {
	case err != nil:
		c.reply(m.Reply, ClaimReply{Error: "unreadable claim: " + err.Error()})
		return
	case cm.Game < 0 || cm.Game >= len(c.plan) || cm.Claimant == "":
		c.reply(m.Reply, ClaimReply{Error: fmt.Sprintf("game %d is not in the plan of %d games (or the claim names no claimant)", cm.Game+1, len(c.plan))})
		return
	}
	renew := m.Reply == "" || cm.Renew
	c.mu.Lock()
	rep := c.claimLocked(cm, renew)
	c.mu.Unlock()
	if renew && !stopsGame(rep) {
		return // a renewal is answered only when its worker must stop the game
	}
	c.reply(m.Reply, rep)
}

// stopsGame reports whether rep, answering a renewal, has its worker stop
// the game: the claim passed to another worker, or the game is stored.
func stopsGame(rep ClaimReply) bool { return rep.Holder != "" || rep.Finished }

// claimLocked decides a claim (renew: the worker's news) with c.mu held.
func (c *Coordinator) claimLocked(cm ClaimMsg, renew bool) ClaimReply {
	switch {
	case cm.Release:
		c.claims.release(cm.Game, cm.Claimant)
		return ClaimReply{Granted: true}
	case c.finished[cm.Game]:
		return ClaimReply{Finished: true}
	case c.stopped:
		return ClaimReply{Stopped: true}
	}
	if renew {
		// News from a worker whose claim lapsed and went to another (it was
		// stalled: suspended, paused, cut off) must not take the game
		// back: the worker is told who holds it and stops its copy.
		if cur, lost := c.claims.lostTo(cm.Game, cm.Claimant); lost {
			c.log.Info().Int("game", cm.Game+1).Str("worker", cm.Worker).Str("holder", cur.worker).
				Msg("a worker whose game was taken over gives news again (it was stalled): told to stop its copy")
			return ClaimReply{Holder: cur.worker}
		}
	}
	ok, holder, left, gone := c.claims.take(cm.Game, cm.Claimant, cm.Worker, time.Now())
	if !ok {
		return ClaimReply{Holder: holder.worker, LeftMS: max(1, left.Milliseconds())}
	}
	if gone != nil {
		c.log.Warn().Int("game", cm.Game+1).Str("worker", cm.Worker).Str("was", gone.worker).Str("silent", time.Since(gone.at).Round(100*time.Millisecond).String()).
			Msg("a worker takes over a game whose worker gave no news for two ack waits (stopped, killed or cut off)")
	}
	return ClaimReply{Granted: true}
}

// newClaimant is a worker process's claimant: its name and a random part.
func newClaimant(name string) string {
	b := make([]byte, 8)
	rand.Read(b)
	return name + "/" + hex.EncodeToString(b)
}

// claimOutcome is what a worker does with a game after claiming it.
type claimOutcome int

const (
	claimPlay     claimOutcome = iota // granted (or no answer: the first-result rule decides)
	claimDecline                      // another worker plays it
	claimFinished                     // stored already: acknowledge it
	claimStopped                      // the event stopped: drop it
	claimHoldBack                     // no coordinator: hold it back
)

// claimAttempt bounds a claim request; past it the worker plays the game
// unclaimed (the coordinator keeps the first result).
const claimAttempt = 5 * time.Second

// claimFirst claims game (h) of event, delivered for the first time,
// with its news: no other worker can have had it, so the worker need not
// wait for the coordinator's answer. A request per game cost the demo's
// instant games about a fifth of their pace; a game comes back from the
// server only an ack wait after its news, when the claim is long known.
func (w *worker) claimFirst(h *held, event string, game int) {
	cn := w.claimNews(event, game)
	w.heldMu.Lock()
	h.claim = cn
	w.heldMu.Unlock()
}

// claimNews is the claim of game of event by this worker, as its news
// renews it: the coordinator answers on the game's subject of the worker's
// inbox (onClaimNews) if the claim passed to another worker.
func (w *worker) claimNews(event string, game int) *claimNews {
	msg, _ := json.Marshal(ClaimMsg{Game: game, Worker: w.opt.Name, Claimant: w.claimant, Renew: true})
	return &claimNews{subject: claimSubject + event, reply: w.inbox + "." + msgID(event, game), msg: msg}
}

// claimRequest is cn's message as a claim (a request) or, with release, a
// release of the claim: no longer a renewal.
func claimRequest(cn *claimNews, release bool) []byte {
	var cm ClaimMsg
	json.Unmarshal(cn.msg, &cm)
	cm.Renew, cm.Release = false, release
	b, _ := json.Marshal(cm)
	return b
}

// claim asks the event's coordinator for game h (the game's number in its
// plan is game) unless claimFirst claimed it. A decline says (once per
// game) which worker plays it, and how long to leave it: the rest of that
// worker's claim.
func (w *worker) claim(ctx context.Context, e *event, game int, h *held, log zerolog.Logger) (claimOutcome, time.Duration) {
	w.heldMu.Lock()
	claimed := h.claim != nil
	w.heldMu.Unlock()
	if claimed {
		return claimPlay, 0
	}
	cn := w.claimNews(e.spec.ID, game)
	rctx, cancel := w.attemptContext(ctx, claimAttempt)
	m, err := w.nc.RequestWithContext(rctx, cn.subject, claimRequest(cn, false))
	cancel()
	var rep ClaimReply
	if err == nil {
		err = json.Unmarshal(m.Data, &rep)
	}
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		e.mu.Lock()
		e.seenAt = time.Time{} // ask again: the coordinator may have stopped since
		e.mu.Unlock()
		if w.coordinatorGone(ctx, e) {
			return claimHoldBack, 0
		}
		log.Debug().Msg("the coordinator grants no claims (an older arbiter?): playing the game unclaimed")
		return claimPlay, 0
	case err != nil:
		log.Debug().Err(err).Msg("no answer to the game's claim: playing it (the coordinator keeps the first result)")
		return claimPlay, 0
	case rep.Granted:
		w.heldMu.Lock()
		h.claim = cn
		w.heldMu.Unlock()
		return claimPlay, 0
	case rep.Finished:
		return claimFinished, 0
	case rep.Stopped:
		return claimStopped, 0
	case rep.Holder != "":
		w.declinedOnce(e.spec.ID, game, rep.Holder, log)
		return claimDecline, time.Duration(rep.LeftMS) * time.Millisecond
	default:
		log.Warn().Str("reason", rep.Error).Msg("the coordinator refused the game's claim: playing it (the coordinator keeps the first result)")
		return claimPlay, 0
	}
}

// leftAlone claims game (h) and settles it when it is not to be played
// here: another worker plays it (it goes back for the rest of that
// worker's claim; the holder's news keeps it from coming back while it
// plays), it is stored already (acknowledged), its event stopped
// (dropped) or its coordinator is gone (held back).
func (w *worker) leftAlone(ctx context.Context, e *event, game int, h *held, delivered uint64, settle func(func(jetstream.Msg) error, string), log zerolog.Logger) bool {
	nakAfter := func(d time.Duration) func(jetstream.Msg) error {
		return func(m jetstream.Msg) error { return m.NakWithDelay(d) }
	}
	switch outcome, left := w.claim(ctx, e, game, h, log); outcome {
	case claimDecline:
		settle(nakAfter(max(left, 100*time.Millisecond)), "leaving the game to its worker")
	case claimFinished:
		log.Debug().Uint64("delivered", delivered).Msg("a delivery of a game already stored: acknowledged, not played")
		settle(jetstream.Msg.Ack, "acknowledging a stored game")
	case claimStopped:
		settle(jetstream.Msg.Term, "dropping a game of a stopped event")
	case claimHoldBack:
		settle(nakAfter(refusalDelay(delivered)), "holding the game back")
	default:
		return false
	}
	return true
}

// declinedOnce logs, once per game, that the worker leaves it to holder.
func (w *worker) declinedOnce(event string, game int, holder string, log zerolog.Logger) {
	id := msgID(event, game)
	w.heldMu.Lock()
	told := w.declined[id]
	w.declined[id] = true
	w.heldMu.Unlock()
	if !told {
		log.Info().Str("holder", holder).Msg(fmt.Sprintf("the game is being played by worker %s: not started here (the server handed it out again: %s's news came late, or %s stopped); it is taken over here or elsewhere if %s gives no news for two ack waits", holder, holder, holder, holder))
	}
}

// claimNews is a game's granted claim: the message that renews it, and
// the subject the coordinator answers it on when the claim is lost.
type claimNews struct {
	subject, reply string
	msg            []byte
}

// renew sends the claim of game h with its news (nothing if unclaimed).
func (w *worker) renew(h *held) {
	w.heldMu.Lock()
	cn := h.claim
	w.heldMu.Unlock()
	if cn == nil {
		return
	}
	if err := w.nc.PublishRequest(cn.subject, cn.reply, cn.msg); err != nil {
		w.log.Debug().Err(err).Msg("renewing a game's claim")
	}
}

// onClaimNews takes the coordinator's answer to a renewal (see claimNews):
// the claim passed to another worker, or the game is stored, while this
// worker was stalled. A game still being played here is stopped at once;
// one already finished here is left to its delivery, which the coordinator
// refuses (resultLocked).
func (w *worker) onClaimNews(m *nats.Msg) {
	var rep ClaimReply
	if json.Unmarshal(m.Data, &rep) != nil || !stopsGame(rep) {
		return
	}
	id := strings.TrimPrefix(m.Subject, w.inbox+".")
	w.heldMu.Lock()
	h := w.held[id]
	var stop context.CancelFunc
	if h != nil && h.stop != nil && h.lost == nil {
		h.lost, h.claim = &rep, nil // not this worker's to renew or release any more
		stop = h.stop
	}
	w.heldMu.Unlock()
	if stop != nil {
		stop()
	}
}

// playing marks game h as being played here, stopped by stop if its claim
// is lost (onClaimNews).
func (w *worker) playing(h *held, stop context.CancelFunc) {
	w.heldMu.Lock()
	h.stop = stop
	w.heldMu.Unlock()
}

// played ends playing; lost is the coordinator's answer if the game's
// claim was lost meanwhile (nil: the game is this worker's to deliver).
func (w *worker) played(h *held) (lost *ClaimReply) {
	w.heldMu.Lock()
	defer w.heldMu.Unlock()
	h.stop = nil
	return h.lost
}

// dropLost ends the hold of game id, whose claim passed to holder (""
// when the game is stored from another worker's copy), without settling
// its delivery: the game is the other worker's now, and an
// acknowledgement or a NAK of this worker's old delivery would act on it.
func (w *worker) dropLost(id string, h *held, holder, what string, stopNews func(), log zerolog.Logger) {
	stopNews()
	w.heldMu.Lock()
	h.claim = nil
	w.heldMu.Unlock()
	w.release(id, h)
	took := "was stored from another worker's copy"
	if holder != "" {
		took = "was taken over by worker " + holder
	}
	log.Warn().Str("holder", holder).Msg(fmt.Sprintf("the game %s while this worker was stalled (suspended, paused or cut off for two ack waits): %s", took, what))
}

// releaseAttempt bounds the release of a claim.
const releaseAttempt = 2 * time.Second

// unclaim gives up the claim of game h before the game goes back to the
// server, and waits for the coordinator's answer (up to releaseAttempt):
// the next worker to get the game must find it free, not decline it for
// a claim that would last two more ack waits.
func (w *worker) unclaim(ctx context.Context, h *held) {
	w.heldMu.Lock()
	cn := h.claim
	h.claim = nil
	w.heldMu.Unlock()
	if cn == nil {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseAttempt)
	defer cancel()
	if _, err := w.nc.RequestWithContext(rctx, cn.subject, claimRequest(cn, true)); err != nil {
		w.log.Debug().Err(err).Msg("releasing a game's claim")
	}
}
