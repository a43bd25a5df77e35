package sparring

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/dxp"
	"github.com/draughts-arbiter/arbiter/rules"
)

// DXPOptions tune the DXP front end.
type DXPOptions struct {
	// SlowTime is how long a slow-at fault thinks in DXP, which has no stop
	// message (default: the game's thinking time plus 2s).
	SlowTime time.Duration
}

// ServeDXP plays DXP as the Follower on conn: it answers GAMEREQ with
// GAMEACC, exchanges MOVE messages, acknowledges GAMEEND, honours BACKREQ and
// ignores CHAT, game after game, until a GAMEEND with stop code 1 (nil) or
// the end of the connection (io.EOF). The variant is Config.Variant (DXP has no variant
// field). Faults fire as in ServeHub; garbage is a message of an unknown
// type, a hang stops reading. A write that fails ends it with the error.
func ServeDXP(conn net.Conn, cfg Config, opts DXPOptions) error {
	e := newEngine(cfg)
	v := e.cfg.Variant
	msgs := make(chan string, 16)
	eof := make(chan struct{}) // closed when the connection ends
	go func() {
		defer close(eof)
		defer close(msgs)
		br := bufio.NewReader(conn)
		for {
			s, err := dxp.ReadMessage(br)
			if err != nil && s == "" {
				return
			}
			msgs <- s
		}
	}()
	d := &dxpWire{conn: conn, opts: opts, eof: eof}
	send := d.send
	for raw := range msgs {
		msg, err := dxp.Parse(raw)
		if err != nil {
			if err := send(dxp.Message{Type: dxp.Chat, Text: "error: cannot read your message"}); err != nil {
				return err
			}
			continue
		}
		var err2 error
		switch msg.Type {
		case dxp.GameReq:
			if msg.Version != 1 {
				err2 = send(dxp.Message{Type: dxp.GameAcc, Name: e.cfg.Name, Code: '1'})
				break
			}
			start := rules.NewPosition(v)
			if msg.StartCustom {
				p, err := dxp.ParsePosition(v, msg.ToMove, msg.Position)
				if err != nil {
					err2 = send(dxp.Message{Type: dxp.GameAcc, Name: e.cfg.Name, Code: '2'})
					break
				}
				start = p
			}
			e.newGame()
			d.playing, d.side, d.minutes = true, msg.Follower, msg.Minutes
			d.used, d.moved, d.maxMoves = 0, 0, msg.MaxMoves
			d.history = []rules.Position{start}
			if err2 = send(dxp.Message{Type: dxp.GameAcc, Name: e.cfg.Name, Code: '0'}); err2 == nil {
				err2 = d.turn(e)
			}
		case dxp.Move:
			if !d.playing || d.pos().Turn() == d.side {
				err2 = send(dxp.Message{Type: dxp.Chat, Text: "error: move out of turn"})
				break
			}
			m, err := d.pos().FindDXPMove(msg.From, msg.To, msg.Captured)
			if err != nil {
				d.playing = false
				if err2 = send(dxp.Message{Type: dxp.Chat, Text: "error: illegal move " + fmt.Sprint(msg.From, "-", msg.To)}); err2 == nil {
					err2 = send(dxp.Message{Type: dxp.GameEnd, Reason: '0', Stop: '0'})
				}
				break
			}
			d.history = append(d.history, d.pos().Play(m))
			err2 = d.turn(e)
		case dxp.GameEnd:
			if d.playing {
				d.playing = false
				err2 = send(dxp.Message{Type: dxp.GameEnd, Reason: '0', Stop: msg.Stop})
			}
			if err2 == nil && msg.Stop == '1' {
				return nil
			}
		case dxp.BackReq:
			ply := -1
			if d.playing {
				ply = backPly(v, d.history[0], msg.MoveNumber, msg.ToMove)
			}
			if ply < 0 || ply >= len(d.history) || d.history[ply].Turn() != msg.ToMove {
				err2 = send(dxp.Message{Type: dxp.BackAcc, Code: '2'})
				break
			}
			d.history = d.history[:ply+1]
			if err2 = send(dxp.Message{Type: dxp.BackAcc, Code: '0'}); err2 == nil {
				err2 = d.turn(e)
			}
		case dxp.Chat, dxp.GameAcc, dxp.BackAcc:
			// Chat is ignored; acceptances only answer our own requests.
		}
		if err2 != nil {
			return err2
		}
	}
	return io.EOF
}

// dxpWire is the DXP front end of answer, and the game the follower plays.
type dxpWire struct {
	conn    net.Conn
	opts    DXPOptions
	eof     <-chan struct{}
	playing bool
	side    rules.Color
	history []rules.Position // positions of the game, the current one last
	minutes int              // GAMEREQ's thinking time for the game
	// The clock the follower keeps for itself: DXP sends none with a move,
	// so the engine counts the time its own moves took (used, moved) against
	// GAMEREQ's minutes for maxMoves moves (0: the whole game), and a search
	// stops at end, as a Hub search stops at its share of the clock.
	used     time.Duration
	moved    int
	maxMoves int
	end      time.Time
}

