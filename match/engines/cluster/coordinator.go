package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/engines/tournament"
	"github.com/draughts-arbiter/arbiter/match/schedule"
)

// CoordinatorOptions configure NewCoordinator.
type CoordinatorOptions struct {
	// AckWait is how long a game may go without news from its worker
	// before it is handed to another (0 = DefaultAckWait).
	AckWait time.Duration
	// ScaleTime has each worker scale the time controls by its speed
	// against this machine's (see Speed).
	ScaleTime bool
	Log       zerolog.Logger
}

// Coordinator is the tournament.Executor of an event played by workers:
// Play publishes a game and waits for its result.
type Coordinator struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	stream jetstream.Stream
	kv     jetstream.KeyValue
	ev     *configs.Event
	spec   EventSpec
	plan   []schedule.Pairing
	log    zerolog.Logger
	subs   []*nats.Subscription

	mu       sync.Mutex
	waiting  map[int]chan ResultMsg // a Play call waits for the game
	early    map[int]ResultMsg      // results no Play waits for yet
	replies  map[int][]string       // reply subjects to answer once the game is stored
	finished map[int]bool
	enqueued map[int]bool // published by Enqueue
	stopped  bool
	refused  map[string]bool // worker+reason, logged once
	claims   claims          // the worker playing each game (onClaim)
}

// NewCoordinator prepares the event's stream, consumer and description
// for the workers, and listens for results. st must hold the event (see
// store.Init): its creation time is part of the event's id.
func NewCoordinator(ctx context.Context, nc *nats.Conn, ev *configs.Event, st *store.Store, opt CoordinatorOptions) (*Coordinator, error) {
	if opt.AckWait <= 0 {
		opt.AckWait = DefaultAckWait
	}
	sched, err := schedule.New(ev.Schedule)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	sev, err := st.Event(ctx)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	c := &Coordinator{nc: nc, js: js, ev: ev, plan: sched.All(), log: opt.Log,
		waiting: map[int]chan ResultMsg{}, early: map[int]ResultMsg{}, replies: map[int][]string{}, finished: map[int]bool{}, enqueued: map[int]bool{}, refused: map[string]bool{},
		claims: claims{life: ClaimLife(opt.AckWait), m: map[int]claim{}}}
	ids, err := st.FinishedIDs(ctx)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		c.finished[id] = true
	}
	c.spec = EventSpec{Protocol: Protocol, ID: EventID(sev.ConfigHash, sev.Created), Name: ev.Name, Config: ev.Effective, Planned: len(c.plan), Stopped: sev.Stopped}
	if opt.ScaleTime {
		c.spec.Speed = Speed()
		c.log.Info().Float64("perft_nps", c.spec.Speed).Msg("time controls are scaled on each worker by its speed against this one")
	}
	for _, op := range ev.Openings {
		c.spec.Openings = append(c.spec.Openings, OpeningSpec{Name: op.Name, FEN: op.FEN})
	}
	for _, e := range ev.Engines {
		b := EngineBuild{Name: e.Name, Version: e.Version}
		if b.Version == "" {
			b.Checksum = checksum(e)
			if b.Checksum == "" {
				c.log.Warn().Str("engine", e.Name).Msg("the engine's program cannot be read here and it declares no version: workers play it by name, unchecked")
			}
		}
		c.spec.Engines = append(c.spec.Engines, b)
	}
	if err := c.setup(ctx, opt.AckWait); err != nil {
		return nil, err
	}
	ping := func(m *nats.Msg) { m.Respond(nil) }
	for subj, h := range map[string]nats.MsgHandler{resultSubject + c.spec.ID: c.onResult, refusedSubject + c.spec.ID: c.onRefusal, pingSubject + c.spec.ID: ping, claimSubject + c.spec.ID: c.onClaim} {
		sub, err := nc.Subscribe(subj, h)
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("cluster: subscribe %s: %w", subj, err)
		}
		c.subs = append(c.subs, sub)
	}
	fctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := nc.FlushWithContext(fctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("cluster: %w", err)
	}
	c.log.Info().Str("event_id", c.spec.ID).Str("nats", nc.ConnectedUrlRedacted()).Int("planned", len(c.plan)).Int("finished", len(ids)).Msg("coordinator ready")
	return c, nil
}

