package dxp

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/rules"
)

// follower is a minimal DXP follower on a real socket (a test double for an
// engine): it accepts every GAMEREQ, answers each request with the first
// legal move, and never answers GAMEEND. It reports each connection and each
// message it reads.
type follower struct {
	ln    net.Listener
	conns chan struct{}
	msgs  chan Message
}

func startFollower(t *testing.T, v *rules.Variant) *follower {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &follower{ln: ln, conns: make(chan struct{}, 8), msgs: make(chan Message, 64)}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.conns <- struct{}{}
			go f.serve(c, v)
		}
	}()
	return f
}

func (f *follower) serve(c net.Conn, v *rules.Variant) {
	defer c.Close()
	br := bufio.NewReader(c)
	send := func(m Message) bool {
		s, err := m.Encode()
		if err != nil {
			return false
		}
		_, err = c.Write([]byte(s + "\x00"))
		return err == nil
	}
	var pos rules.Position
	var mine rules.Color
	for {
		raw, err := ReadMessage(br)
		if err != nil {
			return
		}
		m, err := Parse(raw)
		if err != nil {
			return
		}
		f.msgs <- m
		switch m.Type {
		case GameReq:
			pos, mine = rules.NewPosition(v), m.Follower
			if !send(Message{Type: GameAcc, Name: "follower", Code: '0'}) {
				return
			}
		case Move:
			mv, err := pos.FindDXPMove(m.From, m.To, m.Captured)
			if err != nil {
				return
			}
			pos = pos.Play(mv)
		default:
			continue // GAMEEND: deliberately no answer
		}
		if pos.Turn() == mine {
			mv := pos.LegalMoves()[0]
			pos = pos.Play(mv)
			if !send(MoveMessage(mv, 0)) {
				return
			}
		}
	}
}

// An engine that does not answer GAMEEND keeps its connection: EndGame
// returns after a short wait, and the next game's GAMEREQ goes over the same
// connection (no reconnect, which a single-connection engine would refuse).
func TestGameEndWithoutAnswerKeepsTheConnection(t *testing.T) {
	v := rules.MustLookup("international")
	f := startFollower(t, v)
	e := New(Options{Addr: f.ln.Addr().String(), ConnectTimeout: 5 * time.Second})
	t.Cleanup(func() { e.Close() })
	tc, err := arbiter.ParseTimeControl("60+1")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for game := 1; game <= 2; game++ {
		if err := e.NewGame(ctx, v, rules.NewPosition(v), tc); err != nil {
			t.Fatalf("game %d: NewGame: %v", game, err)
		}
		start := rules.NewPosition(v)
		reply, err := e.Play(ctx, match.Request{Start: start, Position: start, Deadline: time.Now().Add(10 * time.Second)})
		if err != nil {
			t.Fatalf("game %d: Play: %v", game, err)
		}
		if want := start.LegalMoves()[0]; reply.Move.From != want.From || reply.Move.To != want.To {
			t.Fatalf("game %d: move %v, want %v", game, reply.Move, want)
		}
		t0 := time.Now()
		res := arbiter.Result{Outcome: arbiter.Draw, Termination: arbiter.DrawAgreement}
		if err := e.EndGame(ctx, res, rules.White); err != nil {
			t.Fatalf("game %d: EndGame: %v", game, err)
		}
		if waited := time.Since(t0); waited > gameEndWait+time.Second {
			t.Errorf("game %d: EndGame took %v", game, waited)
		}
	}
	if n := len(f.conns); n != 1 {
		t.Errorf("%d connections, want 1 for both games", n)
	}
	var reqs, ends int
	for len(f.msgs) > 0 {
		switch (<-f.msgs).Type {
		case GameReq:
			reqs++
		case GameEnd:
			ends++
		}
	}
	if reqs != 2 || ends != 2 {
		t.Errorf("the follower read %d GAMEREQ and %d GAMEEND, want 2 and 2", reqs, ends)
	}
}

// GAMEREQ never limits the number of moves: engines take that field as the
// game's length and end the game there (Scan with an unknown result).
func TestGameReqSendsNoMoveLimit(t *testing.T) {
	for _, text := range []string{"40/7200:3600+60", "300+2", "move=5", "depth=8"} {
		tc, err := arbiter.ParseTimeControl(text)
		if err != nil {
			t.Fatal(err)
		}
		minutes, moves := dxpTime(tc)
		if moves != 0 || minutes < 1 || minutes > 999 {
			t.Errorf("%s: minutes %d, moves %d; want 1..999 and 0", text, minutes, moves)
		}
	}
	tc, _ := arbiter.ParseTimeControl("40/7200:3600+60")
	if minutes, _ := dxpTime(tc); minutes != 120 {
		t.Errorf("40/7200: %d minutes, want 120 (the first period)", minutes)
	}
	// A fixed 30 s a move: ten moves' worth, 5 minutes.
	tc, _ = arbiter.ParseTimeControl("move=30")
	if minutes, _ := dxpTime(tc); minutes != 5 {
		t.Errorf("move=30: %d minutes, want 5", minutes)
	}
}

// TimeNote names every way GAMEREQ's whole minutes misstate the clock, and
// nothing when they state it exactly.
func TestTimeNote(t *testing.T) {
	tests := []struct {
		tc   string
		want []string // substrings; none = no note
	}{
		{"300", nil},
		{"3600", nil},
		{"10+0.1", []string{"told 1 min, but its clock holds 10s; it may lose on time", "no increment"}},
		{"90", []string{"told 2 min, but its clock holds 1m30s"}},
		{"300+2", []string{"no increment"}},
		{"40/7200:3600+60", []string{"period of 40 moves"}},
		{"move=1", []string{"limit per move", "told 1 min", "1s a move"}},
		{"depth=8", []string{"depth or node limit", "told 999 min"}},
	}
	for _, tt := range tests {
		tc, err := arbiter.ParseTimeControl(tt.tc)
		if err != nil {
			t.Fatal(err)
		}
		note := TimeNote(tc)
		if len(tt.want) == 0 && note != "" {
			t.Errorf("%s: note %q, want none", tt.tc, note)
		}
		for _, w := range tt.want {
			if !strings.Contains(note, w) {
				t.Errorf("%s: note %q lacks %q", tt.tc, note, w)
			}
		}
	}
}
