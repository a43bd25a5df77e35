// Package tournament runs an event: it takes the plan from match/schedule,
// plays the games in parallel (up to the configured concurrency) with
// match.PlayGame, commits each finished game to the store, and reports the
// results in plan order (round, board) whatever order they finish in. A
// two-engine match with an SPRT stops when a bound is crossed.
//
// Running the same event again resumes it: finished games are skipped, games
// left running by a killed run are played again.
//
// Imported by cmd/arbiter and the cluster (match/engines/cluster); never by
// the people's wing, which starts an engine with match/engines alone.
package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/sync/errgroup"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/reports"
	"github.com/draughts-arbiter/arbiter/reports/stats"
	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// PlayFunc plays one game; match.PlayGame is the real one.
type PlayFunc func(ctx context.Context, cfg arbiter.Config, white, black match.Player, log zerolog.Logger) (*match.GameRecord, error)

// Options configure Run. Event and Store are required; the zero value of
// every other field is a sensible default.
type Options struct {
	Event *configs.Event
	Store *store.Store
	// Log receives the runner's log; each game logs at debug level.
	Log zerolog.Logger
	// EngineLog receives the engines' protocol exchanges (zero: none).
	EngineLog zerolog.Logger
	// Console, when set, shows the standings every StandingsEvery games:
	// on a terminal redrawn in place above a progress bar with ETA, else
	// as a plain line (see Console).
	Console        *Console
	StandingsEvery int // 0 = every max(2, engines) games
	// Play plays one game (nil = match.PlayGame).
	Play PlayFunc
	// NewPlayer makes a player for an engine (nil = a Hub or DXP player
	// from the engine's spec).
	NewPlayer func(spec configs.EngineSpec, log zerolog.Logger) match.Player
	// Drain, when closed, stops the event gently: no game starts after it,
	// the games in progress are played to their end and stored, and Run
	// returns ErrDrained (cancelling ctx abandons them instead).
	Drain <-chan struct{}
	// OnResult is called for every game, finished in this run or before,
	// in plan order (round, board, pair, game), from one goroutine at a time.
	OnResult func(Result)
	// Executor plays the games (nil = a Local one, from Play, NewPlayer
	// and the event's concurrency). The runner writes each game as running
	// only with the Local one, whose games start when their engines do (by
	// its live feed, within LiveEvery of the start: see liveFeed).
	Executor Executor
	// Pair pairs the rounds of a Swiss event (nil = swiss.Pair, the Dutch
	// system).
	Pair swiss.Pairer
	// Observer, when set, is told of the games as they are played (a live
	// view; see Observer). With the Local executor the moves of the
	// running games are written to the store every LiveEvery whether or
	// not one is set, for a live view in another process.
	Observer Observer
}

// Result is a finished game as the runner reports it.
type Result struct {
	schedule.Pairing
	WhiteName, BlackName string
	Result               string // PDN result
	Termination          string
	Reason               string
	Plies                int
	Opening              string
	Resumed              bool // finished by an earlier run
	// Latency is, over the game's moves (played in this run), the time
	// between a request written and its reply read that the engine did not
	// report as thinking (store.Move.Latency); MaxLatency the most of one
	// move. Much of it means the machine, not the engine, spent the time.
	// LatencyMoves counts the moves whose latency is known (the engine
	// reported its search time; store.UnknownLatency).
	Latency, MaxLatency time.Duration
	LatencyMoves        int
}

