package online

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/internal/sqlitefile"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Defaults of Config's limits.
const (
	DefaultMaxGames  = 1000
	DefaultMaxEvents = 20000
	// subBuffer is how many events a subscriber may lag behind before it is
	// dropped. The buffer holds pointers (an event is immutable once
	// published, and all the game's subscribers share it): 2 KiB per viewer,
	// where events by value took some 90 KiB.
	subBuffer        = 256
	snapshotMessages = 300 // messages a Snapshot carries (the latest)
)

// ErrUnknownGame is returned for a game id the hall does not hold.
var ErrUnknownGame = &Refusal{Code: "refused.unknown-game", Kind: message.NotFound}

// Hall holds the games: it creates them, routes intents to them, stores
// and publishes their events, and restores them after a restart. It is
// safe for concurrent use.
type Hall struct {
	cfg Config
	log zerolog.Logger
	st  *store

	// base and mono give the default time: the process's monotonic clock
	// expressed as a wall time (immune to wall-clock steps).
	base, mono time.Time

	rematchMu sync.Mutex // Rematch: one new game per finished game

	mu      sync.Mutex
	games   map[string]*game
	tokens  map[[32]byte]tokenRow
	running int
	broken  map[string]string
	stalled map[*game]struct{} // waiting for the store (stall.go)
	retry   chan struct{}
	closed  bool
	done    []string // finished games in memory, oldest first (see finished)

	commits atomic.Uint64 // events stored, all games (Changes)

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// Changes counts the events stored for all games since the hall opened:
// what a game's record shows can have changed only when it has moved, so a
// page drawn from the records (an event's PDN) is kept while it stands.
func (h *Hall) Changes() uint64 { return h.commits.Load() }

// Open opens (or creates) the hall's database and resumes every running
// game. Games that cannot be restored are reported by Broken; they do not
// stop the others.
func Open(ctx context.Context, cfg Config) (*Hall, error) {
	if cfg.MaxGames <= 0 {
		cfg.MaxGames = DefaultMaxGames
	}
	if cfg.MaxEvents <= 0 {
		cfg.MaxEvents = DefaultMaxEvents
	}
	st, err := openStore(cfg.Path)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	h := &Hall{cfg: cfg, log: cfg.Log, st: st, base: now.Round(0), mono: now,
		games: map[string]*game{}, tokens: map[[32]byte]tokenRow{}, broken: map[string]string{},
		stalled: map[*game]struct{}{}, retry: make(chan struct{}, 1)}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	toks, err := st.tokens(ctx)
	if err != nil {
		st.close()
		return nil, fmt.Errorf("online: reading tokens: %w", err)
	}
	for _, t := range toks {
		h.tokens[t.hash] = t
	}
	last, err := st.lastBeat()
	if err != nil {
		st.close()
		return nil, fmt.Errorf("online: reading the heartbeat: %w", err)
	}
	rows, err := st.games(ctx, "WHERE status = 'running' ORDER BY created")
	if err != nil {
		st.close()
		return nil, fmt.Errorf("online: reading games: %w", err)
	}
	for _, row := range rows {
		g, err := h.restore(ctx, row, true, last)
		if err != nil {
			h.log.Error().Str("game", row.id).Err(err).Msg("game cannot be restored")
			h.broken[row.id] = err.Error()
			h.games[row.id] = &game{id: row.id, broken: err}
			continue
		}
		h.games[row.id] = g
		if !g.ref.Done() {
			h.running++
		}
	}
	if err := st.beat(h.now()); err != nil {
		st.close()
		return nil, fmt.Errorf("online: heartbeat: %w", err)
	}
	h.wg.Add(3)
	go h.heartbeat()
	go h.retrier()
	go h.adjourner()
	// Engines and timers start once every game is in place.
	for _, g := range h.games {
		if g.broken != nil {
			continue
		}
		g.mu.Lock()
		h.resumeLive(g)
		g.mu.Unlock()
	}
	return h, nil
}

func (h *Hall) now() time.Time {
	if h.cfg.Now != nil {
		return h.cfg.Now()
	}
	return h.base.Add(time.Since(h.mono))
}

func (h *Hall) heartbeat() {
	defer h.wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-t.C:
			if err := h.st.beat(h.now()); err != nil {
				h.log.Warn().Err(err).Msg("heartbeat not written")
			}
		}
	}
}

