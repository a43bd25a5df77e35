package arbiter

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	s := time.Second
	tests := []struct {
		in   string
		want TimeControl
		str  string // canonical form
	}{
		{"", TimeControl{}, "-"},
		{"-", TimeControl{}, "-"},
		{"none", TimeControl{}, "-"},
		{"300", TimeControl{Periods: []Period{{Time: 300 * s}}}, "300"},
		{"300+2", TimeControl{Periods: []Period{{Time: 300 * s, Increment: 2 * s}}}, "300+2"},
		{"60+0.5", TimeControl{Periods: []Period{{Time: 60 * s, Increment: s / 2}}}, "60+0.5"},
		{"5m+3s", TimeControl{Periods: []Period{{Time: 300 * s, Increment: 3 * s}}}, "300+3"},
		{"1h30m", TimeControl{Periods: []Period{{Time: 5400 * s}}}, "5400"},
		{"40/7200", TimeControl{Periods: []Period{{Moves: 40, Time: 7200 * s}}}, "40/7200"},
		{"40/7200:3600+60", TimeControl{Periods: []Period{{Moves: 40, Time: 7200 * s}, {Time: 3600 * s, Increment: 60 * s}}}, "40/7200:3600+60"},
		{"40/2h:20/1h:30m", TimeControl{Periods: []Period{{Moves: 40, Time: 7200 * s}, {Moves: 20, Time: 3600 * s}, {Time: 1800 * s}}}, "40/7200:20/3600:1800"},
		{"300 delay=5", TimeControl{Periods: []Period{{Time: 300 * s}}, Delay: 5 * s}, "300 delay=5"},
		{"300,bronstein=2.5", TimeControl{Periods: []Period{{Time: 300 * s}}, Bronstein: 2500 * time.Millisecond}, "300 bronstein=2.5"},
		{"move=2s", TimeControl{PerMove: 2 * s}, "move=2"},
		{"movetime=500ms", TimeControl{PerMove: 500 * time.Millisecond}, "move=0.5"},
		{"move-time=1", TimeControl{PerMove: s}, "move=1"},
		{"depth=8", TimeControl{Depth: 8}, "depth=8"},
		{"nodes=100000", TimeControl{Nodes: 100000}, "nodes=100000"},
		{"300+2 depth=12 nodes=5", TimeControl{Periods: []Period{{Time: 300 * s, Increment: 2 * s}}, Depth: 12, Nodes: 5}, "300+2 depth=12 nodes=5"},
		{"0.000000001", TimeControl{Periods: []Period{{Time: 1}}}, "0.000000001"},
		{"  300+2  ", TimeControl{Periods: []Period{{Time: 300 * s, Increment: 2 * s}}}, "300+2"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseTimeControl(tt.in)
			if err != nil {
				t.Fatalf("ParseTimeControl(%q): %v", tt.in, err)
			}
			if !got.Equal(tt.want) {
				t.Errorf("ParseTimeControl(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			if got.String() != tt.str {
				t.Errorf("String() = %q, want %q", got.String(), tt.str)
			}
			back, err := ParseTimeControl(got.String())
			if err != nil || !back.Equal(got) {
				t.Errorf("round trip of %q: %+v, %v", got.String(), back, err)
			}
		})
	}
}

func TestParseTimeControlErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"abc", "neither seconds nor a duration"},
		{"0", "more than 0"},
		{"-5", "no sign"},
		{"300+-2", "no sign"},
		{"7200:40/3600", "no move count, so no period can follow it"},
		// minutes:seconds, as cutechess writes them: the error says how.
		{"1:00+1", `no move count, so no period can follow it (":" separates periods here, as in PDN's "40/7200:3600"; for 1 min 0 s write 60+1)`},
		{"2:30", `for 2 min 30 s write 150)`},
		{"0/300", "move count"},
		{"x/300", "move count"},
		{"300 move=2", "cannot be combined"},
		{"delay=5", "needs a period"},
		{"300 delay=5 bronstein=5", "choose one"},
		{"300 delay=0", "more than 0"},
		{"depth=0", "depth"},
		{"nodes=-3", "nodes"},
		{"depth=5 depth=6", "given twice"},
		{"depth=5 300", "must come first"},
		{"colour=white", "unknown setting"},
		{"1.2.3", "not a number"},
		{"0.0000000001", "finer than a nanosecond"},
		{"99999999", "more than"},
		{"2000000", "more than"},
		{"300h", "more than"},
		{".", "not a number"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseTimeControl(tt.in)
			if err == nil {
				t.Fatalf("ParseTimeControl(%q): no error", tt.in)
			}
			if !errors.Is(err, ErrTimeControl) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.in) {
				t.Errorf("ParseTimeControl(%q) error %q: want ErrTimeControl, the input and %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestDepthIsUntimed(t *testing.T) {
	tc, err := ParseTimeControl("depth=8")
	if err != nil {
		t.Fatal(err)
	}
	if tc.Timed() {
		t.Error("depth=8 is timed")
	}
}

func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"40/7200:3600+60", "300+2", "60+0.5", "5m+3s", "move=2s", "depth=8 nodes=100",
		"300 delay=5", "300 bronstein=1.5", "-", "", "1h30m", "40/2h:20/1h:30m", "0.000000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl(s)
		if err != nil {
			if !errors.Is(err, ErrTimeControl) {
				t.Fatalf("error %v does not wrap ErrTimeControl", err)
			}
			return
		}
		out := tc.String()
		back, err := ParseTimeControl(out)
		if err != nil {
			t.Fatalf("%q -> %q does not parse: %v", s, out, err)
		}
		if !back.Equal(tc) || back.String() != out {
			t.Fatalf("%q -> %q -> %+v, want %+v", s, out, back, tc)
		}
		for _, p := range tc.Periods {
			if p.Time <= 0 || p.Time > maxTCDuration || p.Increment < 0 || p.Increment > maxTCDuration || p.Moves < 0 {
				t.Fatalf("%q: period out of range: %+v", s, p)
			}
		}
	})
}
