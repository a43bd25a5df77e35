package sparring

import (
	"bufio"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/dxp"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/rules"
)

func TestParseLevel(t *testing.T) {
	for in, want := range map[string]Level{"random": Random, "greedy": Greedy, "3": {3}, "": Random, "Greedy": Greedy} {
		got, err := ParseLevel(in)
		if err != nil || got != want {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "21", "-1", "fast"} {
		if _, err := ParseLevel(in); err == nil {
			t.Errorf("ParseLevel(%q) accepted", in)
		}
	}
}

func TestParseFaults(t *testing.T) {
	got, err := ParseFaults("crash-at=3, illegal-at=1,slow-at=2")
	want := []Fault{{CrashAt, 3}, {IllegalAt, 1}, {SlowAt, 2}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("ParseFaults = %v, %v", got, err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("fault %d = %v, want %v", i, got[i], want[i])
		}
	}
	for _, in := range []string{"crash", "crash-at=0", "boom-at=1", "crash=1", "hang-at=x"} {
		if _, err := ParseFaults(in); err == nil {
			t.Errorf("ParseFaults(%q) accepted", in)
		}
	}
}

// Random games in every preset: Choose always returns a legal move and
// IllegalMove never does.
func TestChooseLegalIllegalMoveIllegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range rules.Presets() {
		v := rules.MustLookup(name)
		for _, lv := range []Level{Random, Greedy, {2}} {
			p := rules.NewPosition(v)
			for ply := 0; ply < 60 && p.HasMoves(); ply++ {
				if m, ok := IllegalMove(p); ok {
					if _, legal := p.Find(m.From, m.To, m.Captured); legal {
						t.Fatalf("%s: IllegalMove %v is legal in %s", name, m, p.FEN())
					}
				}
				m := Choose(p, lv, rng)
				if _, legal := p.Find(m.From, m.To, m.Captured); !legal {
					t.Fatalf("%s level %v: Choose %v is illegal in %s", name, lv, m, p.FEN())
				}
				p = p.Play(m)
			}
		}
	}
}

// Greedy takes the most material; losing variants invert the goal. In
// W:W27,30:B14,23,25 (English board) White must capture and has two ways:
// 27x18x9 takes 23 and 14, 30x21 takes 25 alone (found by hand on the
// numbered board, not by the code under test). Greedy takes two pieces in
// English checkers and one in giveaway, where material is to be lost.
func TestGreedyPrefersMaterial(t *testing.T) {
	for _, tt := range []struct {
		variant  string
		from, to rules.Square
	}{
		{"english", 27, 9},
		{"giveaway", 30, 21},
	} {
		p, err := rules.ParseFEN(rules.MustLookup(tt.variant), "W:W27,30:B14,23,25")
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(8) { // whatever the tie-break seed
			m := Choose(p, Greedy, rand.New(rand.NewPCG(seed, 4)))
			if m.From != tt.from || m.To != tt.to {
				t.Errorf("%s seed %d: greedy chose %s, want %dx%d", tt.variant, seed, rules.HubMove(m), tt.from, tt.to)
			}
		}
	}
}

// errWriter fails every write, as a GUI that closed the engine's output.
type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// A failed write ends ServeHub with the error, whichever line it was (the
// handshake, or a pong written by the reading goroutine).
func TestServeHubWriteError(t *testing.T) {
	for _, in := range []string{"hub\n", "ping\n", "ping\nhub\nisready\n"} {
		err := ServeHub(strings.NewReader(in), errWriter{}, Config{})
		if !errors.Is(err, io.ErrClosedPipe) || !strings.Contains(err.Error(), "writing to the GUI") {
			t.Errorf("input %q: err = %v, want the write error", in, err)
		}
	}
}

// failConn is a connection whose writes fail (the initiator went away).
type failConn struct{ net.Conn }