// Broken lists the games that could not be restored, by id, with why.
func (h *Hall) Broken() map[string]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]string, len(h.broken))
	for k, v := range h.broken {
		out[k] = v
	}
	return out
}

// restore replays a stored game. For a running game it also books the
// server's down time (from the later of the last heartbeat and the game's
// last input, to now) as not charged.
func (h *Hall) restore(ctx context.Context, row gameRow, running bool, lastBeat time.Time) (g *game, err error) {
	defer func() {
		if p := recover(); p != nil {
			g, err = nil, fmt.Errorf("replay panicked: %v", p)
		}
	}()
	if row.status != "running" && row.status != "over" && row.status != "adjourned" {
		return nil, fmt.Errorf("game row: %s", row.status)
	}
	engines := h.cfg.Engines
	if row.setup.Engine != "" {
		if _, ok := engines[row.setup.Engine]; !ok {
			// Replayable without it; the engine side forfeits when it cannot start.
			engines = map[string]EngineSpec{row.setup.Engine: {Name: row.setup.Engine}}
		}
	}
	sp, err := check(row.setup, engines)
	if err != nil {
		return nil, fmt.Errorf("its setup no longer checks: %w", err)
	}
	g, err = newGame(row.id, sp, row.created)
	if err != nil {
		return nil, err
	}
	ins, maxV, err := h.st.inputs(ctx, row.id)
	if err != nil {
		return nil, fmt.Errorf("reading its events: %w", err)
	}
	g.replay = true
	for _, r := range ins {
		var in input
		if err := json.Unmarshal(r.input, &in); err != nil {
			return nil, fmt.Errorf("event %d: stored input unreadable: %w", r.v, err)
		}
		g.pending = g.pending[:0]
		if _, _, ref := g.apply(r.at, in, nil); ref != nil {
			return nil, fmt.Errorf("event %d (%s): refused on replay: %s", r.v, in.describe(), ref.Error())
		}
		g.collect()
		// The replay must give what the game gave.
		types := make([]string, len(g.pending))
		for i, e := range g.pending {
			types[i] = e.Type
		}
		if !slices.Equal(types, r.types) {
			return nil, fmt.Errorf("event %d (%s): the replay gives %v where the store has %v", r.v, in.describe(), types, r.types)
		}
	}
	g.pending = nil
	g.v = maxV
	g.replay = false
	// A side that opened the game before the restart comes back, it does
	// not open it again.
	present, err := h.st.present(ctx, row.id)
	if err != nil {
		return nil, fmt.Errorf("reading its presence: %w", err)
	}
	for _, c := range []rules.Color{rules.White, rules.Black} {
		if slices.Contains(present, colorName(c)) {
			g.joined[Role(c)] = true
		}
	}
	if running && !g.ref.Done() {
		now := h.now()
		from := g.lastAt
		if lastBeat.After(from) {
			from = lastBeat
		}
		d := max(0, now.Sub(from))
		if _, r, err := h.run(g, now, input{Internal: "downtime", Amount: d, Why: "the server was restarted"}, nil); r != nil || err != nil {
			return nil, fmt.Errorf("booking the down time: %v %v", r, err)
		}
	}
	return g, nil
}

func (in input) describe() string {
	if in.Internal != "" {
		return in.Internal
	}
	return in.Role.String() + " " + in.Intent.Kind
}

