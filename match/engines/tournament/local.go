package tournament

import (
	"context"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/match/engines"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/adjudicate"
	"github.com/draughts-arbiter/arbiter/match/engines/dxp"
	"github.com/draughts-arbiter/arbiter/match/engines/enginelog"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/rules"
)

// An Executor plays the scheduled games the runner hands it and returns
// each one's record; the runner commits and reports them. Local (engine
// processes on this machine) is the default; match/engines/cluster hands the games
// to workers on other machines, which play them with a Local of their own.
type Executor interface {
	// Play plays game p of the event and returns its store row, PDN and
	// moves included, ready to be committed. When ctx is cancelled the game
	// is abandoned (the error is then ignored).
	Play(ctx context.Context, p schedule.Pairing) (store.Game, error)
	// Committed tells the executor that the runner stored a game Play
	// returned (err nil) or failed to (err).
	Committed(g store.Game, err error)
	// Slots is how many games it plays at once.
	Slots() int
}

// A Queue is an Executor whose games wait in a queue for whoever plays
// them (the cluster's work queue): the runner enqueues each game, in plan
// order, before a goroutine waits for it with Play, so that the games are
// taken in plan order. The standings and an SPRT count results in plan
// order: a game that happened to be queued last would hold them back until
// the end of the event.
type Queue interface {
	Executor
	// Enqueue hands game p out; Play then waits for it.
	Enqueue(ctx context.Context, p schedule.Pairing) error
}

// LocalOptions configure NewLocal; the zero value of each field is a
// sensible default.
type LocalOptions struct {
	// Log receives each game's log (at debug level), EngineLog the
	// engines' protocol exchanges.
	Log, EngineLog zerolog.Logger
	// Play plays one game (nil = match.PlayGame).
	Play PlayFunc
	// NewPlayer makes a player for an engine (nil = engines.Player, with one
	// engine log cap per engine for the event).
	NewPlayer func(spec configs.EngineSpec, log zerolog.Logger) match.Player
	// Slots is the number of games played at once (0 = the event's
	// concurrency).
	Slots int
	// OnStart, when set, is called with a game's row when its engines are
	// taken for it, before the first move; an error abandons the game.
	OnStart func(ctx context.Context, g store.Game) error
	// OnEngine, when set, is called after each game for each side: engine
	// index, what it did, and its player.
	OnEngine func(ctx context.Context, engine int, w *match.Watch, p match.Player)
	// OnMove, when set, is told of every accepted move of a game (its
	// index in the plan) as it is played; it must return at once. It is
	// not called when Play is set.
	OnMove func(game int, m match.Moved)
}

// Local plays games on this machine with match.PlayGame. Each engine's
// processes are pooled: an engine process serves game after game.
type Local struct {
	ev     *configs.Event
	names  []string
	opt    LocalOptions
	pools  []*pool
	starts *match.Starts
}

// NewLocal makes the executor of ev's games on this machine. No engine is
// started before its first game; Close stops them.
func NewLocal(ev *configs.Event, opt LocalOptions) *Local {
	if opt.Slots <= 0 {
		opt.Slots = max(1, ev.Concurrency)
	}
	l := &Local{ev: ev, opt: opt, names: make([]string, len(ev.Engines))}
	for i, e := range ev.Engines {
		l.names[i] = e.Name
	}
	l.starts = match.NewStarts(l.names)
	l.pools = make([]*pool, len(ev.Engines))
	for i, spec := range ev.Engines {
		limit := opt.Slots
		if spec.Protocol == configs.DXP && !(spec.Listen && strings.HasSuffix(spec.Address, ":0")) {
			// A fixed address serves one game at a time; only when the
			// arbiter listens on a free port (":0") can each game slot
			// have an engine of its own.
			limit = 1
		}
		var newPlayer func() match.Player
		if opt.NewPlayer != nil {
			newPlayer = func() match.Player { return opt.NewPlayer(spec, opt.EngineLog) }
		} else {
			// One engine log cap for the event per engine, whichever of its
			// processes writes (a crashing flooder is restarted each game).
			budget := enginelog.NewBudget(0)
			newPlayer = func() match.Player { return engines.Player(spec, opt.EngineLog, budget) }
		}
		l.pools[i] = newPool(limit, newPlayer)
		if spec.Protocol == configs.DXP {
			if note := dxp.TimeNote(spec.TimeControl); note != "" {
				opt.Log.Warn().Str("engine", spec.Name).Str("time_control", spec.TimeControl.String()).Msg(note)
			}
		}
	}
	return l
}

// judged is match.PlayGame with the event's adjudication by the engines'
// scores (a judge of its own per game, none when off) and onMove; ownPDN:
// the game's PDN is left to record (match.Options.NoPDN).
func judged(r adjudicate.Rules, onMove func(match.Moved), ownPDN bool) PlayFunc {
	return func(ctx context.Context, cfg arbiter.Config, white, black match.Player, log zerolog.Logger) (*match.GameRecord, error) {
		opts := match.Options{OnMove: onMove, NoPDN: ownPDN}
		if !r.Off() {
			j := r.NewJudge()
			opts.Judge = func(c rules.Color, pos rules.Position, info string) (rules.Outcome, string, bool) {
				in := hub.ParseSearchInfo(info)
				return j.Move(c, pos, in.Score, in.HasScore)
			}
		}
		return match.PlayGameOptions(ctx, cfg, white, black, log, opts)
	}
}