func (failConn) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// A failed write ends ServeDXP with the error: the GAMEACC, or the CHAT
// that answers garbage.
func TestServeDXPWriteError(t *testing.T) {
	for _, first := range []dxp.Message{
		{Type: dxp.GameReq, Version: 1, Name: "arbiter", Follower: rules.White, Minutes: 5},
		{Type: dxp.GameReq, Version: 2, Name: "arbiter", Follower: rules.White, Minutes: 5}, // refused: version
		{Type: dxp.Chat, Text: "hello"},
	} {
		ours, theirs := net.Pipe()
		errc := make(chan error, 1)
		go func() { errc <- ServeDXP(failConn{ours}, Config{}, DXPOptions{}) }()
		s, err := first.Encode()
		if err != nil {
			t.Fatal(err)
		}
		// Garbage after the message: its CHAT answer must fail too.
		io.WriteString(theirs, s+"\x00Xjunk\x00")
		select {
		case err := <-errc:
			if first.Type != dxp.Chat && (!errors.Is(err, io.ErrClosedPipe) || !strings.Contains(err.Error(), "writing to the DXP initiator")) {
				t.Errorf("after %c: err = %v, want the write error", first.Type, err)
			}
			if first.Type == dxp.Chat && !errors.Is(err, io.ErrClosedPipe) {
				t.Errorf("after garbage: err = %v, want the write error", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("after %c: ServeDXP went on after a failed write", first.Type)
		}
		theirs.Close()
		ours.Close()
	}
}

// ServeHub in-process: handshake, parameters, a search, ping, faults.
func TestServeHub(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		errc <- ServeHub(inR, outW, Config{Level: Level{2}, Faults: []Fault{{GarbageAt, 2}, {CrashAt, 3}}})
		outW.Close()
	}()
	br := bufio.NewReader(outR)
	read := func() string {
		s, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the engine: %v", err)
		}
		return strings.TrimSuffix(s, "\n")
	}
	send := func(s string) { io.WriteString(inW, s+"\n") }
	send("hub")
	var lines []string
	for l := read(); l != "wait"; l = read() {
		lines = append(lines, l)
	}
	if !strings.HasPrefix(lines[0], "id name=sparring") || !strings.Contains(strings.Join(lines, "\n"), "param name=variant value=international") {
		t.Errorf("handshake: %q", lines)
	}
	send("set-param name=variant value=english")
	send("init")
	if l := read(); l != "ready" {
		t.Fatalf("init: %q", l)
	}
	send("new-game")
	v := rules.MustLookup("english")
	send("pos pos=" + hub.PosString(rules.NewPosition(v)) + ` moves="9-13 22-18"`)
	send("level time=10 inc=0.1")
	send("go think")
	var done hub.Line
	for {
		l, err := hub.ParseLine(read())
		if err != nil {
			t.Fatal(err)
		}
		if l.Command == "done" {
			done = l
			break
		}
	}
	p := rules.NewPosition(v)
	for _, mt := range []string{"9-13", "22-18"} {
		m, _ := p.ParseHubMove(mt)
		p = p.Play(m)
	}
	mv, _ := done.Get("move")
	if _, err := p.ParseHubMove(mv); err != nil {
		t.Errorf("done move=%s is not legal: %v", mv, err)
	}
	send("ping")
	if l := read(); l != "pong" {
		t.Errorf("ping: %q", l)
	}
	send("go think") // request 2: garbage
	if _, err := hub.ParseLine(read()); err == nil {
		t.Error("garbage-at=2 sent a valid line")
	}
	send("go think") // request 3: crash
	select {
	case err := <-errc:
		if !errors.Is(err, ErrCrash) {
			t.Errorf("crash-at=3: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no crash")
	}
	inW.Close()
}

// A move depends on the seed, the position and the request's number in the
// game only: an engine process that played other games first chooses the
// same moves, so tournaments replay whatever their concurrency.
func TestMovesDoNotDependOnEarlierGames(t *testing.T) {
	v := rules.MustLookup("english")
	play := func(e *engine, plies int) []rules.Move {
		e.newGame()
		var out []rules.Move
		p := rules.NewPosition(v)
		for range plies {
			if !p.HasMoves() {
				break
			}
			e.requests++
			m := Choose(p, e.cfg.Level, e.rngFor(p))
			out = append(out, m)
			p = p.Play(m)
		}
		return out
	}
	fresh := newEngine(Config{Variant: v, Level: Level{-1}, Seed: 7})
	used := newEngine(Config{Variant: v, Level: Level{-1}, Seed: 7})
	play(used, 31) // an earlier game of another length
	a, b := play(fresh, 60), play(used, 60)
	if len(a) != len(b) {
		t.Fatalf("game lengths %d and %d", len(a), len(b))
	}
	for i := range a {
		if !a[i].Same(b[i]) {
			t.Fatalf("ply %d: %v then %v", i+1, a[i], b[i])
		}
	}
	other := newEngine(Config{Variant: v, Level: Level{-1}, Seed: 8})
	c := play(other, 60)
	same := len(c) == len(a)
	for i := 0; same && i < len(a); i++ {
		same = a[i].Same(c[i])
	}
	if same {
		t.Error("another seed played the very same random game")
	}
}

// TestTimeBudget: the share of the clock a search takes under each level
// form.
func TestTimeBudget(t *testing.T) {
	ms := func(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
	for _, c := range []struct {
		level match.Level
		want  time.Duration
	}{
		{match.Level{MoveTime: ms(200)}, ms(150)},
		{match.Level{Time: ms(5000), Inc: ms(100)}, ms(200 + 75)},   // 5 s / 25 + 3/4 of the increment
		{match.Level{Time: ms(60000), MovesToGo: 10}, ms(6000)},     // 40/... periods: the moves left
		{match.Level{Time: ms(100), Inc: ms(1000)}, ms(25)},         // never more than a quarter of the time left
		{match.Level{MoveTime: time.Microsecond}, time.Millisecond}, // at least a millisecond
		{match.Level{Depth: 5}, 0},                                  // no clock: to the depth
		{match.Level{}, 0},
	} {
		if got := timeBudget(c.level); got != c.want {
			t.Errorf("timeBudget(%+v) = %v, want %v", c.level, got, c.want)
		}
	}
}

// TestSearchKeepsItsTime: a deep level in an ending of many kings, where
// a full search would take hours, answers within its time like an engine
// that keeps its clock (level 9 lost on time at 5+0.1 in English). The
// wait is for the answer, bounded only to fail rather than hang.
func TestSearchKeepsItsTime(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		ServeHub(inR, outW, Config{Level: Level{20}})
		outW.Close()
	}()
	defer inW.Close()
	v := rules.MustLookup("english")
	p, err := rules.ParseFEN(v, "W:WK1,K3,K5,K7,K10,K12:BK21,K23,K25,K27,K30,K32")
	if err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		br := bufio.NewReader(outR)
		for {
			s, err := br.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- strings.TrimSuffix(s, "\n")
		}
	}()
	for _, l := range []string{"hub", "set-param name=variant value=english", "init", "new-game",
		"pos pos=" + hub.PosString(p), "level move-time=0.05", "go think"} {
		io.WriteString(inW, l+"\n")
	}
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the engine ended without an answer")
			}
			if strings.HasPrefix(l, "done") {
				done, err := hub.ParseLine(l)
				if err != nil {
					t.Fatal(err)
				}
				mv, _ := done.Get("move")
				if _, err := p.ParseHubMove(mv); err != nil {
					t.Errorf("%q: the move is not legal: %v", l, err)
				}
				return
			}
		case <-timeout:
			t.Fatal("level 20 with move-time=0.05 still searching after 2 minutes: it does not keep its time")
		}
	}
}

