package cluster

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/tournament"
	"github.com/draughts-arbiter/arbiter/rules"
)

// WorkerOptions configure RunWorker.
type WorkerOptions struct {
	// Name identifies the worker in the coordinator's store and report.
	Name string
	// Concurrency is the number of games played at once (0 = 1).
	Concurrency int
	// Engines are the only engines the worker runs: an event's engine is
	// played with the definition of the same name (configs.LoadEngines).
	Engines []configs.EngineSpec
	// Log receives the worker's log, EngineLog the engines' exchanges.
	Log, EngineLog zerolog.Logger
	// ResultTimeout bounds the wait for the coordinator to take a finished
	// game (0 = 10 minutes); past it the game is given back (it is played
	// again if the coordinator returns).
	ResultTimeout time.Duration
}

// deliveryGrace is how long a worker told to stop still tries to deliver
// a finished game.
const deliveryGrace = 10 * time.Second

// refusalRemedy ends every refusal: what the worker's owner does about it.
const refusalRemedy = "the event's games go to other workers; to play them here, give this worker the event's engines and builds in its --engines file and start it again"

// coordinatorSeen is how long a coordinator that answered is taken to be
// running without asking again.
const coordinatorSeen = 10 * time.Second

// coordinatorGone reports whether no coordinator of event e runs: its ping
// subject has no responder. The games of an event whose coordinator was
// interrupted for good stay in the stream; played, their results waited
// ResultTimeout (10 minutes) for a taker, each holding a game slot, while a
// later event's games waited behind them. A slow answer or another error
// counts as running.
func (w *worker) coordinatorGone(ctx context.Context, e *event) bool {
	e.mu.Lock()
	recent := time.Since(e.seenAt) < coordinatorSeen
	e.mu.Unlock()
	if recent {
		return false
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := w.nc.RequestWithContext(rctx, pingSubject+e.spec.ID, nil)
	gone := errors.Is(err, nats.ErrNoResponders)
	e.mu.Lock()
	told := e.goneTold
	e.goneTold = gone
	if err == nil {
		e.seenAt = time.Now()
	}
	e.mu.Unlock()
	switch {
	case gone && !told:
		w.log.Warn().Str("event_id", e.spec.ID).Str("event", e.spec.Name).Msg("the event's coordinator is not running: its games wait in the stream until it runs again (the same command resumes it)")
	case !gone && told:
		w.log.Info().Str("event_id", e.spec.ID).Str("event", e.spec.Name).Msg("the event's coordinator is back")
	}
	return gone
}

// refusalDelay is how long a refused game stays out of the workers' way
// after its n-th delivery: 3 s, doubled at each refusal, up to 2 minutes.
// The games of an event that no worker plays (its coordinator stopped for
// good, its engines on no worker) stay in the stream; at a fixed 3 s they
// came back as fast as the workers refused them, ahead of a later event's
// games, which were never reached.
func refusalDelay(n uint64) time.Duration {
	return min(3*time.Second<<min(max(n, 1)-1, 6), 2*time.Minute)
}

// refusalPause is how long a game slot waits after refusing a game (the
// next game of the same event would most likely be refused too).
const refusalPause = time.Second

// worker is a running RunWorker.
type worker struct {
	opt  WorkerOptions
	nc   *nats.Conn
	js   jetstream.JetStream
	cons jetstream.Consumer
	kv   jetstream.KeyValue
	log  zerolog.Logger

	mu     sync.Mutex // guards events; held while an event is prepared
	events map[string]*event

	infoMu     sync.Mutex // guards what follows (not mu: a game's keep-alive must not wait for a preparation)
	ackWait    time.Duration
	infoAt     time.Time
	refreshing bool // an Info request for the ack wait is under way

	heldMu   sync.Mutex       // guards held, each held's msg and claim, declined (not mu, for the same reason)
	held     map[string]*held // the games this worker plays, by message id (<event>.<game>)
	declined map[string]bool  // games left to another worker, by message id: logged once

	// claimant names this process in its claims (see claim.go), inbox
	// the subjects of the coordinator's answers to its renewals.
	claimant, inbox string
}

// held is a game this worker plays, with its latest delivery. A game whose
// news ("in progress") reaches the server after the ack wait (a loaded
// machine, a slow link) is delivered again, maybe to a free slot of this
// same worker: that delivery joins the game in progress instead of
// starting it a second time, and the game's news and its acknowledgement
// go to it.
type held struct {
	msg jetstream.Msg
	// acked: the game is acknowledged. Its entry stays for an ack wait,
	// for a delivery the server sent before the acknowledgement reached it.
	acked bool
	// claim, once the coordinator granted the game: renewed with its news,
	// released when the game goes back.
	claim *claimNews
	// stop cancels the game while it is played here; lost is the
	// coordinator's answer once its claim passed to another worker or
	// the game was stored (onClaimNews).
	stop context.CancelFunc
	lost *ClaimReply
}

// event is an event as a worker knows it.
type event struct {
	spec    EventSpec
	ev      *configs.Event
	local   *tournament.Local
	refusal string  // why the worker does not play it ("" = it does)
	remedy  string  // what to do about the refusal ("": refusalRemedy)
	scale   float64 // the time controls' factor (0 = not scaled)

	mu       sync.Mutex
	stopped  bool
	cancels  map[int]context.CancelFunc // games in progress
	seenAt   time.Time                  // its coordinator last answered (coordinatorGone)
	goneTold bool                       // its coordinator's absence is logged
}

// RunWorker pulls games from the cluster and plays them until ctx is
// cancelled; the games in progress then go back to the stream, to be
// played by another worker.
func RunWorker(ctx context.Context, nc *nats.Conn, opt WorkerOptions) error {
	if opt.Concurrency <= 0 {
		opt.Concurrency = 1
	}
	if opt.ResultTimeout <= 0 {
		opt.ResultTimeout = 10 * time.Minute
	}
	if opt.Name == "" {
		return errors.New("cluster: a worker needs a name")
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	w := &worker{opt: opt, nc: nc, js: js, log: opt.Log.With().Str("worker", opt.Name).Logger(), events: map[string]*event{}, held: map[string]*held{},
		declined: map[string]bool{}, claimant: newClaimant(opt.Name), inbox: nats.NewInbox()}
	// A worker may start before any coordinator made the stream.
	// While no server answers, Connect's warning says so; "waiting for a
	// coordinator" would blame the wrong side.
	for told := false; ; {
		if nc.IsConnected() {
			if w.cons, err = js.Consumer(ctx, GamesStream, WorkersConsumer); err == nil {
				if w.kv, err = js.KeyValue(ctx, EventsBucket); err == nil {
					break
				}
			}
			if !told && ctx.Err() == nil && nc.IsConnected() {
				w.log.Info().Msg("connected; waiting for a coordinator (arbiter tournament --nats) to set up the games stream")
				told = true
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
	w.ackWait = w.cons.CachedInfo().Config.AckWait
	w.infoAt = time.Now()
	stop, err := nc.Subscribe(stopSubject+"*", w.onStop)
	if err != nil {
		return fmt.Errorf("cluster: subscribe %s*: %w", stopSubject, err)
	}
	defer stop.Unsubscribe()
	news, err := nc.Subscribe(w.inbox+".>", w.onClaimNews)
	if err != nil {
		return fmt.Errorf("cluster: subscribe %s.>: %w", w.inbox, err)
	}
	defer news.Unsubscribe()
	w.log.Info().Int("concurrency", opt.Concurrency).Int("engines", len(opt.Engines)).Str("nats", nc.ConnectedUrlRedacted()).Msg("worker ready")
	var wg sync.WaitGroup
	for range opt.Concurrency {
		wg.Go(func() { w.slot(ctx) })
	}
	wg.Wait()
	w.mu.Lock()
	for _, e := range w.events {
		if e.local != nil {
			e.local.Close()
		}
	}
	w.mu.Unlock()
	return nil
}

// slot plays one game after another.
func (w *worker) slot(ctx context.Context) {
	for ctx.Err() == nil {
		// A wait of 2 s at most, which a stop ends at once (the worker
		// exits without waiting for it).
		fctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		msg, err := w.cons.Next(jetstream.FetchContext(fctx))
		cancel()
		if err != nil {
			quiet := errors.Is(err, nats.ErrTimeout) || errors.Is(err, jetstream.ErrNoMessages) || errors.Is(err, context.DeadlineExceeded)
			if !quiet && ctx.Err() == nil {
				w.log.Debug().Err(err).Msg("fetching a game")
				sleep(ctx, time.Second)
			}
			continue
		}
		if refused := w.handle(ctx, msg); refused {
			sleep(ctx, refusalPause)
		}
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// handle plays one game message and settles it: acknowledged once the
// coordinator has the result, given back when the worker stops or the
// coordinator does not take it, dropped when unreadable or stopped.
func (w *worker) handle(ctx context.Context, msg jetstream.Msg) (refused bool) {
	var gm GameMsg
	if err := json.Unmarshal(msg.Data(), &gm); err != nil {
		w.log.Error().Err(err).Str("subject", msg.Subject()).Msg("an unreadable game message: dropped")
		msg.Term()
		return false
	}
	p := gm.Pairing
	log := w.log.With().Str("event_id", gm.Event).Int("game", p.Index+1).Logger()
	delivered := uint64(1)
	if md, err := msg.Metadata(); err == nil {
		delivered = md.NumDelivered
	}
	id := msgID(gm.Event, p.Index)
	h, mine := w.hold(id, msg)
	if !mine {
		w.rejoin(ctx, h, msg, delivered, log)
		return false
	}
	if delivered == 1 {
		w.claimFirst(h, gm.Event, p.Index)
	}
	// Keep the game ours from now on: reading the event's description the
	// first time (and checking its engines' builds) takes a while too.
	stopNews := w.keepAlive(ctx, h, log)
	settle := func(f func(jetstream.Msg) error, what string) {
		stopNews()
		w.unclaim(ctx, h)
		if err := f(w.release(id, h)); err != nil {
			log.Warn().Err(err).Msg(what)
		}
	}
	term := jetstream.Msg.Term
	nakAfter := func(d time.Duration) func(jetstream.Msg) error {
		return func(m jetstream.Msg) error { return m.NakWithDelay(d) }
	}
	e, err := w.event(ctx, gm.Event)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		log.Error().Msg("a game of an event no coordinator describes: dropped")
		settle(term, "dropping the game")
		return false
	}
	if err != nil {
		log.Warn().Err(err).Msg("reading the event's description; the game goes back")
		settle(nakAfter(time.Second), "giving the game back")
		return true
	}
	if w.coordinatorGone(ctx, e) {
		// Every worker holds it back alike: no pause for the others.
		settle(nakAfter(refusalDelay(delivered)), "holding the game back")
		return false
	}
	if e.refusal != "" {
		w.refuse(e, p.Index, e.refusal)
		settle(nakAfter(refusalDelay(delivered)), "giving the game back")
		return true
	}
	if p.White < 0 || p.White >= len(e.ev.Engines) || p.Black < 0 || p.Black >= len(e.ev.Engines) ||
		p.Opening < 0 || p.Opening >= len(e.ev.Openings) || p.Index < 0 || p.Index >= e.spec.Planned {
		log.Error().Interface("pairing", p).Msg("a game that is not of its event's plan: dropped")
		settle(term, "dropping the game")
		return false
	}
	if w.leftAlone(ctx, e, p.Index, h, delivered, settle, log) {
		return false
	}
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	e.mu.Lock()
	stopped := e.stopped || e.spec.Stopped != ""
	if !stopped {
		e.cancels[p.Index] = cancel
	}
	e.mu.Unlock()
	if stopped {
		settle(term, "dropping a game of a stopped event")
		return false
	}
	defer func() {
		e.mu.Lock()
		delete(e.cancels, p.Index)
		e.mu.Unlock()
	}()
	log.Debug().Str("white", e.ev.Engines[p.White].Name).Str("black", e.ev.Engines[p.Black].Name).Uint64("delivered", delivered).Msg("playing")
	w.playing(h, cancel)
	g, err := e.local.Play(gctx, p)
	if lost := w.played(h); lost != nil {
		w.dropLost(id, h, lost.Holder, "stopped here, no result sent", stopNews, log)
		return false
	}
	if gctx.Err() != nil {
		if e.isStopped() {
			settle(term, "dropping a game of a stopped event")
		} else {
			settle(jetstream.Msg.Nak, "giving the game back")
		}
		return false
	}
	if err != nil {
		log.Error().Err(err).Msg("the game could not be played; it goes back")
		settle(nakAfter(5*time.Second), "giving the game back")
		return false
	}
	g.Worker = w.opt.Name
	if e.scale > 0 {
		if g.PDN, err = tagTimeScale(g.PDN, e.scale, e.spec.Speed, Speed()); err != nil {
			log.Warn().Err(err).Msg("recording the time scale in the PDN")
		}
	}
	// A finished game is worth delivering even when the worker is told to
	// stop: it gets a grace period (the coordinator's answer may be on its
	// way). A stopped event still cancels it at once.
	dctx, dcancel := context.WithCancel(context.WithoutCancel(gctx))
	defer dcancel()
	e.mu.Lock()
	if !e.stopped {
		e.cancels[p.Index] = dcancel
	}
	e.mu.Unlock()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(deliveryGrace, dcancel) })()
	rep, err := w.deliver(dctx, e, ResultMsg{Event: e.spec.ID, Worker: w.opt.Name, Game: g, Claimant: w.claimant}, log)
	switch {
	case err == nil && rep.Holder != "":
		w.dropLost(id, h, rep.Holder, "its result here is not stored", stopNews, log)
	case err != nil:
		log.Warn().Err(err).Msg("the coordinator did not take the result; the game goes back")
		settle(jetstream.Msg.Nak, "giving the game back")
	case rep.OK:
		log.Debug().Str("result", g.Result).Bool("duplicate", rep.Duplicate).Msg("result taken")
		// The news goes on until the server confirms: a game whose ack
		// wait ran out meanwhile would be handed out again.
		err := w.doubleAck(ctx, w.latest(h))
		stopNews()
		w.acked(id, h, err == nil)
		if err != nil {
			log.Warn().Err(err).Msg("acknowledging the game")
		}
	case rep.Stopped:
		settle(term, "dropping a game of a stopped event")
	default:
		log.Error().Str("reason", rep.Error).Msg("the coordinator refused the result; the game goes back")
		settle(nakAfter(5*time.Second), "giving the game back")
	}
	return false
}

// keepAlive sends news of the game h ("in progress") at once, the ack wait
// running since the server's delivery (the message may have waited in this
// worker's buffers), then every third of the ack wait until stop is
// called.
func (w *worker) keepAlive(ctx context.Context, h *held, log zerolog.Logger) (stop func()) {
	alive := make(chan struct{})
	var keep sync.WaitGroup
	keep.Go(func() {
		t := time.NewTicker(max(w.currentAckWait(ctx)/3, 100*time.Millisecond))
		defer t.Stop()
		for {
			if err := w.latest(h).InProgress(); err != nil {
				log.Debug().Err(err).Msg("in progress")
			}
			w.renew(h)
			select {
			case <-alive:
				return
			case <-t.C:
			}
		}
	})
	return sync.OnceFunc(func() { close(alive); keep.Wait() })
}

// rejoin takes msg, another delivery of the game h this worker plays or
// has just acknowledged, without playing the game again.
func (w *worker) rejoin(ctx context.Context, h *held, msg jetstream.Msg, delivered uint64, log zerolog.Logger) {
	w.heldMu.Lock()
	acked := h.acked
	w.heldMu.Unlock()
	if acked {
		// Sent before the server had the acknowledgement: nothing to do
		// but say it again.
		if err := msg.Ack(); err != nil {
			log.Debug().Err(err).Msg("acknowledging a game again")
		}
		log.Debug().Uint64("delivered", delivered).Msg("a delivery of a game already acknowledged: acknowledged again")
		return
	}
	// The news the server missed, at once: the game stays here.
	if err := msg.InProgress(); err != nil {
		log.Debug().Err(err).Msg("in progress")
	}
	log.Warn().Uint64("delivered", delivered).Dur("ack_wait", w.currentAckWait(ctx)).
		Msg("a game this worker is playing came back from the server: its news (in progress) did not reach the server within the ack wait (a loaded machine or a slow link?); it goes on here and is not played twice. If this is frequent, give the coordinator a longer --nats-ack-wait")
}

// hold makes msg the delivery of game id that this worker plays. It
// reports false when the worker already plays that game: msg, a later
// delivery of it, then becomes the one its news and settlement go to.
func (w *worker) hold(id string, msg jetstream.Msg) (*held, bool) {
	w.heldMu.Lock()
	defer w.heldMu.Unlock()
	if h, ok := w.held[id]; ok {
		if !h.acked {
			h.msg = msg
		}
		return h, false
	}
	h := &held{msg: msg}
	w.held[id] = h
	return h, true
}

// latest is the latest delivery of a game held.
func (w *worker) latest(h *held) jetstream.Msg {
	w.heldMu.Lock()
	defer w.heldMu.Unlock()
	return h.msg
}

// release ends the hold of game id, given back or dropped, and returns its
// latest delivery, the one to settle: a delivery that comes later is a new
// one, played (a game given back comes back).
func (w *worker) release(id string, h *held) jetstream.Msg {
	w.heldMu.Lock()
	defer w.heldMu.Unlock()
	delete(w.held, id)
	return h.msg
}

// acked ends the hold of game id, acknowledged (ok) or not. An
// acknowledged game's entry stays for an ack wait: a delivery the server
// sent before the acknowledgement reached it is acknowledged again, not
// played.
func (w *worker) acked(id string, h *held, ok bool) {
	keep := w.currentAckWait(context.Background())
	w.heldMu.Lock()
	defer w.heldMu.Unlock()
	if !ok {
		delete(w.held, id)
		return
	}
	h.acked = true
	time.AfterFunc(keep, func() {
		w.heldMu.Lock()
		defer w.heldMu.Unlock()
		if w.held[id] == h {
			delete(w.held, id)
		}
	})
}

// deliver sends a result to the coordinator until it answers, the worker
// stops, or ResultTimeout passes.
func (w *worker) deliver(ctx context.Context, e *event, r ResultMsg, log zerolog.Logger) (Reply, error) {
	data, err := json.Marshal(r)
	if err != nil {
		return Reply{}, err
	}
	deadline := time.Now().Add(w.opt.ResultTimeout)
	for wait := 200 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
		rctx, cancel := w.attemptContext(ctx, resultAttempt)
		m, err := w.nc.RequestWithContext(rctx, resultSubject+e.spec.ID, data)
		cancel()
		if err == nil {
			var rep Reply
			if err := json.Unmarshal(m.Data, &rep); err != nil {
				return Reply{}, fmt.Errorf("the coordinator's reply: %w", err)
			}
			return rep, nil
		}
		if ctx.Err() != nil {
			return Reply{}, ctx.Err()
		}
		if time.Now().After(deadline) {
			return Reply{}, fmt.Errorf("no answer from the coordinator in %v: %w", w.opt.ResultTimeout, err)
		}
		log.Debug().Err(err).Msg("the coordinator does not answer; trying again")
		sleep(ctx, wait)
	}
}

// resultAttempt bounds one request of deliver. The coordinator answers once
// the runner has stored the game, which may wait for the runner to reach
// it; a request sent again meanwhile is only one more address for that
// answer. A request lost with a coordinator killed or restarted is never
// answered: the worker's slot (and the game, kept alive) waited the 30 s
// this was before the next copy reached the new coordinator.
const resultAttempt = 5 * time.Second

// ackTimeout bounds the confirmation of an ack (doubleAck).
const ackTimeout = 30 * time.Second

// afterReconnect is how long an attempt of deliver still waits for its
// answer once the connection is back after a loss.
const afterReconnect = 2 * time.Second

// attemptContext is the context of one request to the coordinator or the
// server: it ends after d, or afterReconnect once the worker's connection
// came back from a loss. Core NATS keeps nothing across an outage: a
// request or its reply in flight then is gone, and waiting out d for it
// held the game slot (and the result); the short wait leaves the
// coordinator time to subscribe again before the request is sent anew (a
// second copy of a result is answered as a duplicate).
func (w *worker) attemptContext(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	rctx, cancel := context.WithTimeout(ctx, d)
	status := w.nc.StatusChanged(nats.CONNECTED)
	go func() {
		select {
		case <-rctx.Done():
		case _, ok := <-status:
			if !ok {
				return
			}
			select {
			case <-rctx.Done():
			case <-time.After(afterReconnect):
				cancel()
			}
		}
	}()
	return rctx, func() { cancel(); w.nc.RemoveStatusListener(status) }
}

// doubleAck acknowledges a game the coordinator has taken and waits for
// the server to confirm it, for up to ackTimeout (even when the worker
// is told to stop). An ack or its confirmation lost to a reconnection is
// sent again rather than waited for: unconfirmed, the game would come back
// to be played again once its ack wait passes.
func (w *worker) doubleAck(ctx context.Context, msg jetstream.Msg) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ackTimeout)
	defer cancel()
	for {
		actx, acancel := w.attemptContext(ctx, ackTimeout)
		err := msg.DoubleAck(actx)
		cut := actx.Err() != nil && ctx.Err() == nil
		acancel()
		if err == nil || !cut {
			return err
		}
	}
}

// currentAckWait is the consumer's ack wait as last read; it is read again
// in the background every so often (a coordinator may change it). The
// caller never waits for that request: a game's keep-alive asked it before
// its first news, and a slow answer (up to 5 s) used up a short ack wait.
func (w *worker) currentAckWait(ctx context.Context) time.Duration {
	w.infoMu.Lock()
	due := time.Since(w.infoAt) > 10*time.Second && !w.refreshing
	if due {
		w.refreshing = true
	}
	aw := w.ackWait
	w.infoMu.Unlock()
	if due {
		go w.refreshAckWait(ctx)
	}
	if aw <= 0 {
		aw = DefaultAckWait
	}
	return aw
}

// refreshAckWait reads the consumer's ack wait again.
func (w *worker) refreshAckWait(ctx context.Context) {
	ictx, cancel := context.WithTimeout(ctx, 5*time.Second)
	info, err := w.cons.Info(ictx)
	cancel()
	w.infoMu.Lock()
	defer w.infoMu.Unlock()
	w.infoAt, w.refreshing = time.Now(), false
	if err == nil {
		w.ackWait = info.Config.AckWait
	}
}

// refuse tells the coordinator why the worker does not play a game.
func (w *worker) refuse(e *event, game int, reason string) {
	b, _ := json.Marshal(Refusal{Worker: w.opt.Name, Game: game, Reason: reason})
	if err := w.nc.Publish(refusedSubject+e.spec.ID, b); err != nil {
		w.log.Warn().Err(err).Msg("telling the coordinator why the game is refused")
	}
}

// onStop abandons a stopped event's games.
func (w *worker) onStop(m *nats.Msg) {
	id := strings.TrimPrefix(m.Subject, stopSubject)
	w.mu.Lock()
	e := w.events[id]
	w.mu.Unlock()
	if e == nil {
		return
	}
	e.mu.Lock()
	e.stopped = true
	for _, cancel := range e.cancels {
		cancel()
	}
	e.mu.Unlock()
	w.log.Info().Str("event_id", id).Str("why", string(m.Data)).Msg("the event stopped: its games in progress are abandoned")
}

func (e *event) isStopped() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stopped
}

