package arbiter

import (
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// BenchmarkRefereeGame measures the referee's own cost per move (legality
// check, clocks, draw trackers, record) in complete games of pseudo-random
// moves under the real clock, with AutoClaim and a time control.
func BenchmarkRefereeGame(b *testing.B) {
	for _, name := range []string{"english", "international"} {
		b.Run(name, func(b *testing.B) {
			v := rules.MustLookup(name)
			tc, _ := ParseTimeControl("40/7200:3600+60")
			moves := 0
			seed := uint32(1)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for g := 0; g < 20; g++ {
					r, err := NewReferee(Config{Variant: v, TimeControl: both(tc), AutoClaim: true, MaxMoves: 150})
					if err != nil {
						b.Fatal(err)
					}
					for !r.Done() {
						legal := r.Position().LegalMoves()
						seed = seed*1664525 + 1013904223
						r.StartThinking()
						r.Submit(legal[int(seed>>8)%len(legal)])
						moves++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
		})
	}
}