// setup creates (or updates) the games stream, the workers' consumer and
// the events bucket, and describes the event there.
func (c *Coordinator) setup(ctx context.Context, ackWait time.Duration) error {
	var err error
	c.stream, err = c.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: GamesStream, Subjects: []string{gamesSubject + ">"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, Duplicates: DedupWindow,
		Description: "draughts arbiter: games to play (one message per game, id <event>.<game>)",
	})
	if err != nil {
		return fmt.Errorf("cluster: stream %s: %w", GamesStream, err)
	}
	if _, err := c.js.CreateOrUpdateConsumer(ctx, GamesStream, jetstream.ConsumerConfig{
		Durable: WorkersConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait, MaxDeliver: -1,
		MaxAckPending: 100_000, FilterSubject: gamesSubject + ">",
		Description: "draughts arbiter workers",
	}); err != nil {
		return fmt.Errorf("cluster: consumer %s: %w", WorkersConsumer, err)
	}
	c.kv, err = c.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: EventsBucket, Storage: jetstream.FileStorage,
		Description: "draughts arbiter: events, by id", MaxValueSize: -1})
	if err != nil {
		return fmt.Errorf("cluster: bucket %s: %w", EventsBucket, err)
	}
	return c.putSpec(ctx)
}

func (c *Coordinator) putSpec(ctx context.Context) error {
	b, err := json.Marshal(c.spec)
	if err != nil {
		return err
	}
	if _, err := c.kv.Put(ctx, c.spec.ID, b); err != nil {
		return fmt.Errorf("cluster: describing the event in %s: %w", EventsBucket, err)
	}
	return nil
}

// ID is the event's id in the cluster.
func (c *Coordinator) ID() string { return c.spec.ID }

// maxOutstanding bounds the games handed out at once: each waits in a
// goroutine of the runner, and no cluster has this many game slots.
const maxOutstanding = 5000

// Slots is how many games are handed out at once: every game, up to
// maxOutstanding.
func (c *Coordinator) Slots() int { return max(1, min(len(c.plan), maxOutstanding)) }

// Enqueue publishes game p: the runner calls it in plan order, so that
// the workers, which take the stream's games in the order they were
// published, play them in plan order (tournament.Queue). Play publishes
// the games it was not given first.
func (c *Coordinator) Enqueue(ctx context.Context, p schedule.Pairing) error {
	if err := c.publish(ctx, p); err != nil {
		return err
	}
	c.mu.Lock()
	c.enqueued[p.Index] = true
	c.mu.Unlock()
	return nil
}

// Play publishes game p unless Enqueue did (once: a copy the stream
// already holds is dropped by the server) and waits for its result.
func (c *Coordinator) Play(ctx context.Context, p schedule.Pairing) (store.Game, error) {
	ch := make(chan ResultMsg, 1)
	c.mu.Lock()
	if r, ok := c.early[p.Index]; ok {
		delete(c.early, p.Index)
		ch <- r
	}
	c.waiting[p.Index] = ch
	enqueued := c.enqueued[p.Index]
	delete(c.enqueued, p.Index)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.waiting, p.Index)
		c.mu.Unlock()
	}()
	if !enqueued {
		if err := c.publish(ctx, p); err != nil {
			return store.Game{}, err
		}
	}
	select {
	case r := <-ch:
		g := r.Game
		g.Worker = r.Worker
		return g, nil
	case <-ctx.Done():
		return store.Game{}, ctx.Err()
	}
}

