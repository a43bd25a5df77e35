package pairfile

import (
	"slices"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
)

// The checker's report names the boards and the bye each pairing has that
// the other lacks, in board order, the bye last.
func TestDiffBoards(t *testing.T) {
	rd := func(bye int, pairs ...int) swiss.Round {
		r := swiss.Round{Bye: bye}
		for i := 0; i+1 < len(pairs); i += 2 {
			r.Boards = append(r.Boards, swiss.Board{White: pairs[i], Black: pairs[i+1]})
		}
		return r
	}
	for _, tc := range []struct {
		name          string
		rec, eng      swiss.Round
		recOnly, mine []string
	}{
		{"same", rd(5, 3, 4, 1, 2), rd(5, 1, 2, 3, 4), nil, nil},
		{"other boards", rd(5, 3, 4, 1, 2), rd(5, 1, 3, 2, 4), []string{"1-2", "3-4"}, []string{"1-3", "2-4"}},
		{"other bye", rd(5, 1, 2, 3, 4), rd(4, 1, 2, 3, 5), []string{"3-4", "5-bye"}, []string{"3-5", "4-bye"}},
		{"no bye", rd(0, 1, 2), rd(0, 2, 1), []string{"1-2"}, []string{"2-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			only, mine := diffBoards(tc.rec, tc.eng)
			if !slices.Equal(only, tc.recOnly) || !slices.Equal(mine, tc.mine) {
				t.Errorf("diffBoards = %q, %q; want %q, %q", only, mine, tc.recOnly, tc.mine)
			}
		})
	}
}
