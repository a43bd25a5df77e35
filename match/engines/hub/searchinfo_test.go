package hub

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/draughts-arbiter/arbiter/rules"
)

func TestParseSearchInfo(t *testing.T) {
	for _, tt := range []struct {
		line string
		want SearchInfo
	}{
		{"info depth=12 mean-depth=10.5 score=0.31 nodes=12345 time=0.52 nps=1.2 pv=\"32-28 19-23\"",
			SearchInfo{Score: 0.31, HasScore: true, Depth: 12, Nodes: 12345, Time: 520 * time.Millisecond, HasTime: true, PV: "32-28 19-23"}},
		{"info depth=1 time=0", SearchInfo{Depth: 1, HasTime: true}}, // an instant move: reported, not missing
		{"info score=-5.00", SearchInfo{Score: -5, HasScore: true}},
		{"info depth=3", SearchInfo{Depth: 3}},
		{"info score=NaN depth=-1 nodes=x time=-2", SearchInfo{}},
		{"done move=32-28", SearchInfo{}},
		{"", SearchInfo{}},
		{"info \"unterminated", SearchInfo{}},
	} {
		if got := ParseSearchInfo(tt.line); got != tt.want {
			t.Errorf("ParseSearchInfo(%q) = %+v, want %+v", tt.line, got, tt.want)
		}
	}
}

// The record reads every move's info line once the game is over: an
// engine's usual line, and one with more arguments than the parser's room
// on the stack, are read without an allocation or with the one slice
// ParseLine makes, and read the same either way.
func TestParseSearchInfoAllocations(t *testing.T) {
	usual := `info depth=12 mean-depth=10.5 score=0.31 nodes=12345 time=0.52 nps=1.2 pv="32-28 19-23"`
	if n := testing.AllocsPerRun(100, func() { ParseSearchInfo(usual) }); n != 0 {
		t.Errorf("ParseSearchInfo of a usual line: %.0f allocations, want 0", n)
	}
	long := "info" + strings.Repeat(" x=1", 20) + " depth=7 score=0.5"
	if n := testing.AllocsPerRun(100, func() { ParseSearchInfo(long) }); n > 1 {
		t.Errorf("ParseSearchInfo of a line of 22 arguments: %.0f allocations, want at most 1", n)
	}
	if got := ParseSearchInfo(long); got.Depth != 7 || got.Score != 0.5 {
		t.Errorf("ParseSearchInfo(%q) = %+v, want depth 7 and score 0.5", long, got)
	}
}

func FuzzParseSearchInfo(f *testing.F) {
	f.Add("info depth=12 score=0.31 nodes=5 time=0.1 pv=\"32-28\"")
	f.Add("info score=1e400")
	f.Add("info pv=\"32-28  19-23\"")
	f.Fuzz(func(t *testing.T, line string) {
		in := ParseSearchInfo(line)
		if in.Depth < 0 || in.Nodes < 0 || in.Time < 0 {
			t.Errorf("ParseSearchInfo(%q) = %+v", line, in)
		}
		if got, want := squashSpaces(line), strings.Join(strings.Fields(line), " "); got != want {
			t.Errorf("squashSpaces(%q) = %q, want %q", line, got, want)
		}
	})
}

// A PV is kept as words separated by single spaces, whatever spaces the
// engine put between them; one that is already so is not copied.
func TestSquashSpaces(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"32-28 19-23", "32-28 19-23"},
		{"32-28", "32-28"},
		{"", ""},
		{" ", ""},
		{" 32-28", "32-28"},
		{"32-28 ", "32-28"},
		{"32-28  19-23", "32-28 19-23"},
		{"32-28\t19-23", "32-28 19-23"},
		{"32-28\r\n", "32-28"},
		{"32-28\u00a019-23", "32-28 19-23"}, // a no-break space is a space to strings.Fields
		{"é 1", "é 1"},
	} {
		if got := squashSpaces(tt.in); got != tt.want {
			t.Errorf("squashSpaces(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	clean := "32-28 19-23 28x19"
	if got := squashSpaces(clean); unsafe.StringData(got) != unsafe.StringData(clean) {
		t.Errorf("squashSpaces copied a clean PV")
	}
}

// A principal variation reads in the variant's PDN notation: Hub's long
// captures (from, to, then the pieces taken) become "26x17"; a move the
// position does not allow ends the reading, kept as the engine wrote it.
func TestPDNLine(t *testing.T) {
	v, err := rules.Lookup("english")
	if err != nil {
		t.Fatal(err)
	}
	start := rules.NewPosition(v)
	// 1. 11-15 22-18: black to move can take 15x22.
	p := start
	for _, mv := range []string{"11-15", "22-18"} {
		m, err := p.ParseMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
	}
	for _, tt := range []struct {
		p        rules.Position
		pv, want string
	}{
		{p, "15x22x18 25x18x22", "15x22 25x18"},
		{start, "11-15 22-18", "11-15 22-18"},
		{p, "15x22x18 1-2 9-13", "15x22 1-2 9-13"}, // 1-2 is no move: the rest as written
		{p, "", ""},
		{start, " 11-15 \t22-18\n", "11-15 22-18"},
		{start, "11-15", "11-15"},
		{start, "x", "x"},
	} {
		if got := PDNLine(tt.p, tt.pv); got != tt.want {
			t.Errorf("PDNLine(%q) = %q, want %q", tt.pv, got, tt.want)
		}
	}
}

// PDNLineAfter writes what PDNLine writes, whether the PV begins with the
// move played (its text then taken as given), with that move's captures in
// another order, or with another move: along random games of two variants,
// with PVs of one to three moves.
func TestPDNLineAfterIsPDNLine(t *testing.T) {
	for _, name := range []string{"english", "international"} {
		v, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, uint64(len(name))))
		shortcuts := 0
		for game := 0; game < 40; game++ {
			p := rules.NewPosition(v)
			for ply := 0; ply < 200 && p.HasMoves(); ply++ {
				ms := p.LegalMoves()
				m := ms[rng.IntN(len(ms))]
				next := p.Play(m)
				// The PV: the move played (or another), then up to two replies.
				first := m
				if rng.IntN(4) == 0 {
					first = ms[rng.IntN(len(ms))]
				}
				words := []string{rules.HubMove(first)}
				if first.IsCapture() && rng.IntN(2) == 0 {
					words[0] = reversedCaptures(first)
				}
				q := p.Play(first)
				for range rng.IntN(3) {
					if !q.HasMoves() {
						break
					}
					r := q.LegalMoves()[0]
					words = append(words, rules.HubMove(r))
					q = q.Play(r)
				}
				pv := strings.Join(words, " ")
				want := PDNLine(p, pv)
				if got := PDNLineAfter(p, m, p.MoveText(m), pv); got != want {
					t.Fatalf("%s: PDNLineAfter(%s, played %s, %q) = %q; PDNLine says %q", name, p.FEN(), p.MoveText(m), pv, got, want)
				}
				if words[0] == rules.HubMove(m) {
					shortcuts++
				}
				p = next
			}
		}
		if shortcuts == 0 {
			t.Errorf("%s: no PV began with the move played", name)
		}
	}
}

// reversedCaptures is m in Hub notation with its taken squares listed
// from the highest.
func reversedCaptures(m rules.Move) string {
	f := strings.Split(rules.HubMove(m), "x")
	slices.Reverse(f[2:])
	return strings.Join(f, "x")
}
