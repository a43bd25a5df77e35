package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchGames is the size of the "store 100,000 games" benchmark; each game
// has benchPlies moves, about the length of a sparring game.
const (
	benchGames = 100_000
	benchPlies = 80
)

// BenchmarkStore100kGames commits 100,000 finished games, one transaction
// each (as the runner does), with their moves and PDN.
func BenchmarkStore100kGames(b *testing.B) {
	ctx := context.Background()
	moves := make([]Move, benchPlies)
	for i := range moves {
		moves[i] = Move{Text: "22-18", Time: time.Duration(i) * time.Millisecond}
	}
	pdn := fmt.Sprintf("[Event \"bench\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n%0800d 1-0\n", 0)
	for b.Loop() {
		dir := b.TempDir()
		s, err := Open(filepath.Join(dir, FileName))
		if err != nil {
			b.Fatal(err)
		}
		ev := testEvent("bench")
		ev.Planned = benchGames
		if err := s.Init(ctx, ev); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for id := 0; id < benchGames; id++ {
			g := Game{ID: id, Cycle: 1, Round: id/2 + 1, Board: 1, Pair: id / 2, PairGame: id % 2, White: id % 2, Black: 1 - id%2,
				Result: "1-0", Termination: "normal", PDN: pdn, Started: start, Finished: start, Moves: moves}
			if err := s.Finish(ctx, g); err != nil {
				b.Fatal(err)
			}
		}
		el := time.Since(start)
		b.ReportMetric(el.Seconds(), "s/100k-games")
		b.ReportMetric(float64(benchGames)/el.Seconds(), "games/s")
		if st, err := os.Stat(filepath.Join(dir, FileName)); err == nil {
			b.ReportMetric(float64(st.Size())/(1<<20), "MB-db")
		}
		s.Close()
	}
}

// BenchmarkStoreGame is what the runner asks of the store for one game
// of a fast match: Start before the first move, then Finish with the
// moves (66 plies, about a sparring game of English checkers, each with
// what the engine said of it) and the PDN. Its ns/op and allocs/op are a
// game's share of BenchmarkMatchEndToEnd (package match).
func BenchmarkStoreGame(b *testing.B) {
	ctx := context.Background()
	s, err := Open(filepath.Join(b.TempDir(), FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ev := testEvent("bench")
	ev.Planned = 1 << 30
	if err := s.Init(ctx, ev); err != nil {
		b.Fatal(err)
	}
	moves := make([]Move, 66)
	for i := range moves {
		moves[i] = Move{Text: "22-18", Time: time.Duration(i)*time.Millisecond + 123*time.Microsecond, Clock: 600*time.Second - time.Duration(i)*time.Millisecond,
			Score: float64(i%7) - 3, HasScore: true, Depth: 1, Nodes: 1, PV: "22-18", Latency: 97 * time.Microsecond}
	}
	pdn := fmt.Sprintf("[Event \"bench\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n%03000d 1-0\n", 0)
	start := time.Now()
	b.ReportAllocs()
	id := 0
	for b.Loop() {
		g := Game{ID: id, Cycle: 1, Round: id/2 + 1, Board: 1, Pair: id / 2, PairGame: id % 2, White: id % 2, Black: 1 - id%2,
			Opening: "9-13 22-18 13x22", Started: start}
		if err := s.Start(ctx, g); err != nil {
			b.Fatal(err)
		}
		g.Result, g.Termination, g.PDN, g.Finished, g.Moves, g.Record = "1-0", "normal", pdn, start, moves, "r1 abc"
		if err := s.Finish(ctx, g); err != nil {
			b.Fatal(err)
		}
		id++
	}
}
