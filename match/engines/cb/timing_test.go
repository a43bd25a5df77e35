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

// Without the guard, getmove gets the level as it stands. The clock is
// the time left, without this move's increment: the arbiter adds that only
// once the move is made (arbiter's sideClock.charge).
func TestTimingNoGuard(t *testing.T) {
	tests := []struct {
		lv             match.Level
		maxtime        float64
		info, moreinfo int32
	}{
		{match.Level{MoveTime: 1500 * time.Millisecond}, 1.5, ExactTime, 0},
		// 60 s on the clock (time=59.9 inc=0.1): a thirtieth plus the increment; ms units.
		{match.Level{Time: 59900 * time.Millisecond, Inc: 100 * time.Millisecond}, 59.9/30 + 0.1, 1 << IncrTimeShift, pack(59900, 100)},
		// 10 minutes do not fit 16 bits of ms: tenths... hundredths of a second.
		{match.Level{Time: 600 * time.Second, MovesToGo: 40}, 15, 2 << IncrTimeShift, pack(60000, 0)},
		// A short clock: at most half of it.
		{match.Level{Time: 100 * time.Millisecond, Inc: 1 * time.Second, MovesToGo: 1}, 0.05, 1 << IncrTimeShift, pack(100, 1000)},
		{match.Level{Depth: 5}, 1, 0, 0},
		{match.Level{}, 86400, 0, 0},
	}
	for _, tt := range tests {
		p := newGuard(true).plan(tt.lv)
		mt, info, more := p.maxtime, p.info, p.moreinfo
		if p.deadline != 0 {
			t.Errorf("%+v: a deadline (%v) without the guard", tt.lv, p.deadline)
		}
		if d := mt - tt.maxtime; d > 1e-9 || d < -1e-9 || info != tt.info || more != tt.moreinfo {
			t.Errorf("%+v: maxtime %v info %d moreinfo %#x, want %v %d %#x", tt.lv, mt, info, more, tt.maxtime, tt.info, tt.moreinfo)
		}
	}
}

// With the guard, the engine is given less than the allowance and stopped
// before it; what it overshoots and how slowly it stops make it given less.
func TestGuardPlan(t *testing.T) {
	g := newGuard(false)
	for _, lv := range []match.Level{{MoveTime: 50 * time.Millisecond}, {MoveTime: time.Second},
		{Time: time.Second, Inc: 10 * time.Millisecond}, {Time: 20 * time.Millisecond, Inc: 10 * time.Millisecond},
		{Time: time.Minute, MovesToGo: 1}} {
		p := g.plan(lv)
		allow := max(lv.MoveTime, lv.Time)
		if p.deadline <= 0 || p.deadline >= allow || p.deadline < allow/4 {
			t.Errorf("%+v: deadline %v, want within the allowance %v, at least a quarter of it", lv, p.deadline, allow)
		}
		if p.maxtime <= 0 || p.maxtime >= p.deadline.Seconds() {
			t.Errorf("%+v: maxtime %v, want before the deadline %v", lv, p.maxtime, p.deadline)
		}
		if lv.Time > 0 && time.Duration(uint32(p.moreinfo)>>16)*time.Millisecond >= lv.Time {
			t.Errorf("%+v: the engine is told a clock of %dms, want less than the clock", lv, uint32(p.moreinfo)>>16)
		}
	}
	// The last moves of 1+0.01, on the increment: Hub's time=0 inc=0.010
	// is a clock with a deadline inside the 10 ms, never "no limit" (an
	// engine thought until the flag in a loaded run).
	if p := g.plan(match.Level{Inc: 10 * time.Millisecond}); p.kind != 1 || p.deadline <= 0 || p.deadline >= 10*time.Millisecond || p.maxtime > 0.01 {
		t.Errorf("time=0 inc=0.010: kind %d deadline %v maxtime %v, want a clock stopped within 10ms", p.kind, p.deadline, p.maxtime)
	}
	lv := match.Level{MoveTime: time.Second}
	first := g.plan(lv)
	// An engine that takes 20% more than it is given...
	for range 5 {
		p := g.plan(lv)
		g.learn(p, time.Duration(p.maxtime*1.2*float64(time.Second)), false)
	}
	second := g.plan(lv)
	if r := g.ratio[0]; r < 1.15 || r > 1.25 {
		t.Errorf("overshoot learned %v, want about 1.2", r)
	}
	if second.maxtime >= first.maxtime || second.deadline != first.deadline {
		t.Errorf("after overshoots: maxtime %v -> %v (want less), deadline %v -> %v (want the same)", first.maxtime, second.maxtime, first.deadline, second.deadline)
	}
	// ...and that takes 30ms to answer *playnow.
	g.learn(second, second.deadline+30*time.Millisecond, true)
	third := g.plan(lv)
	if third.deadline >= second.deadline || g.raised != 1 || g.moves != 6 {
		t.Errorf("after a slow stop: deadline %v -> %v, stops %d of %d", second.deadline, third.deadline, g.raised, g.moves)
	}
	// A move made at once (forced) teaches nothing.
	r := g.ratio[0]
	g.learn(third, time.Millisecond, false)
	if g.ratio[0] != r {
		t.Errorf("an instant move changed the overshoot %v -> %v", r, g.ratio[0])
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
