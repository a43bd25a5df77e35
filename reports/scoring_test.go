package reports

import "testing"

func TestScoringFor(t *testing.T) {
	tests := []struct {
		variant string
		win     float64
		// points of a record of 3 wins, 1 draw and 2 losses (3½ on the
		// 0..1 scale), as the federation prints it
		want string
	}{
		{"international", 2, "7"},
		{"frisian", 2, "7"},
		{"canadian", 2, "7"},
		{"International", 2, "7"},
		{"english", 1, "3½"},
		{"italian", 1, "3½"},
		{"", 1, "3½"},
		{"no-such-variant", 1, "3½"},
	}
	for _, tc := range tests {
		s := ScoringFor(tc.variant)
		if s.Win != tc.win || s.Draw != tc.win/2 {
			t.Errorf("%q: win %g draw %g, want %g and %g", tc.variant, s.Win, s.Draw, tc.win, tc.win/2)
		}
		if got := s.Format(3.5); got != tc.want {
			t.Errorf("%q: 3 wins, 1 draw: %q, want %q", tc.variant, got, tc.want)
		}
	}
	// A draw on the 2-point scale is a whole point, never "½".
	if got := ScoringFor("international").Format(0.5); got != "1" {
		t.Errorf("one FMJD draw printed %q, want 1", got)
	}
}
