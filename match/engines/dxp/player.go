package dxp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/enginelog"
	"github.com/draughts-arbiter/arbiter/match/internal/proc"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Options configure a DXP engine. Zero durations take the defaults shown.
type Options struct {
	// Name is the player's name; empty = the name in the engine's GAMEACC.
	Name string
	// Addr is host:port. The arbiter connects to it, or listens on it when
	// Listen is set (port 0 picks a free port; see Command).
	Addr   string
	Listen bool
	// Command optionally starts the engine process (which then listens on,
	// or connects to, Addr). The text "{addr}" in its arguments is replaced
	// by the address the arbiter listens on or connects to.
	Command []string
	Dir     string
	Env     []string
	// Log receives the whole protocol exchange and the engine's stderr and
	// stdout, capped per game and per event (LogLimits, LogBudget; see
	// package enginelog: a chat or stderr flood must not fill the disk);
	// the zero Logger logs nothing.
	Log       zerolog.Logger
	LogLimits enginelog.Limits
	LogBudget *enginelog.Budget
	// ConnectTimeout bounds connecting (retried while nobody listens yet)
	// or waiting for the engine to connect, and the GAMEREQ/GAMEACC and
	// BACKREQ/BACKACC exchanges (60s).
	ConnectTimeout time.Duration
	// QuitGrace is how long a started engine may take to exit after the
	// final GAMEEND before it is killed (1s).
	QuitGrace time.Duration
	// WriteTimeout bounds a write to a peer that stopped reading (2s).
	WriteTimeout time.Duration
	// UntimedWait bounds the wait for a move when the game has no clock
	// (depth or node limits only): DXP has no liveness probe, so a silent
	// engine would otherwise hold the game for ever (15m).
	UntimedWait time.Duration
}

func (o *Options) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.ConnectTimeout, 60*time.Second)
	def(&o.QuitGrace, time.Second)
	def(&o.WriteTimeout, 2*time.Second)
	def(&o.UntimedWait, 15*time.Minute)
}

// Player plays an engine over DXP as the Initiator; it implements
// match.Player, match.SidedPlayer and match.GameEnder. The GAMEREQ is sent
// by NewGameAs (the engine's colour is known there), so an engine that
// refuses the game or never accepts it fails its start, within the start-up
// timeout and off its clock; after a plain NewGame it goes with the first
// request. The opponent's moves are sent as MOVE messages before each
// request. A refused move (WCDF warning) is taken back with BACKREQ; an
// engine that refuses the BACKREQ has made its second illegal move.
type Player struct {
	opts Options
	log  zerolog.Logger
	elog *enginelog.Log // the capped exchange and output

	p        *proc.Process
	ln       net.Listener
	conn     net.Conn
	msgs     chan string // messages from the engine; closed at EOF
	readErr  error
	readMu   sync.Mutex
	peerName string
	broken   bool
	// ignored counts the messages skipped (chat, refused BACKREQs, messages
	// out of place) while waiting for one answer; see maxIgnored.
	ignored int

	// game state
	v        *rules.Variant
	tc       arbiter.TimeControl
	inGame   bool
	color    rules.Color
	sent     int  // moves of the game the engine knows
	moveSent bool // the engine's last MOVE is not yet confirmed by the next request
	// limit bounds Play's wait for a move (Request.Limit, or the untimed
	// wait), one timer reused for every move: a ctx with a deadline per
	// move costs a timer and a cancellation to set up and tear down.
	limit *time.Timer
}

// New returns a DXP player; connections are made by NewGame.
func New(opts Options) *Player {
	opts.defaults()
	return &Player{opts: opts, log: opts.Log, elog: enginelog.New(opts.Log, opts.LogLimits, opts.LogBudget)}
}

var (
	_ match.Player      = (*Player)(nil)
	_ match.SidedPlayer = (*Player)(nil)
	_ match.GameEnder   = (*Player)(nil)
	_ match.LimitPlayer = (*Player)(nil)
)

// EnforcesLimit: Play stops waiting at Request.Limit by itself.
func (e *Player) EnforcesLimit() {}

