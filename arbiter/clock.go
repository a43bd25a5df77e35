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
type sideClock struct {
	tc        TimeControl
	period    int           // index into tc.Periods
	moves     int           // moves made in the current period
	remaining time.Duration // bank at the start of the side's turn
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

// limit is the longest a move may take before the flag falls, before the
// margin is added.
func (c *sideClock) limit() time.Duration {
	if c.tc.PerMove > 0 {
		return c.tc.PerMove
	}
	return c.remaining + c.tc.Delay
}

// flagged reports whether a move that took used has overstepped the limit:
// exactly when used > limit + margin.
func (c *sideClock) flagged(used, margin time.Duration) bool {
	return c.tc.Timed() && used > c.limit()+margin
}

// charge books a completed move that took used.
func (c *sideClock) charge(used time.Duration) {
	if !c.tc.Timed() || c.tc.PerMove > 0 {
		return
	}
	cost := used
	// A simple delay and a Bronstein delay cost the same for a completed
	// move; they differ only in when the flag falls (limit).
	if d := c.tc.Delay + c.tc.Bronstein; d > 0 {
		cost = max(0, used-d)
	}
	p := c.tc.Periods[c.period]
	c.remaining = c.remaining - cost
	if c.remaining < 0 {
		// Only possible within the margin, which is forgiven.
		c.remaining = 0
	}
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
