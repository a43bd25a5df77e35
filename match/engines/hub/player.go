package hub

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/enginelog"
	"github.com/draughts-arbiter/arbiter/match/internal/proc"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Param is an engine parameter: declared by the engine ("param" lines, with
// Type and Values) or set by the arbiter ("set-param", Name and Value only).
type Param struct {
	Name, Value string
	Type        string
	Values      []string // enum values
}

// Options configure a Hub engine. Zero durations take the defaults shown.
type Options struct {
	// Name is the player's name; empty = the engine's "id name=" (+ version).
	Name string
	// Command is the engine's argv (Scan needs "hub" as an argument).
	Command []string
	Dir     string   // working directory ("" = the arbiter's)
	Env     []string // extra environment, "KEY=value"
	// Params are sent with set-param after the handshake, in order. A param
	// called "variant" overrides the automatic choice (see NewGame).
	Params []Param
	// Log receives the whole protocol exchange and the engine's stderr;
	// the zero Logger logs nothing. The exchange is capped per game and per
	// event (LogLimits, LogBudget; see package enginelog).
	Log zerolog.Logger
	// LogLimits are the engine log's caps (zero: enginelog's defaults).
	LogLimits enginelog.Limits
	// LogBudget is the engine's event cap, shared by all the players of one
	// engine (nil: one of this player's own).
	LogBudget *enginelog.Budget
	// InitTimeout bounds "hub" -> "wait" and "init" -> "ready" (60s: engines
	// load books and endgame databases at "init").
	InitTimeout time.Duration
	// PingTimeout is how long the "pong" to the ping sent with "stop" may
	// take before the engine counts as stalled (1s). A ping sent during a
	// long search may take a whole PingInterval.
	PingTimeout time.Duration
	// PingInterval: during a long search the engine is pinged this often
	// (10s), the first time only once it has thought three times its share
	// of the clock for one move (see firstPing).
	PingInterval time.Duration
	// QuitGrace is how long the engine may take to exit after "quit" before
	// it is killed (1s).
	QuitGrace time.Duration
	// WriteTimeout bounds a write to a child that stopped reading (2s).
	WriteTimeout time.Duration
	// Version is the protocol version: 2 (the default, Scan 3.x) or 1
	// (Hub-1, Scan 2.0 and the engines of its time; see hub1.go).
	Version int
}

func (o *Options) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.InitTimeout, 60*time.Second)
	def(&o.PingTimeout, time.Second)
	def(&o.PingInterval, 10*time.Second)
	def(&o.QuitGrace, time.Second)
	def(&o.WriteTimeout, 2*time.Second)
	if o.Version != 1 {
		o.Version = 2
	}
}

// Player is a Hub engine process; it implements match.Player. It is used by
// one game goroutine at a time.
type Player struct {
	opts    Options
	log     zerolog.Logger
	elog    *enginelog.Log // the capped exchange
	p       *proc.Process
	id      map[string]string
	params  []Param
	variant *rules.Variant
	broken  bool // a search was abandoned or the process misbehaved: restart at NewGame
	// open: Play returned (garbage during a search) before the engine's
	// "done"; its search may still be running, and a late "done" must not
	// be taken for the answer to the next request.
	open bool
	// pos caches the scan of the game for "pos": after moves[:scanned] the
	// position is cur and the last irreversible move ended at base/baseIdx;
	// text holds the Hub texts of the moves since base, space separated.
	pos struct {
		start, base, cur rules.Position
		baseIdx, scanned int
		valid            bool
		text             []byte
	}
	out []byte // the request being written, reused between moves
	// limit is the running Play's Request.Limit (zero: none): the player
	// enforces it (match.LimitPlayer), as if it were ctx's deadline.
	limit time.Time
	// interrupt is the registration (context.AfterFunc) that wakes a read
	// when the ctx of Play is cancelled, kept while the same ctx comes
	// back move after move; interruptFor is that ctx's Done channel.
	interrupt    func() bool
	interruptFor <-chan struct{}
	cur          atomic.Pointer[proc.Process] // the process interrupt wakes
	t0           time.Time
	// warned: the game's first line of non-protocol output has been
	// warned about (see ignore).
	warned bool
	// heard are the first lines the engine printed at start-up (up to
	// maxHeard), quoted when its handshake fails: what a program that is
	// not a Hub engine said is the best clue to what it is.
	heard []string
}

