package online

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// BenchmarkAct is the throughput of moves through Hall.Act: each move is
// applied, committed to SQLite and published (to one watcher).
func BenchmarkAct(b *testing.B) {
	h, err := Open(context.Background(), Config{Path: filepath.Join(b.TempDir(), "games.db"), Log: zerolog.Nop()})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	// Kings shuffle back and forth: claims are WCDF's, so the game never ends.
	c, err := h.Create(ctx, Setup{Variant: "english", FEN: "B:WK29:BK4", TimeControl: "3600"})
	if err != nil {
		b.Fatal(err)
	}
	_, live, err := h.Watch(ctx, c.ID, 0)
	if err != nil {
		b.Fatal(err)
	}
	go func() {
		for range live {
		}
	}()
	moves := []struct {
		role Role
		m    string
	}{{RoleBlack, "4-8"}, {RoleWhite, "29-25"}, {RoleBlack, "8-4"}, {RoleWhite, "25-29"}}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	n := max(b.N, 200)
	for i := 0; i < n; i++ {
		mm := moves[i%4]
		if _, err := h.Act(ctx, c.ID, mm.role, Intent{Kind: "move", Move: mm.m}); err != nil {
			b.Fatal(err)
		}
		if i%2000 == 1999 { // stay under the per-game event limit
			b.StopTimer()
			c, _ = h.Create(ctx, Setup{Variant: "english", FEN: "B:WK29:BK4", TimeControl: "3600"})
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "moves/s")
}

// BenchmarkIdleGame reports the memory a created, idle game holds.
func BenchmarkIdleGame(b *testing.B) {
	h, err := Open(context.Background(), Config{Path: filepath.Join(b.TempDir(), "games.db"), Log: zerolog.Nop(), MaxGames: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	const games = 3000
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	for i := 0; i < games; i++ {
		if _, err := h.Create(ctx, Setup{Variant: "international", TimeControl: "90+30"}); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(m1.HeapAlloc-m0.HeapAlloc)/games, "bytes/game")
	for i := 0; i < b.N; i++ {
	}
}
