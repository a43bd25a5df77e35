package rules

import (
	"strings"
	"testing"
)

func TestParseResult(t *testing.T) {
	tests := []struct {
		in   string
		want Outcome
		wide bool
		err  bool
	}{
		{"1-0", WhiteWins, false, false}, {"2-0", WhiteWins, true, false},
		{"0-1", BlackWins, false, false}, {"0-2", BlackWins, true, false},
		{"1/2-1/2", Draw, false, false}, {"1-1", Draw, true, false}, {"½-½", Draw, false, false},
		{" 1-0 ", WhiteWins, false, false},
		{"0-0", DoubleForfeit, true, false},
		{"*", Ongoing, false, false}, {"", Ongoing, false, false},
		{"1-2", Ongoing, false, true}, {"draw", Ongoing, false, true}, {"0.5-0.5", Ongoing, false, true},
	}
	for _, tc := range tests {
		got, wide, err := ParseResult(tc.in)
		if (err != nil) != tc.err || got != tc.want || wide != tc.wide {
			t.Errorf("ParseResult(%q) = %v, wide %v, %v; want %v, wide %v, error %v", tc.in, got, wide, err, tc.want, tc.wide, tc.err)
		}
	}
}

func TestOutcomePoints(t *testing.T) {
	for _, tc := range []struct {
		o            Outcome
		white, black float64
		scored       bool
	}{
		{WhiteWins, 1, 0, true}, {BlackWins, 0, 1, true}, {Draw, 0.5, 0.5, true},
		{Ongoing, 0, 0, false}, {DoubleForfeit, 0, 0, false},
	} {
		if w, b := tc.o.Points(White), tc.o.Points(Black); w != tc.white || b != tc.black || tc.o.Scored() != tc.scored {
			t.Errorf("%v: points %v-%v scored %v, want %v-%v %v", tc.o, w, b, tc.o.Scored(), tc.white, tc.black, tc.scored)
		}
	}
}

// TestNoMoveOutcome: the side with no legal move loses, and wins in a
// losing variant; Position.Outcome says the same.
func TestNoMoveOutcome(t *testing.T) {
	for _, tc := range []struct {
		variant string
		want    Outcome
	}{
		{"english", WhiteWins}, {"international", WhiteWins}, {"giveaway", BlackWins}, {"antidraughts", BlackWins},
	} {
		v := MustLookup(tc.variant)
		if got := v.NoMoveOutcome(Black); got != tc.want {
			t.Errorf("%s: black to move without a move: %v, want %v", tc.variant, got, tc.want)
		}
		// Black to move with no piece at all.
		p := Setup(v, Black, Set{}.With(Square(v.Squares())), Set{}, Set{})
		if got := p.Outcome(); got != tc.want {
			t.Errorf("%s: Position.Outcome %v, want %v", tc.variant, got, tc.want)
		}
	}
}

// FuzzParseResult: a parsed result writes, in the form it was read in, text
// that parses back to the same outcome and form.
func FuzzParseResult(f *testing.F) {
	for _, s := range []string{"1-0", "0-1", "1/2-1/2", "2-0", "1-1", "0-2", "0-0", "*", "", "½-½", "1-2", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, wide, err := ParseResult(s)
		if err != nil {
			if !strings.Contains(err.Error(), "unknown result") {
				t.Errorf("unclear error %v", err)
			}
			return
		}
		back, bwide, err := ParseResult(o.PDN(wide))
		if err != nil || back != o || (o != Ongoing && bwide != wide) {
			t.Errorf("%q -> %v -> %q -> %v %v, %v", s, o, o.PDN(wide), back, bwide, err)
		}
	})
}