// Bounds on what an engine can make the arbiter keep. An engine that
// exceeds one loses the game as an engine fault and is restarted: no engine
// can fill the arbiter's memory and stop the event.
const (
	// MaxParams bounds the "param" lines of one handshake (Scan declares
	// about 10).
	MaxParams = 256
	// MaxIDs bounds the distinct "id" arguments of one handshake.
	MaxIDs = 64
	// MaxHandshake bounds the bytes of parameters and ids kept from one
	// handshake.
	MaxHandshake = 1 << 20
	// MaxInfoLines and MaxInfoBytes bound the "info" lines kept per move
	// (the last ones; the record keeps only the very last).
	MaxInfoLines = 32
	MaxInfoBytes = 64 << 10
)

// New returns a Player for an engine that is started by NewGame (or Start).
func New(opts Options) *Player {
	opts.defaults()
	return &Player{opts: opts, log: opts.Log, elog: enginelog.New(opts.Log, opts.LogLimits, opts.LogBudget)}
}

var _ match.Player = (*Player)(nil)

// Name is Options.Name, or the engine's own name once it has said it.
func (e *Player) Name() string {
	if e.opts.Name != "" {
		return e.opts.Name
	}
	if n := e.id["name"]; n != "" {
		if v := e.id["version"]; v != "" {
			return n + " " + v
		}
		return n
	}
	if len(e.opts.Command) > 0 {
		return e.opts.Command[0]
	}
	return "hub engine"
}

// ID returns what the engine said in its "id" line.
func (e *Player) ID() map[string]string { return e.id }

// Params returns the parameters the engine declared.
func (e *Player) Params() []Param { return e.params }

// Pid is the engine's process id, 0 when not running.
func (e *Player) Pid() int {
	if e.p == nil {
		return 0
	}
	return e.p.Pid()
}

func (e *Player) logLine(dir, line string) { e.elog.Line(dir, line) }

func (e *Player) send(lines ...string) error {
	b := e.out[:0]
	for _, l := range lines {
		b = append(b, l...)
		b = append(b, '\n')
	}
	e.out = b
	return e.write(b)
}

// write logs and writes b, one or more whole lines.
func (e *Player) write(b []byte) error {
	for rest := b; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			i = len(rest) - 1 // cannot happen: callers write whole lines
		}
		if e.elog.On() {
			e.elog.Line(">", string(rest[:i]))
		}
		rest = rest[i+1:]
	}
	err := e.p.WriteBytes(b, e.opts.WriteTimeout)
	if err == nil {
		return nil
	}
	e.broken = true
	select {
	case <-e.p.Exited():
		return e.crash("it exited", err)
	default:
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return &match.Fault{Kind: match.Stall, Reason: "it stopped reading its input", Err: err}
	}
	return e.crash("the arbiter cannot write to it", err)
}

// crash builds a Crash fault, with the exit status when the process is gone
// and the engine's last stderr line (often its own account of the failure).
// It waits a moment for both, so that the log holds everything the engine
// said before the crash is reported.
func (e *Player) crash(why string, err error) *match.Fault {
	e.broken = true
	t := time.NewTimer(crashWait)
	defer t.Stop()
	exited, drained := e.p.Exited(), e.p.StderrDone()
	for exited != nil || drained != nil {
		select {
		case <-exited:
			exited = nil
			if xerr := e.p.ExitErr(); xerr != nil {
				why += " (" + xerr.Error() + ")"
			} else {
				why += " (exit status 0)"
			}
		case <-drained:
			drained = nil
		case <-t.C:
			exited, drained = nil, nil
		}
	}
	if last := e.p.LastStderr(); last != "" {
		why += "; last stderr line: " + strconv.Quote(truncate(last, 200))
	}
	return &match.Fault{Kind: match.Crash, Reason: why, Err: err}
}

// crashWait bounds how long a crash report waits for the exit status and
// the end of stderr (a grandchild may hold the pipe open).
const crashWait = 500 * time.Millisecond

