package egdb

import (
	"context"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

// BenchmarkBuildEnglish4 builds English checkers up to four pieces and
// reports the positions solved per second.
func BenchmarkBuildEnglish4(b *testing.B) {
	v := rules.MustLookup("english")
	for b.Loop() {
		var total uint64
		t0 := time.Now()
		_, err := Build(context.Background(), v, b.TempDir(), BuildOptions{Pieces: 4, Total: func(n uint64) { total = n }})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(total)/time.Since(t0).Seconds(), "indices/s")
		b.ReportMetric(float64(total), "indices")
	}
}

func BenchmarkBuildEnglish3(b *testing.B) {
	v := rules.MustLookup("english")
	for b.Loop() {
		if _, err := Build(context.Background(), v, b.TempDir(), BuildOptions{Pieces: 3, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProbe is the cost of one probe of a position of a built
// database (tables already read): what an adjudicating judge adds to a
// move.
func BenchmarkProbe(b *testing.B) {
	v := rules.MustLookup("english")
	db, err := Build(context.Background(), v, b.TempDir(), BuildOptions{Pieces: 3})
	if err != nil {
		b.Fatal(err)
	}
	if err := db.Load(); err != nil {
		b.Fatal(err)
	}
	var ps []rules.Position
	for _, m := range Materials(3) {
		t, _ := newTable(v, m)
		for i := uint64(0); i < 2*t.size && len(ps) < 4096; i += 97 {
			if p, ok := t.position(i); ok {
				ps = append(ps, p)
			}
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := db.Probe(ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildInternational3 builds international draughts up to three
// pieces (flying kings: many moves and un-moves a position).
func BenchmarkBuildInternational3(b *testing.B) {
	v := rules.MustLookup("international")
	for b.Loop() {
		var total uint64
		t0 := time.Now()
		_, err := Build(context.Background(), v, b.TempDir(), BuildOptions{Pieces: 3, Total: func(n uint64) { total = n }})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(total)/time.Since(t0).Seconds(), "indices/s")
	}
}