// Summary is what Run did.
type Summary struct {
	Planned  int // games in the plan
	Resumed  int // finished before this run
	Played   int // finished in this run
	Finished int // finished in total
	Stopped  string
	SPRT     *stats.SPRTResult // last SPRT evaluation, if any
	Elapsed  time.Duration
	// NeverStarted names the engines that failed every start of a game in
	// this run (a missing program, a crash or timeout at start-up, nobody at
	// a DXP address, a GAMEREQ refused or unanswered), with the last reason: their games are recorded as
	// losses, but the event did not test them, which callers should say.
	NeverStarted []string
	// EngineChanges says, per engine that is not what it was in the event's
	// earlier runs (another program file, name or version), what changed;
	// each was also logged as a warning when found.
	EngineChanges []string
	// Match is the tally of a two-engine event from the first engine's
	// point of view (nil with more engines): the summary line engine
	// authors look for (see WriteMatchSummary).
	Match *MatchTally
	// Latency sums the games' latency not reported as thinking (see
	// Result.Latency) over the games of this run.
	Latency LatencyTally
	// HostStops are, per engine whose host had to stop its search to keep
	// it inside its clock at least once in this run (cb-host, see
	// store.Move.HostStopped), how often and of how many moves; in the
	// order of the event's engines.
	HostStops []HostStops
	Standings
	// Swiss are a Swiss event's standings after its complete rounds (nil
	// for the other formats); Standings are then in their order.
	Swiss *reports.SwissStandings
}

// HostStops counts the moves of one engine that its host stopped.
type HostStops struct {
	Engine         string
	Stopped, Moves int
}

// hostStops adds game g's moves to the tallies (per engine index).
func hostStops(tally map[int]*HostStops, names []string, g store.Game) {
	first := 0 // the side of ply 1: White's engine
	if g.FirstMover == "black" {
		first = 1
	}
	for i, m := range g.Moves {
		e := g.White
		if (i+first)%2 == 1 {
			e = g.Black
		}
		t := tally[e]
		if t == nil {
			t = &HostStops{Engine: names[e]}
			tally[e] = t
		}
		t.Moves++
		if m.HostStopped {
			t.Stopped++
		}
	}
}

// LatencyTally is the latency of the moves of a run's games.
type LatencyTally struct {
	Total, Max time.Duration
	Moves      int
	MaxGame    int // the game (1-based) of the worst move
}

func (l *LatencyTally) add(r Result) {
	l.Total += r.Latency
	l.Moves += r.LatencyMoves
	if r.MaxLatency > l.Max {
		l.Max, l.MaxGame = r.MaxLatency, r.Index+1
	}
}

// MatchTally is a two-engine event's score: games won, drawn and lost by A
// against B and the pentanomial counts of its colour-reversed pairs.
type MatchTally struct {
	A, B  string
	WDL   stats.WDL
	Penta stats.Penta
	SPRT  *stats.SPRTResult // the match's SPRT, when it has one
}

// EventRecord is the store's event row for ev.
func EventRecord(ev *configs.Event, planned int) store.Event {
	se := store.Event{Name: ev.Name, ConfigFile: ev.File, ConfigHash: ev.Hash, Config: ev.Effective,
		Variant: ev.Variant.Name(), TimeControl: ev.TimeControl.String(), Planned: planned}
	for i, e := range ev.Engines {
		se.Engines = append(se.Engines, store.Engine{ID: i, Name: e.Name, Command: e.Command, Protocol: e.Protocol, TimeControl: e.TimeControl.String()})
	}
	if ev.SPRT != nil {
		b, _ := json.Marshal(ev.SPRT)
		se.SPRT = string(b)
	}
	return se
}

