package tiebreak_test

import (
	"fmt"

	"github.com/draughts-arbiter/arbiter/match/swiss"
	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

// A three-player event of three rounds, 2-1-0: 1 beat 2, 2 beat 3 and 3
// drew with 1; each had the bye once. Ranked by truncated Solkoff
// (Buchholz Cut-1), then Sonneborn-Berger. A bye's dummy opponent has the
// player's score capped at a draw a round (3, C.07 16.4.2): P1's Buchholz
// terms are 4 (P2), 3 (P3), 3 (bye), less the lowest: 7; its SB is
// 4×2 + 3×1 + 3×2 = 17.
func ExampleRank() {
	players := []swiss.Player{
		{Number: 1, History: []swiss.Entry{{Opponent: 2, Color: swiss.White, Result: swiss.Win}, {Opponent: 3, Color: swiss.Black, Result: swiss.Draw}, {Result: swiss.PairingBye}}},
		{Number: 2, History: []swiss.Entry{{Opponent: 1, Color: swiss.Black, Result: swiss.Loss}, {Result: swiss.PairingBye}, {Opponent: 3, Color: swiss.White, Result: swiss.Win}}},
		{Number: 3, History: []swiss.Entry{{Result: swiss.PairingBye}, {Opponent: 1, Color: swiss.White, Result: swiss.Draw}, {Opponent: 2, Color: swiss.Black, Result: swiss.Loss}}},
	}
	order, err := tiebreak.Parse("truncated-solkoff,sonneborn-berger")
	if err != nil {
		fmt.Println(err)
		return
	}
	standings, err := tiebreak.Rank(players, order, tiebreak.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range standings {
		fmt.Println(s.Rank, s.Number, s.Score, s.Values)
	}
	_, err = tiebreak.Parse("buchholz,sonnenborn")
	fmt.Println(err != nil)
	// Output:
	// 1 1 5 [7 17]
	// 2 2 4 [8 12]
	// 3 3 3 [9 11]
	// true
}