// publish puts game p in the stream, trying again while the server is
// away.
func (c *Coordinator) publish(ctx context.Context, p schedule.Pairing) error {
	b, err := json.Marshal(GameMsg{Event: c.spec.ID, Pairing: p})
	if err != nil {
		return err
	}
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := c.js.Publish(pctx, gamesSubject+c.spec.ID, b, jetstream.WithMsgID(msgID(c.spec.ID, p.Index)))
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		c.log.Warn().Err(err).Int("game", p.Index+1).Msg("publishing the game; trying again")
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// onResult takes a result from a worker: a second copy of a stored game
// is acknowledged, a result no Play waits for yet is kept for it, and the
// reply to the worker goes once the runner stored the game (Committed).
func (c *Coordinator) onResult(m *nats.Msg) {
	r, err := decodeResult(m.Data, c.spec.ID, c.plan, c.ev.Openings)
	if err != nil {
		c.log.Warn().Str("worker", r.Worker).Err(err).Msg("result refused")
		c.reply(m.Reply, Reply{Error: err.Error()})
		return
	}
	id := r.Game.ID
	c.mu.Lock()
	defer c.mu.Unlock()
	if rep, take := c.resultLocked(r); !take {
		c.reply(m.Reply, rep)
		return
	}
	_, pending := c.replies[id]
	c.replies[id] = append(c.replies[id], m.Reply)
	if pending {
		return // this game's result is on its way to the store
	}
	if ch, ok := c.waiting[id]; ok {
		ch <- r
		delete(c.waiting, id)
		return
	}
	c.early[id] = r
}

// resultLocked decides, with c.mu held, whether result r is to be
// stored (take); if not, rep answers its worker: a copy of a stored game
// (acknowledged), a game of a stopped event, or a game whose claim passed
// from r's worker to another, which plays it now. That one is refused even
// when it comes first: the worker was stalled past its claim and should
// have stopped, and the holder's game is the one the event counts on.
func (c *Coordinator) resultLocked(r ResultMsg) (rep Reply, take bool) {
	id := r.Game.ID
	switch {
	case c.finished[id]:
		c.log.Debug().Int("game", id+1).Str("worker", r.Worker).Msg("a second copy of a stored result: acknowledged, ignored")
		return Reply{OK: true, Duplicate: true}, false
	case c.stopped:
		return Reply{Stopped: true}, false
	}
	if holder, lost := c.claims.lostTo(id, r.Claimant); lost {
		c.log.Warn().Int("game", id+1).Str("worker", r.Worker).Str("holder", holder.worker).
			Msg("a result from a worker whose game was taken over (it gave no news for two ack waits): not stored, the game's holder plays it")
		return Reply{Holder: holder.worker}, false
	}
	return Reply{}, true
}

// decodeResult reads a worker's result for event id and makes sure it is
// a game of the plan, as planned (pairing, opening), with a worker's name.
func decodeResult(data []byte, id string, plan []schedule.Pairing, openings []configs.Opening) (ResultMsg, error) {
	var r ResultMsg
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("unreadable result: %w", err)
	}
	g := r.Game
	if r.Event != id {
		return r, fmt.Errorf("a result for event %q sent to event %s", r.Event, id)
	}
	if g.ID < 0 || g.ID >= len(plan) {
		return r, fmt.Errorf("game %d is not in the plan of %d games", g.ID+1, len(plan))
	}
	p := plan[g.ID]
	if g.White != p.White || g.Black != p.Black || g.Round != p.Round || g.Board != p.Board || g.Pair != p.Pair || g.PairGame != p.PairGame || g.Cycle != p.Cycle {
		return r, fmt.Errorf("game %d: the result's pairing (round %d board %d, engines %d-%d) is not the plan's (round %d board %d, engines %d-%d)",
			g.ID+1, g.Round, g.Board, g.White, g.Black, p.Round, p.Board, p.White, p.Black)
	}
	if p.Opening < 0 || p.Opening >= len(openings) || g.OpeningFEN != openings[p.Opening].FEN {
		return r, fmt.Errorf("game %d: played from %q, not from the planned opening", g.ID+1, g.OpeningFEN)
	}
	if r.Worker == "" {
		return r, fmt.Errorf("game %d: the result names no worker", g.ID+1)
	}
	return r, nil
}

// Committed answers the workers waiting for game g once it is stored.
func (c *Coordinator) Committed(g store.Game, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rep := Reply{OK: true}
	if err != nil {
		rep = Reply{Error: "the coordinator could not store the game: " + err.Error()}
	} else {
		c.finished[g.ID] = true
		delete(c.claims.m, g.ID)
	}
	for _, to := range c.replies[g.ID] {
		c.reply(to, rep)
	}
	delete(c.replies, g.ID)
}

// reply answers a worker's request (r: a Reply or a ClaimReply).
func (c *Coordinator) reply(to string, r any) {
	if to == "" {
		return
	}
	b, _ := json.Marshal(r)
	if err := c.nc.Publish(to, b); err != nil {
		c.log.Warn().Err(err).Msg("replying to a worker")
	}
}

// onRefusal logs why a worker does not play the event's games, once per
// worker and reason.
func (c *Coordinator) onRefusal(m *nats.Msg) {
	var r Refusal
	if err := json.Unmarshal(m.Data, &r); err != nil {
		return
	}
	key := r.Worker + "\x00" + r.Reason
	c.mu.Lock()
	seen := c.refused[key]
	c.refused[key] = true
	c.mu.Unlock()
	if !seen {
		c.log.Warn().Str("worker", r.Worker).Int("game", r.Game+1).Str("reason", r.Reason).Msg("a worker refuses the event's games")
	}
}

// Stop withdraws the games not yet played (the SPRT stopped the event):
// they are purged from the stream, the event is marked stopped for the
// workers, and those playing one are told to abandon it.
func (c *Coordinator) Stop(ctx context.Context, why string) error {
	c.mu.Lock()
	c.stopped = true
	for id, tos := range c.replies {
		for _, to := range tos {
			c.reply(to, Reply{Stopped: true})
		}
		delete(c.replies, id)
	}
	c.early = map[int]ResultMsg{}
	c.mu.Unlock()
	c.spec.Stopped = why
	var errs []error
	if err := c.putSpec(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := c.stream.Purge(ctx, jetstream.WithPurgeSubject(gamesSubject+c.spec.ID)); err != nil {
		errs = append(errs, fmt.Errorf("cluster: purging the event's games: %w", err))
	}
	if err := c.nc.Publish(stopSubject+c.spec.ID, []byte(why)); err != nil {
		errs = append(errs, err)
	}
	if err := c.nc.FlushTimeout(10 * time.Second); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Close stops listening for results.
func (c *Coordinator) Close() {
	for _, s := range c.subs {
		s.Unsubscribe()
	}
}

var _ tournament.Queue = (*Coordinator)(nil)