// maxIgnored bounds the messages an engine may send that the arbiter skips
// (CHAT, BACKREQ, anything out of place) while one answer is awaited. Each
// is logged; an engine that floods the connection would otherwise fill the
// log and keep the arbiter busy until the flag falls.
const maxIgnored = 1000

// errSilent is returned by next when the wait's deadline passed; the caller
// knows what was awaited and turns it into the fault that says so.
var errSilent = errors.New("dxp: nothing from the engine before the deadline")

// Name is Options.Name, or the engine's name from GAMEACC.
func (e *Player) Name() string {
	switch {
	case e.opts.Name != "":
		return e.opts.Name
	case e.peerName != "":
		return e.peerName
	}
	return "dxp " + e.opts.Addr
}

// PeerName is the name the engine gave in its last GAMEACC ("" before).
func (e *Player) PeerName() string { return e.peerName }

// Addr returns the address the player listens on (after NewGame), or the
// address it connects to.
func (e *Player) Addr() string {
	if e.ln != nil {
		return e.ln.Addr().String()
	}
	return e.opts.Addr
}

func (e *Player) logMsg(dir, s string) { e.elog.Line(dir, s) }

func (e *Player) send(m Message) error {
	s, err := m.Encode()
	if err != nil {
		return fmt.Errorf("dxp: %w", err)
	}
	e.logMsg(">", s)
	e.conn.SetWriteDeadline(time.Now().Add(e.opts.WriteTimeout))
	if _, err := io.WriteString(e.conn, s+"\x00"); err != nil {
		e.broken = true
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return &match.Fault{Kind: match.Stall, Reason: "engine stopped reading", Err: err}
		}
		return &match.Fault{Kind: match.Crash, Reason: "connection to the engine lost", Err: err}
	}
	return nil
}

// connect starts the engine process (if any) and makes the connection.
func (e *Player) connect(ctx context.Context) error {
	e.Close()
	e.broken = false
	addr := e.opts.Addr
	if e.opts.Listen {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("dxp: listen on %s: %w", addr, err)
		}
		e.ln = ln
		addr = ln.Addr().String()
	}
	if len(e.opts.Command) > 0 && !e.opts.Listen {
		if err := probe(addr); err != nil {
			e.broken = true
			return fmt.Errorf("dxp engine %q: %w", e.Name(), err)
		}
	}
	if len(e.opts.Command) > 0 {
		argv := make([]string, len(e.opts.Command))
		for i, a := range e.opts.Command {
			argv[i] = strings.ReplaceAll(a, "{addr}", addr)
		}
		p, err := proc.Start(argv, e.opts.Dir, e.opts.Env, func(s string) {
			e.elog.Line("stderr", s)
		})
		if err != nil {
			return fmt.Errorf("dxp engine %q: %w", e.Name(), err)
		}
		e.p = p
		e.log.Info().Int("pid", p.Pid()).Strs("argv", argv).Msg("started")
		go func() {
			// Its stdout is not the protocol: log it until the pipe closes.
			for {
				s, err := p.ReadLine(time.Time{})
				if err != nil {
					return
				}
				e.elog.Line("stdout", s)
			}
		}()
	}
	ctx, cancel := context.WithTimeout(ctx, e.opts.ConnectTimeout)
	defer cancel()
	var conn net.Conn
	var err error
	if e.opts.Listen {
		conn, err = e.accept(ctx)
	} else {
		conn, err = e.dial(ctx, addr)
	}
	if err != nil {
		e.broken = true
		return err
	}
	e.conn = conn
	e.msgs = make(chan string, 16)
	go e.read(conn, e.msgs)
	e.log.Info().Str("local", conn.LocalAddr().String()).Str("remote", conn.RemoteAddr().String()).Msg("connected")
	return nil
}

// probeTimeout bounds probe's connection attempt: a local address refuses
// at once; a remote one that drops packets is taken as free after it.
const probeTimeout = time.Second

