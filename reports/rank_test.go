package reports

import (
	"slices"
	"testing"
)

func TestRank(t *testing.T) {
	tests := []struct {
		name        string
		keys        []RankKey
		order, rank []int
	}{
		{"points", []RankKey{{Points: 1}, {Points: 3}, {Points: 2}}, []int{1, 2, 0}, []int{1, 2, 3}},
		{"sonneborn-berger breaks a tie", []RankKey{{Points: 2, SonnebornBerger: 1}, {Points: 2, SonnebornBerger: 3}}, []int{1, 0}, []int{1, 2}},
		// Equal points and SB share a rank; wins still order them.
		{"wins order a shared rank", []RankKey{{Points: 2, SonnebornBerger: 2, Wins: 0}, {Points: 2, SonnebornBerger: 2, Wins: 2}}, []int{1, 0}, []int{1, 1}},
		{"seeding last", []RankKey{{Points: 1, Wins: 1}, {Points: 1, Wins: 1}, {Points: 0}}, []int{0, 1, 2}, []int{1, 1, 3}},
		{"none", nil, []int{}, []int{}},
		// A gauntlet: the first engine plays everyone, so it has the most
		// points (5 of 8); the opponent that beat it 3-1 ranks first.
		{"score before points: a gauntlet", []RankKey{{Points: 5, Games: 8}, {Points: 3, Games: 4}, {Points: 0, Games: 4}}, []int{1, 0, 2}, []int{1, 2, 3}},
		{"equal games: by points", []RankKey{{Points: 1, Games: 4}, {Points: 3, Games: 4}}, []int{1, 0}, []int{1, 2}},
		{"equal score: more points first", []RankKey{{Points: 1, Games: 1}, {Points: 2, Games: 2}}, []int{1, 0}, []int{1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			order, rank := Rank(tc.keys)
			if !slices.Equal(order, tc.order) || !slices.Equal(rank, tc.rank) {
				t.Errorf("Rank = %v %v, want %v %v", order, rank, tc.order, tc.rank)
			}
		})
	}
}