// Run plays the event's missing games and returns when all are finished,
// the SPRT stopped the match, or ctx was cancelled (then the games in
// progress are left for the next run and ctx's error is returned).
func Run(ctx context.Context, opt Options) (*Summary, error) {
	t0 := time.Now()
	ev, st := opt.Event, opt.Store
	if ev == nil || st == nil {
		return nil, errors.New("tournament: Event and Store are required")
	}
	// A round-robin or gauntlet is planned ahead; a Swiss is paired round
	// by round (runSwiss), its plan growing a round at a time.
	var sched *schedule.Schedule
	var sw *schedule.SwissPlan
	var plan []schedule.Pairing
	var planned int
	var err error
	if ev.Schedule.Kind == schedule.Swiss {
		if ev.SPRT != nil {
			return nil, errors.New("tournament: an SPRT is for a two-engine match, not a Swiss event")
		}
		if sw, err = schedule.NewSwiss(ev.Schedule); err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
		planned = sw.Len()
	} else {
		if sched, err = schedule.New(ev.Schedule); err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
		plan = sched.All()
		planned = len(plan)
	}
	if err := st.Init(ctx, EventRecord(ev, planned)); err != nil {
		return nil, err
	}
	sev, err := st.Event(ctx)
	if err != nil {
		return nil, err
	}
	r := &runner{opt: opt, ev: ev, st: st, plan: plan, log: opt.Log, sum: &Summary{Planned: planned, Stopped: sev.Stopped},
		hostStops: map[int]*HostStops{}}
	r.names = make([]string, len(ev.Engines))
	for i, e := range ev.Engines {
		r.names[i] = e.Name
	}
	r.standings = newStandings(r.names)
	if r.ids, err = newIdentities(ctx, st, r.names, r.log); err != nil {
		return nil, err
	}
	for i, spec := range ev.Engines {
		if err := r.ids.note(ctx, i, program(spec)); err != nil {
			return nil, err
		}
	}
	if len(r.names) == 2 {
		r.tally = reports.NewTally(r.names[0], r.names[1])
	}

	// What earlier runs finished: skipped, but reported (in order) again.
	done := make(map[int]Result)
	stored := make(map[int]store.Game) // a Swiss's: placed as its rounds are paired
	var earlier []store.Game           // for the Observer
	err = st.Games(ctx, store.ReadOptions{NoPDN: true, NoTimes: true}, func(g store.Game) error {
		if opt.Observer != nil {
			earlier = append(earlier, g)
		}
		if g.ID < 0 || g.ID >= planned || g.White < 0 || g.White >= len(r.names) || g.Black < 0 || g.Black >= len(r.names) {
			return fmt.Errorf("tournament: %s: game %d (engines %d and %d) does not fit the plan of %d games between %d engines",
				st.Path(), g.ID+1, g.White, g.Black, planned, len(r.names))
		}
		if sw != nil {
			stored[g.ID] = g
			return nil
		}
		done[g.ID] = Result{Pairing: plan[g.ID], WhiteName: r.names[g.White], BlackName: r.names[g.Black], Result: g.Result,
			Termination: g.Termination, Reason: g.Reason, Plies: g.Plies, Opening: g.Opening, Resumed: true}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.sum.Resumed = len(done) + len(stored)
	finished := make(map[int]bool, len(done))
	for id := range done {
		finished[id] = true
	}
	r.pending = done // emptied as the results are reported
	toPlay := planned - r.sum.Resumed
	if r.sum.Stopped != "" {
		toPlay = 0
	}
	r.progress = newProgress(opt.Console, r.sum.Resumed, toPlay, opt.StandingsEvery, len(r.names))
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	r.stop = stop
	r.mu.Lock()
	r.handIn(false)

	if opt.Observer != nil {
		opt.Observer.EventStarted(sev, earlier)
	}
	r.exec = opt.Executor
	if r.exec == nil {
		r.live = newLiveFeed(st, opt.Observer, r.log)
		defer r.live.close()
		r.local = NewLocal(ev, LocalOptions{Log: r.log, EngineLog: opt.EngineLog, Play: opt.Play, NewPlayer: opt.NewPlayer,
			OnStart: func(ctx context.Context, g store.Game) error {
				r.live.started(g) // which writes its row (see liveFeed)
				return nil
			},
			OnMove: r.live.moved,
			OnEngine: func(ctx context.Context, i int, w *match.Watch, p match.Player) {
				if err := r.ids.started(ctx, i, w, p); err != nil {
					r.log.Error().Err(err).Str("engine", r.names[i]).Msg("recording the engine's identity")
				}
			}})
		r.exec = r.local
		defer r.local.Close()
	}

	drained := func() bool {
		select {
		case <-opt.Drain:
			return true
		default:
			return false
		}
	}
	if sw != nil && r.sum.Stopped == "" {
		err = r.runSwiss(runCtx, sw, stored, drained)
	} else if r.sum.Stopped == "" {
		g, gctx := errgroup.WithContext(runCtx)
		g.SetLimit(max(1, r.exec.Slots()))
		queue, _ := r.exec.(Queue)
		for {
			p, ok := sched.Next()
			if !ok || gctx.Err() != nil || drained() {
				break
			}
			if finished[p.Index] {
				continue
			}
			if queue != nil {
				if err := queue.Enqueue(gctx, p); err != nil {
					if gctx.Err() == nil { // else interrupted: no error
						g.Go(func() error { return fmt.Errorf("tournament: game %d: %w", p.Index+1, err) })
					}
					break
				}
			}
			g.Go(func() error {
				// Go waits for a free slot: a drain in the meantime
				// starts no more games.
				if drained() {
					return nil
				}
				return r.playRecovered(gctx, p)
			})
		}
		err = g.Wait()
	}
	r.progress.finish()
	if derr := r.dropBeyondDecision(ctx); err == nil {
		err = derr
	}
	r.sum.Elapsed = time.Since(t0)
	r.mu.Lock()
	r.sum.Standings = r.snapshot()
	r.sum.Swiss = r.swissTable
	for i := range r.names {
		if t := r.hostStops[i]; t != nil && t.Stopped > 0 {
			r.sum.HostStops = append(r.sum.HostStops, *t)
		}
	}
	r.mu.Unlock()
	if r.local != nil {
		r.sum.NeverStarted = r.local.NeverStarted()
	}
	r.sum.EngineChanges = r.ids.list()
	if r.tally != nil {
		r.mu.Lock()
		r.sum.Match = &MatchTally{A: r.names[0], B: r.names[1], WDL: r.tally.WDL(), Penta: r.tally.Penta(), SPRT: r.sum.SPRT}
		r.mu.Unlock()
	}
	if err != nil {
		return r.sum, err
	}
	if ctx.Err() != nil {
		return r.sum, ctx.Err()
	}
	if drained() && r.sum.Finished < r.sum.Planned && r.sum.Stopped == "" {
		return r.sum, ErrDrained
	}
	return r.sum, nil
}

// dropBeyondDecision removes from the store the games after the one on
// which the SPRT decided (store.DiscardFrom): with two games at a time, or
// a cluster's workers, a later game can finish before the deciding one,
// and results.json and the report then counted one more game than the
// console and the SPRT (21 against 20). Nothing is done without a decision.
func (r *runner) dropBeyondDecision(ctx context.Context) error {
	r.mu.Lock()
	decided, from := r.decided, r.decidedAt
	r.mu.Unlock()
	if !decided {
		return nil
	}
	n, err := r.st.DiscardFrom(context.WithoutCancel(ctx), from)
	if err != nil {
		return fmt.Errorf("tournament: %w", err)
	}
	if n > 0 {
		r.log.Info().Int("games", n).Msg("games finished after the SPRT's decision are not part of the match: not kept")
		r.mu.Lock()
		r.sum.Played = max(0, r.sum.Played-n)
		r.mu.Unlock()
	}
	return nil
}

// ErrDrained is Run's error when Options.Drain stopped the event before
// its end: the games in progress were finished and stored, no other was
// started; the next run plays the rest.
var ErrDrained = errors.New("tournament: stopped after the games in progress")

type runner struct {
	opt   Options
	ev    *configs.Event
	st    *store.Store
	plan  []schedule.Pairing
	names []string
	exec  Executor
	local *Local    // exec, when the games are played here
	live  *liveFeed // with local: the running games' moves
	log   zerolog.Logger
	stop  context.CancelFunc

	mu        sync.Mutex // guards what follows
	pending   map[int]Result
	next      int // plan index of the next result to report
	standings *standings
	tally     *reports.Tally
	sum       *Summary
	progress  *progress
	ids       *identities
	swiss     *swissState // a Swiss event's rounds (nil for the other formats)
	// swissTable are a Swiss event's standings after its complete rounds.
	swissTable *reports.SwissStandings
	hostStops  map[int]*HostStops // per engine index: see Summary.HostStops
	decided    bool               // the SPRT decided: later results are not reported
	decidedAt  int                // with decided: the plan index after the deciding game
	queue      []reportStep       // to tell, in order (handIn)
	telling    bool               // a goroutine is telling the queue
}

// playRecovered is play in a game goroutine: a panic (a bug of ours) would
// kill the process with the other games and the engines; it becomes the
// error that stops the event instead. The game is not committed, so the
// next run plays it again.
func (r *runner) playRecovered(ctx context.Context, p schedule.Pairing) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("tournament: game %d (round %d, board %d): internal error (a bug): panic: %v\n\n%s",
				p.Index+1, p.Round, p.Board, v, debug.Stack())
		}
	}()
	return r.play(ctx, p)
}

