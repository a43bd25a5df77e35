package sparring

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/draughts-arbiter/arbiter/match/dxp"
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
// type, a hang stops reading.
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
	send := func(m dxp.Message) error {
		s, err := m.Encode()
		if err != nil {
			return err
		}
		_, err = io.WriteString(conn, s+"\x00")
		return err
	}
	var (
		playing bool
		side    rules.Color
		history []rules.Position // positions of the game, the current one last
		minutes int
	)
	pos := func() rules.Position { return history[len(history)-1] }
	// move plays our move if it is our turn; the game ends when we cannot.
	move := func() error {
		if !playing || pos().Turn() != side {
			return nil
		}
		p := pos()
		if !p.HasMoves() {
			reason := byte('1') // I lose
			if v.Losing() {
				reason = '3'
			}
			playing = false
			return send(dxp.Message{Type: dxp.GameEnd, Reason: reason, Stop: '0'})
		}
		e.requests++
		start := time.Now()
		fault, _ := faultAt(e.cfg.Faults, e.requests)
		switch fault {
		case CrashAt:
			return ErrCrash
		case HangAt:
			return ErrHang
		case GarbageAt:
			_, err := io.WriteString(conn, "Xgarbage\x00")
			return err
		case IllegalAt:
			if m, ok := IllegalMove(p); ok {
				history = append(history, p.Play(m))
				return send(dxp.MoveMessage(m, 0))
			}
		case SlowAt:
			d := opts.SlowTime
			if d <= 0 {
				d = time.Duration(minutes)*time.Minute + 2*time.Second
			}
			select {
			case <-time.After(d):
			case <-eof:
			}
		}
		m := Choose(p, e.cfg.Level, e.rngFor(p))
		history = append(history, p.Play(m))
		return send(dxp.MoveMessage(m, int(time.Since(start).Seconds())))
	}
	for raw := range msgs {
		msg, err := dxp.Parse(raw)
		if err != nil {
			send(dxp.Message{Type: dxp.Chat, Text: "error: cannot read your message"})
			continue
		}
		switch msg.Type {
		case dxp.GameReq:
			if msg.Version != 1 {
				if err := send(dxp.Message{Type: dxp.GameAcc, Name: e.cfg.Name, Code: '1'}); err != nil {
					return err
				}
				continue
			}
			start := rules.NewPosition(v)
			if msg.StartCustom {
				p, err := dxp.ParsePosition(v, msg.ToMove, msg.Position)
				if err != nil {
					if err := send(dxp.Message{Type: dxp.GameAcc, Name: e.cfg.Name, Code: '2'}); err != nil {
						return err
					}
					continue
				}
				start = p
			}
			e.newGame()
			playing, side, minutes = true, msg.Follower, msg.Minutes
			history = []rules.Position{start}
			if err := send(dxp.Message{Type: dxp.GameAcc, Name: e.cfg.Name, Code: '0'}); err != nil {
				return err
			}
			if err := move(); err != nil {
				return err
			}
		case dxp.Move:
			if !playing || pos().Turn() == side {
				send(dxp.Message{Type: dxp.Chat, Text: "error: move out of turn"})
				continue
			}
			m, err := pos().FindDXPMove(msg.From, msg.To, msg.Captured)
			if err != nil {
				send(dxp.Message{Type: dxp.Chat, Text: "error: illegal move " + fmt.Sprint(msg.From, "-", msg.To)})
				playing = false
				send(dxp.Message{Type: dxp.GameEnd, Reason: '0', Stop: '0'})
				continue
			}
			history = append(history, pos().Play(m))
			if err := move(); err != nil {
				return err
			}
		case dxp.GameEnd:
			if playing {
				playing = false
				if err := send(dxp.Message{Type: dxp.GameEnd, Reason: '0', Stop: msg.Stop}); err != nil {
					return err
				}
			}
			if msg.Stop == '1' {
				return nil
			}
		case dxp.BackReq:
			if !playing {
				send(dxp.Message{Type: dxp.BackAcc, Code: '2'})
				continue
			}
			ply := backPly(v, history[0], msg.MoveNumber, msg.ToMove)
			if ply < 0 || ply >= len(history) || history[ply].Turn() != msg.ToMove {
				if err := send(dxp.Message{Type: dxp.BackAcc, Code: '2'}); err != nil {
					return err
				}
				continue
			}
			history = history[:ply+1]
			if err := send(dxp.Message{Type: dxp.BackAcc, Code: '0'}); err != nil {
				return err
			}
			if err := move(); err != nil {
				return err
			}
		case dxp.Chat, dxp.GameAcc, dxp.BackAcc:
			// Chat is ignored; acceptances only answer our own requests.
		}
	}
	return io.EOF
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
