package dxp

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/enginelog"
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
	misbehave
}

// misbehave lists what a follower does besides playing.
type misbehave struct {
	ownGameReq bool // send a GAMEREQ of its own on connecting (as an initiator would)
	backReq    bool // send a BACKREQ before its first move
	refuse     byte // answer GAMEREQ with this GAMEACC code (0 = accept)
	silent     bool // never answer GAMEREQ
	chat       int  // send this many CHAT messages before each move
	mute       bool // accept the game, never move
}

func startFollower(t *testing.T, v *rules.Variant, mb ...misbehave) *follower {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &follower{ln: ln, conns: make(chan struct{}, 8), msgs: make(chan Message, 4096)}
	if len(mb) > 0 {
		f.misbehave = mb[0]
	}
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
	if f.ownGameReq && !send(Message{Type: GameReq, Version: 1, Name: "follower", Follower: rules.Black, Minutes: 5}) {
		return
	}
	backReq := f.backReq
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
			if f.silent {
				continue
			}
			if f.refuse != 0 {
				if !send(Message{Type: GameAcc, Name: "follower", Code: f.refuse}) {
					return
				}
				continue
			}
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
		case BackAcc:
			// The answer to our BACKREQ: move now.
		default:
			continue // GAMEEND: deliberately no answer
		}
		if pos.Turn() == mine && !f.mute {
			if backReq {
				backReq = false
				if !send(Message{Type: BackReq, MoveNumber: 1, ToMove: rules.White}) {
					return
				}
				continue // moves once the arbiter's BACKACC has come
			}
			for range f.chat {
				if !send(Message{Type: Chat, Text: "thinking"}) {
					return
				}
			}
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
		res := arbiter.Result{Outcome: rules.Draw, Termination: arbiter.DrawAgreement}
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

// playOne starts a game against f with the engine as white and asks for its
// first move.
func playOne(t *testing.T, f *follower, opts Options) (match.Reply, error) {
	t.Helper()
	v := rules.MustLookup("international")
	opts.Addr = f.ln.Addr().String()
	if opts.ConnectTimeout == 0 {
		opts.ConnectTimeout = 5 * time.Second
	}
	e := New(opts)
	t.Cleanup(func() { e.Close() })
	tc, _ := arbiter.ParseTimeControl("60+1")
	ctx := context.Background()
	start := rules.NewPosition(v)
	if err := e.NewGameAs(ctx, v, start, tc, rules.White); err != nil {
		return match.Reply{}, err
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return e.Play(pctx, match.Request{Start: start, Position: start, Deadline: time.Now().Add(8 * time.Second)})
}

// A DXP player enforces Request.Limit itself (a match.LimitPlayer: PlayGame
// gives it the game's ctx, with no deadline made per move): an engine that
// never moves loses on time at the limit with a ctx that never ends.
func TestPlayStopsAtTheLimit(t *testing.T) {
	v := rules.MustLookup("international")
	f := startFollower(t, v, misbehave{mute: true})
	e := New(Options{Addr: f.ln.Addr().String(), ConnectTimeout: 5 * time.Second})
	t.Cleanup(func() { e.Close() })
	var p match.Player = e
	if _, ok := p.(match.LimitPlayer); !ok {
		t.Fatal("the DXP player does not enforce Request.Limit")
	}
	tc, _ := arbiter.ParseTimeControl("60+1")
	start := rules.NewPosition(v)
	if err := e.NewGameAs(context.Background(), v, start, tc, rules.White); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := e.Play(context.Background(), match.Request{Start: start, Position: start,
			Deadline: now.Add(200 * time.Millisecond), Limit: now.Add(400 * time.Millisecond)})
		done <- err
	}()
	select {
	case err := <-done:
		if f, ok := match.AsFault(err); !ok || f.Kind != match.Timeout {
			t.Errorf("Play: %v, want a time forfeit", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Play did not stop at Request.Limit")
	}
}

// The README: "A GAMEREQ from an engine that initiates anyway is logged and
// ignored". The arbiter answers it with nothing, and the game goes on.
func TestEnginesOwnGameReqIsIgnored(t *testing.T) {
	f := startFollower(t, rules.MustLookup("international"), misbehave{ownGameReq: true})
	var log strings.Builder
	reply, err := playOne(t, f, Options{Log: zerolog.New(&log)})
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	if reply.Move.From == 0 {
		t.Errorf("no move: %+v", reply)
	}
	if !strings.Contains(log.String(), "expected GAMEACC, ignored") {
		t.Errorf("the engine's GAMEREQ was not logged as ignored:\n%s", log.String())
	}
	for len(f.msgs) > 0 {
		if m := <-f.msgs; m.Type == GameAcc {
			t.Errorf("the arbiter answered the engine's GAMEREQ with %+v", m)
		}
	}
}

// Take-backs are for human play: an engine's BACKREQ is refused (BACKACC
// code 2) and the game goes on.
func TestEnginesBackReqIsRefused(t *testing.T) {
	f := startFollower(t, rules.MustLookup("international"), misbehave{backReq: true})
	reply, err := playOne(t, f, Options{})
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	if reply.Move.From == 0 {
		t.Errorf("no move: %+v", reply)
	}
	var acks []byte
	for len(f.msgs) > 0 {
		if m := <-f.msgs; m.Type == BackAcc {
			acks = append(acks, m.Code)
		}
	}
	if string(acks) != "2" {
		t.Errorf("BACKACC codes %q, want one refusal \"2\"", acks)
	}
}

// An engine that refuses the game or never answers GAMEREQ fails its start
// (NewGameAs), with a reason naming the code or the start-up timeout.
func TestGameReqRefusedOrUnanswered(t *testing.T) {
	tests := []struct {
		name string
		mb   misbehave
		// timeout is the start-up timeout: short where it must run out,
		// generous where the answer must come first on a loaded machine.
		timeout time.Duration
		kind    match.FaultKind
		want    string
	}{
		{"refused", misbehave{refuse: '2'}, time.Minute, match.Crash, "engine refused the game: GAMEACC code 2 (it refuses this game: its colour or time; DXP carries no variant, so check that the engine is set up for international)"},
		{"wrong version", misbehave{refuse: '1'}, time.Minute, match.Crash, "does not speak DXP version 1"},
		{"silent", misbehave{silent: true}, 700 * time.Millisecond, match.Stall, "no GAMEACC in answer to GAMEREQ within 700ms (the start-up timeout, init=)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := startFollower(t, rules.MustLookup("international"), tt.mb)
			_, err := playOne(t, f, Options{ConnectTimeout: tt.timeout})
			fault, ok := match.AsFault(err)
			if !ok || fault.Kind != tt.kind || !strings.Contains(fault.Reason, tt.want) {
				t.Errorf("err = %v, want a %s fault saying %q", err, tt.kind, tt.want)
			}
		})
	}
}

// A flood of CHAT is bounded: past maxIgnored messages without a move the
// engine is faulted (and a few CHATs are no fault at all).
func TestChatFlood(t *testing.T) {
	few := startFollower(t, rules.MustLookup("international"), misbehave{chat: 10})
	if _, err := playOne(t, few, Options{}); err != nil {
		t.Errorf("10 CHATs before a move: %v", err)
	}
	flood := startFollower(t, rules.MustLookup("international"), misbehave{chat: maxIgnored + 10})
	_, err := playOne(t, flood, Options{})
	if f, ok := match.AsFault(err); !ok || f.Kind != match.Stall || !strings.Contains(f.Reason, "without the answer awaited") {
		t.Errorf("a flood of CHAT: err = %v, want a stall naming the flood", err)
	}
}

// A CHAT flood within the bound on skipped messages is not a fault, but it
// must not fill the engine log: the log is capped per game (package
// enginelog), says so, and keeps the end of the output.
func TestChatFloodLogIsCapped(t *testing.T) {
	f := startFollower(t, rules.MustLookup("international"), misbehave{chat: maxIgnored - 10})
	var log strings.Builder
	const cap = 16 << 10
	if _, err := playOne(t, f, Options{Log: zerolog.New(&log), LogLimits: enginelog.Limits{Game: cap}}); err != nil {
		t.Fatalf("%d CHATs before a move: %v", maxIgnored-10, err)
	}
	out := log.String()
	if !strings.Contains(out, "this game's cap is reached") {
		t.Errorf("the log does not say its cap was reached:\n%.2000s", out)
	}
	if n := strings.Count(out, "thinking"); n == 0 || n > 400 {
		t.Errorf("the log holds %d of the %d CHAT lines, want some and at most a capped share", n, maxIgnored-10)
	}
	if len(out) > 4*cap {
		t.Errorf("the log is %d bytes, want about the %d-byte cap", len(out), cap)
	}
}

// A peer that sends no NUL at all is cut off after MaxSkip bytes with a
// reason, instead of keeping the reader busy until the flag falls.
func TestNoNULStream(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		junk := []byte(strings.Repeat("A", 4096))
		for {
			c.SetWriteDeadline(time.Now().Add(5 * time.Second))
			if _, err := c.Write(junk); err != nil {
				return
			}
		}
	}()
	e := New(Options{Addr: ln.Addr().String(), ConnectTimeout: 5 * time.Second})
	t.Cleanup(func() { e.Close() })
	v := rules.MustLookup("international")
	tc, _ := arbiter.ParseTimeControl("60+1")
	err = e.NewGameAs(context.Background(), v, rules.NewPosition(v), tc, rules.White)
	if f, ok := match.AsFault(err); !ok || f.Kind != match.Crash || !errors.Is(err, ErrNoNUL) {
		t.Errorf("err = %v, want a crash wrapping ErrNoNUL", err)
	}
}

// An address that already answers before our engine is started is an
// error naming it (an orphan of a killed run would otherwise be played
// against), and the engine is not started.
func TestAddressAlreadyAnswering(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	marker := filepath.Join(t.TempDir(), "started")
	addr := ln.Addr().String()
	e := New(Options{Addr: addr, ConnectTimeout: 2 * time.Second, Command: []string{"/bin/sh", "-c", "touch " + marker}})
	t.Cleanup(func() { e.Close() })
	v := rules.MustLookup("international")
	tc, _ := arbiter.ParseTimeControl("60+1")
	err = e.NewGameAs(context.Background(), v, rules.NewPosition(v), tc, rules.White)
	if err == nil || !strings.Contains(err.Error(), "something already answers at "+addr) {
		t.Fatalf("err = %v, want one naming %s", err, addr)
	}
	if _, ok := match.AsFault(err); ok {
		t.Errorf("err is an engine fault, want an error the engine is not to blame for: %v", err)
	}
	if _, serr := os.Stat(marker); serr == nil {
		t.Error("the engine was started anyway")
	}
	// Once the address is free, the same player starts its engine.
	ln.Close()
	err = e.NewGameAs(context.Background(), v, rules.NewPosition(v), tc, rules.White)
	if _, serr := os.Stat(marker); serr != nil {
		t.Errorf("with the address free the engine was not started: %v (NewGameAs: %v)", serr, err)
	}
}