// probe fails when something already answers at addr before the engine we
// are to start there is running: connecting to it would play against that
// program (typically an engine left behind by a killed run, still bound to
// the port) instead of the configured one.
func probe(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, probeTimeout)
	if err != nil {
		return nil
	}
	conn.Close()
	return fmt.Errorf("something already answers at %s before the engine is started (an engine left over from an earlier run?); stop it, or give the engine another address", addr)
}

// exited reports a started engine that has exited.
func (e *Player) exited() bool {
	if e.p == nil {
		return false
	}
	select {
	case <-e.p.Exited():
		return true
	default:
		return false
	}
}

func (e *Player) dial(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			return conn, nil
		}
		if e.exited() {
			return nil, &match.Fault{Kind: match.Crash, Reason: "engine exited before accepting the connection", Err: e.p.ExitErr()}
		}
		select {
		case <-ctx.Done():
			return nil, &match.Fault{Kind: match.Stall, Reason: "cannot connect to the engine at " + addr, Err: err}
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (e *Player) accept(ctx context.Context) (net.Conn, error) {
	type result struct {
		c   net.Conn
		err error
	}
	ch := make(chan result, 1)
	go func() {
		c, err := e.ln.Accept()
		ch <- result{c, err}
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-ch:
			if r.err != nil {
				return nil, fmt.Errorf("dxp: accept: %w", r.err)
			}
			return r.c, nil
		case <-tick.C:
			if e.exited() {
				e.ln.Close() // ends the Accept goroutine
				e.ln = nil
				return nil, &match.Fault{Kind: match.Crash, Reason: "engine exited before connecting", Err: e.p.ExitErr()}
			}
		case <-ctx.Done():
			e.ln.Close()
			e.ln = nil
			return nil, &match.Fault{Kind: match.Stall, Reason: "the engine did not connect to " + e.opts.Addr, Err: ctx.Err()}
		}
	}
}

func (e *Player) read(conn net.Conn, msgs chan<- string) {
	defer close(msgs)
	br := bufio.NewReader(conn)
	for {
		s, err := ReadMessage(br)
		if err != nil && s == "" {
			e.readMu.Lock()
			e.readErr = err
			e.readMu.Unlock()
			return
		}
		if err != nil {
			s = "\x7f" + s // marked as too long: Parse rejects it
		}
		msgs <- s
	}
}

// NewGame makes sure the engine is connected (starting it and connecting
// again after a fault). The GAMEREQ follows with the first request.
func (e *Player) NewGame(ctx context.Context, v *rules.Variant, start rules.Position, tc arbiter.TimeControl) error {
	if e.conn == nil || e.broken || e.exited() {
		if err := e.connect(ctx); err != nil {
			return err
		}
	}
	e.v, e.tc, e.inGame, e.sent, e.moveSent = v, tc, false, 0, false
	e.elog.StartGame()
	return nil
}

// NewGameAs is NewGame followed by the GAMEREQ for a game in which the
// engine plays as, and the wait for its GAMEACC (up to ConnectTimeout, the
// start-up timeout). A refusal or no answer is the engine failing its start.
func (e *Player) NewGameAs(ctx context.Context, v *rules.Variant, start rules.Position, tc arbiter.TimeControl, as rules.Color) error {
	if err := e.NewGame(ctx, v, start, tc); err != nil {
		return err
	}
	return e.gameReq(ctx, start, as)
}

// ignore counts a skipped message of the current wait; past maxIgnored the
// engine is faulted and the connection dropped.
func (e *Player) ignore() error {
	e.ignored++
	if e.ignored < maxIgnored {
		return nil
	}
	e.broken = true
	return &match.Fault{Kind: match.Stall, Reason: fmt.Sprintf("the engine sent %d messages (CHAT, BACKREQ or out of place) without the answer awaited; the connection is dropped", e.ignored)}
}

// next waits for the next message of interest; chat is logged and skipped,
// a BACKREQ refused. Each wait for an answer starts with ignored = 0. When
// ctx's deadline passes it returns errSilent.
func (e *Player) next(ctx context.Context) (Message, string, error) {
	return e.nextUntil(ctx, nil)
}

