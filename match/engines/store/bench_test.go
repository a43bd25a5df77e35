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
