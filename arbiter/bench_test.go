package arbiter

import (
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// BenchmarkRefereeGame measures the referee's own cost per move (legality
// check, clocks, draw trackers, record) in complete games of pseudo-random
// moves under the real clock, with AutoClaim and a time control. The games
// are chosen before the timer starts: the loop times the referee only, not
// the harness's move generation.
func BenchmarkRefereeGame(b *testing.B) {
	for _, name := range []string{"english", "international", "frisian", "turkish"} {
		b.Run(name, func(b *testing.B) {
			v := rules.MustLookup(name)
			tc, _ := ParseTimeControl("40/7200:3600+60")
			cfg := Config{Variant: v, TimeControl: both(tc), AutoClaim: true, MaxMoves: 150}
			games := benchGames(b, cfg, 20)
			moves := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, game := range games {
					r, err := NewReferee(cfg)
					if err != nil {
						b.Fatal(err)
					}
					for _, m := range game {
						r.StartThinking()
						r.Submit(m)
					}
					moves += len(game)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
		})
	}
}

// benchGames plays n games of pseudo-random legal moves under cfg and
// returns their moves, checking that a replay ends each game where it ended.
func benchGames(b *testing.B, cfg Config, n int) [][]rules.Move {
	seed := uint32(1)
	games := make([][]rules.Move, 0, n)
	for g := 0; g < n; g++ {
		r, err := NewReferee(cfg)
		if err != nil {
			b.Fatal(err)
		}
		var game []rules.Move
		for !r.Done() {
			legal := r.Position().LegalMoves()
			seed = seed*1664525 + 1013904223
			m := legal[int(seed>>8)%len(legal)]
			r.StartThinking()
			r.Submit(m)
			game = append(game, m)
		}
		games = append(games, game)
	}
	for _, game := range games {
		r, _ := NewReferee(cfg)
		for i, m := range game {
			if r.Done() {
				b.Fatalf("replay ended after %d of %d moves", i, len(game))
			}
			r.StartThinking()
			r.Submit(m)
		}
		if !r.Done() {
			b.Fatalf("replay of %d moves did not end the game", len(game))
		}
	}
	return games
}