// nextUntil is next that also gives up (errSilent) when limit fires (nil:
// never).
func (e *Player) nextUntil(ctx context.Context, limit <-chan time.Time) (Message, string, error) {
	for {
		select {
		case raw, ok := <-e.msgs:
			if !ok {
				e.broken = true
				e.readMu.Lock()
				err := e.readErr
				e.readMu.Unlock()
				if errors.Is(err, ErrNoNUL) {
					return Message{}, "", &match.Fault{Kind: match.Crash, Reason: "the connection is dropped: the engine's output is not DXP", Err: err}
				}
				return Message{}, "", &match.Fault{Kind: match.Crash, Reason: "engine closed the connection", Err: err}
			}
			e.logMsg("<", raw)
			m, err := Parse(raw)
			if err != nil {
				return m, raw, &match.Fault{Kind: match.Illegal, Text: raw, Reason: "garbage instead of a DXP message", Err: err}
			}
			if m.Type == Chat {
				if err := e.ignore(); err != nil {
					return m, raw, err
				}
				continue
			}
			if m.Type == BackReq {
				// Take-backs are for human play; refuse and go on.
				if err := e.send(Message{Type: BackAcc, Code: '2'}); err != nil {
					return m, raw, err
				}
				if err := e.ignore(); err != nil {
					return m, raw, err
				}
				continue
			}
			return m, raw, nil
		case <-ctx.Done():
			e.broken = true
			if errors.Is(ctx.Err(), context.Canceled) {
				return Message{}, "", ctx.Err()
			}
			return Message{}, "", errSilent
		case <-limit:
			e.broken = true
			return Message{}, "", errSilent
		}
	}
}

// flagFell is the fault of an engine that gave no move before its flag fell
// (plus the slack for an answer in flight). DXP has no liveness probe, so a
// hung engine cannot be told from a slow one: the flag decides.
func flagFell() *match.Fault {
	return &match.Fault{Kind: match.Timeout, Reason: "no move before its flag fell (DXP has no liveness probe, so a hung engine looks like a slow one)", Err: context.DeadlineExceeded}
}

// silence turns errSilent from a wait bounded by bound (the start-up
// timeout) inside outer (the caller's ctx, whose deadline is the flag's in a
// game) into the fault that names what was awaited.
func silence(outer context.Context, err error, awaited string, bound time.Duration) error {
	if !errors.Is(err, errSilent) {
		return err
	}
	if outer.Err() != nil {
		return flagFell()
	}
	return &match.Fault{Kind: match.Stall, Reason: fmt.Sprintf("no %s within %v (the start-up timeout, init=)", awaited, bound), Err: context.DeadlineExceeded}
}

// gameReq sends GAMEREQ for a game in which the engine plays c, and waits for GAMEACC.
func (e *Player) gameReq(ctx context.Context, start rules.Position, c rules.Color) error {
	minutes, moves := dxpTime(e.tc)
	if note := TimeNote(e.tc); note != "" {
		e.log.Warn().Int("minutes", minutes).Msg(note)
	}
	m := Message{Type: GameReq, Version: 1, Name: "arbiter", Follower: c, Minutes: minutes, MaxMoves: moves}
	if start != rules.NewPosition(e.v) {
		m.StartCustom, m.ToMove, m.Position = true, start.Turn(), PositionString(start)
	}
	if err := e.send(m); err != nil {
		return err
	}
	outer := ctx
	ctx, cancel := context.WithTimeout(ctx, e.opts.ConnectTimeout)
	defer cancel()
	e.ignored = 0
	for {
		reply, _, err := e.next(ctx)
		if err != nil {
			if f, ok := match.AsFault(err); ok && f.Kind == match.Illegal {
				// Garbage before the game: logged, skipped.
				if err := e.ignore(); err != nil {
					return err
				}
				continue
			}
			return silence(outer, err, "GAMEACC in answer to GAMEREQ", e.opts.ConnectTimeout)
		}
		if reply.Type != GameAcc {
			// An engine's own GAMEREQ lands here too: the arbiter is the
			// initiator, and Scan accepts its GAMEREQ after sending one.
			e.elog.Line("warn", "expected GAMEACC, ignored")
			if err := e.ignore(); err != nil {
				return err
			}
			continue
		}
		e.peerName = reply.Name
		if reply.Code != '0' {
			e.broken = true
			return &match.Fault{Kind: match.Crash, Reason: fmt.Sprintf("engine refused the game: GAMEACC code %c (%s)", reply.Code, e.refusal(reply.Code, m.StartCustom))}
		}
		e.inGame, e.color, e.sent, e.moveSent = true, c, 0, false
		return nil
	}
}