// play plays one planned game with the executor and commits it.
func (r *runner) play(ctx context.Context, p schedule.Pairing) error {
	g, err := r.exec.Play(ctx, p)
	if r.live != nil && (ctx.Err() != nil || err != nil) {
		r.live.abandoned(p.Index)
	}
	if ctx.Err() != nil {
		// Interrupted (ctrl-C, a kill of the event, or the SPRT stopped the
		// match): the game is not finished.
		if r.stopped() {
			if err := r.st.Discard(context.WithoutCancel(ctx), p.Index); err != nil {
				return err
			}
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("tournament: %w", err)
	}
	err = r.st.Finish(context.WithoutCancel(ctx), g)
	r.exec.Committed(g, err)
	if err != nil {
		if r.live != nil {
			r.live.abandoned(p.Index)
		}
		return fmt.Errorf("tournament: %w", err)
	}
	if r.live != nil {
		r.live.ended(g)
	} else if r.opt.Observer != nil {
		g.PDN, g.Moves = "", nil // as liveFeed.ended tells it
		r.opt.Observer.GameEnded(g)
	}
	r.mu.Lock()
	r.sum.Played++
	res := Result{Pairing: p, WhiteName: r.names[p.White], BlackName: r.names[p.Black], Result: g.Result,
		Termination: g.Termination, Reason: g.Reason, Plies: len(g.Moves), Opening: g.Opening}
	for _, m := range g.Moves {
		if m.Latency == store.UnknownLatency {
			continue
		}
		// Whole microseconds a move, as results.json and the report count
		// them: summed to the nanosecond, a game's console line read
		// 740µs where results.json said 722.
		l := m.Latency.Truncate(time.Microsecond)
		res.Latency += l
		res.MaxLatency = max(res.MaxLatency, l)
		res.LatencyMoves++
	}
	r.sum.Latency.add(res)
	hostStops(r.hostStops, r.names, g)
	r.pending[p.Index] = res
	if r.swiss != nil {
		r.swiss.games[p.Index] = reportsGame(res)
	}
	r.handIn(true)
	return nil
}

func (r *runner) stopped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sum.Stopped != ""
}

