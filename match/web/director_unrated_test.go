package web

import (
	"testing"

	"github.com/draughts-arbiter/arbiter/match/director"
	"github.com/draughts-arbiter/arbiter/match/swiss"
	"github.com/draughts-arbiter/arbiter/reports/sheets"
)

// TestSheetResultUnrated: a game played but not rated (TRF W D L, kept by
// a TRF import) shows on the sheets as the played result, not a forfeit.
func TestSheetResultUnrated(t *testing.T) {
	for _, tc := range []struct {
		w, b swiss.Result
		want sheets.Result
	}{
		{swiss.UnratedWin, swiss.UnratedLoss, sheets.WhiteWins},
		{swiss.UnratedLoss, swiss.UnratedWin, sheets.BlackWins},
		{swiss.UnratedDraw, swiss.UnratedDraw, sheets.Draw},
		{swiss.Win, swiss.Loss, sheets.WhiteWins},
		{swiss.ForfeitLoss, swiss.ForfeitLoss, sheets.DoubleForfeit},
	} {
		if got := sheetResult(director.Board{WhiteResult: tc.w, BlackResult: tc.b}); got != tc.want {
			t.Errorf("%c-%c: %v, want %v", tc.w, tc.b, got, tc.want)
		}
	}
}
