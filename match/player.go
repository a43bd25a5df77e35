// Package match plays one refereed game between two players. A Player is
// one side of a game (an engine process, a DXP engine over TCP, a person's
// moves from the web); PlayGame asks the players for moves in turn, hands
// every answer to an arbiter.Referee and returns the finished record with
// its PDN text.
//
// Under it stand two wings and what they share: match/engines (engine
// protocols and engine events), match/people (games and events between
// people), match/schedule (who plays whom, for both) and match/web (the one
// HTTP front). Both wings import this package; it imports neither.
package match

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Player is one side of a game: an engine (Hub, DXP) or, later, a person.
type Player interface {
	// Name is the player's name for the PDN White/Black tags.
	Name() string
	// NewGame prepares a game from start under tc; engines are started (or
	// restarted after a fault) here.
	NewGame(ctx context.Context, v *rules.Variant, start rules.Position, tc arbiter.TimeControl) error
	// Play asks for a move in the referee's current position (the history
	// lets engines see repetitions). The ctx deadline is the referee's
	// deadline plus a little slack for the stop handshake; a player never
	// blocks past it. Misbehaviour of the engine is returned as a *Fault;
	// any other error (the ctx was cancelled by the caller) aborts the game.
	Play(ctx context.Context, req Request) (Reply, error)
	// Close quits the engine, then kills it after a grace period; it never
	// leaves a child process behind. Close may be called more than once.
	Close() error
}

// SidedPlayer is implemented by players whose protocol starts a game with
// the player's colour (DXP: GAMEREQ names it, and the engine accepts or
// refuses the game there). PlayGame calls NewGameAs instead of NewGame, so
// that an engine that refuses or never accepts its game fails its start
// (see Watch), within its start-up timeout and off its clock, instead of
// failing its first move.
type SidedPlayer interface {
	NewGameAs(ctx context.Context, v *rules.Variant, start rules.Position, tc arbiter.TimeControl, as rules.Color) error
}

// StartGame prepares p for a game in which it plays as: NewGameAs when p
// is a SidedPlayer, NewGame otherwise.
func StartGame(ctx context.Context, p Player, v *rules.Variant, start rules.Position, tc arbiter.TimeControl, as rules.Color) error {
	if sp, ok := p.(SidedPlayer); ok {
		return sp.NewGameAs(ctx, v, start, tc, as)
	}
	return p.NewGame(ctx, v, start, tc)
}

// GameEnder is implemented by players whose protocol announces the end of a
// game (DXP GAMEEND). PlayGame calls it once the referee has a result.
type GameEnder interface {
	EndGame(ctx context.Context, result arbiter.Result, as rules.Color) error
}

// Request is what a player is asked to move in.
type Request struct {
	// Start is the game's start position and Moves the moves played since,
	// so Position == Start after Moves. Players must not modify Moves.
	Start    rules.Position
	Moves    []rules.Move
	Position rules.Position
	// Level carries the search limits derived from the clocks.
	Level Level
	// Deadline is when the flag of the side to move falls (zero if untimed).
	// A player sends its protocol's "stop" there; the ctx of Play runs a
	// little longer so that the engine's answer to it can still arrive.
	Deadline time.Time
	// Retry says the previous answer for this position was refused with a
	// warning (WCDF): the same side must move again on its running clock.
	Retry bool
	// Limit is when Play must have returned: Deadline plus the slack for the
	// stop handshake (zero if untimed). A LimitPlayer stops waiting there by
	// itself; any other player gets it as the deadline of Play's ctx.
	Limit time.Time
}

// LimitPlayer is implemented by players that enforce Request.Limit
// themselves: PlayGame then passes them the game's ctx unchanged instead
// of deriving a ctx with that deadline for every move (a timer and a
// cancellation to set up and tear down per move).
type LimitPlayer interface {
	EnforcesLimit()
}

// enforcesLimit reports whether p, or the player a Watch wraps, is a
// LimitPlayer. The runners wrap every engine in a Watch: without looking
// through it, each move of their games got a ctx of its own, whose cancel
// after the move woke the engine's reader for nothing (a goroutine, an
// eventfd write and read, a scheduler wake-up per move).
func enforcesLimit(p Player) bool {
	if w, ok := p.(*Watch); ok {
		p = w.Player
	}
	_, ok := p.(LimitPlayer)
	return ok
}

// Level is the search limit of one move, in the terms engine protocols use.
// Zero fields are absent. Time is what the side may still use before its flag
// falls (margin excluded); MovesToGo counts the moves left in the current
// period (0 = sudden death).
type Level struct {
	MovesToGo int
	Time      time.Duration
	Inc       time.Duration
	MoveTime  time.Duration
	Depth     int
	Nodes     int64
}

// Reply is a player's answer.
type Reply struct {
	Move   rules.Move
	Text   string   // the move as the engine wrote it
	Ponder string   // the reply the engine expects, if it said
	Info   []string // search information lines (Hub "info"), kept for the record
	// Latency is the time from the request reaching the transport (the
	// last byte written) to the reply being read: the engine plus the pipe
	// or socket, without the arbiter's own work.
	Latency time.Duration
	// InfoAt is when the last of Info was read, from the same start as
	// Latency (0 without one). An engine such as Scan prints its info line
	// when an iteration of its search completes, then searches on until its
	// time is up: the round trip less the line's time= counts that unreported
	// search as the machine's, while the line's arrival less its time= is
	// the transport and the scheduler alone.
	InfoAt time.Duration
	// Resign, ClaimDraw and ClaimWin are set instead of a move when the
	// engine ends the game itself (DXP GAMEEND with reason "I give up",
	// "draw" or "I win"). The referee decides what such an end is worth.
	Resign    bool
	ClaimDraw bool
	ClaimWin  bool
	// Checked says Move was found among the legal moves of the request's
	// Position by the player (rules.Position.ParseHubMoveLegal): the
	// referee takes it without looking it up again. Legal is that
	// position's whole legal list when the player generated it (a
	// capture), nil otherwise.
	Checked bool
	Legal   []rules.Move
}