// truncate cuts s to at most n bytes (on a rune boundary) for a reason text.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// Start runs the engine and performs the handshake for variant v:
// "hub" -> id/param... "wait", set-param for the variant and Options.Params,
// "init" -> "ready". A failure to run the command is a plain error; an
// engine that exits or does not answer in time gives a *match.Fault.
func (e *Player) Start(ctx context.Context, v *rules.Variant) error {
	if e.p != nil {
		e.Close()
	}
	e.broken, e.open = false, false
	e.id, e.params, e.heard = map[string]string{}, nil, nil
	e.t0 = time.Now()
	p, err := proc.Start(e.opts.Command, e.opts.Dir, e.opts.Env, func(s string) { e.elog.Line("stderr", s) })
	if err != nil {
		// Not a fault of the engine: it could not be run at all.
		return fmt.Errorf("hub engine %q: %w", e.Name(), err)
	}
	e.p = p
	e.variant = v
	e.log.Info().Int("pid", p.Pid()).Strs("argv", e.opts.Command).Msg("started")
	ctx, cancel := context.WithTimeout(ctx, e.opts.InitTimeout)
	defer cancel()
	if err := e.send("hub"); err != nil {
		return err
	}
	kept := 0 // bytes of ids and parameters kept
	each := func(cmd, raw string) *match.Fault {
		if e.opts.Version == 1 {
			return e.handshake1(cmd, raw, &kept)
		}
		l, err := ParseLine(raw)
		if err != nil {
			e.ignore(raw)
			return nil
		}
		switch l.Command {
		case "id":
			for _, a := range l.Args {
				if _, ok := e.id[a.Name]; !ok && len(e.id) >= MaxIDs {
					return limit(fmt.Sprintf("it sent more than %d id arguments during the handshake", MaxIDs))
				}
				kept += len(a.Name) + len(a.Value)
				e.id[a.Name] = a.Value
			}
		case "param":
			pr := Param{}
			pr.Name, _ = l.Get("name")
			pr.Value, _ = l.Get("value")
			pr.Type, _ = l.Get("type")
			if vals, ok := l.Get("values"); ok {
				pr.Values = strings.Fields(vals)
			}
			if pr.Name != "" {
				if len(e.params) >= MaxParams {
					return limit(fmt.Sprintf("it declared more than %d parameters during the handshake", MaxParams))
				}
				kept += len(pr.Name) + len(pr.Value) + len(pr.Type) + len(strings.Join(pr.Values, " "))
				e.params = append(e.params, pr)
			}
		}
		if kept > MaxHandshake {
			return limit(fmt.Sprintf("its ids and parameters took more than %d bytes during the handshake", MaxHandshake))
		}
		return nil
	}
	if err = e.readUntil(ctx, "wait", each); err != nil {
		return err
	}
	params, err := e.settings(v)
	if err != nil {
		e.broken = true
		return err
	}
	var sets []string
	for _, pr := range params {
		if e.opts.Version == 1 {
			sets = append(sets, "set "+pr.Name+" "+pr.Value)
			continue
		}
		sets = append(sets, Cmd("set-param", "name", pr.Name, "value", pr.Value).String())
	}
	sets = append(sets, "init")
	if err := e.send(sets...); err != nil {
		return err
	}
	return e.readUntil(ctx, "ready", nil)
}

// variantNames are the names engines use for our presets, best first
// (Scan's variant parameter: normal, killer, bt, frisian, losing).
var variantNames = map[string][]string{
	"international": {"international", "normal", "standard", "10x10"},
	"antidraughts":  {"antidraughts", "losing", "anti"},
	"killer":        {"killer"},
	"breakthrough":  {"bt", "breakthrough"},
	"frisian":       {"frisian"},
	"english":       {"english", "checkers", "american"},
	"giveaway":      {"giveaway", "antidam", "losing-english"},
}

// VariantValue is the value of an engine's "variant" parameter that names
// v, given the parameter's current value and the values it offers: Scan calls
// international draughts "normal", so a check or an event that looked only
// for "international" would refuse Scan or set a value it exits on. found is
// false when no value names v; an engine that offers no values is given v's
// own name.
func VariantValue(v *rules.Variant, current string, offered []string) (value string, found bool) {
	names := variantNames[v.Name()]
	if len(names) == 0 {
		names = []string{v.Name()}
	}
	for _, n := range names {
		if current == n {
			return n, true
		}
		if slices.Contains(offered, n) || (len(offered) == 0 && n == v.Name()) {
			return n, true
		}
	}
	return "", false
}

// PresetFor is the arbiter's variant that an engine's "variant" value names
// ("normal" is international, as Scan calls it), matched without regard to
// case; ok is false for a value that names none of the presets.
func PresetFor(value string) (name string, ok bool) {
	value = strings.ToLower(value)
	for preset, names := range variantNames {
		if slices.Contains(names, value) {
			return preset, true
		}
	}
	if v, err := rules.Lookup(value); err == nil {
		return v.Name(), true
	}
	return "", false
}

