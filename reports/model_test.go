package reports

import "testing"

func TestParseResult(t *testing.T) {
	tests := []struct {
		in   string
		want Outcome
		err  bool
	}{
		{"1-0", WhiteWin, false}, {"2-0", WhiteWin, false}, {"0-1", BlackWin, false}, {"0-2", BlackWin, false},
		{"1/2-1/2", Draw, false}, {"1-1", Draw, false}, {"½-½", Draw, false}, {" 1-0 ", WhiteWin, false},
		{"*", Unfinished, false}, {"", Unfinished, false},
		{"1-2", Unfinished, true}, {"draw", Unfinished, true}, {"0.5-0.5", Unfinished, true},
	}
	for _, tc := range tests {
		got, err := ParseResult(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseResult(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}
