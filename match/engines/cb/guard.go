package cb

import (
	"math"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
)

// guard keeps an engine that overshoots its time inside the arbiter's
// clock, as a careful GUI does. CheckerBoard never enforced a clock, so
// its engines time themselves by CPU time or by their own average and
// overshoot by a few percent (Simple Checkers, Cake), more on a loaded
// machine, where their CPU time runs slower than the wall clock the
// arbiter keeps. The guard
//   - hands getmove a share of what the clock allows: the allowance less a
//     reserve for returning the move, divided by the engine's overshoot
//     (the ratio of the wall time it took to the maxtime it was given,
//     learned move by move for as long as the host runs, which is the
//     event: the host is reused between games);
//   - raises *playnow at the deadline, the allowance less the reserve, so
//     that the engine returns its best move in time; the reserve grows with
//     the time the engine was seen to take to answer *playnow.
//
// The allowance is what the arbiter's clock lets this move take: the
// fixed time of a move (CB_EXACT_TIME), or the time left on the clock
// (Hub "time", which counts the increment of this move only once it is
// made). The arbiter's margin is not the host's to spend: it absorbs the
// pipes and the scheduler.
type guard struct {
	off bool // the host's protection is switched off (cb-host --no-guard)
	// ratio is the learned overshoot per kind of search: [0] a fixed time
	// per move (CB_EXACT_TIME), [1] a clock. At least 1.
	ratio [2]float64
	// stopLatency is the longest time, decaying slowly, from the deadline
	// to the engine's return when the host had to stop it: the engine's
	// answer to *playnow and the host's own wake-up on a loaded machine.
	stopLatency time.Duration
	// Counts for the engine log's "info" line of each move.
	moves, raised int
}

// plan is getmove's arguments for one move and the host's deadline.
type plan struct {
	maxtime        float64
	info, moreinfo int32
	kind           int           // index into guard.ratio; -1 when not learned
	deadline       time.Duration // after "go" the host raises *playnow; 0 never
	allowance      time.Duration
}

const (
	// reserveBase is the least reserve: the pipe to the arbiter and back and
	// a wake-up of the host.
	reserveBase = 3 * time.Millisecond
	// initialStopLatency is assumed before the engine was ever stopped.
	initialStopLatency = 2 * time.Millisecond
	initialRatio       = 1.1 // the few percent such engines overshoot
	maxRatio           = 50.0
	// softShare is how much of the time left after the reserve the learned
	// share aims at, so that the deadline is the exception.
	softShare = 0.9
)

func newGuard(off bool) *guard {
	return &guard{off: off, ratio: [2]float64{initialRatio, initialRatio}, stopLatency: initialStopLatency}
}

// reserve is what the host keeps back of an allowance for the engine to
// answer *playnow and for the move to reach the arbiter: a base, 10% of
// the allowance (at most 200ms: the scheduler of a loaded machine stalls a
// process for a tenth of a second and more) and twice
// the engine's stop latency; at most three quarters of the allowance, so
// that a slow stop (or a machine so loaded that the host wakes late) does
// not leave the engine no time at all.
func (g *guard) reserve(allowance time.Duration) time.Duration {
	return min(reserveBase+min(allowance/10, 200*time.Millisecond)+2*g.stopLatency, allowance*3/4)
}

// plan turns a Hub level into getmove's maxtime, info and moreinfo and the
// host's deadline. A fixed time per move is maxtime with CB_EXACT_TIME; a
// clock is a share of it (the time left over the moves to go, 30 without a
// move count, plus the increment, at most half the clock) with the clock
// and increment packed into moreinfo as CheckerBoard does; with the guard
// on, both are the engine's share of what is left after the reserve,
// divided by its overshoot. CheckerBoard has no depth or node limit: those
// get one second a move; no limit at all, a day (until "stop"); neither
// has a deadline.
func (g *guard) plan(lv match.Level) plan {
	switch {
	case lv.MoveTime > 0:
		p := plan{maxtime: lv.MoveTime.Seconds(), info: ExactTime, kind: 0, allowance: lv.MoveTime}
		if !g.off {
			p.deadline = lv.MoveTime - g.reserve(lv.MoveTime)
			p.maxtime = max(p.deadline.Seconds()*softShare/g.ratio[0], 0.001)
		}
		return p
	case lv.Time > 0 || lv.Inc > 0:
		// time=0 with an increment is a clock, not "no limit": Hub sends
		// it when the clock holds no more than the increment (hub.hubClock),
		// the last moves of 1+0.01; read as no limit, the engine thought
		// until the flag.
		togo := lv.MovesToGo
		if togo <= 0 {
			togo = 30
		}
		clock, inc := lv.Time, lv.Inc
		p := plan{kind: 1, allowance: lv.Time}
		if !g.off {
			p.deadline = max(lv.Time-g.reserve(lv.Time), time.Microsecond)
			// The engine is told the clock as the host will let it use
			// it: what is left after the reserve, slowed by its overshoot.
			r := g.ratio[1]
			clock = time.Duration(float64(p.deadline) * softShare / r)
			inc = time.Duration(float64(lv.Inc) * softShare / r)
		}
		share := min(clock/time.Duration(togo)+inc, clock/2)
		p.maxtime = max(share.Seconds(), 0.001)
		unit, mode := 0.001, int32(1)
		for clock.Seconds()/unit > math.MaxUint16 && mode < 3 {
			unit, mode = unit*10, mode+1
		}
		rem := min(clock.Seconds()/unit, math.MaxUint16)
		incu := min(inc.Seconds()/unit, math.MaxUint16)
		p.info, p.moreinfo = mode<<IncrTimeShift, int32(uint32(rem)<<16|uint32(incu))
		return p
	case lv.Depth > 0 || lv.Nodes > 0:
		return plan{maxtime: 1, kind: -1}
	}
	return plan{maxtime: 86400, kind: -1}
}

// learn books a search that took took, stopped by the host's *playnow
// when raised. An engine that returned on
// its own after using at least half its maxtime shows its overshoot; one
// the host stopped shows at least the overshoot it had reached, and how
// long after the deadline it returned (the host's timer is late on a
// loaded machine, and the engine looks at *playnow only so often). Under a fixed time per move each move
// must fit, so the ratio follows the slowest moves: it rises half way to
// what was seen and falls by a twentieth of the way. Under a clock the
// average is what spends the clock (the deadline stops a single long
// move, such as a fail low), so it follows the moves by an eighth.
func (g *guard) learn(p plan, took time.Duration, raised bool) {
	g.moves++
	if p.kind < 0 || g.off {
		return
	}
	if raised {
		g.raised++
	}
	// A search that ended after the deadline, stopped or not (the host's
	// timer woke late), shows how late the host must be early.
	if late := p.deadline > 0 && took > p.deadline; raised || late {
		lat := max(took-p.deadline, 0)
		if lat > g.stopLatency {
			g.stopLatency += (lat - g.stopLatency) / 2
		} else {
			g.stopLatency -= (g.stopLatency - lat) / 20
		}
	}
	seen := took.Seconds() / p.maxtime
	if !raised && seen < 0.5 {
		return // a forced or book move says nothing of its timing
	}
	r := &g.ratio[p.kind]
	switch {
	case p.kind == 1:
		*r += (seen - *r) / 8
	case seen > *r:
		*r += (seen - *r) / 2
	case !raised:
		*r -= (*r - seen) / 20
	}
	*r = min(max(*r, 1), maxRatio)
}
