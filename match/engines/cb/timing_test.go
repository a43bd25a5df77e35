package cb

import (
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/rules"
)

// pack is moreinfo's clock: remaining time in the upper 16 bits (an int
// in C, read back through uint16), increment in the lower.
func pack(rem, inc uint32) int32 { return int32(rem<<16 | inc) }

func TestTiming(t *testing.T) {
	tests := []struct {
		lv             match.Level
		maxtime        float64
		info, moreinfo int32
	}{
		{match.Level{MoveTime: 1500 * time.Millisecond}, 1.5, ExactTime, 0},
		// 60 s on the clock (time=59.9 inc=0.1): a thirtieth plus the increment; ms units.
		{match.Level{Time: 59900 * time.Millisecond, Inc: 100 * time.Millisecond}, 59.9/30 + 0.1, 1 << IncrTimeShift, pack(60000, 100)},
		// 10 minutes do not fit 16 bits of ms: tenths... hundredths of a second.
		{match.Level{Time: 600 * time.Second, MovesToGo: 40}, 15, 2 << IncrTimeShift, pack(60000, 0)},
		// A short clock: at most half of it.
		{match.Level{Time: 100 * time.Millisecond, Inc: 1 * time.Second, MovesToGo: 1}, 0.55, 1 << IncrTimeShift, pack(1100, 1000)},
		{match.Level{Depth: 5}, 1, 0, 0},
		{match.Level{}, 86400, 0, 0},
	}
	for _, tt := range tests {
		mt, info, more := timing(tt.lv)
		if d := mt - tt.maxtime; d > 1e-9 || d < -1e-9 || info != tt.info || more != tt.moreinfo {
			t.Errorf("%+v: maxtime %v info %d moreinfo %#x, want %v %d %#x", tt.lv, mt, info, more, tt.maxtime, tt.info, tt.moreinfo)
		}
	}
}

// The move is read from the board the engine returns; without a change
// that shows one move, from its CBmove.
func TestMoveText(t *testing.T) {
	h := &host{lib: &Lib{GameType: GTEnglish}}
	v := rules.MustLookup("english")
	p := rules.NewPosition(v)
	var before Board
	h.toBoard(p, &before)
	// Black (first) plays 11-15 on the board.
	after := before
	x, y := NumberToCoor(11, GTEnglish)
	after[x][y] = Free
	x, y = NumberToCoor(15, GTEnglish)
	after[x][y] = Black | Man
	if got := h.moveText(&before, &after, Black, &Move{}); got != "11-15" {
		t.Errorf("board move: %q", got)
	}
	// A capture whose board shows it.
	b2 := Board{}
	set := func(b *Board, n int, v int32) { x, y := NumberToCoor(n, GTEnglish); b[x][y] = v }
	set(&b2, 18, White|Man)
	set(&b2, 14, Black|Man)
	a2 := b2
	set(&a2, 18, Free)
	set(&a2, 14, Free)
	set(&a2, 9, White|Man)
	if got := h.moveText(&b2, &a2, White, &Move{}); got != "18x9x14" {
		t.Errorf("board capture: %q", got)
	}
	// No change on the board: the CBmove says 22-17.
	var m Move
	fx, fy := NumberToCoor(22, GTEnglish)
	tx, ty := NumberToCoor(17, GTEnglish)
	m.From, m.To = Coor{int32(fx), int32(fy)}, Coor{int32(tx), int32(ty)}
	if got := h.moveText(&before, &before, White, &m); got != "22-17" {
		t.Errorf("CBmove: %q", got)
	}
}
