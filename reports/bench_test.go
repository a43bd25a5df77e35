package reports

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// benchGames is the size of the event the benchmarks build a report for.
const benchGames = 100_000

// BenchmarkWriteAll100k writes report.html, results.json and games.pdn for
// 100,000 synthetic games between 8 engines (each game with per-ply move
// times and PDN text). Besides time it reports the memory allocated per
// report, the live heap after it, and the size of each file.
func BenchmarkWriteAll100k(b *testing.B) {
	// Every game carries moves, as in a stored event: the viewer's records
	// go to files beside the page (games-N.js).
	defer func(n int) { synthWithMoves = n }(synthWithMoves)
	synthWithMoves = benchGames
	ev := synthEvent(8, benchGames, 1)
	dir := b.TempDir()
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base) // the event itself is live from here on
	var peak uint64
	var before, after runtime.MemStats
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		stop := samplePeakHeap(&peak)
		if err := WriteAll(dir, ev); err != nil {
			b.Fatal(err)
		}
		stop()
		runtime.ReadMemStats(&after)
	}
	b.StopTimer()
	runtime.KeepAlive(ev)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), "MB-alloc/report")
	b.ReportMetric(float64(base.HeapAlloc)/(1<<20), "MB-event")
	b.ReportMetric(float64(peak)/(1<<20), "MB-peak-heap")
	for _, f := range []struct{ name, unit string }{{HTMLFile, "MB-html"}, {ResultsFile, "MB-json"}, {PDNFile, "MB-pdn"}, {RecordsChunkFile(0), "MB-records-file"}} {
		fi, err := os.Stat(filepath.Join(dir, f.name))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(fi.Size())/(1<<20), f.unit)
	}
}

// samplePeakHeap records the largest HeapAlloc seen every 5 ms until the
// returned stop function is called.
func samplePeakHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var m runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&m)
			*peak = max(*peak, m.HeapAlloc)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// BenchmarkCompute100k measures the statistics alone.
func BenchmarkCompute100k(b *testing.B) {
	ev := synthEvent(8, benchGames, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Compute(ev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHTML100k measures report.html alone (aggregation, charts,
// template), the part that must not grow with the number of games.
func BenchmarkHTML100k(b *testing.B) {
	ev := synthEvent(8, benchGames, 1)
	var size int
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		var w countWriter
		if err := WriteHTML(&w, ev); err != nil {
			b.Fatal(err)
		}
		size = int(w)
	}
	b.ReportMetric(float64(size)/(1<<20), "MB-html")
}

// BenchmarkSPRT evaluates one pentanomial GSPRT in each model, the cost a
// match runner pays after every game pair.
func BenchmarkSPRT(b *testing.B) {
	p := stats.Penta{261, 844, 1263, 897, 292}
	for _, m := range []stats.SPRTModel{stats.Normalized, stats.Logistic} {
		b.Run(string(m), func(b *testing.B) {
			cfg := stats.SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: m}
			for b.Loop() {
				if _, err := cfg.Evaluate(p, stats.WDL{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