// Slots is how many games l plays at once.
func (l *Local) Slots() int { return l.opt.Slots }

// Committed does nothing: a local game needs nothing more once stored.
func (l *Local) Committed(store.Game, error) {}

// NeverStarted names the engines that failed every start of a game so far,
// with the last reason.
func (l *Local) NeverStarted() []string { return l.starts.Never() }

// Close stops every engine process, all at once (engines.CloseAll).
func (l *Local) Close() {
	var all []match.Player
	for _, p := range l.pools {
		all = append(all, p.take()...)
	}
	engines.CloseAll(all)
}

// Play plays one planned game and returns its record.
func (l *Local) Play(ctx context.Context, p schedule.Pairing) (store.Game, error) {
	ev := l.ev
	op := ev.Openings[p.Opening]
	// PlayGame logs every game at info level: in the runner's log that is
	// detail, shown only when the runner logs at debug level.
	glog := l.opt.Log
	if glog.GetLevel() > zerolog.DebugLevel {
		glog = glog.Level(max(glog.GetLevel(), zerolog.WarnLevel))
	}
	log := glog.With().Int("game", p.Index+1).Int("round", p.Round).Int("board", p.Board).
		Str("white", l.names[p.White]).Str("black", l.names[p.Black]).Logger()
	// Take the players in engine order: two engines that can only play one
	// game at a time can then never wait for each other.
	var white, black match.Player
	first, second := p.White, p.Black
	if second < first {
		first, second = second, first
	}
	a, err := l.pools[first].get(ctx)
	if err != nil {
		return store.Game{}, err // cancelled
	}
	b, err := l.pools[second].get(ctx)
	if err != nil {
		l.pools[first].put(a, false)
		return store.Game{}, err
	}
	if first == p.White {
		white, black = a, b
	} else {
		white, black = b, a
	}
	started := time.Now()
	if l.opt.OnStart != nil {
		row := store.Game{ID: p.Index, Cycle: p.Cycle, Round: p.Round, Board: p.Board, Pair: p.Pair, PairGame: p.PairGame,
			White: p.White, Black: p.Black, Opening: op.Name, OpeningFEN: op.FEN, Started: started, FirstMover: op.Position.Turn().String()}
		if err := l.opt.OnStart(context.WithoutCancel(ctx), row); err != nil {
			l.pools[p.White].put(white, false)
			l.pools[p.Black].put(black, false)
			return store.Game{}, err
		}
	}
	gw, gb := &match.Watch{Player: white}, &match.Watch{Player: black}
	log.Debug().Str("opening", op.Name).Msg("game started")
	play := l.opt.Play
	if play == nil {
		var onMove func(match.Moved)
		if l.opt.OnMove != nil {
			onMove = func(m match.Moved) { l.opt.OnMove(p.Index, m) }
		}
		play = judged(ev.Adjudicate, onMove, ev.Annotations != "none")
	}
	rec, perr := play(ctx, ev.ArbiterConfig(p.White, p.Black, p.Opening), gw, gb, log)
	if ctx.Err() != nil {
		// Interrupted (ctrl-C, a kill of the event, or the SPRT stopped the
		// match): the game is not finished. Engines are closed, not reused,
		// as they are in the middle of a search.
		l.pools[p.White].put(white, true)
		l.pools[p.Black].put(black, true)
		return store.Game{}, ctx.Err()
	}
	res := arbiter.Result{}
	if rec != nil {
		res = rec.Record.Result
	}
	if perr != nil {
		// The game could not be played: an engine could not be started (a
		// missing program, a bad directory). It is recorded, not dropped:
		// the side that failed loses; if we cannot tell, nobody scores.
		res = startFailure(gw, gb, l.names[p.White], l.names[p.Black], perr)
		log.Warn().Err(perr).Msg("game could not be played")
	}
	if l.opt.OnEngine != nil {
		l.opt.OnEngine(context.WithoutCancel(ctx), p.White, gw, white)
		l.opt.OnEngine(context.WithoutCancel(ctx), p.Black, gb, black)
	}
	l.pools[p.White].put(white, gw.CouldNotRun() != nil || brokenBy(res, rules.White))
	l.pools[p.Black].put(black, gb.CouldNotRun() != nil || brokenBy(res, rules.Black))
	l.starts.Note(p.White, gw)
	l.starts.Note(p.Black, gb)
	g, err := record(ev, l.names, p, op, rec, res, started)
	if err != nil {
		return g, err
	}
	log.Debug().Str("result", g.Result).Str("termination", g.Termination).Int("plies", len(g.Moves)).Msg("game over")
	return g, nil
}

// ProgramChecksum is the SHA-256 (hex) of the program file an engine spec
// runs, "" when it cannot be read (or the engine has no command): what a
// cluster compares to tell whether a worker has the event's build.
func ProgramChecksum(spec configs.EngineSpec) string { return program(spec).Checksum }

var _ Executor = (*Local)(nil)
