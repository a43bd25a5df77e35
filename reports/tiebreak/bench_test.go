package tiebreak

import (
	"fmt"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// benchEvent is n players (n even) after rounds rounds of a round-robin
// circle (a stand-in for a Swiss: what the tie-breaks read is the same),
// results spread over wins, draws, losses and a few forfeits.
func benchEvent(n, rounds int) []tally.Player {
	ps := make([]tally.Player, n)
	for i := range ps {
		ps[i] = tally.Player{Number: i + 1, Rating: 2400 - i, History: make([]tally.Entry, rounds)}
	}
	ring := make([]int, n)
	for i := range ring {
		ring[i] = i
	}
	for r := range rounds {
		for k := range n / 2 {
			a, b := ring[k], ring[n-1-k]
			wr, br := tally.Draw, tally.Draw
			switch (a*7 + b*3 + r) % 7 {
			case 0, 1:
				wr, br = tally.Win, tally.Loss
			case 2, 3:
				wr, br = tally.Loss, tally.Win
			case 4:
				wr, br = tally.ForfeitWin, tally.ForfeitLoss
			}
			ps[a].History[r] = tally.Entry{Opponent: b + 1, Color: tally.White, Result: wr}
			ps[b].History[r] = tally.Entry{Opponent: a + 1, Color: tally.Black, Result: br}
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