// refusal says what a GAMEACC code other than 0 means, and for a game
// refused (code 2) what to look at: DXP carries no variant, so an engine
// set up for another one (the sparring engine without --variant, Scan for
// international) refuses a start position it cannot read, which an
// opening book gives every game.
func (e *Player) refusal(code byte, custom bool) string {
	switch code {
	case '1':
		return "it does not speak DXP version 1"
	case '2':
		what := "its colour or time"
		if custom {
			what = "its start position (the opening's), colour or time"
		}
		return fmt.Sprintf("it refuses this game: %s; DXP carries no variant, so check that the engine is set up for %s", what, e.v.Name())
	}
	return "it accepts no games"
}

// dxpTime converts a time control into GAMEREQ's thinking time (minutes,
// at least 1, rounded up: the first period's time) and number of moves,
// which is always 0 (no limit): engines read that field as the length of
// the game (Scan ends the game there with an unknown result, which would
// cost it the game here), while the referee owns both the clock and any
// move limit.
func dxpTime(tc arbiter.TimeControl) (minutes, moves int) {
	var total time.Duration
	switch {
	case len(tc.Periods) > 0:
		total = tc.Periods[0].Time
	case tc.PerMove > 0:
		// DXP has no per-move limit. Engines budget a game's time over
		// 20-40 moves, so ten moves' worth keeps their first thoughts well
		// inside the limit the referee enforces (if a whole minute, the
		// field's unit, is not already too much).
		total = 10 * tc.PerMove
	default:
		total = 999 * time.Minute
	}
	minutes = int((total + time.Minute - 1) / time.Minute)
	return min(max(minutes, 1), 999), 0
}

// TimeNote says how the engine's idea of its time, as GAMEREQ can tell it
// (whole minutes for the game, nothing else), differs from the clock the
// referee keeps, or returns "" when GAMEREQ tells it exactly. Callers show
// it before an event: an engine told more time than it has loses on time,
// and nothing in the protocol can warn it.
func TimeNote(tc arbiter.TimeControl) string {
	minutes, _ := dxpTime(tc)
	told := time.Duration(minutes) * time.Minute
	var notes []string
	switch {
	case tc.PerMove > 0:
		notes = append(notes, fmt.Sprintf("DXP cannot carry a limit per move: the engine is told %d min for the game and must keep to %v a move by itself", minutes, tc.PerMove))
	case len(tc.Periods) > 0:
		p := tc.Periods[0]
		if told > p.Time {
			notes = append(notes, fmt.Sprintf("DXP counts whole minutes: the engine is told %d min, but its clock holds %v; it may lose on time", minutes, p.Time))
		}
		if p.Moves > 0 {
			notes = append(notes, fmt.Sprintf("the engine is not told the period of %d moves (it budgets %d min for the whole game)", p.Moves, minutes))
		}
		if p.Increment > 0 || tc.Delay > 0 || tc.Bronstein > 0 {
			notes = append(notes, "DXP has no increment or delay: the engine budgets without it")
		}
	default:
		if tc.Depth > 0 || tc.Nodes > 0 {
			notes = append(notes, fmt.Sprintf("DXP cannot carry a depth or node limit: the engine is told %d min and searches as it likes", minutes))
		}
	}
	return strings.Join(notes, "; ")
}

