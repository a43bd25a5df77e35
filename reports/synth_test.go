package reports

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

// synthEvent builds a deterministic round-robin of paired games between
// engines of different strength, with move times, terminations, a few
// unfinished games and PDN text. It is a test fixture, not product code.
func synthEvent(engines, games int, seed uint64) Event {
	rng := rand.New(rand.NewPCG(seed, 99))
	lrng := rand.New(rand.NewPCG(seed, 7)) // the latencies, apart: the rest stays as it was
	ev := Event{Name: fmt.Sprintf("Synthetic %d", games), Variant: "english", TimeControl: "40/60+1"}
	for i := range engines {
		ev.Engines = append(ev.Engines, fmt.Sprintf("engine-%c", 'A'+i))
	}
	terms := []string{"normal", "normal", "normal", "resignation", "time forfeit", "adjudication"}
	drawTerms := []string{"draw by threefold repetition", "draw by 40-move rule", "draw by agreement"}
	start := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	round, pair := 1, 0
	for len(ev.Games) < games {
		board := 1
		for i := 0; i < engines && len(ev.Games) < games; i++ {
			for j := i + 1; j < engines && len(ev.Games) < games; j++ {
				pair++
				for k := 0; k < 2 && len(ev.Games) < games; k++ {
					w, b := i, j
					if k == 1 {
						w, b = j, i
					}
					// Lower index is stronger; White has a small edge.
					edge := float64(b-w)*0.04 + 0.02
					pDraw := 0.45
					pWin := (1-pDraw)/2 + edge
					x := rng.Float64()
					g := Game{Round: round, Board: board, Pair: pair,
						White: ev.Engines[w], Black: ev.Engines[b], FirstMover: "black",
						Opening: fmt.Sprintf("ballot %d", pair%156+1)}
					switch {
					case x < pWin:
						g.Result, g.Termination = "1-0", terms[rng.IntN(len(terms))]
					case x < pWin+pDraw:
						g.Result, g.Termination = "1/2-1/2", drawTerms[rng.IntN(len(drawTerms))]
					default:
						g.Result, g.Termination = "0-1", terms[rng.IntN(len(terms))]
					}
					if rng.IntN(200) == 0 {
						g.Result, g.Termination = "*", ""
					}
					g.Plies = 20 + rng.IntN(120)
					g.MoveTimes = make([]time.Duration, g.Plies)
					for p := range g.MoveTimes {
						base := 0.05 + 0.4*math.Exp(-float64(p)/60)
						g.MoveTimes[p] = time.Duration((base + 0.1*rng.Float64()) * float64(time.Second))
					}
					// Tens of µs a move, and now and then a reply a busy
					// machine held back (flagged: a move has 2.5 s at 40/60+1).
					g.Latency = make([]time.Duration, g.Plies)
					for p := range g.Latency {
						g.Latency[p] = time.Duration(20+lrng.IntN(200)) * time.Microsecond
					}
					if lrng.IntN(8) == 0 {
						g.Latency[lrng.IntN(g.Plies)] = 400 * time.Millisecond
					}
					g.Started = start.Add(time.Duration(len(ev.Games)) * time.Minute)
					g.Finished = g.Started.Add(50 * time.Second)
					g.PDN = synthPDN(ev, &g)
					if rng.IntN(50) == 0 {
						g.PDN += "{warning: black played \"9-14\", illegal: a capture is compulsory}\n"
					}
					if pool := synthPlayouts(); len(ev.Games) < synthWithMoves {
						g.Moves = pool[len(ev.Games)%len(pool)]
					}
					ev.Games = append(ev.Games, g)
					board++
				}
			}
		}
		round++
	}
	return ev
}

func synthPDN(ev Event, g *Game) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Event %q]\n[Round \"%d.%d\"]\n[White %q]\n[Black %q]\n[Result %q]\n[GameType \"21\"]\n\n",
		ev.Name, g.Round, g.Board, g.White, g.Black, g.Result)
	b.WriteString("1. 11-15 23-19 2. 8-11 22-17 ")
	b.WriteString(g.Result)
	b.WriteString("\n")
	return b.String()
}

// synthWithMoves is how many games of a synthetic event carry real moves
// (random legal English games, from a pool): enough for the viewer's tests
// and for the size of the records in the benchmarks.
var synthWithMoves = 1000

var (
	playoutOnce sync.Once
	playouts    [][]Move
)

// synthPlayouts is a fixed pool of random legal English games with made-up
// evaluations.
func synthPlayouts() [][]Move {
	playoutOnce.Do(func() {
		rng := rand.New(rand.NewPCG(7, 7))
		v := rules.MustLookup("english")
		for range 50 {
			pos := rules.NewPosition(v)
			var ms []Move
			for ply := 0; ply < 150; ply++ {
				legal := pos.LegalMoves()
				if len(legal) == 0 {
					break
				}
				m := legal[rng.IntN(len(legal))]
				ms = append(ms, Move{Text: pos.MoveTextAmong(m, legal), Score: float64(rng.IntN(200)-100) / 100, HasScore: ply%7 != 3, Depth: 1 + rng.IntN(20)})
				pos = pos.Play(m)
			}
			playouts = append(playouts, ms)
		}
	})
	return playouts
}
