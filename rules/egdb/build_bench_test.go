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