// Play sends the GAMEREQ (first request of a game), takes back a refused
// move (BACKREQ), sends the opponent's moves, and waits for the engine's
// MOVE or GAMEEND.
func (e *Player) Play(ctx context.Context, req match.Request) (match.Reply, error) {
	var reply match.Reply
	if e.conn == nil || e.broken {
		return reply, &match.Fault{Kind: match.Crash, Reason: "no connection to the engine"}
	}
	// The rare waits (GAMEREQ once a game, BACKREQ after a refused move)
	// take the limit as their ctx's deadline, as their faults expect.
	bounded := func() (context.Context, context.CancelFunc) {
		if req.Limit.IsZero() {
			return ctx, func() {}
		}
		return context.WithDeadline(ctx, req.Limit)
	}
	if !e.inGame {
		bctx, cancel := bounded()
		err := e.gameReq(bctx, req.Start, req.Position.Turn())
		cancel()
		if err != nil {
			return reply, err
		}
	}
	if req.Retry && e.moveSent {
		// The engine's last move was refused: take it back.
		bctx, cancel := bounded()
		err := e.takeBack(bctx, req)
		cancel()
		if err != nil {
			return reply, err
		}
	}
	e.moveSent = false
	if e.sent > len(req.Moves) {
		e.sent = len(req.Moves)
	}
	for _, m := range req.Moves[e.sent:] {
		if err := e.send(MoveMessage(m, 0)); err != nil {
			return reply, err
		}
	}
	e.sent = len(req.Moves)
	sent := time.Now()
	var limit <-chan time.Time
	switch {
	case !req.Limit.IsZero():
		limit = e.arm(time.Until(req.Limit))
		defer e.limit.Stop()
	case req.Deadline.IsZero():
		limit = e.arm(e.opts.UntimedWait)
		defer e.limit.Stop()
	}
	e.ignored = 0
	for {
		msg, raw, err := e.nextUntil(ctx, limit)
		if err != nil {
			switch f, ok := match.AsFault(err); {
			case ok && f.Kind == match.Illegal:
				e.sent++ // the engine thinks it has moved: take it back on a retry
				e.moveSent = true
			case errors.Is(err, errSilent) && req.Deadline.IsZero():
				err = &match.Fault{Kind: match.Stall, Reason: fmt.Sprintf("no move within %v in a game without a clock (DXP has no liveness probe)", e.opts.UntimedWait), Err: context.DeadlineExceeded}
			case errors.Is(err, errSilent):
				err = flagFell()
			}
			return reply, err
		}
		switch msg.Type {
		case Move:
			reply.Text = raw
			reply.Latency = time.Since(sent)
			e.sent++
			e.moveSent = true
			m, err := req.Position.FindDXPMove(msg.From, msg.To, msg.Captured)
			if err != nil {
				return reply, &match.Fault{Kind: match.Illegal, Text: moveText(msg), Reason: "not a legal move for " + req.Position.Turn().Name() + " in " + req.Position.FEN(), Err: err}
			}
			reply.Move = m
			return reply, nil
		case GameEnd:
			e.inGame = false
			reply.Text = "DXP GAMEEND " + raw
			if err := e.send(Message{Type: GameEnd, Reason: '0', Stop: '0'}); err != nil {
				return reply, err
			}
			switch msg.Reason {
			case '2':
				reply.ClaimDraw = true
			case '3':
				reply.ClaimWin = true
			default: // 1 I lose, 0 no reason
				reply.Resign = true
			}
			return reply, nil
		default:
			e.elog.Line("warn", "unexpected message during the game, ignored")
			if err := e.ignore(); err != nil {
				return reply, err
			}
		}
	}
}

// arm starts the reused limit timer for d and returns its channel. Since Go
// 1.23 a Reset timer never delivers a value from before the Reset.
func (e *Player) arm(d time.Duration) <-chan time.Time {
	if e.limit == nil {
		e.limit = time.NewTimer(d)
	} else {
		e.limit.Reset(d)
	}
	return e.limit.C
}

func moveText(m Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d", m.From)
	sep := "-"
	if len(m.Captured) > 0 {
		sep = "x"
	}
	fmt.Fprintf(&b, "%s%d", sep, m.To)
	for _, c := range m.Captured {
		fmt.Fprintf(&b, "x%d", c)
	}
	return b.String()
}