// newID returns n random bytes in base64url.
func newID(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

func hashToken(t string) [32]byte { return sha256.Sum256([]byte(t)) }

// Create starts a game from s. A *SetupError names the field that is
// wrong; a *Refusal says the hall is full.
func (h *Hall) Create(ctx context.Context, s Setup) (Created, error) {
	sp, err := check(s, h.cfg.Engines)
	if err != nil {
		return Created{}, err
	}
	if sp.engine != "" {
		name := h.cfg.Engines[sp.engine].Name
		if name == "" {
			name = sp.engine
		}
		if sp.engineSide == rules.White && s.White == "" {
			sp.setup.White = name
		}
		if sp.engineSide == rules.Black && s.Black == "" {
			sp.setup.Black = name
		}
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return Created{}, refuse(message.Unavailable, "refused.closed")
	}
	if h.running >= h.cfg.MaxGames {
		h.mu.Unlock()
		return Created{}, refuse(message.Unavailable, "refused.too-many-games", "limit", fmt.Sprint(h.cfg.MaxGames))
	}
	h.running++ // reserved; given back on failure
	h.mu.Unlock()
	fail := func(err error) (Created, error) {
		h.mu.Lock()
		h.running--
		h.mu.Unlock()
		return Created{}, err
	}
	id := newID(12)
	created := h.now()
	g, err := newGame(id, sp, created)
	if err != nil {
		return fail(&SetupError{Field: "variant", Err: err})
	}
	c := Created{ID: id, Tokens: map[Role]string{}}
	var rows []tokenRow
	for _, r := range Roles() {
		if col, ok := r.player(); ok && sp.engine != "" && col == sp.engineSide {
			continue
		}
		t := newID(32)
		c.Tokens[r] = t
		rows = append(rows, tokenRow{hash: hashToken(t), game: id, role: r})
	}
	if err := h.st.createGame(ctx, id, created, sp.setup, rows); err != nil {
		if reason, ok := sqlitefile.CannotWrite(err); ok {
			h.log.Error().Err(err).Msg("the store cannot save: no game created")
			return fail(refuse(message.Unavailable, "refused.cannot-create", "reason", reason))
		}
		return fail(fmt.Errorf("online: storing the new game: %w", err))
	}
	h.mu.Lock()
	h.games[id] = g
	for _, t := range rows {
		h.tokens[t.hash] = t
	}
	h.mu.Unlock()
	h.log.Info().Str("game", id).Str("variant", sp.variant.Name()).Str("engine", sp.engine).Msg("game created")
	g.mu.Lock()
	h.resumeLive(g)
	g.mu.Unlock()
	return c, nil
}

// Resolve finds the game and role of a link's token. Only hashes are
// kept; the hash found is compared again in constant time.
func (h *Hall) Resolve(token string) (id string, role Role, ok bool) {
	if len(token) == 0 || len(token) > 128 {
		return "", 0, false
	}
	sum := hashToken(token)
	h.mu.Lock()
	t, found := h.tokens[sum]
	h.mu.Unlock()
	if !found || subtle.ConstantTimeCompare(t.hash[:], sum[:]) != 1 {
		return "", 0, false
	}
	return t.game, t.role, true
}

// get finds a game, loading a finished one from the store on demand.
func (h *Hall) get(ctx context.Context, id string) (*game, error) {
	h.mu.Lock()
	g, ok := h.games[id]
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return nil, refuse(message.Unavailable, "refused.closed")
	}
	if ok {
		return g, nil
	}
	if len(id) > 64 {
		return nil, ErrUnknownGame
	}
	rows, err := h.st.games(ctx, "WHERE id = ?", id)
	if err != nil {
		return nil, fmt.Errorf("online: reading game %s: %w", id, err)
	}
	if len(rows) == 0 {
		return nil, ErrUnknownGame
	}
	// A running game is always in memory; this one is over (or broken).
	g, err = h.restore(ctx, rows[0], false, time.Time{})
	if err != nil {
		g = &game{id: id, broken: err}
	} else if rows[0].status == "adjourned" {
		g.adjourned = true
	}
	h.mu.Lock()
	old, ok := h.games[id]
	if ok {
		g = old
	} else {
		h.games[id] = g
	}
	h.mu.Unlock()
	if !ok && g.broken == nil {
		h.finished(id)
	}
	return g, nil
}

