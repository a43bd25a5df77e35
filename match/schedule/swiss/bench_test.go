package swiss

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// simulate plays rounds-1 rounds of an n-player event with Pair and random
// results, for the state in which round `rounds` is paired.
func simulate(tb testing.TB, n, round int, seed uint64) ([]tally.Player, Options) {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	ps := newField(n)
	opt := Options{Rounds: 11, Scoring: tally.DefaultScoring}
	for r := 1; r < round; r++ {
		rd, err := Pair(ps, opt)
		if err != nil {
			tb.Fatalf("round %d: %v", r, err)
		}
		play(ps, rd, rng)
	}
	return ps, opt
}

// BenchmarkPair is one round's pairing of a 100, 500, 1,000 and
// 2,000-player event at rounds 1, 5 and 9 (2,000: rounds 1 and 5; the
// history is made by Pair and random results beforehand, outside the
// timing). Side by side with bbpPairings on the same files, see
// `arbiter pair --dutch FILE -p` and the figures in match/schedule/swiss/pairfile.
func BenchmarkPair(b *testing.B) {
	for _, n := range []int{100, 500, 1000, 2000} {
		for _, round := range []int{1, 5, 9} {
			if n == 2000 && round == 9 {
				continue
			}
			b.Run(fmt.Sprintf("players=%d/round=%d", n, round), func(b *testing.B) {
				ps, opt := simulate(b, n, round, 7)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := Pair(ps, opt); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPairBurstein is one round after the seeding rounds (round 6 of
// 11) by the Burstein system, 100, 500 and 1,000 players; the history is
// made by the Dutch system and random results beforehand.
func BenchmarkPairBurstein(b *testing.B) {
	for _, n := range []int{100, 500, 1000} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			ps, opt := simulate(b, n, 6, 7)
			opt.System = Burstein
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Pair(ps, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