// A reportStep is one thing flush found to tell: a game of this run
// finished (the progress bar moves), or the next result in plan order, with
// the standings table when one is due after it and the SPRT's stop. Steps
// are told after r.mu is released (tell): the user's callback, the terminal
// and SQLite are slow, and every game goroutine needs r.mu to hand in its
// result.
type reportStep struct {
	played bool // only this: a game of this run finished
	res    Result
	table  Standings         // non-nil: print the standings after res
	final  bool              // res is the plan's last: table is the event's
	stop   string            // the SPRT stopped the match after res: why
	sprt   *stats.SPRTResult // with stop
}

// flush takes the results that are next in plan order, up to the one on
// which the SPRT decides, into the standings and the SPRT tally, and queues
// what is to be told about them (played: a game of this run finished). r.mu
// is held. A rerun of a stopped event reports its stored results the same
// way, so it shows the standings and the SPRT of the first run (it showed
// zeros: nothing was reported once the event was marked stopped).
func (r *runner) flush(played bool) {
	if played {
		r.queue = append(r.queue, reportStep{played: true})
	}
	for r.next < len(r.plan) && !r.decided {
		res, ok := r.pending[r.next]
		if !ok {
			return
		}
		delete(r.pending, r.next)
		r.next++
		r.sum.Finished++
		r.standings.add(res)
		step := reportStep{res: res, final: r.next == len(r.plan)}
		if r.progress.due() || step.final {
			step.table = r.snapshot()
		}
		if r.tally != nil {
			if err := r.tally.Add(reportsGame(res)); err != nil {
				r.log.Error().Err(err).Msg("match tally")
			} else if r.ev.SPRT != nil {
				r.sprt(&step)
			}
		}
		r.queue = append(r.queue, step)
	}
}

