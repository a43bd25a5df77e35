package cluster

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// Time controls can be scaled per worker, as OpenBench and fishtest do by
// an engine's nodes per second: the coordinator measures its machine
// (Speed), and a worker whose machine is slower gives every engine more
// time in proportion (a faster one less), between a quarter and four
// times the event's. The measure is the move generator's speed (English
// perft from the start position), not the engines' own: an engine has no
// standard benchmark command in Hub or DXP. The factor is recorded in the
// game (PDN tag TimeScale), and the PDN's TimeControl is the scaled one.

var speed struct {
	once sync.Once
	nps  float64
}

// Speed is this machine's speed in perft nodes per second (measured once,
// for about a quarter of a second).
func Speed() float64 {
	speed.once.Do(func() {
		v, err := rules.Lookup("english")
		if err != nil {
			return
		}
		p := rules.NewPosition(v)
		var nodes uint64
		t0 := time.Now()
		for time.Since(t0) < 250*time.Millisecond {
			nodes += rules.Perft(p, 7, false)
		}
		speed.nps = float64(nodes) / time.Since(t0).Seconds()
	})
	return speed.nps
}

// timeFactor is the factor a worker of speed own applies to the times of
// an event measured at ref: ref/own, kept to [0.25, 4] and two decimals.
func timeFactor(ref, own float64) float64 {
	if ref <= 0 || own <= 0 || math.IsNaN(ref/own) {
		return 1
	}
	f := math.Min(4, math.Max(0.25, ref/own))
	return math.Round(f*100) / 100
}

// scaleTC multiplies every time of tc by f; move counts and search limits
// stay.
func scaleTC(tc arbiter.TimeControl, f float64) arbiter.TimeControl {
	mul := func(d time.Duration) time.Duration { return time.Duration(math.Round(float64(d) * f)) }
	out := tc
	out.Periods = make([]arbiter.Period, len(tc.Periods))
	for i, p := range tc.Periods {
		out.Periods[i] = arbiter.Period{Moves: p.Moves, Time: mul(p.Time), Increment: mul(p.Increment)}
	}
	if tc.Periods == nil {
		out.Periods = nil
	}
	out.Delay, out.Bronstein, out.PerMove = mul(tc.Delay), mul(tc.Bronstein), mul(tc.PerMove)
	return out
}

// tagTimeScale records the factor in a game's PDN (tag TimeScale, with
// both speeds).
func tagTimeScale(text string, f, ref, own float64) (string, error) {
	g, err := pdn.NewReader(strings.NewReader(text), "").Next()
	if err != nil {
		return text, err
	}
	g.SetTag("TimeScale", fmt.Sprintf("%.2f (worker %.0f, coordinator %.0f perft nodes/s)", f, own, ref))
	var b strings.Builder
	if err := pdn.Write(&b, g); err != nil {
		return text, err
	}
	return b.String(), nil
}