// event returns the event with the given id, reading its description the
// first time.
func (w *worker) event(ctx context.Context, id string) (*event, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e, ok := w.events[id]; ok {
		return e, nil
	}
	kctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ent, err := w.kv.Get(kctx, id)
	if err != nil {
		return nil, err
	}
	var spec EventSpec
	if err := json.Unmarshal(ent.Value(), &spec); err != nil {
		return nil, fmt.Errorf("the event's description: %w", err)
	}
	e := w.prepare(spec)
	if e.refusal == "" {
		// Start each engine once before taking the event's games, as a
		// local event does before its first game: an engine whose
		// definition here cannot start (a typo in its arguments, a
		// missing library) would otherwise lose every game it is given
		// in a fraction of a second, and the coordinator would store
		// them all as crashes. Its log is the engines' exchange (as the
		// games' is: --engine-log), not the worker's.
		if _, err := tournament.Preflight(ctx, e.ev, w.opt.EngineLog); err != nil {
			e.local.Close()
			if ctx.Err() != nil {
				return nil, ctx.Err() // stopping: the game goes back, nothing is decided
			}
			e.local, e.ev = nil, nil
			e.refusal = strings.ReplaceAll(err.Error(), "\n", "; ")
		}
	}
	if e.refusal != "" {
		e.refusal += "; " + cmp.Or(e.remedy, refusalRemedy)
		w.log.Warn().Str("event_id", id).Str("event", spec.Name).Str("reason", e.refusal).Msg("this worker does not play the event")
	} else {
		w.log.Info().Str("event_id", id).Str("event", spec.Name).Msg("playing the event")
	}
	w.events[id] = e
	return e, nil
}

