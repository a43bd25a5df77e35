package rules

import (
	"fmt"
	"testing"
)

// The perft benchmarks are the speed figures `make bench` reports: leaf
// nodes per second from the start position, single-threaded, with bulk
// counting at the last ply. They run only under -bench.

func benchPerft(b *testing.B, name string, depth int, keep bool) {
	p := NewPosition(MustLookup(name))
	var n, runs uint64
	for b.Loop() {
		n = Perft(p, depth, keep)
		runs++
	}
	b.ReportMetric(float64(n*runs)/b.Elapsed().Seconds(), "leaves/s")
	b.ReportMetric(float64(n), "leaves")
}

// BenchmarkPerftEnglish11 is English checkers to depth 11, every capture
// path counted (the convention of the published English counts).
func BenchmarkPerftEnglish11(b *testing.B) { benchPerft(b, "english", 11, true) }

// BenchmarkPerftInternational9 is international draughts to depth 9, one
// move per identity (the FMJD convention).
func BenchmarkPerftInternational9(b *testing.B) { benchPerft(b, "international", 9, false) }

// BenchmarkPerftRussian11 covers flying kings with promotion during a capture.
func BenchmarkPerftRussian11(b *testing.B) { benchPerft(b, "russian", 11, false) }

// BenchmarkLegalMoves measures the public API (moves with paths, allocated)
// on a middle-game position with kings and a multiple capture.
func BenchmarkLegalMoves(b *testing.B) {
	p, err := ParseFEN(MustLookup("international"), "W:WK4,28,32,33,37,38,42,43,47:B12,13,17,19,22,23,24,K45")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if len(p.LegalMoves()) == 0 {
			b.Fatal("no moves")
		}
	}
}

// BenchmarkPerftWithEnglish15 is what `arbiter perft` does by default for a
// deep count: a 256 MB table and one worker per CPU. Its leaves/s is
// leaves counted over wall time, not positions generated: the table counts
// a transposed subtree once.
func BenchmarkPerftWithEnglish15(b *testing.B) {
	p := NewPosition(MustLookup("english"))
	var n, runs uint64
	for b.Loop() {
		n = mustPerftWith(b, p, 15, true, PerftOptions{HashBytes: 256 << 20})
		runs++
	}
	b.ReportMetric(float64(n*runs)/b.Elapsed().Seconds(), "leaves/s")
	b.ReportMetric(float64(n), "leaves")
}

// BenchmarkPerftRussianKeep11 counts every capture path with flying kings,
// where a king's stops on one line before its next capture are one path.
func BenchmarkPerftRussianKeep11(b *testing.B) { benchPerft(b, "russian", 11, true) }

// presetBenchDepth is the depth of BenchmarkPerftPresets for a preset: a
// few hundred thousand to a few million leaves from the start (wide trees,
// Dameo and Gothic, and Canadian's reference generator go less deep).
var presetBenchDepth = map[string]int{
	"canadian": 5, "dameo": 3, "gothic": 4, "turkish": 6, "alquerque": 12, "frysk": 7, "hawaii": 7, "parachute": 11,
}

// BenchmarkPerftPresets is perft speed from the start of every preset
// (`make bench` lists them all), one move per identity, no table.
func BenchmarkPerftPresets(b *testing.B) {
	for _, name := range Presets() {
		v := MustLookup(name)
		depth, ok := presetBenchDepth[name]
		if !ok {
			depth = 8
			if v.Squares() > 32 {
				depth = 7
			}
		}
		b.Run(fmt.Sprintf("%s-%d", name, depth), func(b *testing.B) { benchPerft(b, name, depth, false) })
	}
}
