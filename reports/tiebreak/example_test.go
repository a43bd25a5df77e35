package tiebreak_test

import (
	"fmt"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

// A three-player event of three rounds, 2-1-0: 1 beat 2, 2 beat 3 and 3
// drew with 1; each had the bye once. Ranked by truncated Solkoff
// (Buchholz Cut-1), then Sonneborn-Berger. A bye's dummy opponent has the
// player's score capped at a draw a round (3, C.07 16.4.2): P1's Buchholz
// terms are 4 (P2), 3 (P3), 3 (bye), less the lowest: 7; its SB is
// 4×2 + 3×1 + 3×2 = 17.
func ExampleRank() {
	players := []tally.Player{
		{Number: 1, History: []tally.Entry{{Opponent: 2, Color: tally.White, Result: tally.Win}, {Opponent: 3, Color: tally.Black, Result: tally.Draw}, {Result: tally.PairingBye}}},
		{Number: 2, History: []tally.Entry{{Opponent: 1, Color: tally.Black, Result: tally.Loss}, {Result: tally.PairingBye}, {Opponent: 3, Color: tally.White, Result: tally.Win}}},
		{Number: 3, History: []tally.Entry{{Result: tally.PairingBye}, {Opponent: 1, Color: tally.White, Result: tally.Draw}, {Opponent: 2, Color: tally.Black, Result: tally.Loss}}},
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