// lockGame finds game id and locks it; a finished game dropped from
// memory meanwhile (evicted) is looked up again.
func (h *Hall) lockGame(ctx context.Context, id string) (*game, error) {
	for {
		g, err := h.get(ctx, id)
		if err != nil {
			return nil, err
		}
		g.mu.Lock()
		if !g.evicted {
			return g, nil
		}
		g.mu.Unlock()
	}
}

// maxFinished is how many finished games stay in memory; older ones are
// read from the store again when someone looks at them.
var maxFinished = 1000

// finished notes that game id is over (or was loaded over) and drops the
// oldest finished games nobody watches from memory. It takes h.mu and
// the dropped games' locks; call it holding neither.
func (h *Hall) finished(id string) {
	h.mu.Lock()
	h.done = append(h.done, id)
	var drop []*game
	for len(h.done) > maxFinished {
		old := h.done[0]
		h.done = h.done[1:]
		if g, ok := h.games[old]; ok {
			drop = append(drop, g)
		}
	}
	h.mu.Unlock()
	for _, g := range drop {
		g.mu.Lock()
		if len(g.subs) > 0 || g.broken != nil {
			g.mu.Unlock()
			h.mu.Lock()
			h.done = append(h.done, g.id) // watched: keep it for now
			h.mu.Unlock()
			continue
		}
		g.evicted = true
		g.mu.Unlock()
		h.mu.Lock()
		if h.games[g.id] == g {
			delete(h.games, g.id)
		}
		h.mu.Unlock()
	}
}

// Act applies an intent of role to game id. A refused intent is a
// *Refusal; other errors are the server's (the store failed).
func (h *Hall) Act(ctx context.Context, id string, role Role, in Intent) (Reply, error) {
	if r := in.refuseControls(); r != nil {
		return Reply{}, r
	}
	g, err := h.lockGame(ctx, id)
	if err != nil {
		return Reply{}, err
	}
	defer g.mu.Unlock()
	if g.broken != nil {
		return Reply{}, refuse(message.Conflict, "refused.broken", "reason", g.broken.Error())
	}
	if g.closed {
		return Reply{}, refuse(message.Unavailable, "refused.closed")
	}
	if g.stalled != "" {
		return Reply{}, g.stalledRefusal()
	}
	if err := h.takeUp(g); err != nil {
		return Reply{}, err
	}
	if int(role) >= len(roleNames) {
		return Reply{}, badInput("role", "no such role")
	}
	now := h.now()
	// The flag is checked on every act, not only by the timer.
	if _, r, err := h.run(g, now, input{Internal: "flag"}, nil); err != nil || r != nil {
		if err != nil {
			return Reply{}, err
		}
	}
	var tok func(Role) (string, *tokenRow, error)
	if in.Kind == "reissue" {
		tok = func(r Role) (string, *tokenRow, error) {
			t := newID(32)
			return t, &tokenRow{hash: hashToken(t), game: id, role: r}, nil
		}
	}
	rep, r, err := h.run(g, now, input{Role: role, Intent: in}, tok)
	if err != nil {
		return Reply{}, err
	}
	if r != nil {
		return Reply{}, r
	}
	return rep, nil
}

// run applies one input live: apply, store, publish, reschedule. It
// holds g.mu.
func (h *Hall) run(g *game, at time.Time, in input, tok func(Role) (string, *tokenRow, error)) (rep Reply, ref *Refusal, err error) {
	defer func() {
		// A bug must not take the server down nor leave the game locked
		// half-applied: the game stops, the others go on.
		if p := recover(); p != nil {
			g.broken = fmt.Errorf("internal error applying %s: %v", in.describe(), p)
			h.log.Error().Str("game", g.id).Str("stack", string(debug.Stack())).Msgf("panic: %v", p)
			rep, ref, err = Reply{}, nil, g.broken
		}
	}()
	limit := int64(h.cfg.MaxEvents)
	if g.v >= limit+100 || g.v >= limit && in.Internal == "" && in.Intent.Kind != "resign" && in.Intent.Kind != "declare" {
		return Reply{}, refuse(message.Conflict, "refused.event-limit", "limit", fmt.Sprint(limit)), nil
	}
	wasOver := g.ref.Done()
	g.pending = g.pending[:0]
	token, row, r := g.apply(at, in, tok)
	if r != nil {
		g.pending = g.pending[:0]
		return Reply{}, r, nil
	}
	g.collect()
	if len(g.pending) == 0 {
		return Reply{V: g.v, State: g.state()}, nil, nil
	}
	b, err := json.Marshal(in)
	if err != nil {
		return Reply{}, nil, err
	}
	evs, err := h.commit(g, b, wasOver, row)
	if err != nil {
		return Reply{}, nil, err
	}
	if row != nil {
		h.log.Info().Str("game", g.id).Str("role", row.role.String()).Msg("link reissued")
	}
	h.afterChange(g, wasOver)
	return Reply{V: g.v, Events: evs, State: evs[len(evs)-1].State, Token: token}, nil, nil
}

