package tally

import "testing"

func TestFormatUnits(t *testing.T) {
	for _, c := range []struct {
		units  int
		halves bool
		want   string
	}{
		{0, false, "0"}, {7, false, "7"}, {-3, false, "-3"},
		{0, true, "0"}, {1, true, "½"}, {2, true, "1"}, {7, true, "3½"}, {-1, true, "−½"}, {-5, true, "−2½"},
	} {
		if got := FormatUnits(c.units, c.halves); got != c.want {
			t.Errorf("FormatUnits(%d, %v) = %q, want %q", c.units, c.halves, got, c.want)
		}
	}
}