// settings chooses the set-param commands: the engine's "variant" parameter
// is set to our variant when it declares a matching value (and its current
// value differs), then Options.Params in order. An engine whose "variant"
// values name none of ours would play another game than the referee's and
// lose on "illegal" moves: that is a fault before the game, unless the
// event sets the parameter itself.
func (e *Player) settings(v *rules.Variant) ([]Param, error) {
	var out []Param
	userVariant := slices.ContainsFunc(e.opts.Params, func(p Param) bool { return p.Name == "variant" })
	for _, pr := range e.params {
		if pr.Name != "variant" || userVariant || v == nil {
			continue
		}
		value, found := VariantValue(v, pr.Value, pr.Values)
		if found && value != pr.Value {
			out = append(out, Param{Name: "variant", Value: value})
		}
		if !found {
			return nil, &match.Fault{Kind: match.Crash, Reason: fmt.Sprintf(
				"the engine's variant parameter offers %q, none of them %s; if it calls %s otherwise, set its option variant",
				strings.Join(pr.Values, " "), v.Name(), v.Name())}
		}
	}
	return append(out, e.opts.Params...), nil
}

// readLine reads one line, waiting until deadline or the end of ctx
// (whichever comes first; zero deadline = only ctx).
func (e *Player) readLine(ctx context.Context, deadline time.Time) (string, error) {
	if d, ok := ctx.Deadline(); ok && (deadline.IsZero() || d.Before(deadline)) {
		deadline = d
	}
	if d := e.limit; !d.IsZero() && (deadline.IsZero() || d.Before(deadline)) {
		deadline = d
	}
	// Past the limit no line is taken. One still to be read from the pipe
	// is not (ReadLine checks its deadline, at most the limit, before it
	// reads), so the clock is read only for a line already in the buffer.
	if err := ctx.Err(); err != nil {
		return "", os.ErrDeadlineExceeded
	}
	if e.p.Buffered() {
		if err := e.ctxErr(ctx); err != nil {
			return "", os.ErrDeadlineExceeded
		}
	}
	return e.p.ReadLine(deadline)
}

// ctxErr is ctx.Err(), or context.DeadlineExceeded once the running
// Play's limit has passed.
func (e *Player) ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !e.limit.IsZero() && !time.Now().Before(e.limit) {
		return context.DeadlineExceeded
	}
	return nil
}

// EnforcesLimit: Play stops waiting at Request.Limit by itself.
func (e *Player) EnforcesLimit() {}

var _ match.LimitPlayer = (*Player)(nil)

// watch makes a cancellation of ctx wake the read in progress. The
// registration is kept while the same ctx comes back (a game's moves):
// registering and removing one per move costs more than the move's pipe.
func (e *Player) watch(ctx context.Context) {
	e.cur.Store(e.p)
	done := ctx.Done()
	if done == nil || done == e.interruptFor {
		return
	}
	e.unwatch()
	e.interruptFor = done
	e.interrupt = context.AfterFunc(ctx, func() {
		if p := e.cur.Load(); p != nil {
			p.Interrupt()
		}
	})
}

// unwatch removes watch's registration.
func (e *Player) unwatch() {
	if e.interrupt != nil {
		e.interrupt()
	}
	e.interrupt, e.interruptFor = nil, nil
}

// slowStartHint ends a start-up that ran out of time: an engine that
// loads an endgame database or a large book may need longer than the
// default.
const slowStartHint = `; an engine that is only slow to start (an endgame database to load) can be given longer: init=5m in its --engine spec, init_timeout: 5m in a config file`

// readUntil reads lines until one with command want, passing the others to
// each (which may be nil, and may end the wait with a fault). EOF or the
// engine's exit is a crash, the ctx deadline a stall.
func (e *Player) readUntil(ctx context.Context, want string, each func(cmd, raw string) *match.Fault) error {
	stop := context.AfterFunc(ctx, e.p.Interrupt)
	defer stop()
	for {
		raw, err := e.readLine(ctx, time.Time{})
		switch {
		case err == nil:
		case e.exited() || !errors.Is(err, os.ErrDeadlineExceeded):
			return e.crash(fmt.Sprintf("%s while the arbiter waited for %q%s", e.gone(), want, e.heardNote(want)), err)
		case ctx.Err() != nil:
			e.broken = true
			if errors.Is(ctx.Err(), context.Canceled) {
				return ctx.Err()
			}
			return &match.Fault{Kind: match.Stall, Reason: fmt.Sprintf("no %q from it within %v%s%s", want, e.opts.InitTimeout, e.heardNote(want), slowStartHint), Err: ctx.Err()}
		default:
			continue
		}
		e.logLine("<", raw)
		raw, long := proc.IsLong(raw)
		if long {
			e.broken = true
			return tooLong(raw)
		}
		if want == "wait" {
			if err := e.hear(raw); err != nil {
				return err
			}
		}
		cmd := command(raw)
		if cmd == want {
			return nil
		}
		if !e.known(cmd) {
			e.ignore(raw)
			continue
		}
		if each != nil {
			if f := each(cmd, raw); f != nil {
				e.broken = true
				return f
			}
		}
	}
}

