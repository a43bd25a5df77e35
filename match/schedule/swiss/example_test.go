package swiss

import (
	"reflect"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// TestPairExamples: pairings worked out by hand from the rule text.
func TestPairExamples(t *testing.T) {
	tests := []struct {
		name string
		n    int
		opt  Options
		want Round
	}{
		// C.04.3 round 1: S1 = 1..n/2 against S2 in order; the higher
		// player of board 1 gets the initial colour and colours alternate
		// down the boards (E.5 by pairing number parity).
		{"round 1, 8 players", 8, Options{Rounds: 5},
			Round{Boards: []Board{{1, 5}, {6, 2}, {3, 7}, {8, 4}}}},
		// Odd field: the lowest-ranked player gets the PAB (C.2, C.9).
		{"round 1, 7 players", 7, Options{Rounds: 5},
			Round{Boards: []Board{{1, 4}, {5, 2}, {3, 6}}, Bye: 7}},
		{"round 1, initial colour black", 4, Options{Rounds: 3, FirstColor: tally.Black},
			Round{Boards: []Board{{3, 1}, {2, 4}}}},
		// Baku (C.04.5.1): 8 players, GA = 2*ceil(8/4) = 4 players with a
		// virtual point, so round 1 pairs 1-3, 2-4 (GA) and 5-7, 6-8 (GB).
		{"round 1 Baku, 8 players", 8, Options{Rounds: 9, Baku: true},
			Round{Boards: []Board{{1, 3}, {4, 2}, {5, 7}, {8, 6}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Pair(newField(tc.n), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