// prepare makes the event a worker plays from its description: the rules,
// clocks and openings are the event's, each engine is the worker's own
// definition of that name (its command, directory, environment, protocol
// and start-up timeout), with the event's clock and options. A worker that
// lacks an engine, or has another build of it, refuses the event.
func (w *worker) prepare(spec EventSpec) *event {
	e := &event{spec: spec, cancels: map[int]context.CancelFunc{}}
	if spec.Protocol != Protocol {
		e.refusal = fmt.Sprintf("the event's coordinator speaks the cluster protocol %d and this worker %d (another arbiter version)", spec.Protocol, Protocol)
		e.remedy = "the event's games go to other workers; run the same arbiter version on every machine of the cluster (arbiter --version)"
		return e
	}
	// What the coordinator's file system held is not here: the openings
	// come with the description, and the engines are the worker's.
	over := []configs.Override{{Key: "openings.file", Value: "", Source: "the worker"}}
	for i := range spec.Engines {
		over = append(over, configs.Override{Key: "engines." + strconv.Itoa(i) + ".dir", Value: "", Source: "the worker"})
	}
	ev, err := configs.Parse([]byte(spec.Config), "event "+strconv.Quote(spec.Name)+" (from its coordinator)", "", configs.Options{Overrides: over})
	if err != nil {
		e.refusal = "the event's configuration is not valid here (another arbiter version?): " + err.Error()
		return e
	}
	if len(ev.Engines) != len(spec.Engines) {
		e.refusal = fmt.Sprintf("the event's configuration has %d engines, its description %d", len(ev.Engines), len(spec.Engines))
		return e
	}
	ev.Openings = nil
	for i, op := range spec.Openings {
		pos, err := rules.ParseFEN(ev.Variant, op.FEN)
		if err != nil {
			e.refusal = fmt.Sprintf("opening %d (%s): %v", i+1, op.Name, err)
			return e
		}
		ev.Openings = append(ev.Openings, configs.Opening{Name: op.Name, FEN: op.FEN, Position: pos})
	}
	if len(ev.Openings) == 0 {
		e.refusal = "the event's description has no openings"
		return e
	}
	mine := map[string]configs.EngineSpec{}
	for _, s := range w.opt.Engines {
		mine[s.Name] = s
	}
	var why []string
	for i, want := range spec.Engines {
		have, ok := mine[want.Name]
		if !ok {
			why = append(why, fmt.Sprintf("engine %s is not configured on this worker", want.Name))
			continue
		}
		if r := checkBuild(want, have); r != "" {
			why = append(why, r)
			continue
		}
		ev.Engines[i] = withEvent(have, ev.Engines[i])
	}
	if len(why) > 0 {
		e.refusal = strings.Join(why, "; ")
		return e
	}
	if spec.Speed > 0 {
		e.scale = timeFactor(spec.Speed, Speed())
		for i := range ev.Engines {
			ev.Engines[i].TimeControl = scaleTC(ev.Engines[i].TimeControl, e.scale)
		}
		w.log.Info().Float64("factor", e.scale).Float64("perft_nps", Speed()).Float64("coordinator_nps", spec.Speed).Msg("time controls scaled")
	}
	e.ev = ev
	e.local = tournament.NewLocal(ev, tournament.LocalOptions{Log: w.log.With().Str("event_id", spec.ID).Logger(), EngineLog: w.opt.EngineLog,
		Slots: w.opt.Concurrency})
	return e
}