// known are the commands of Hub engines. Any other line, or a line of
// these the arbiter does not act on where it comes, is not an answer:
// it is ignored (see ignore), whether or not it parses; only a "done"
// that cannot be read is the engine's fault (see Play).
var known = map[string]bool{"id": true, "param": true, "wait": true, "ready": true, "info": true, "done": true, "pong": true, "error": true}

// known reports whether cmd is a command of the engine's protocol version.
func (e *Player) known(cmd string) bool {
	if e.opts.Version == 1 {
		return known1[cmd]
	}
	return known[cmd]
}

// command is the first word of a line: what the line is, whether or not
// the rest parses.
func command(raw string) string {
	i := 0
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t') {
		i++
	}
	j := i
	for j < len(raw) && raw[j] != ' ' && raw[j] != '\t' {
		j++
	}
	return raw[i:j]
}

// ignore logs a line that is not Hub output the arbiter expects: an
// engine's banner, debug output, a malformed info line. It decides
// nothing, so it costs nothing; the game's first one is a warning in the
// log, the others are logged as read.
func (e *Player) ignore(raw string) {
	if e.warned {
		return
	}
	e.warned = true
	e.log.Warn().Str("line", truncate(raw, 200)).Msg("output that is not a Hub answer is ignored (this warning comes once per game)")
}

// limit is the fault of an engine that exceeds one of the arbiter's bounds.
func limit(why string) *match.Fault { return &match.Fault{Kind: match.Limit, Reason: why} }

// tooLong is the fault of a line over proc.MaxLine.
func tooLong(raw string) *match.Fault {
	return &match.Fault{Kind: match.Limit, Text: truncate(raw, 64), Reason: fmt.Sprintf("it sent a line longer than %d bytes, the limit of a Hub line", proc.MaxLine)}
}

// exited reports whether the engine process has exited.
func (e *Player) exited() bool {
	select {
	case <-e.p.Exited():
		return true
	default:
		return false
	}
}

// gone says how the engine's output ended, for a crash report. The end of
// the output usually comes just before the exit is seen: it waits for that
// as long as the crash report would (crashWait).
func (e *Player) gone() string {
	t := time.NewTimer(crashWait)
	defer t.Stop()
	select {
	case <-e.p.Exited():
		return "it exited"
	case <-t.C:
		return "it closed its output"
	}
}

// NewGame starts the engine if it is not running (or restarts it after a
// fault or for another variant) and sends "new-game".
func (e *Player) NewGame(ctx context.Context, v *rules.Variant, start rules.Position, tc arbiter.TimeControl) error {
	e.elog.StartGame()
	if e.p == nil || e.broken || e.variant != v {
		if err := e.Start(ctx, v); err != nil {
			return err
		}
	}
	e.drain()
	if e.broken {
		return e.crash("it exited between games", nil)
	}
	e.pos.valid = false
	e.warned = false
	if e.opts.Version == 1 {
		return e.send("new")
	}
	return e.send("new-game")
}

// drain logs and drops lines left over from an earlier search: the lines
// already read from the pipe (a read with a deadline in the past returns
// those and does not read the pipe; Buffered saves setting that deadline
// before every move when there are none, the usual case).
func (e *Player) drain() {
	for e.p.Buffered() {
		raw, err := e.p.ReadLine(time.Now())
		if err != nil {
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				e.broken = true
			}
			return
		}
		e.logLine("<", raw)
	}
}

// settle ends a search left open by garbage: "stop" and "ping", then every
// line up to the "pong" (a late "done" among them) is logged and dropped.
// No pong within PingTimeout is a stall.
func (e *Player) settle(ctx context.Context) error {
	if err := e.send("stop", "ping"); err != nil {
		return err
	}
	by := time.Now().Add(e.opts.PingTimeout)
	for {
		raw, err := e.readLine(ctx, by)
		if err != nil {
			e.broken = true
			if e.exited() || !errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() == nil {
				return e.crash(e.gone(), err)
			}
			return &match.Fault{Kind: match.Stall, Reason: "no pong to stop and ping after an unreadable done line", Err: err}
		}
		e.logLine("<", raw)
		if raw, long := proc.IsLong(raw); long {
			e.broken = true
			return tooLong(raw)
		}
		if command(raw) == "pong" {
			e.open = false
			return nil
		}
	}
}