// takeBack asks the engine to return to the current position with BACKREQ.
func (e *Player) takeBack(ctx context.Context, req match.Request) error {
	ply := len(req.Moves)
	number := ply
	if req.Start.Turn() != e.v.FirstPlayer() {
		number++
	}
	number = number/2 + 1
	if err := e.send(Message{Type: BackReq, MoveNumber: min(number, 999), ToMove: req.Position.Turn()}); err != nil {
		return err
	}
	outer := ctx
	ctx, cancel := context.WithTimeout(ctx, e.opts.ConnectTimeout)
	defer cancel()
	e.ignored = 0
	for {
		msg, raw, err := e.next(ctx)
		if err != nil {
			return silence(outer, err, "BACKACC in answer to BACKREQ", e.opts.ConnectTimeout)
		}
		if msg.Type != BackAcc {
			e.elog.Line("warn", "expected BACKACC, ignored")
			if err := e.ignore(); err != nil {
				return err
			}
			continue
		}
		if msg.Code != '0' {
			return &match.Fault{Kind: match.Illegal, Text: raw, Reason: fmt.Sprintf("the engine cannot take back its illegal move (BACKACC code %c), so it cannot move again", msg.Code)}
		}
		e.sent = ply
		return nil
	}
}

// EndGame sends GAMEEND (from the engine's opponent's point of view) and
// waits for the engine's GAMEEND in answer; an engine that ended the game
// itself has already been answered.
func (e *Player) EndGame(ctx context.Context, result arbiter.Result, as rules.Color) error {
	defer e.elog.EndGame()
	if !e.inGame || e.conn == nil || e.broken {
		e.inGame = false
		return nil
	}
	e.inGame = false
	reason := byte('0')
	switch result.Outcome {
	case rules.Draw:
		reason = '2'
	case rules.WinFor(as):
		reason = '1' // the arbiter, as the opponent, gives up
	case rules.WinFor(as.Opponent()):
		reason = '3'
	}
	if err := e.send(Message{Type: GameEnd, Reason: reason, Stop: '0'}); err != nil {
		return err
	}
	// The peer should answer with a GAMEEND, but some engines do not (or
	// only with an option set). Without an answer the connection is kept:
	// the next GAMEREQ skips a late one, and finds a dead engine.
	wctx, cancel := context.WithTimeout(ctx, gameEndWait)
	defer cancel()
	e.ignored = 0
	for {
		msg, _, err := e.next(wctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			if errors.Is(err, errSilent) && ctx.Err() == nil {
				e.broken = false
				e.log.Warn().Dur("waited", gameEndWait).Msg("no GAMEEND in answer; the connection is kept for the next game")
				return nil
			}
			return fmt.Errorf("dxp: no GAMEEND in answer: %w", err)
		}
		if msg.Type == GameEnd {
			e.broken = false // an answer in time keeps the connection usable
			return nil
		}
		if err := e.ignore(); err != nil {
			return fmt.Errorf("dxp: no GAMEEND in answer: %w", err)
		}
	}
}

// gameEndWait is how long EndGame waits for the engine's answering GAMEEND.
const gameEndWait = 2 * time.Second

// Close ends the session (GAMEEND with stop code 1), closes the connection
// and the listener, and stops a started engine (killing it after QuitGrace).
func (e *Player) Close() error {
	if e.conn != nil {
		if !e.broken {
			s, _ := Message{Type: GameEnd, Reason: '0', Stop: '1'}.Encode()
			e.logMsg(">", s)
			e.conn.SetWriteDeadline(time.Now().Add(200 * time.Millisecond))
			io.WriteString(e.conn, s+"\x00")
		}
		e.conn.Close()
		for range e.msgs {
		}
		e.conn = nil
	}
	if e.ln != nil {
		e.ln.Close()
		e.ln = nil
	}
	if e.p != nil {
		err := e.p.Stop(e.opts.QuitGrace)
		e.log.Info().AnErr("exit", err).Msg("stopped")
		e.p = nil
	}
	e.inGame = false
	return nil
}