// FaultKind classifies engine misbehaviour.
type FaultKind uint8

// Fault kinds; PlayGame maps them to referee calls.
const (
	// Illegal: the engine sent something invalid (garbage, an unknown or
	// illegal move, a move for the wrong side, "done" without a move while
	// it has legal moves). Submitted to the referee's illegal-move policy.
	Illegal FaultKind = iota
	// Crash: the engine exited or closed its output.
	Crash
	// Stall: the engine stopped answering (no move and no "pong").
	Stall
	// Timeout: the engine is alive but gave no move before its time ran out.
	Timeout
	// Limit: the engine exceeded a bound the arbiter sets on what an engine
	// may make it keep or read (a line too long, a flood of parameters);
	// it is stopped and the game lost as an engine fault.
	Limit
)

// String names the kind.
func (k FaultKind) String() string {
	switch k {
	case Illegal:
		return "illegal"
	case Crash:
		return "crash"
	case Stall:
		return "stall"
	case Timeout:
		return "timeout"
	case Limit:
		return "limit"
	}
	return fmt.Sprintf("fault(%d)", uint8(k))
}

// Fault is engine misbehaviour reported by Play.
type Fault struct {
	Kind   FaultKind
	Text   string // what the engine sent, for Illegal
	Reason string // why it is a fault
	Err    error  // underlying error, if any
}

func (f *Fault) Error() string {
	msg := f.Kind.String() + ": " + f.Reason
	if f.Text != "" {
		msg += fmt.Sprintf(" (engine sent %q)", f.Text)
	}
	if f.Err != nil {
		msg += ": " + f.Err.Error()
	}
	return msg
}

func (f *Fault) Unwrap() error { return f.Err }

// AsFault returns the *Fault in err's chain, if any.
func AsFault(err error) (*Fault, bool) {
	var f *Fault
	ok := errors.As(err, &f)
	return f, ok
}

// Watch wraps a Player for one game and keeps how its NewGame went, so
// that a runner can tell an engine that never got going (a missing
// program, a crash or a timeout at start-up, a DXP address nobody listens
// on, a GAMEREQ refused or unanswered) from one that played and lost. It
// passes NewGameAs and EndGame on to players that want them.
type Watch struct {
	Player
	// Ready is set when NewGame succeeded.
	Ready bool
	// Err is NewGame's error, unless the game was cancelled: a *Fault when
	// the engine failed its start, a plain error when it could not be run.
	Err error
}

// NewGame calls the player's NewGame and records the outcome.
func (w *Watch) NewGame(ctx context.Context, v *rules.Variant, start rules.Position, tc arbiter.TimeControl) error {
	return w.note(ctx, w.Player.NewGame(ctx, v, start, tc))
}

// NewGameAs starts the game with StartGame and records the outcome.
func (w *Watch) NewGameAs(ctx context.Context, v *rules.Variant, start rules.Position, tc arbiter.TimeControl, as rules.Color) error {
	return w.note(ctx, StartGame(ctx, w.Player, v, start, tc, as))
}

func (w *Watch) note(ctx context.Context, err error) error {
	switch {
	case err == nil:
		w.Ready = true
	case ctx.Err() == nil:
		w.Err = err
	}
	return err
}

// EndGame passes the end of the game on to players that want it (DXP).
func (w *Watch) EndGame(ctx context.Context, result arbiter.Result, as rules.Color) error {
	if ge, ok := w.Player.(GameEnder); ok {
		return ge.EndGame(ctx, result, as)
	}
	return nil
}

// CouldNotRun returns Err when it is not an engine fault: the player could
// not run the engine at all (the game then cannot be played).
func (w *Watch) CouldNotRun() error {
	if _, fault := AsFault(w.Err); fault {
		return nil
	}
	return w.Err
}

// Starts counts, per engine, how its starts of a game went (see Watch), to
// tell an engine that never got going from one that played and lost. It is
// safe for concurrent use.
type Starts struct {
	mu    sync.Mutex
	names []string
	ready []int
	fails []int
	last  []error
}

// NewStarts returns the counts for the engines named.
func NewStarts(names []string) *Starts {
	n := len(names)
	return &Starts{names: names, ready: make([]int, n), fails: make([]int, n), last: make([]error, n)}
}

// Note records engine i's start of one game.
func (s *Starts) Note(i int, w *Watch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case w.Ready:
		s.ready[i]++
	case w.Err != nil:
		s.fails[i]++
		s.last[i] = w.Err
	}
}

// Hopeless reports whether engine i failed its start at least n times and
// never succeeded: trying again would only repeat the failure.
func (s *Starts) Hopeless(i, n int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fails[i] >= n && s.ready[i] == 0
}

// Never lists the engines that failed every start, as "name (N attempts):
// last reason".
func (s *Starts) Never() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for i, name := range s.names {
		if s.fails[i] > 0 && s.ready[i] == 0 {
			out = append(out, fmt.Sprintf("%s (%d attempts): %v", name, s.fails[i], s.last[i]))
		}
	}
	return out
}