func (d *dxpWire) pos() rules.Position { return d.history[len(d.history)-1] }

func (d *dxpWire) send(m dxp.Message) error {
	s, err := m.Encode()
	if err != nil {
		return err
	}
	return d.write(s)
}

func (d *dxpWire) write(s string) error {
	if _, err := io.WriteString(d.conn, s+"\x00"); err != nil {
		return fmt.Errorf("sparring: writing to the DXP initiator: %w", err)
	}
	return nil
}

// turn answers if it is our turn in a game, within its share of the time
// left (a deep level searching to its full depth in an ending of kings
// would overstep the game's minutes).
func (d *dxpWire) turn(e *engine) error {
	if !d.playing || d.pos().Turn() != d.side {
		return nil
	}
	start := time.Now()
	d.end = time.Time{}
	if b := timeBudget(d.level()); b > 0 {
		d.end = start.Add(b)
	}
	err := e.answer(d.pos(), d)
	d.used += time.Since(start)
	d.moved++
	return err
}

// level is the clock the follower's next search has: the game's minutes
// less the time its moves took, for the moves left of GAMEREQ's number
// (none given: the engine's own guess). Zero minutes: no clock.
func (d *dxpWire) level() match.Level {
	if d.minutes <= 0 {
		return match.Level{}
	}
	// Never no time at all: that would read as no clock.
	lv := match.Level{Time: max(time.Duration(d.minutes)*time.Minute-d.used, time.Millisecond)}
	if d.maxMoves > 0 {
		lv.MovesToGo = max(d.maxMoves-d.moved, 1)
	}
	return lv
}

func (d *dxpWire) move(p rules.Position, m rules.Move, _ int, thought time.Duration) error {
	d.history = append(d.history, p.Play(m))
	return d.send(dxp.MoveMessage(m, int(thought.Seconds())))
}

// noMove ends the game: we lose (win, in a losing variant).
func (d *dxpWire) noMove(p rules.Position) error {
	reason := byte('1') // I lose
	if p.Variant().NoMoveOutcome(p.Turn()) == rules.WinFor(p.Turn()) {
		reason = '3' // I win
	}
	d.playing = false
	return d.send(dxp.Message{Type: dxp.GameEnd, Reason: reason, Stop: '0'})
}

func (d *dxpWire) garbage() error { return d.write("Xgarbage") }

// hang: the server returns ErrHang and stops reading.
func (d *dxpWire) hang() {}

// interrupted: DXP has no stop; a search ends by itself, at the latest
// at its share of the time left.
func (d *dxpWire) interrupted() bool { return !d.end.IsZero() && time.Now().After(d.end) }

// slow: DXP has no stop message; the wait ends with the connection.
func (d *dxpWire) slow() {
	t := d.opts.SlowTime
	if t <= 0 {
		t = time.Duration(d.minutes)*time.Minute + 2*time.Second
	}
	timer := time.NewTimer(t)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-d.eof:
	}
}

// backPly converts a DXP BACKREQ (move number, colour to move) into the ply
// index from start: move N starts with the variant's first player.
func backPly(v *rules.Variant, start rules.Position, number int, toMove rules.Color) int {
	ply := (number - 1) * 2
	if toMove != v.FirstPlayer() {
		ply++
	}
	if start.Turn() != v.FirstPlayer() {
		ply--
	}
	return ply
}

// ListenDXP accepts Initiators on addr one connection at a time and serves
// each with ServeDXP; it returns (and the engine exits) after a GAMEEND with
// stop code 1, as Scan does.
// ready, if not nil, receives the listening address.
func ListenDXP(addr string, cfg Config, opts DXPOptions, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("sparring: dxp listen: %w", err)
	}
	defer ln.Close()
	if ready != nil {
		ready(ln.Addr())
	}
	for {
		conn, err := ln.Accept()
		if err != nil {
			return fmt.Errorf("sparring: dxp accept: %w", err)
		}
		err = ServeDXP(conn, cfg, opts)
		switch err {
		case ErrHang, ErrCrash:
			return err // the connection stays open for a hang; the caller exits or sleeps
		case nil:
			conn.Close()
			return nil
		}
		conn.Close()
	}
}

// ConnectDXP dials addr (retrying for up to timeout while nobody listens)
// and serves the connection with ServeDXP.
func ConnectDXP(addr string, timeout time.Duration, cfg Config, opts DXPOptions) error {
	deadline := time.Now().Add(timeout)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			err = ServeDXP(conn, cfg, opts)
			if err != ErrHang {
				conn.Close()
			}
			if err == io.EOF {
				return nil
			}
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sparring: dxp connect %s: %w", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
