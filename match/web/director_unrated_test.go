package web

import (
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/reports/sheets"
)

// TestSheetResultUnrated: a game played but not rated (TRF W D L, kept by
// a TRF import) shows on the sheets as the played result, not a forfeit.
func TestSheetResultUnrated(t *testing.T) {
	for _, tc := range []struct {
		w, b tally.Result
		want sheets.Result
	}{
		{tally.UnratedWin, tally.UnratedLoss, sheets.WhiteWins},
		{tally.UnratedLoss, tally.UnratedWin, sheets.BlackWins},
		{tally.UnratedDraw, tally.UnratedDraw, sheets.Draw},
		{tally.Win, tally.Loss, sheets.WhiteWins},
		{tally.ForfeitLoss, tally.ForfeitLoss, sheets.DoubleForfeit},
	} {
		if got := sheetResult(director.Board{WhiteResult: tc.w, BlackResult: tc.b}); got != tc.want {
			t.Errorf("%c-%c: %v, want %v", tc.w, tc.b, got, tc.want)
		}
	}
}