// Over DXP too a deep level keeps its time: DXP sends no clock with a
// move, so the follower counts its own against GAMEREQ's minutes and
// stops at its share (a minute over 25 moves: 2.4 s) with the best move it
// finished. Level 20 in an ending of twelve kings searched on past the
// game's minute before.
func TestDXPSearchKeepsItsTime(t *testing.T) {
	v := rules.MustLookup("english")
	p, err := rules.ParseFEN(v, "W:WK1,K3,K5,K7,K10,K12:BK21,K23,K25,K27,K30,K32")
	if err != nil {
		t.Fatal(err)
	}
	ours, theirs := net.Pipe()
	defer theirs.Close()
	go func() {
		ServeDXP(ours, Config{Level: Level{20}, Variant: v}, DXPOptions{})
		ours.Close()
	}()
	req, err := dxp.Message{Type: dxp.GameReq, Version: 1, Name: "arbiter", Follower: rules.White, Minutes: 1,
		StartCustom: true, ToMove: rules.White, Position: dxp.PositionString(p)}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	go io.WriteString(theirs, req+"\x00")
	got := make(chan dxp.Message)
	go func() {
		br := bufio.NewReader(theirs)
		for {
			s, err := dxp.ReadMessage(br)
			if err != nil {
				close(got)
				return
			}
			if m, err := dxp.Parse(s); err == nil {
				got <- m
			}
		}
	}()
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case m, ok := <-got:
			if !ok {
				t.Fatal("the engine ended without a move")
			}
			if m.Type != dxp.Move {
				continue // GAMEACC
			}
			if _, err := p.FindDXPMove(m.From, m.To, m.Captured); err != nil {
				t.Errorf("%+v: the move is not legal: %v", m, err)
			}
			if m.Seconds > 15 {
				t.Errorf("the move took %d s of the game's 60: more than a quarter", m.Seconds)
			}
			return
		case <-timeout:
			t.Fatal("level 20 in a one-minute DXP game still searching after 2 minutes: it does not keep its time")
		}
	}
}