// commit numbers g.pending, stores it (with in on the first event) and
// publishes it.
func (h *Hall) commit(g *game, in []byte, wasOver bool, tok *tokenRow) ([]Event, error) {
	st := g.state()
	rows := make([]eventRow, len(g.pending))
	evs := make([]Event, len(g.pending))
	v := g.v
	for i, e := range g.pending {
		v++
		e.V, e.State = v, st
		evs[i] = e
		rows[i] = eventRow{ev: e}
	}
	rows[0].input = in
	over := g.ref.Done() && !wasOver
	if err := h.st.commit(g.id, rows, over, g.ref.Result().PDN(g.sp.variant), tok); err != nil {
		// The game in memory is now ahead of the store: it goes back to
		// what the store holds and waits, clocks stopped, until writing
		// works (stall.go). Only if the store cannot even be read is it
		// stopped for good.
		h.log.Error().Str("game", g.id).Err(err).Msg("event not stored; game paused until the store takes writes")
		if h.stall(g, g.clk.t, err) {
			return nil, g.stalledRefusal()
		}
		g.broken = fmt.Errorf("the store failed: %w", err)
		return nil, fmt.Errorf("online: storing game %s: %w", g.id, err)
	}
	g.v = v
	g.pending = g.pending[:0]
	h.commits.Add(uint64(len(rows)))
	if tok != nil {
		// The old token dies before anyone hears of the reissue: a stream
		// that re-resolves its token on the reissue event finds it gone.
		h.mu.Lock()
		for k, t := range h.tokens {
			if t.game == g.id && t.role == tok.role {
				delete(h.tokens, k)
			}
		}
		h.tokens[tok.hash] = *tok
		h.mu.Unlock()
	}
	for _, e := range evs {
		pub := e // one copy shared by every subscriber, apart from the caller's evs
		g.publish(&pub)
	}
	return evs, nil
}

// publish sends e to every subscriber; one whose buffer is full is
// dropped (its channel closed), never waited for. Subscribers must not
// modify e.
func (g *game) publish(e *Event) {
	for s := range g.subs {
		select {
		case s.ch <- e:
		default:
			delete(g.subs, s)
			close(s.ch)
		}
	}
}

// afterChange follows up a stored input: the end of a game, the flag
// timer, the engine.
func (h *Hall) afterChange(g *game, wasOver bool) {
	if g.ref.Done() {
		if !wasOver {
			h.mu.Lock()
			h.running--
			h.mu.Unlock()
			h.log.Info().Str("game", g.id).Str("result", g.ref.Result().String()).Msg("game over")
			// finished takes other games' locks: not while holding this one.
			id := g.id
			go h.finished(id)
		}
		if g.timer != nil {
			g.timer.Stop()
			g.timer = nil
		}
	} else {
		h.schedule(g)
	}
	g.wakeEngine()
}

// resumeLive starts a game's timer and engine (a new or restored game).
func (h *Hall) resumeLive(g *game) {
	if g.ref.Done() {
		return
	}
	h.schedule(g)
	if g.sp.engine != "" && g.eng == nil {
		h.startEngine(g)
	}
}

