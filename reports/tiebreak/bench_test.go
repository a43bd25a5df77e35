package tiebreak

import (
	"fmt"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/swiss"
)

// benchEvent is n players (n even) after rounds rounds of a round-robin
// circle (a stand-in for a Swiss: what the tie-breaks read is the same),
// results spread over wins, draws, losses and a few forfeits.
func benchEvent(n, rounds int) []swiss.Player {
	ps := make([]swiss.Player, n)
	for i := range ps {
		ps[i] = swiss.Player{Number: i + 1, Rating: 2400 - i, History: make([]swiss.Entry, rounds)}
	}
	ring := make([]int, n)
	for i := range ring {
		ring[i] = i
	}
	for r := range rounds {
		for k := range n / 2 {
			a, b := ring[k], ring[n-1-k]
			wr, br := swiss.Draw, swiss.Draw
			switch (a*7 + b*3 + r) % 7 {
			case 0, 1:
				wr, br = swiss.Win, swiss.Loss
			case 2, 3:
				wr, br = swiss.Loss, swiss.Win
			case 4:
				wr, br = swiss.ForfeitWin, swiss.ForfeitLoss
			}
			ps[a].History[r] = swiss.Entry{Opponent: b + 1, Color: swiss.White, Result: wr}
			ps[b].History[r] = swiss.Entry{Opponent: a + 1, Color: swiss.Black, Result: br}
		}
		last := ring[n-1]
		copy(ring[2:], ring[1:n-1])
		ring[1] = last
	}
	return ps
}

func BenchmarkRank(b *testing.B) {
	order, err := Parse("buchholz-cut1,buchholz,sonneborn-berger,direct-encounter,wins,progressive,aro")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{100, 1000} {
		ps := benchEvent(n, 9)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Rank(ps, order, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
