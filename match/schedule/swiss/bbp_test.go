package swiss_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

// TestPairBBPExamples pairs the inputs of bbpPairings' own tests
// (test/tests/*.input, copied by the trf package into its testdata) and
// compares with their expected outputs (test/tests/*.output.expected,
// bbpPairings, Apache License 2.0), boards in the printed order.
func TestPairBBPExamples(t *testing.T) {
	tests := []struct {
		file string
		want swiss.Round
	}{
		{"dutch_2025_C5.trf", swiss.Round{Boards: []swiss.Board{{1, 5}, {3, 2}}, Bye: 6}},
		{"dutch_2025_C9.trf", swiss.Round{Boards: []swiss.Board{{2, 1}, {3, 5}}, Bye: 4}},
		{"issue_7.trf", swiss.Round{Boards: []swiss.Board{
			{1, 15}, {3, 2}, {11, 17}, {7, 10}, {8, 14}, {4, 6}, {5, 12}, {9, 16}, {13, 25}, {24, 22},
			{18, 29}, {20, 23}, {19, 33}, {21, 38}, {39, 26}, {28, 36}, {31, 40}, {37, 35}, {44, 46}, {30, 32},
			{27, 48}, {47, 42}, {51, 55}, {34, 50}, {49, 45}, {53, 58}, {41, 59}, {56, 43}, {60, 52}, {54, 57}}}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			defer swiss.SetVerify(t)()
			f, err := os.Open(filepath.Join("trf", "testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ev, err := trf.Read(f)
			if err != nil {
				t.Fatal(err)
			}
			ps, err := ev.PairingState()
			if err != nil {
				t.Fatal(err)
			}
			opt := swiss.Options{Rounds: ev.Rounds, FirstColor: ev.FirstColor}
			if ev.PointSystem != nil {
				opt.Scoring = ev.PointSystem.Scoring()
			}
			got, err := swiss.Pair(ps, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %v\nwant %v", got, tc.want)
			}
		})
	}
}