// schedule sets the flag timer to the side to move's deadline.
func (h *Hall) schedule(g *game) {
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
	if g.closed || g.stalled != "" || g.ref.Done() || g.ref.Ply() == 0 {
		return
	}
	d := g.ref.Deadline()
	if d.IsZero() {
		return
	}
	wait := d.Sub(h.now()) + time.Millisecond
	g.timer = time.AfterFunc(max(wait, 0), func() { h.tick(g) })
}

// tick is the flag timer firing.
func (h *Hall) tick(g *game) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || g.broken != nil || g.stalled != "" {
		return
	}
	if _, _, err := h.run(g, h.now(), input{Internal: "flag"}, nil); err != nil {
		return
	}
	if !g.ref.Done() {
		h.schedule(g) // the deadline moved (time added, a pause)
	}
}

// Snapshot is game id as role sees it now.
func (h *Hall) Snapshot(id string, role Role) (Snapshot, error) {
	ctx := context.Background()
	g, err := h.lockGame(ctx, id)
	if err != nil {
		return Snapshot{}, err
	}
	if g.broken != nil {
		g.mu.Unlock()
		return Snapshot{}, refuse(message.Conflict, "refused.broken", "reason", g.broken.Error())
	}
	if err := h.takeUp(g); err != nil {
		g.mu.Unlock()
		return Snapshot{}, err
	}
	if !g.ref.Done() && !g.closed {
		g.clk.t = h.now() // only reads follow: the running clock as of now
	}
	state := g.state()
	if g.stalled != "" {
		state = g.stalledState()
	}
	s := Snapshot{V: g.v, ID: id, Role: role, Setup: g.sp.setup, Variant: g.sp.variant.Name(), Geometry: geometryOf(g.sp.variant).pub,
		Captures: capturesOf(g.sp.variant), FlippedFor: RoleWhite, State: state,
		// [] before the first move and message, as a client reads a list
		// (they were null).
		Moves: []MoveLine{}, Messages: []Event{}}
	if role == RoleBlack {
		s.FlippedFor = RoleBlack
	}
	if g.sp.engine != "" {
		s.Engine = colorName(g.sp.engineSide)
	}
	for i, m := range g.ref.Record().Moves {
		s.Moves = append(s.Moves, MoveLine{Ply: i, Text: m.Text, Color: colorName(m.Color), ClockMS: m.Clock.Milliseconds(), Illegal: m.Illegal})
	}
	if c, ok := role.player(); ok && g.sp.setup.Beginner && !g.ref.Done() && c == g.ref.Turn() && !g.ref.Pending() {
		s.Legal = g.legal()
	}
	s.Rematch = g.rematch[role]
	if !g.sp.friendly {
		s.Policy = string(g.sp.policy)
	}
	v := g.v
	g.mu.Unlock()
	msgs, err := h.st.events(ctx, id, 0, snapshotMessages, true)
	if err != nil {
		return Snapshot{}, fmt.Errorf("online: reading game %s: %w", id, err)
	}
	for _, e := range msgs {
		if e.V <= v {
			s.Messages = append(s.Messages, e)
		}
	}
	return s, nil
}

// sub is one watcher of a game.
type sub struct {
	ch      chan *Event
	passive bool // a follower, not a viewer (Follow)
}

// Watch returns game id's events after version since, read from the
// store, and a channel of the live events that follow them (closed when
// ctx ends, the hall closes, or the watcher fell too far behind: then it
// reconnects with the last version it saw). The live events are shared
// by every watcher of the game: read them, never modify them.
func (h *Hall) Watch(ctx context.Context, id string, since int64) ([]Event, <-chan *Event, error) {
	return h.watch(ctx, id, since, false)
}

