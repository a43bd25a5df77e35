package tournament

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

// An Observer is told what the event's games do while they are played: a
// live view (match/web serves one) follows the event with it. Its methods
// are called from the runner's goroutines, each game's calls in order, and
// must return at once (hand the work on). Only games played here (the
// Local executor) are followed move by move.
type Observer interface {
	// EventStarted comes first: the event's row and the games earlier runs
	// finished (their rows without PDN and moves).
	EventStarted(ev store.Event, finished []store.Game)
	// GameStarted: game g has begun (its row as store.Start wrote it).
	GameStarted(g store.Game)
	// GameMoved: ply (1-based) of game id was played, with what the engine
	// said of it; clocks are White's and Black's time left after it.
	GameMoved(id, ply int, m store.Move, clocks [2]time.Duration)
	// GameEnded: game g was committed (its row as store.Finish wrote it).
	GameEnded(g store.Game)
	// GameAbandoned: game id was interrupted and will be played again.
	GameAbandoned(id int)
}

// LiveEvery is how often, at most, a running game's moves so far are
// written to the store (store.SetLive) for a live view in another process.
// A write per game and period, whatever the number of moves, keeps the cost
// per move to an append.
const LiveEvery = 500 * time.Millisecond

// liveFeed follows the running games: it writes their rows as running and
// their moves to the store every LiveEvery (from a goroutine of its own, so
// no game waits for SQLite) and tells the Observer, if any, of each game
// and move as it comes.
//
// A game's running row is written by the feed's first flush after it
// started, not as it starts: a game that ends before (most games of fast
// engines) is written once, finished, where a row written at its start
// cost a second transaction, a quarter of the store's work a game. An
// observer in another process sees a game at most LiveEvery late, as it
// sees its moves; the observer in this one (Observer) is told at once. A
// game that ends or is abandoned unwritten leaves no row: it is played
// again, as one left running would be.
type liveFeed struct {
	st  *store.Store
	obs Observer // nil: none
	log zerolog.Logger

	mu    sync.Mutex
	games map[int]*liveGame
	// spare are finished games' records, emptied for the next games: a
	// game's room (14 KB) is taken again rather than left to the collector.
	spare []*liveGame

	stop chan struct{}
	done chan struct{}
}

// liveGame is what the feed knows of one running game. Its info lines are
// parsed when the game is written, not as they come: most moves of a fast
// game are never written one by one.
type liveGame struct {
	row    store.Game // as it started
	stored bool       // row is in the store
	moves  []store.Move
	infos  []string // the info lines of moves[parsed:], not read yet
	parsed int
	clocks [2]time.Duration
	dirty  bool
}

func newLiveFeed(st *store.Store, obs Observer, log zerolog.Logger) *liveFeed {
	f := &liveFeed{st: st, obs: obs, log: log, games: map[int]*liveGame{}, stop: make(chan struct{}), done: make(chan struct{})}
	go f.run()
	return f
}

// close stops the writer (the games it follows are over or abandoned).
func (f *liveFeed) close() {
	close(f.stop)
	<-f.done
}

func (f *liveFeed) run() {
	defer close(f.done)
	t := time.NewTicker(LiveEvery)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-t.C:
			f.flush()
		}
	}
}

// flush writes the games that started or moved since the last flush.
func (f *liveFeed) flush() {
	type write struct {
		id    int
		start *store.Game // the running row to write first, if not yet
		live  store.Live
	}
	var ws []write
	now := time.Now()
	f.mu.Lock()
	for id, g := range f.games {
		if !g.dirty {
			continue
		}
		g.dirty = false
		g.parse()
		w := write{id: id, live: store.Live{Moves: slices.Clone(g.moves), Clocks: g.clocks, Updated: now}}
		if !g.stored {
			g.stored = true
			row := g.row
			w.start = &row
		}
		ws = append(ws, w)
	}
	f.mu.Unlock()
	ctx := context.Background()
	for _, w := range ws {
		if w.start != nil {
			// The game may have ended since: its finished row stands
			// (Start refuses to overwrite it), and so does SetLive.
			if err := f.st.Start(ctx, *w.start); err != nil {
				if !errors.Is(err, store.ErrFinished) {
					f.log.Warn().Err(err).Int("game", w.id+1).Msg("writing the running game")
				}
				continue
			}
		}
		if len(w.live.Moves) == 0 {
			continue // nothing to show yet but the game
		}
		if err := f.st.SetLive(ctx, w.id, w.live); err != nil {
			f.log.Warn().Err(err).Int("game", w.id+1).Msg("writing the live moves")
		}
	}
}

// parse reads the info lines of the moves that have none parsed yet.
func (g *liveGame) parse() {
	for i, info := range g.infos { // infos[i] is move parsed+i's
		annotate(&g.moves[g.parsed+i], info)
	}
	g.parsed = len(g.moves)
	g.infos = g.infos[:0]
}

// annotate fills m with what the engine's info line says.
func annotate(m *store.Move, info string) {
	in := hub.ParseSearchInfo(info)
	m.Score, m.HasScore, m.Depth, m.Nodes, m.PV = in.Score, in.HasScore, in.Depth, in.Nodes, in.PV
}

func (f *liveFeed) started(g store.Game) {
	f.mu.Lock()
	if n := len(f.spare); n > 0 {
		f.games[g.ID], f.spare = f.spare[n-1], f.spare[:n-1]
	} else {
		// Room for a typical game: its moves are appended one by one.
		const plies = 128
		f.games[g.ID] = &liveGame{moves: make([]store.Move, 0, plies), infos: make([]string, 0, plies)}
	}
	lg := f.games[g.ID]
	lg.row, lg.dirty = g, true // the next flush writes the row
	f.mu.Unlock()
	if f.obs != nil {
		f.obs.GameStarted(g)
	}
}

// moved is the Local executor's OnMove: the cost of a move when no
// Observer listens is this append.
func (f *liveFeed) moved(id int, m match.Moved) {
	mv := store.Move{Text: m.Move.Text, Time: m.Move.Used, Clock: m.Move.Clock}
	f.mu.Lock()
	if g := f.games[id]; g != nil {
		g.moves = append(g.moves, mv)
		g.infos = append(g.infos, m.Info)
		g.clocks = m.Clocks
		g.dirty = true
	}
	f.mu.Unlock()
	if f.obs != nil {
		annotate(&mv, m.Info)
		f.obs.GameMoved(id, m.Ply, mv, m.Clocks)
	}
}

func (f *liveFeed) ended(g store.Game) {
	f.mu.Lock()
	f.recycle(g.ID)
	f.mu.Unlock()
	if f.obs != nil {
		g.PDN, g.Moves = "", nil // the observer wants the result
		f.obs.GameEnded(g)
	}
}

func (f *liveFeed) abandoned(id int) {
	f.mu.Lock()
	ok := f.recycle(id)
	f.mu.Unlock()
	if ok && f.obs != nil {
		f.obs.GameAbandoned(id)
	}
}

// recycle forgets game id, keeping its room for a next game (flush writes
// copies, so nothing else holds it), and reports whether it was known.
// f.mu is held.
func (f *liveFeed) recycle(id int) bool {
	g, ok := f.games[id]
	if !ok {
		return false
	}
	delete(f.games, id)
	clear(g.moves) // their strings are the collector's again
	clear(g.infos)
	*g = liveGame{moves: g.moves[:0], infos: g.infos[:0]}
	f.spare = append(f.spare, g)
	return true
}