// sprt evaluates the SPRT on the tally so far; when it decides, the match
// stops after step. r.mu is held.
func (r *runner) sprt(step *reportStep) {
	sr, err := r.tally.SPRT(*r.ev.SPRT)
	if err != nil {
		r.log.Error().Err(err).Msg("SPRT")
		return
	}
	r.sum.SPRT = &sr
	if sr.Decision == stats.Continue {
		return
	}
	r.decided, r.decidedAt = true, r.next
	if r.sum.Stopped == "" { // else a rerun: the stop is on record
		r.sum.Stopped = fmt.Sprintf("SPRT accepted %s after %d games (LLR %.2f, bounds [%.2f, %.2f])", sr.Decision, sr.Games, sr.LLR, sr.Lower, sr.Upper)
		step.stop, step.sprt = r.sum.Stopped, &sr
	}
}

// handIn is flush followed by the telling of what it queued, with r.mu
// held on entry and released on return. One goroutine at a time tells
// (r.telling), in queue order; the others leave their steps in the queue
// for it and go on at once, so a slow callback holds up no game.
func (r *runner) handIn(played bool) {
	r.flush(played)
	if r.telling {
		r.mu.Unlock()
		return
	}
	r.telling = true
	defer func() {
		if v := recover(); v != nil {
			// The user's callback (or a bug) panicked: the next goroutine
			// tells the rest.
			r.mu.Lock()
			r.telling = false
			r.mu.Unlock()
			panic(v)
		}
	}()
	for {
		q := r.queue
		r.queue = nil
		if len(q) == 0 {
			r.telling = false
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		r.tell(q)
		r.mu.Lock()
	}
}

// tell does what the steps say, without r.mu.
func (r *runner) tell(steps []reportStep) {
	for _, s := range steps {
		if s.played {
			r.progress.add()
			continue
		}
		if r.opt.OnResult != nil {
			r.opt.OnResult(s.res)
		}
		if s.table != nil {
			r.progress.table(s.table, s.final)
		}
		if s.stop != "" {
			if err := r.st.SetStopped(context.Background(), s.stop); err != nil {
				r.log.Error().Err(err).Msg("recording the SPRT stop")
			}
			r.log.Info().Str("decision", string(s.sprt.Decision)).Float64("llr", s.sprt.LLR).Int("games", s.sprt.Games).Msg("SPRT stops the match")
			r.stop()
		}
	}
}

// reportsGame is the reports package's view of a result.
func reportsGame(res Result) reports.Game {
	return reports.Game{Round: res.Round, Board: res.Board, Pair: res.Pair + 1, White: res.WhiteName, Black: res.BlackName,
		Result: res.Result, Termination: res.Termination, Plies: res.Plies, Opening: res.Opening}
}

// startFailure is the result of a game whose engine could not be started.
func startFailure(w, b *match.Watch, wName, bName string, err error) arbiter.Result {
	wErr, bErr := w.CouldNotRun(), b.CouldNotRun()
	switch {
	case wErr != nil && bErr != nil:
		return arbiter.Result{Outcome: rules.Ongoing, Termination: arbiter.EngineCrashed,
			Reason: fmt.Sprintf("neither engine could be started: White %s: %v; Black %s: %v", wName, wErr, bName, bErr)}
	case wErr != nil:
		return arbiter.Result{Outcome: rules.BlackWins, Termination: arbiter.EngineCrashed,
			Reason: fmt.Sprintf("White's engine %s could not be started: %v", wName, wErr)}
	case bErr != nil:
		return arbiter.Result{Outcome: rules.WhiteWins, Termination: arbiter.EngineCrashed,
			Reason: fmt.Sprintf("Black's engine %s could not be started: %v", bName, bErr)}
	}
	return arbiter.Result{Outcome: rules.Ongoing, Termination: arbiter.EngineCrashed, Reason: "the game could not be played: " + err.Error()}
}

// brokenBy reports whether the game ended by a fault of side c's engine,
// whose process is then replaced before its next game.
func brokenBy(res arbiter.Result, c rules.Color) bool {
	switch res.Termination {
	case arbiter.EngineCrashed, arbiter.EngineStalled, arbiter.EngineFault, arbiter.TimeForfeit:
		return res.Outcome == rules.WinFor(c.Opponent())
	}
	return false
}

// annotatedMoves are a game's moves as stored: the text and the time used
// by the referee's clock, the clock after the move, the latency, and what
// the engine's last info line of the move said.
func annotatedMoves(rec *match.GameRecord) []store.Move {
	moves := make([]store.Move, 0, len(rec.Record.Moves))
	pos, legal := rec.Record.Start, rec.Record.Variant != nil // the position each move was searched in
	for i, m := range rec.Record.Moves {
		sm := store.Move{Text: m.Text, Time: m.Used, Clock: m.Clock}
		var in hub.SearchInfo // read once: a move's info line is parsed for all below
		if i < len(rec.Info) {
			in = hub.ParseSearchInfo(rec.Info[i])
			sm.Score, sm.HasScore, sm.Depth, sm.Nodes, sm.PV = in.Score, in.HasScore, in.Depth, in.Nodes, in.PV
			sm.HostStopped = strings.Contains(rec.Info[i], " stopped=host")
			if legal && sm.PV != "" {
				// The variant's notation, not Hub's.
				if m.Illegal {
					sm.PV = hub.PDNLine(pos, sm.PV)
				} else {
					sm.PV = hub.PDNLineAfter(pos, m.Move, m.Text, sm.PV)
				}
			}
		}
		if legal = legal && !m.Illegal; legal {
			pos = pos.Play(m.Move)
		}
		if i < len(rec.Latency) {
			// What the engine did not report as thinking: the pipes', the
			// scheduler's and the machine's share. An engine that reported
			// none (DXP, a Hub engine without time=) leaves it unknown: the
			// round trip is its thinking, mostly.
			sm.Latency = store.UnknownLatency
			if in.HasTime {
				sm.Latency = max(0, rec.Latency[i]-in.Time)
				if i < len(rec.InfoAt) && rec.InfoAt[i] > 0 {
					// Its last info line's arrival, not the reply's: what
					// it searched after that line (Scan's unfinished last
					// iteration) is thinking, not the machine's.
					sm.Latency = max(0, min(rec.InfoAt[i], rec.Latency[i])-in.Time)
				}
			}
		}
		moves = append(moves, sm)
	}
	return moves
}

// hostGuard is what each side's CheckerBoard host said of its guard in
// the game (cb-host's info line of a move it timed with a deadline:
// stopped=host when it raised playnow, overshoot= what it has learned),
// [0] White's; first is the side of the first ply.
func hostGuard(rec *match.GameRecord, first rules.Color) [2]store.HostGuard {
	var h [2]store.HostGuard
	for i, info := range rec.Info {
		if !strings.Contains(info, " overshoot=") {
			continue
		}
		l, err := hub.ParseLine(info)
		if err != nil {
			continue
		}
		side := 0
		if (first == rules.Black) == (i%2 == 0) {
			side = 1
		}
		g := &h[side]
		g.Moves++
		if v, _ := l.Get("stopped"); v == "host" {
			g.Stopped++
		}
		if v, ok := l.Get("overshoot"); ok {
			if r, err := strconv.ParseFloat(v, 64); err == nil {
				g.Overshoot = r
			}
		}
	}
	return h
}

// replayRecord is the report's replay record of a played game (see
// reports.RecordOf), tagged with its format (storedRecord), made here from
// the referee's moves so that a report of many games needs neither the
// stored moves nor the rules. An illegal move the opponent let stand ends
// it, as the report's own replay of the move texts would.
func replayRecord(rec *match.GameRecord, fen string, moves []store.Move) string {
	plies := make([]rules.Move, 0, len(rec.Record.Moves))
	for _, m := range rec.Record.Moves {
		if m.Illegal {
			break
		}
		plies = append(plies, m.Move)
	}
	evals := make([]reports.Move, len(plies))
	for i := range evals {
		if i < len(moves) {
			evals[i] = reports.Move{Score: moves[i].Score, HasScore: moves[i].HasScore, Depth: moves[i].Depth}
		}
	}
	return storedRecord(reports.RecordOf(rec.Record.Start, fen, plies, evals))
}

// record turns a played game of ev (engines names) into its store row,
// PDN included.
func record(ev *configs.Event, names []string, p schedule.Pairing, op configs.Opening, rec *match.GameRecord, res arbiter.Result, started time.Time) (store.Game, error) {
	g := store.Game{ID: p.Index, Cycle: p.Cycle, Round: p.Round, Board: p.Board, Pair: p.Pair, PairGame: p.PairGame,
		White: p.White, Black: p.Black, Opening: op.Name, OpeningFEN: op.FEN, Started: started, Finished: time.Now(),
		FirstMover: op.Position.Turn().String(), Result: res.PDN(ev.Variant), Termination: string(res.Termination), Reason: res.Reason}
	var pg *pdn.Game
	if rec != nil {
		g.Started, g.Finished = rec.Started, rec.Finished
		g.Moves = annotatedMoves(rec)
		g.HostGuard = hostGuard(rec, op.Position.Turn())
		g.Record = replayRecord(rec, op.FEN, g.Moves)
		pg = rec.Game
		if ev.Annotations != "none" && rec.Record.Variant != nil {
			tags := rec.PDNTags()
			tags.Clock = true
			if ev.Annotations == "full" {
				for _, m := range g.Moves {
					tags.Notes = append(tags.Notes, arbiter.Annotation{Score: m.Score, HasScore: m.HasScore, Depth: m.Depth,
						Used: m.Time, Nodes: m.Nodes, PV: m.PV}.String())
				}
			}
			pg = rec.Record.PDN(tags)
		} else if pg == nil {
			// The game was played with match.Options.NoPDN.
			pg = rec.Record.PDN(rec.PDNTags())
		}
	}
	if pg == nil {
		pg = &pdn.Game{}
		if gt := ev.Variant.GameTypeTag(); gt != "" {
			pg.SetTag("GameType", gt)
		}
		if op.Position != rules.NewPosition(ev.Variant) {
			pg.SetTag("FEN", op.FEN)
		}
	}
	pg.SetTag("Event", ev.Name)
	if ev.Site != "" {
		pg.SetTag("Site", ev.Site)
	}
	pg.SetTag("Date", g.Started.Format("2006.01.02"))
	pg.SetTag("Round", fmt.Sprintf("%d.%d", p.Round, p.Board))
	pg.SetTag("White", names[p.White])
	pg.SetTag("Black", names[p.Black])
	pg.SetTag("Result", g.Result)
	pg.Result = g.Result
	if res.Termination != "" {
		pg.SetTag("Termination", string(res.Termination))
	}
	if op.Name != "" {
		pg.SetTag("Opening", op.Name)
	}
	pg.SetTag("GameNumber", strconv.Itoa(p.Index+1))
	if rec == nil {
		pg.SetTag("PlyCount", "0")
		pg.Comment = res.Reason
	} else if rec.Record.Result != res {
		pg.Comment = res.Reason
	}
	var b strings.Builder
	if err := pdn.Write(&b, pg); err != nil {
		return g, fmt.Errorf("tournament: game %d: writing PDN: %w", p.Index+1, err)
	}
	g.PDN = b.String()
	return g, nil
}
