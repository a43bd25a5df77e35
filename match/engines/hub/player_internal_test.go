package hub

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/rules"
)

func TestFirstPing(t *testing.T) {
	const iv = 10 * time.Second
	tests := []struct {
		name string
		lv   match.Level
		want time.Duration
	}{
		{"blitz: the interval", match.Level{Time: 30 * time.Second, Inc: time.Second}, iv},
		{"1 min + 1 s: 3 x 4 s", match.Level{Time: 60 * time.Second, Inc: time.Second}, 12 * time.Second},
		{"30 moves in 60 min: 3 x 2 min", match.Level{MovesToGo: 30, Time: time.Hour}, 6 * time.Minute},
		{"90 min sudden death: 3 x 4.5 min", match.Level{Time: 90 * time.Minute}, 810 * time.Second},
		{"fixed 1 min a move", match.Level{MoveTime: time.Minute}, 3 * time.Minute},
		{"depth only", match.Level{Depth: 20}, iv},
	}
	for _, tt := range tests {
		if got := firstPing(tt.lv, iv); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Texts cut for a reason or a record stay valid UTF-8 (they end up in PDN).
func TestTruncate(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 64, "short"},
		{"abcdef", 3, "abc..."},
		{"aé", 2, "a..."}, // é is 2 bytes: not cut in half
		{"ééé", 3, "é..."},
	} {
		got := truncate(tt.s, tt.n)
		if got != tt.want || !utf8.ValidString(got) {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

// The info lines kept per move are the last ones, within both bounds.
func TestKeepInfoIsBounded(t *testing.T) {
	tests := []struct {
		name      string
		line      string
		n         int
		wantLines int
	}{
		{"short lines", "info depth=1", 1000, MaxInfoLines},
		{"long lines", "info pv=" + strings.Repeat("x", 30000), 100, 2},
		{"one huge line", "info pv=" + strings.Repeat("x", MaxInfoBytes+10), 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var info []string
			for i := 0; i < tt.n; i++ {
				info = keepInfo(info, tt.line+" "+strconv.Itoa(i))
			}
			if len(info) != tt.wantLines {
				t.Errorf("%d lines kept, want %d", len(info), tt.wantLines)
			}
			if last := info[len(info)-1]; !strings.HasSuffix(last, " "+strconv.Itoa(tt.n-1)) {
				t.Errorf("the last line kept is not the last one sent")
			}
			if cap(info) > 4*MaxInfoLines {
				t.Errorf("the slice grew to %d", cap(info))
			}
		})
	}
}

// A Scan-like engine is told the variant by the name Scan gives it (its
// variant parameter offers normal, killer, bt, frisian and losing).
func TestScanVariantNames(t *testing.T) {
	scan := Param{Name: "variant", Value: "normal", Type: "enum", Values: strings.Fields("normal killer bt frisian losing")}
	for _, tc := range []struct{ variant, want string }{
		{"international", ""}, // already Scan's value
		{"killer", "killer"},
		{"breakthrough", "bt"},
		{"antidraughts", "losing"},
		{"frisian", "frisian"},
	} {
		e := &Player{params: []Param{scan}}
		got, err := e.settings(rules.MustLookup(tc.variant))
		if err != nil {
			t.Errorf("%s: %v", tc.variant, err)
			continue
		}
		value := ""
		if len(got) > 0 {
			value = got[0].Value
		}
		if value != tc.want {
			t.Errorf("%s: set-param variant %q, want %q", tc.variant, value, tc.want)
		}
	}
}

func TestCommand(t *testing.T) {
	for raw, want := range map[string]string{
		"done move=32-28":  "done",
		"done":             "done",
		"  \tinfo depth=3": "info",
		"pong\t":           "pong",
		"":                 "",
		" \t ":             "",
		"wait\r":           "wait\r",
	} {
		if got := command(raw); got != want {
			t.Errorf("command(%q) = %q, want %q", raw, got, want)
		}
	}
}