// Play sends "pos", "level" and "go think" and waits for "done". At
// req.Deadline it sends "stop" and "ping": a "done" after that is still
// returned (the referee judges the time), a "pong" without "done" until the
// ctx ends is a Timeout, no "pong" at all a Stall.
func (e *Player) Play(ctx context.Context, req match.Request) (match.Reply, error) {
	var reply match.Reply
	if e.p == nil {
		return reply, errors.New("hub: Play before NewGame")
	}
	e.limit = req.Limit
	defer func() { e.limit = time.Time{} }()
	e.drain()
	if e.broken {
		return reply, e.crash("it exited", nil)
	}
	if e.open {
		if err := e.settle(ctx); err != nil {
			return reply, err
		}
	}
	// One write for the three lines, built without the Line codec (this
	// runs before every move).
	var b []byte
	if e.opts.Version == 1 {
		b = e.appendRequest1(e.out[:0], req)
	} else {
		b = e.appendPos(e.out[:0], req)
		b = append(b, '\n')
		b = appendLevel(b, req.Level)
		b = append(b, "\ngo think\n"...)
	}
	e.out = b
	if err := e.write(b); err != nil {
		return reply, err
	}
	sent := time.Now()
	e.watch(ctx)
	// The loop reads with a deadline at the next event: the stop at the
	// referee's deadline, the next ping, or the end of the wait for a pong.
	now := sent
	stopAt, stopped := req.Deadline, false
	nextPing := now.Add(firstPing(req.Level, e.opts.PingInterval))
	var pongBy time.Time // zero: no ping outstanding
	// said is the first "error" line of this search (the cause; those
	// after are its consequences): it decides nothing, but a search that
	// ends without a move names it (a Hub-1 engine told no variant refuses
	// the position and never moves).
	var said string
	// unchecked counts the lines taken from the reader's buffer since the
	// time was last read (see the end of the loop).
	unchecked := 0
	// infoRead: an info line was taken whose arrival is not yet read. It
	// arrived with the lines read with it: the done line's time when that
	// came in the same read (the usual answer: no clock read of its own),
	// else the time the reader's buffer ran dry after it.
	infoRead := false
	why := func(reason string) string {
		if said == "" {
			return reason
		}
		return reason + "; the engine said: " + said
	}
	// ping sends "ping" (after extra) and expects a pong within wait. A ping
	// during the search may wait a whole ping interval: the engine still has
	// time, and a slow answer on a loaded machine must not forfeit a game
	// (a hang is caught anyway); the ping after "stop" waits PingTimeout.
	ping := func(wait time.Duration, extra ...string) error {
		if err := e.send(append(extra, "ping")...); err != nil {
			return err
		}
		if by := time.Now().Add(wait); pongBy.IsZero() || by.Before(pongBy) {
			pongBy = by
		}
		return nil
	}
	for {
		wake := nextPing
		if !pongBy.IsZero() {
			wake = pongBy
		}
		if !stopped && !stopAt.IsZero() && stopAt.Before(wake) {
			wake = stopAt
		}
		raw, err := e.readLine(ctx, wake)
		if err == nil {
			e.logLine("<", raw)
			raw, long := proc.IsLong(raw)
			if long {
				// Bounded lines are part of the protocol's contract: an
				// engine that breaks it is at fault, whatever the line was.
				e.broken = true
				return reply, tooLong(raw)
			}
			// The rule for everything else: a line is judged by what it is
			// (its first word), not by whether it parses. Only "done"
			// decides anything; other output is ignored (see ignore).
			cmd := command(raw)
			if e.opts.Version == 1 {
				cmd = reply1[cmd] // "move" is the answer; "info" is positional
			}
			switch cmd {
			case "move1":
				reply.Latency = time.Since(sent)
				if infoRead {
					reply.InfoAt = reply.Latency
				}
				text, ponder := moveArgs1(raw)
				return e.done(text, ponder, raw, req, reply)
			case "info1":
				reply.Info = keepInfo(reply.Info, info1(raw))
				infoRead = true
			case "done":
				reply.Latency = time.Since(sent)
				if infoRead {
					reply.InfoAt = reply.Latency
				}
				if text, ponder, ok := doneArgs(raw); ok {
					return e.done(text, ponder, raw, req, reply)
				}
				l, err := ParseLine(raw)
				if err != nil {
					e.open = true
					return reply, &match.Fault{Kind: match.Illegal, Text: raw, Reason: "a done line that breaks the Hub syntax", Err: err}
				}
				text, _ := l.Get("move")
				ponder, _ := l.Get("ponder")
				return e.done(text, ponder, raw, req, reply)
			case "info":
				// An info line carries no decision: kept as written (a
				// stray quote in a PV is no fault), the last ones only.
				reply.Info = keepInfo(reply.Info, raw)
				infoRead = true
			case "pong":
				pongBy = time.Time{}
			case "error":
				// Logged as read above; it decides nothing.
				if said == "" {
					said = raw
				}
			default:
				e.ignore(raw)
			}
			// A flood of output must not hold off the stop and the pings. A
			// line still to be read from the pipe is read only before the
			// deadline (ReadLine checks it first); of the lines already
			// read, every fourth reads the clock here. The usual answer, an
			// info line and the done line after it in one read, reads it
			// once (readLine's look at the limit for the done line) where
			// it read it three times.
			if !e.p.Buffered() {
				if infoRead {
					reply.InfoAt, infoRead = time.Since(sent), false
				}
				unchecked = 0
				continue
			}
			if unchecked++; unchecked < 4 {
				continue
			}
			unchecked = 0
			if now := time.Now(); now.Before(wake) {
				continue
			}
			err = os.ErrDeadlineExceeded
		}
		if e.exited() || !errors.Is(err, os.ErrDeadlineExceeded) {
			// The process's own exit ends the game at once, even while a
			// child it forked holds the pipe open.
			return reply, e.crash(e.gone()+" during its search", err)
		}
		if cerr := e.ctxErr(ctx); cerr != nil {
			e.broken = true
			if errors.Is(cerr, context.Canceled) {
				return reply, cerr
			}
			switch {
			case !pongBy.IsZero():
				return reply, &match.Fault{Kind: match.Stall, Reason: why("no move and no pong after stop"), Err: cerr}
			case stopped:
				return reply, &match.Fault{Kind: match.Timeout, Reason: why("no move after stop at the deadline (the engine answers ping)"), Err: cerr}
			}
			return reply, &match.Fault{Kind: match.Timeout, Reason: why("no move before the deadline"), Err: cerr}
		}
		now = time.Now()
		if !stopped && !stopAt.IsZero() && !now.Before(stopAt) {
			stopped = true
			if err := ping(e.opts.PingTimeout, "stop"); err != nil {
				return reply, err
			}
			continue
		}
		if !pongBy.IsZero() && !now.Before(pongBy) {
			e.broken = true
			return reply, &match.Fault{Kind: match.Stall, Reason: why("no pong to ping")}
		}
		if pongBy.IsZero() && !now.Before(nextPing) {
			nextPing = now.Add(e.opts.PingInterval)
			if err := ping(e.opts.PingInterval); err != nil {
				return reply, err
			}
		}
	}
}

