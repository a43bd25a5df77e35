package reports

import (
	"fmt"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
)

// The moves' latency (Game.Latency) is the time between a request written
// to an engine and its reply read that the engine did not report as
// thinking: the pipes', the scheduler's and the machine's share of the
// clock. The report sums it per side of each game and per engine, and
// flags it when it is high against the time control: when one move lost
// latencyMaxShare of the time a move has on average, or the moves lost
// latencyMeanShare of it on average. A time forfeit of a side whose
// latency was high is then the machine's doing as much as the engine's.
const (
	latencyMaxShare  = 0.10
	latencyMeanShare = 0.02
	// suddenDeathMoves is how many moves a period without a move count
	// ("300+2") is taken to last when the time a move has is worked out,
	// as engines' own time managers reckon.
	suddenDeathMoves = 40
)

// Latency sums the latency of one side's moves (or of an engine's).
type Latency struct {
	Moves   int   `json:"moves"`
	TotalUS int64 `json:"total_us"` // microseconds, each move's truncated
	MaxUS   int64 `json:"max_us"`
	MeanUS  int64 `json:"mean_us"` // TotalUS / Moves, truncated
	// High says the latency is high against the time control (see
	// latencyMaxShare); never set when the time control gives no clock.
	High bool `json:"high,omitempty"`
	// unknown counts the moves left out: the engine reported no search
	// time (DXP; a Hub engine without time=), so that its thinking and the
	// machine's share cannot be told apart (store.UnknownLatency).
	unknown int
}

// EngineLatency is an engine's latency over its games.
type EngineLatency struct {
	Latency
	// Games counts the engine's games whose latency is known, HighGames
	// those of them where it was high.
	Games     int `json:"games"`
	HighGames int `json:"high_games"`
	// MaxGame is the game of the worst move: its 1-based number in
	// results.json's games (round and board order) and the report's list.
	MaxGame int `json:"max_game,omitempty"`
}

// addEvery adds ds[from], ds[from+2], ... (one side's moves) to l.
func (l *Latency) addEvery(ds []time.Duration, from int) {
	for i := from; i < len(ds); i += 2 {
		if ds[i] < 0 { // unknown
			l.unknown++
			continue
		}
		us := int64(ds[i] / time.Microsecond)
		l.Moves++
		l.TotalUS += us
		l.MaxUS = max(l.MaxUS, us)
	}
	if l.Moves > 0 {
		l.MeanUS = l.TotalUS / int64(l.Moves)
	}
}

// moveBudget is the time a move has on average under a time control
// (0 when it gives no clock, or cannot be read): the fixed time per move,
// or the first period's time over its moves, plus the increment and
// delays.
func moveBudget(timeControl string) time.Duration {
	tc, err := arbiter.ParseTimeControl(timeControl)
	if err != nil {
		return 0
	}
	if tc.PerMove > 0 {
		return tc.PerMove
	}
	if len(tc.Periods) == 0 {
		return 0
	}
	p := tc.Periods[0]
	moves := p.Moves
	if moves <= 0 {
		moves = suddenDeathMoves
	}
	return p.Time/time.Duration(moves) + p.Increment + tc.Delay + tc.Bronstein
}

// high reports whether l is high for a move budget.
func (l Latency) high(budget time.Duration) bool {
	if budget <= 0 || l.Moves == 0 {
		return false
	}
	b := float64(budget / time.Microsecond)
	return float64(l.MaxUS) >= latencyMaxShare*b || float64(l.MeanUS) >= latencyMeanShare*b
}

// sideLatency sums a game's latency by side; a side's ok is false when
// its latency is unknown: the game's (stored before latency was), or that
// of every move it made (its engine reported no search time).
func sideLatency(g *Game, budget time.Duration) (white, black Latency, whiteOK, blackOK bool) {
	if g.Latency == nil {
		return white, black, false, false
	}
	whiteFirst, err := whiteMovesFirst(g.FirstMover)
	if err != nil {
		return white, black, false, false
	}
	first, second := &white, &black
	if !whiteFirst {
		first, second = second, first
	}
	first.addEvery(g.Latency, 0)
	second.addEvery(g.Latency, 1)
	white.High, black.High = white.high(budget), black.high(budget)
	return white, black, white.Moves > 0 || white.unknown == 0, black.Moves > 0 || black.unknown == 0
}

// engineLatencies sums the latency per engine (by index), over the games
// in list order (ordered); nil entries for engines with no known latency.
func engineLatencies(ev Event, index map[string]int, n int) []*EngineLatency {
	budget := moveBudget(ev.TimeControl)
	out := make([]*EngineLatency, n)
	for k, gi := range ordered(ev.Games) {
		g := &ev.Games[gi]
		w, b, wok, bok := sideLatency(g, budget)
		for _, side := range []struct {
			engine string
			l      Latency
			ok     bool
		}{{g.White, w, wok}, {g.Black, b, bok}} {
			i, known := index[side.engine]
			if !known || !side.ok {
				continue
			}
			e := out[i]
			if e == nil {
				e = &EngineLatency{}
				out[i] = e
			}
			e.Games++
			if side.l.High {
				e.HighGames++
			}
			if side.l.Moves == 0 {
				continue
			}
			if e.Moves == 0 || side.l.MaxUS > e.MaxUS {
				e.MaxGame = k + 1
			}
			e.Moves += side.l.Moves
			e.TotalUS += side.l.TotalUS
			e.MaxUS = max(e.MaxUS, side.l.MaxUS)
			e.MeanUS = e.TotalUS / int64(e.Moves)
		}
	}
	for _, e := range out {
		if e != nil {
			e.High = e.Latency.high(budget)
		}
	}
	return out
}

// fmtMicros prints microseconds in the unit that fits: "35 µs", "1.2 ms",
// "0.41 s".
func fmtMicros(us int64) string {
	switch {
	case us < 1000:
		return fmt.Sprintf("%d µs", us)
	case us < 1_000_000:
		return fmt.Sprintf("%.1f ms", float64(us)/1e3)
	}
	return fmt.Sprintf("%.2f s", float64(us)/1e6)
}

// latencyNote explains the latency flags under the event's time control.
func latencyNote(timeControl string) string {
	b := moveBudget(timeControl)
	if b <= 0 {
		return "The time control gives no clock, so no latency is flagged."
	}
	return fmt.Sprintf("A move has %s on average under this time control; latency is flagged (!) when one move lost %.0f%% of that (%s) or the moves lost %.0f%% of it on average (%s).",
		fmtMicros(int64(b/time.Microsecond)), latencyMaxShare*100, fmtMicros(int64(float64(b/time.Microsecond)*latencyMaxShare)),
		latencyMeanShare*100, fmtMicros(int64(float64(b/time.Microsecond)*latencyMeanShare)))
}

// budgetText names a move budget for the incident log.
func budgetText(b time.Duration) string {
	return "a move has " + fmtMicros(int64(b/time.Microsecond)) + " on average"
}
