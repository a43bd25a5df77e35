package hub

import (
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
)

func TestLevel1(t *testing.T) {
	tests := []struct {
		lv   match.Level
		want string
	}{
		{match.Level{Time: 10 * time.Second, Inc: 100 * time.Millisecond}, "level 0 9900 100\n"},
		{match.Level{Time: 60 * time.Second, MovesToGo: 40}, "level 40 60000 0\n"},
		{match.Level{Time: 50 * time.Millisecond, Inc: 5 * time.Second}, "level 0 0 50\n"}, // less than the increment
		{match.Level{MoveTime: 1500 * time.Millisecond}, "time 1500\n"},
		{match.Level{MoveTime: time.Microsecond}, "time 1\n"},
		{match.Level{Depth: 7}, "depth 7\n"},
		{match.Level{Nodes: 1000}, ""}, // Hub-1 has no node limit
		{match.Level{}, ""},
	}
	for _, tt := range tests {
		if got := string(appendLevel1(nil, tt.lv)); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.lv, got, tt.want)
		}
	}
}

func TestInfo1(t *testing.T) {
	tests := []struct{ in, want string }{
		{"info 14 12.3 -25 123456 1.52 0.8 32-28 17-22 28x17x22", `info depth=14 mean-depth=12.3 score=-0.25 nodes=123456 time=1.52 nps=0.8 pv="32-28 17-22 28x17x22"`},
		{"info 1 1.0 7 10 0.00 0.0 32-28", `info depth=1 mean-depth=1.0 score=0.07 nodes=10 time=0.00 nps=0.0 pv=32-28`},
		{"info 1 1.0 7 10 0.00 0.0", `info depth=1 mean-depth=1.0 score=0.07 nodes=10 time=0.00 nps=0.0`},
		{"info depth=3 score=0.1", "info depth=3 score=0.1"}, // not positional: kept
		{"info 1 2 x 4 5 6", "info 1 2 x 4 5 6"},
		{`info 1 1.0 7 10 0.00 0.0 "odd`, `info depth=1 mean-depth=1.0 score=0.07 nodes=10 time=0.00 nps=0.0 pv='odd`},
	}
	for _, tt := range tests {
		if got := info1(tt.in); got != tt.want {
			t.Errorf("info1(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The rewritten info line of any input is either the input or a line that
// parses; moveArgs1 never panics.
func FuzzInfo1(f *testing.F) {
	f.Add("info 14 12.3 -25 123456 1.52 0.8 32-28 17-22")
	f.Add("move 32-28 17-22")
	f.Add("info 1 1 1 1 1 1 \"=\"")
	f.Fuzz(func(t *testing.T, s string) {
		moveArgs1(s)
		got := info1(s)
		if got == s {
			return
		}
		if _, err := ParseLine(got); err != nil {
			t.Fatalf("info1(%q) = %q, which does not parse: %v", s, got, err)
		}
	})
}

// doneArgs reads what ParseLine reads, or leaves the line to it.
func TestDoneArgs(t *testing.T) {
	tests := []struct {
		raw          string
		move, ponder string
		ok           bool
	}{
		{"done move=32-28", "32-28", "", true},
		{"done move=28x19x23 ponder=17-22", "28x19x23", "17-22", true},
		{"done ponder=17-22 move=32-28", "32-28", "17-22", true},
		{"done", "", "", false},
		{"done move=", "", "", false},
		{`done move="32-28"`, "", "", false},
		{"done move=32-28  ponder=1-2", "", "", false}, // two spaces: an empty token
		{"done move=32-28 score=1", "", "", false},
		{"done move=32-28 move=1-2", "", "", false},
		{"done\tmove=32-28", "", "", false},
		{"done move=32-28\x01", "", "", false},
		{"done move=a=b", "", "", false},
		{"done move=32-28 ", "32-28", "", true}, // a trailing space, as ParseLine allows
	}
	for _, tt := range tests {
		m, p, ok := doneArgs(tt.raw)
		if m != tt.move || p != tt.ponder || ok != tt.ok {
			t.Errorf("doneArgs(%q) = %q, %q, %v", tt.raw, m, p, ok)
		}
		if ok {
			l, err := ParseLine(tt.raw)
			lm, _ := l.Get("move")
			lp, _ := l.Get("ponder")
			if err != nil || lm != m || lp != p {
				t.Errorf("%q: ParseLine gives %q %q %v", tt.raw, lm, lp, err)
			}
		}
	}
}

// Whatever doneArgs accepts, ParseLine reads the same way.
func FuzzDoneArgs(f *testing.F) {
	f.Add("done move=32-28 ponder=17-22")
	f.Add("done move=1x2x3")
	f.Fuzz(func(t *testing.T, s string) {
		m, p, ok := doneArgs(s)
		if !ok {
			return
		}
		l, err := ParseLine(s)
		if err != nil {
			t.Fatalf("doneArgs accepts %q, ParseLine does not: %v", s, err)
		}
		lm, _ := l.Get("move")
		lp, _ := l.Get("ponder")
		if lm != m || lp != p {
			t.Fatalf("%q: doneArgs %q %q, ParseLine %q %q", s, m, p, lm, lp)
		}
	})
}