// checkBuild says why the worker's definition have is not the build the
// event wants ("" = it is).
func checkBuild(want EngineBuild, have configs.EngineSpec) string {
	switch {
	case want.Version != "":
		if have.Version != want.Version {
			return fmt.Sprintf("engine %s: the event plays version %q, this worker's definition declares %q", want.Name, want.Version, have.Version)
		}
	case want.Checksum != "":
		got := checksum(have)
		if got == "" {
			return fmt.Sprintf("engine %s: its program (%s) cannot be read on this worker", want.Name, strings.Join(have.Argv[:min(1, len(have.Argv))], ""))
		}
		if got != want.Checksum {
			return fmt.Sprintf("engine %s: this worker's program %s (SHA-256 %.16s) is not the event's build (%.16s)", want.Name, have.Argv[0], got, want.Checksum)
		}
	}
	return ""
}

// checksum is tournament.ProgramChecksum: each program file is hashed
// once per process, and a large one not again while it is unchanged (see
// match/internal/progsum).
func checksum(spec configs.EngineSpec) string { return tournament.ProgramChecksum(spec) }

// withEvent is the worker's engine definition have with what the event
// decides of the engine: its clock and its options (an event's option
// replaces the worker's of the same name). Options are protocol
// parameters, not commands.
func withEvent(have, ev configs.EngineSpec) configs.EngineSpec {
	out := have
	out.Name = ev.Name
	out.TimeControl = ev.TimeControl
	opts := map[string]configs.Option{}
	for _, o := range have.Options {
		opts[o.Name] = o
	}
	for _, o := range ev.Options {
		opts[o.Name] = o
	}
	out.Options = nil
	for _, o := range opts {
		out.Options = append(out.Options, o)
	}
	slices.SortFunc(out.Options, func(a, b configs.Option) int { return strings.Compare(a.Name, b.Name) })
	return out
}
