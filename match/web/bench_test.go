package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/rules"
)

// benchLimits lets one address (the benchmark) do everything.
var benchLimits = Limits{RequestRate: -1, GameRate: -1, StreamsPerClient: 1 << 20, Streams: 1 << 20}

// benchEnv is a quiet env with a client that keeps enough connections.
func benchEnv(b *testing.B) *env {
	e := newEnvLevel(b, Config{Limits: benchLimits}, zerolog.ErrorLevel)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 256
	e.hs.Client().Transport = tr
	return e
}

// benchGame is a game the benchmark plays: its tokens and its position,
// kept here to choose legal moves without asking the server.
type benchGame struct {
	g   game
	pos rules.Position
	ply int
	// turns receives, from each player's stream, the moment a move event
	// says it is that player's turn.
	turns [2]chan time.Time
}

const benchMaxPly = 120 // then the game is replaced (no benchmark game needs to end)

func newBenchGame(e *env) *benchGame {
	bg := &benchGame{g: e.create(`{"variant":"english"}`), pos: rules.NewPosition(rules.MustLookup("english"))}
	return bg
}

// move plays the position's first legal move through the HTTP path.
func (bg *benchGame) move(e *env) bool {
	legal := bg.pos.LegalMoves()
	if len(legal) == 0 || bg.ply >= benchMaxPly {
		return false
	}
	m := legal[(bg.ply*7)%len(legal)]
	text := bg.pos.MoveTextAmong(m, legal)
	if code, body := e.act(bg.g.tokens[bg.pos.Turn().String()], `{"kind":"move","move":"`+text+`"}`); code != http.StatusOK {
		e.t.Fatalf("move %s: %d %s", text, code, body)
	}
	bg.pos = bg.pos.Play(m)
	bg.ply++
	return true
}

// watchTurns opens both players' streams and feeds bg.turns.
func (bg *benchGame) watchTurns(e *env) {
	for c, color := range []string{"white", "black"} {
		ch := make(chan time.Time, 64)
		bg.turns[c] = ch
		s := e.stream(bg.g.tokens[color], "")
		go func() {
			for ev := range s.events {
				if ev.Data == "" {
					continue
				}
				at := time.Now()
				var m struct {
					Type  string `json:"type"`
					State struct {
						Turn string `json:"turn"`
					} `json:"state"`
				}
				if json.Unmarshal([]byte(ev.Data), &m) == nil && m.Type == "move" && m.State.Turn == color {
					ch <- at
				}
			}
		}()
	}
}

// spectate follows a game's events as a browser does, counting its move
// events: told to reload (the Hall dropped it for falling behind), it
// connects again from the last event it has (a browser fetches the
// snapshot first). It returns when done is closed.
func spectate(e *env, token string, moves *atomic.Int64, done <-chan struct{}) {
	last := "0"
	for {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			select {
			case <-done:
			case <-ctx.Done():
			}
			cancel()
		}()
		req, _ := http.NewRequestWithContext(ctx, "GET", e.hs.URL+"/api/g/"+token+"/events?since="+last, nil)
		resp, err := e.hs.Client().Do(req)
		if err != nil {
			cancel()
			return
		}
		events := make(chan sseEvent, 64)
		go readSSE(resp.Body, events)
		for ev := range events {
			if ev.ID != "" {
				last = ev.ID
			}
			if strings.Contains(ev.Data, `"type":"move"`) {
				moves.Add(1)
			}
		}
		resp.Body.Close()
		cancel()
		select {
		case <-done:
			return
		default:
		}
	}
}

// BenchmarkHTTPMoves: moves per second through the HTTP path (POST, the
// referee, the store, the fan-out) with N live spectators of the game, each
// of whom receives every move before the benchmark stops the clock.
func BenchmarkHTTPMoves(b *testing.B) {
	for _, n := range []int{0, 100, 1000} {
		b.Run(fmt.Sprintf("spectators=%d", n), func(b *testing.B) {
			e := benchEnv(b)
			const moves = 100 // fewer than benchMaxPly: one game
			for b.Loop() {
				done := make(chan struct{})
				var got atomic.Int64
				bg := newBenchGame(e)
				for i := 0; i < n; i++ {
					go spectate(e, bg.g.tokens["spectator"], &got, done)
				}
				waitUntil(b, "the spectators' streams", func() bool { return e.srv.streams.open() == n })
				start := time.Now()
				played := 0
				for played < moves && bg.move(e) {
					played++
				}
				waitUntil(b, "every spectator has every move", func() bool { return got.Load() >= int64(n*played) })
				el := time.Since(start)
				close(done)
				b.ReportMetric(float64(played)/el.Seconds(), "moves/s")
				b.ReportMetric(float64(int64(n)*int64(played))/el.Seconds(), "events/s")
			}
		})
	}
}

