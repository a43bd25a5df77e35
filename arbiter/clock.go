package arbiter

import "time"

// Clock is the time source; tests use a fake one.
type Clock interface{ Now() time.Time }

// realClock reads time.Now, whose readings carry Go's monotonic clock, so
// differences between them are immune to wall-clock jumps.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// RealClock returns the clock a Referee uses when Config.Clock is nil.
func RealClock() Clock { return realClock{} }

// sideClock is the state of one side's clock under its TimeControl.
//
// The margin (Config.Margin) absorbs scheduling noise; it is not time. It
// is one allowance per side for the whole game: every move that takes
// longer than its limit (an overspend) uses up part of it, and the flag
// falls on the move whose overspend passes what is left. A clock never goes
// below zero (the overspend is booked against the margin, not the clock),
// so the time shown and sent to the engine is what it may still use, and
// an increment or a new period never pays an overspend back: without that,
// an engine with an empty clock could take the whole margin again on every
// later move.
type sideClock struct {
	tc        TimeControl
	period    int           // index into tc.Periods
	moves     int           // moves made in the current period
	remaining time.Duration // bank at the start of the side's turn, >= 0
	overspent time.Duration // sum of the moves' time past their limits
}

func newSideClock(tc TimeControl) sideClock {
	c := sideClock{tc: tc}
	switch {
	case len(tc.Periods) > 0:
		c.remaining = tc.Periods[0].Time
	case tc.PerMove > 0:
		c.remaining = tc.PerMove
	}
	return c
}

// limit is the longest a move may take before it starts to use the margin.
func (c *sideClock) limit() time.Duration {
	if c.tc.PerMove > 0 {
		return c.tc.PerMove
	}
	return c.remaining + c.tc.Delay
}

// marginLeft is what the earlier moves' overspends left of margin.
func (c *sideClock) marginLeft(margin time.Duration) time.Duration {
	return max(0, margin-c.overspent)
}

// flagged reports whether a move that took used has overstepped the limit
// by more than the margin left: exactly when used > limit + marginLeft.
func (c *sideClock) flagged(used, margin time.Duration) bool {
	return c.tc.Timed() && used > c.limit()+c.marginLeft(margin)
}

// charge books a completed (unflagged) move that took used.
func (c *sideClock) charge(used time.Duration) {
	if !c.tc.Timed() {
		return
	}
	c.overspent += max(0, used-c.limit())
	if c.tc.PerMove > 0 {
		return
	}
	// taken is what the move takes off the bank: nothing during a simple
	// delay, never more than the bank holds (the rest was overspent).
	taken := min(max(0, used-c.tc.Delay), c.remaining)
	c.remaining -= taken
	if c.tc.Bronstein > 0 {
		// A Bronstein delay gives back what the move took, up to the delay.
		c.remaining += min(taken, c.tc.Bronstein)
	}
	p := c.tc.Periods[c.period]
	c.remaining = min(c.remaining+p.Increment, 100*maxTCDuration)
	c.moves++
	if p.Moves > 0 && c.moves == p.Moves {
		c.moves = 0
		if c.period+1 < len(c.tc.Periods) {
			c.period++
		}
		c.remaining = min(c.remaining+c.tc.Periods[c.period].Time, 100*maxTCDuration)
	}
}

// movesToGo is the number of moves left in the current period, 0 when the
// period runs to the end of the game.
func (c *sideClock) movesToGo() int {
	if len(c.tc.Periods) == 0 {
		return 0
	}
	p := c.tc.Periods[c.period]
	if p.Moves == 0 {
		return 0
	}
	return p.Moves - c.moves
}

// ShowDuration is d as people read it, in a result's reason, a PDN comment
// or a page: to the hundredth of a second from a second up ("4.05s",
// "1m4.05s"), to the millisecond below ("850ms"), to the microsecond below
// a millisecond.
func ShowDuration(d time.Duration) string { return d.Round(showPrecision(d)).String() }

// showAbove is ShowDuration for a time that exceeded bound (a flag's used
// time against the limit and margin): finer where the hundredth would hide
// the excess ("1.101s" against 1.1s), to the nanosecond at the most.
func showAbove(d, bound time.Duration) string {
	for p := showPrecision(d); p > 1; p /= 10 {
		if d.Round(p) > bound {
			return d.Round(p).String()
		}
	}
	return d.String()
}

func showPrecision(d time.Duration) time.Duration {
	switch {
	case d < 0:
		return showPrecision(-d)
	case d >= time.Second:
		return 10 * time.Millisecond
	case d >= time.Millisecond:
		return time.Millisecond
	}
	return time.Microsecond
}