// doneArgs reads the usual done line, "done move=M" or "done move=M
// ponder=P" in plain ASCII, without the Line codec (it runs every move);
// ok is false for anything else (quotes, other arguments, other bytes),
// which ParseLine then reads in full.
func doneArgs(raw string) (move, ponder string, ok bool) {
	rest, found := strings.CutPrefix(raw, "done ")
	if !found {
		return "", "", false
	}
	for rest != "" {
		tok := rest
		if i := strings.IndexByte(rest, ' '); i >= 0 {
			tok, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		for i := 0; i < len(tok); i++ {
			if c := tok[i]; c <= ' ' || c >= 0x7f || c == '"' {
				return "", "", false
			}
		}
		name, val, eq := strings.Cut(tok, "=")
		switch {
		case !eq || val == "" || strings.IndexByte(val, '=') >= 0:
			return "", "", false
		case name == "move" && move == "":
			move = val
		case name == "ponder" && ponder == "":
			ponder = val
		default:
			return "", "", false
		}
	}
	return move, ponder, move != ""
}

// keepInfo appends line to the info lines of a move, dropping the oldest
// beyond MaxInfoLines or MaxInfoBytes (the last line is always kept).
func keepInfo(info []string, line string) []string {
	info = append(info, line)
	size := 0
	for _, l := range info {
		size += len(l)
	}
	drop := 0
	for drop < len(info)-1 && (len(info)-drop > MaxInfoLines || size > MaxInfoBytes) {
		size -= len(info[drop])
		drop++
	}
	if drop > 0 {
		n := copy(info, info[drop:])
		clear(info[n:])
		info = info[:n]
	}
	return info
}

// firstPing is when the first ping of a search goes out: not before the
// engine has thought three times its share of the clock for this move (the
// fixed move time, or the time left over the moves to go, 20 when the
// period has no move count, plus the increment), and at least interval.
// Some engines stop their search at any input, so an early ping would cut
// every long think short; a hung engine is still found long before its flag
// falls in a slow game.
func firstPing(lv match.Level, interval time.Duration) time.Duration {
	share := lv.MoveTime
	if lv.Time > 0 {
		togo := lv.MovesToGo
		if togo <= 0 {
			togo = 20
		}
		share = lv.Time/time.Duration(togo) + lv.Inc
	}
	return max(interval, 3*share)
}

// appendPos appends PosCommand(req.Start, req.Moves).String() to b, with
// the scan of the game kept between moves, so that a move costs O(1)
// instead of a replay from the start (plus the moves since the last
// irreversible one, which the engine needs to see repetitions).
func (e *Player) appendPos(b []byte, req match.Request) []byte {
	e.scan(req)
	c := &e.pos
	b = append(b, "pos pos="...)
	b = appendPosString(b, c.base)
	switch n := len(req.Moves) - c.baseIdx; {
	case n == 1: // no space: Line.String writes it unquoted
		b = append(b, " moves="...)
		b = append(b, c.text...)
	case n > 1:
		b = append(b, ` moves="`...)
		b = append(b, c.text...)
		b = append(b, '"')
	}
	return b
}

// scan brings the scan of the game (e.pos) up to req's moves.
func (e *Player) scan(req match.Request) {
	c := &e.pos
	if !c.valid || c.start != req.Start || c.scanned > len(req.Moves) {
		c.start, c.base, c.cur, c.baseIdx, c.scanned, c.valid = req.Start, req.Start, req.Start, 0, 0, true
		c.text = c.text[:0]
	}
	for _, m := range req.Moves[c.scanned:] {
		next := c.cur.Play(m)
		// A position with state beyond the board (Frisian's king moves,
		// Alquerque's no-return) cannot be a base: its string lacks it.
		if Irreversible(c.cur, m) && !next.HasHiddenState() {
			c.base, c.baseIdx = next, c.scanned+1
			c.text = c.text[:0]
		} else {
			if len(c.text) > 0 {
				c.text = append(c.text, ' ')
			}
			c.text = appendHubMove(c.text, m)
		}
		c.cur = next
		c.scanned++
	}
}

// done checks the engine's "done" line against the position.
func (e *Player) done(text, ponder, raw string, req match.Request, reply match.Reply) (match.Reply, error) {
	reply.Text = text
	reply.Ponder = ponder
	if text == "" {
		return reply, &match.Fault{Kind: match.Illegal, Text: raw, Reason: "done without a move while legal moves exist"}
	}
	m, legal, err := req.Position.ParseHubMoveLegal(text)
	if err != nil {
		// Some engines omit the captured square of a single capture
		// ("28x19"); accept the short form when it names one legal move.
		if alt, err2 := req.Position.ParseMove(text); err2 == nil && strings.Count(text, "x") == 1 {
			m, err = alt, nil
		}
	}
	if err != nil {
		return reply, &match.Fault{Kind: match.Illegal, Text: text, Reason: "not a legal move for " + req.Position.Turn().Name() + " in " + req.Position.FEN(), Err: err}
	}
	// Found among the position's legal moves: the referee need not look
	// it up (nor generate a capture's legal moves) again.
	reply.Move, reply.Checked, reply.Legal = m, true, legal
	return reply, nil
}

// EndGame ends the game's engine log (writing the tail kept past its cap);
// Hub has no end-of-game message.
func (e *Player) EndGame(context.Context, arbiter.Result, rules.Color) error {
	e.elog.EndGame()
	return nil
}

var _ match.GameEnder = (*Player)(nil)

// Close sends "quit", waits QuitGrace for the engine to exit, then kills its
// process group and reaps it.
func (e *Player) Close() error {
	if e.p == nil {
		return nil
	}
	p := e.p
	e.p = nil
	e.unwatch()
	e.cur.Store(nil)
	e.logLine(">", "quit")
	_ = p.Write("quit\n", 200*time.Millisecond)
	p.CloseInput()
	err := p.Stop(e.opts.QuitGrace)
	e.elog.EndGame()
	e.log.Info().AnErr("exit", err).Msg("stopped")
	return nil
}