// heap is the memory the process uses for Go objects and stacks, after a GC.
func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse + ms.StackInuse
}

// BenchmarkScale: 1,000 games open at once, both players of each connected,
// and V spectators in a separate process (the viewers' side of their
// connections is not counted here). Reports the memory per idle game and
// per connected viewer (server side), and the delay from a move's POST to
// the opponent's event (median, 99th percentile) while movers play in all
// the games at once.
func BenchmarkScale(b *testing.B) {
	for _, viewers := range []int{0, 10000} {
		b.Run(fmt.Sprintf("games=1000/viewers=%d", viewers), func(b *testing.B) {
			// Each connection is a descriptor here (the players' client
			// side too) and one in the viewers' process.
			if need, have := uint64(4*1000+viewers+500), openFileLimit(); have < need {
				b.Skipf("needs %d open files, the limit is %d (ulimit -n)", need, have)
			}
			for b.Loop() {
				benchScale(b, 1000, viewers)
			}
		})
	}
}

func benchScale(b *testing.B, games, viewers int) {
	e := benchEnv(b)
	before := heap()
	gs := make([]*benchGame, games)
	for i := range gs {
		gs[i] = newBenchGame(e)
	}
	b.ReportMetric(float64(heap()-before)/float64(games), "B/idle-game")
	for _, bg := range gs {
		bg.watchTurns(e)
	}
	waitUntil(b, "the players' streams", func() bool { return e.srv.streams.open() == 2*games })
	if viewers > 0 {
		before = heap()
		stop := startViewers(b, e, gs, viewers)
		defer stop()
		waitUntil(b, "the viewers' streams", func() bool { return e.srv.streams.open() == 2*games+viewers })
		b.ReportMetric(float64(heap()-before)/float64(viewers), "B/viewer")
	}

	// Movers: each plays its share of the games in turn, one move per game
	// per round, waiting for the opponent's event before the next game.
	const movers, rounds = 8, 4
	var mu sync.Mutex
	var delays []time.Duration
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < movers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			local := make([]time.Duration, 0, rounds*games/movers)
			for r := 0; r < rounds; r++ {
				for i := w; i < games; i += movers {
					bg := gs[i]
					opp := bg.pos.Turn().Opponent()
					t0 := time.Now()
					if !bg.move(e) {
						continue
					}
					select {
					case t1 := <-bg.turns[opp]:
						local = append(local, t1.Sub(t0))
					case <-time.After(time.Minute):
						panic("no opponent event within a minute")
					}
				}
			}
			mu.Lock()
			delays = append(delays, local...)
			mu.Unlock()
		}(w)
	}
	wg.Wait()
	el := time.Since(start)
	slices.Sort(delays)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(float64(len(delays))/el.Seconds(), "moves/s")
	b.ReportMetric(ms(delays[len(delays)/2]), "ms-delay-median")
	b.ReportMetric(ms(delays[len(delays)*99/100]), "ms-delay-p99")
}

// startViewers starts a child process (this test binary, running
// TestViewerHelper) that opens n spectator streams spread over the games
// and keeps them open until stop.
func startViewers(b *testing.B, e *env, gs []*benchGame, n int) (stop func()) {
	list := filepath.Join(b.TempDir(), "viewers")
	var sb strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "%s/api/g/%s/events\n", e.hs.URL, gs[i%len(gs)].g.tokens["spectator"])
	}
	if err := os.WriteFile(list, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestViewerHelper$", "-test.timeout=0")
	cmd.Env = append(os.Environ(), "WEB_VIEWERS="+list)
	cmd.Stderr = os.Stderr
	out, _ := cmd.StdoutPipe()
	stdin, _ := cmd.StdinPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go io.Copy(io.Discard, out)
	return func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}
}

// TestViewerHelper is the viewers' process of BenchmarkScale (it does
// nothing in a normal test run): it opens every stream in WEB_VIEWERS and
// reads them until its stdin closes.
func TestViewerHelper(t *testing.T) {
	list := os.Getenv("WEB_VIEWERS")
	if list == "" {
		t.Skip("the viewers' process of BenchmarkScale")
	}
	data, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: -1, DisableCompression: true}
	client := &http.Client{Transport: tr}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for _, u := range strings.Fields(string(data)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
			resp, err := client.Do(req)
			if err != nil {
				fmt.Fprintln(os.Stderr, "viewer:", err)
				return
			}
			defer resp.Body.Close()
			io.Copy(io.Discard, bufio.NewReader(resp.Body))
		}()
		time.Sleep(50 * time.Microsecond) // do not flood the listener's accept queue
	}
	io.Copy(io.Discard, os.Stdin)
	cancel()
	wg.Wait()
}