func (h *Hall) watch(ctx context.Context, id string, since int64, passive bool) ([]Event, <-chan *Event, error) {
	s := &sub{ch: make(chan *Event, subBuffer), passive: passive}
	g, err := h.lockGame(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if g.broken != nil || g.closed {
		g.mu.Unlock()
		return nil, nil, refuse(message.Conflict, "refused.broken", "reason", fmt.Sprint(g.broken))
	}
	if !passive {
		if err := h.takeUp(g); err != nil {
			g.mu.Unlock()
			return nil, nil, err
		}
	}
	g.subs[s] = struct{}{}
	upto := g.v
	g.mu.Unlock()
	context.AfterFunc(ctx, func() {
		g.mu.Lock()
		if _, ok := g.subs[s]; ok {
			delete(g.subs, s)
			close(s.ch)
		}
		g.mu.Unlock()
	})
	if since >= upto {
		return nil, s.ch, nil
	}
	all, err := h.st.events(ctx, id, since, 0, false)
	if err != nil {
		return nil, nil, fmt.Errorf("online: reading game %s: %w", id, err)
	}
	missed := all[:0]
	for _, e := range all {
		if e.V <= upto {
			missed = append(missed, e)
		}
	}
	return missed, s.ch, nil
}

// Presence says that a viewer of role connected or went away. Both players
// see when the other is away (a presence event); the clock keeps running.
func (h *Hall) Presence(id string, role Role, connected bool) {
	h.mu.Lock()
	g, ok := h.games[id]
	h.mu.Unlock()
	if !ok || int(role) >= len(roleNames) {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.broken != nil || g.closed {
		return
	}
	if g.stalled != "" {
		// Counted, not announced: the store takes no event now.
		if connected {
			g.presence[role]++
		} else if g.presence[role] > 0 {
			g.presence[role]--
		}
		return
	}
	before := g.presence[role]
	if connected {
		g.presence[role]++
	} else if before > 0 {
		g.presence[role]--
	}
	c, isPlayer := role.player()
	if !isPlayer || (before > 0) == (g.presence[role] > 0) || g.v >= int64(h.cfg.MaxEvents) {
		return
	}
	code := "presence.away"
	switch {
	case connected && !g.joined[role]:
		// A first visit is an arrival, not a return.
		code = "presence.joined"
	case connected:
		code = "presence.back"
	}
	if connected {
		g.joined[role] = true
	}
	g.clk.t = h.now()
	if g.ref.Done() {
		g.clk.t = g.lastAt
	}
	g.pending = append(g.pending[:0], Event{Type: EvPresence, At: h.now(), Msg: newMsg(code, kv("color", colorName(c)))})
	if _, err := h.commit(g, nil, g.ref.Done(), nil); err != nil {
		h.log.Warn().Str("game", id).Err(err).Msg("presence not stored")
	}
}

// Position is the game's current position (for the arbiter's questions
// about it).
func (h *Hall) Position(id string) (rules.Position, error) {
	g, err := h.lockGame(context.Background(), id)
	if err != nil {
		return rules.Position{}, err
	}
	defer g.mu.Unlock()
	if g.broken != nil {
		return rules.Position{}, refuse(message.Conflict, "refused.broken", "reason", g.broken.Error())
	}
	return g.ref.Position(), nil
}

// PDN is game id's record as PDN text, at any moment of the game.
func (h *Hall) PDN(id string) (string, error) {
	g, err := h.lockGame(context.Background(), id)
	if err != nil {
		return "", err
	}
	if g.broken != nil {
		g.mu.Unlock()
		return "", refuse(message.Conflict, "refused.broken", "reason", g.broken.Error())
	}
	rec := g.ref.Record()
	s := g.sp.setup
	created := g.created
	g.mu.Unlock()
	return writePDN(rec, s, created)
}

// Games lists the ids of the games in memory (running first), for the
// operator.
func (h *Hall) Games() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.games))
	for id := range h.games {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Close stops the timers and engines, closes every watcher's channel,
// writes a last heartbeat and closes the store. The games resume on the
// next Open.
func (h *Hall) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	games := make([]*game, 0, len(h.games))
	for _, g := range h.games {
		games = append(games, g)
	}
	h.mu.Unlock()
	h.cancel()
	for _, g := range games {
		g.mu.Lock()
		g.closed = true
		if g.timer != nil {
			g.timer.Stop()
		}
		for s := range g.subs {
			delete(g.subs, s)
			close(s.ch)
		}
		g.mu.Unlock()
	}
	h.wg.Wait() // engines and the heartbeat
	err := h.st.beat(h.now())
	return errors.Join(err, h.st.close())
}
