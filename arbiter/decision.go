package arbiter

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

// DecisionKind says what an arbiter's decision did.
type DecisionKind string

// Decision kinds.
const (
	DecisionPause      DecisionKind = "pause"       // the clocks were stopped
	DecisionResume     DecisionKind = "resume"      // the clocks were started again
	DecisionAddTime    DecisionKind = "add-time"    // Amount was added to Color's clock
	DecisionAnnotation DecisionKind = "annotation"  // a remark in the record
	DecisionResult     DecisionKind = "result"      // the arbiter declared the result (Adjudicate)
	DecisionServerDown DecisionKind = "server-down" // Amount of down time was not charged (Downtime)
)

// Decision is one decision of the arbiter, kept in Record.Decisions in the
// order made. Ply is the number of moves played when it was made; Color
// and Amount are set where the kind needs them (add-time, server-down).
type Decision struct {
	Ply    int
	Kind   DecisionKind
	Color  rules.Color
	Amount time.Duration
	Text   string
}

// String is the decision as the record's note gives it to a reader:
// "pause: reason", "add-time: 60 seconds to White's clock: reason",
// "server-down: 12.5 seconds charged to neither clock: reason" and the
// like. The kind comes first, as the record's other notes name theirs.
func (d Decision) String() string {
	s := string(d.Kind)
	switch d.Kind {
	case DecisionAddTime:
		s += fmt.Sprintf(": %s seconds to %s's clock", seconds(d.Amount), d.Color.Name())
	case DecisionServerDown:
		s += fmt.Sprintf(": %s seconds charged to neither clock", seconds(d.Amount))
	}
	if d.Text != "" {
		s += ": " + d.Text
	}
	return s
}

// seconds is a duration in seconds as people write them: "60", "12.5".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// Errors of the arbiter's decisions.
var (
	ErrPaused    = errors.New("the clocks are paused")
	ErrNotPaused = errors.New("the clocks are not paused")
)

// MaxAddTime bounds one AddTime, far from any clock arithmetic overflow.
const MaxAddTime = 24 * time.Hour

// gameClock is the referee's view of time: the Config's clock less the
// time the game was paused or the server was down. Measuring every move
// on it is what makes a pause or a down time cost nobody anything, with no
// change to how moves are timed. While paused it stands still.
type gameClock struct {
	inner    Clock
	offset   time.Duration // inner time - game time
	paused   bool
	pausedAt time.Time // game time at the pause
}

// Now is the game time.
func (g *gameClock) Now() time.Time {
	if g.paused {
		return g.pausedAt
	}
	return g.inner.Now().Add(-g.offset)
}

// outer converts a game time into the inner clock's time (Deadline).
func (g *gameClock) outer(t time.Time) time.Time { return t.Add(g.offset) }

func (r *Referee) decide(d Decision) {
	d.Ply = len(r.moves)
	r.rec.Decisions = append(r.rec.Decisions, d)
}

// Pause stops both clocks (the arbiter's decision, recorded with reason).
// A flag that fell before the pause falls first (ErrGameOver). While paused
// Deadline is the zero time and no time is charged: a move submitted while
// paused is timed as if made at the moment of the pause. A pending
// decision or claim does not need a pause: the clocks stand still then.
func (r *Referee) Pause(reason string) error {
	if r.Done() || r.CheckTime() {
		return ErrGameOver
	}
	if r.clock.paused {
		return ErrPaused
	}
	r.clock.pausedAt = r.clock.Now()
	r.clock.paused = true
	r.decide(Decision{Kind: DecisionPause, Text: reason})
	return nil
}

// Resume starts the clocks again after Pause; the side to move's clock
// runs on from what it showed at the pause.
func (r *Referee) Resume() error {
	if !r.clock.paused {
		return ErrNotPaused
	}
	r.clock.paused = false
	r.clock.offset = r.clock.inner.Now().Sub(r.clock.pausedAt)
	r.decide(Decision{Kind: DecisionResume})
	return nil
}

// Paused reports whether the clocks are paused.
func (r *Referee) Paused() bool { return r.clock.paused }

// AddTime credits d (> 0, at most MaxAddTime) to c's clock: the arbiter's
// decision (FMJD and WCDF arbiters may give a player time, e.g. after a
// disturbance). For the side to move it moves the deadline of the running
// move too. A game without a bank (untimed, or a fixed time per move) has
// no clock to credit.
func (r *Referee) AddTime(c rules.Color, d time.Duration, reason string) error {
	if r.Done() || r.CheckTime() {
		return ErrGameOver
	}
	if c != rules.White && c != rules.Black {
		return fmt.Errorf("arbiter: add time: no such side %d", c)
	}
	if d <= 0 || d > MaxAddTime {
		return fmt.Errorf("arbiter: add time: %v is not more than 0 and at most %v", d, MaxAddTime)
	}
	sc := &r.clocks[c]
	if !sc.tc.Timed() || sc.tc.PerMove > 0 {
		return fmt.Errorf("arbiter: add time: %s's time control has no clock to add to", c)
	}
	sc.remaining = min(sc.remaining+d, 100*maxTCDuration)
	r.decide(Decision{Kind: DecisionAddTime, Color: c, Amount: d, Text: reason})
	return nil
}

// Annotate adds the arbiter's remark to the record (at any moment, also
// after the game).
func (r *Referee) Annotate(text string) {
	r.decide(Decision{Kind: DecisionAnnotation, Text: text})
}

// Downtime says the server that runs the game was down for d (>= 0): the
// time is not charged to anyone (the side to move's clock resumes from
// where it stood), and a server-down decision records it. A game driven
// by a clock that kept running through the stop calls it once on resuming.
func (r *Referee) Downtime(d time.Duration, text string) error {
	if d < 0 {
		return fmt.Errorf("arbiter: negative down time %v", d)
	}
	if !r.clock.paused {
		// While paused the clock stands still anyway; Resume takes the
		// whole stop out.
		r.clock.offset += d
	}
	r.decide(Decision{Kind: DecisionServerDown, Amount: d, Text: text})
	return nil
}

// PendingIllegal returns the illegal move awaiting the opponent's decision
// (opponent-decides): the move as it would stand, what was sent, and why
// it is illegal; ok is false when no decision is pending.
func (r *Referee) PendingIllegal() (m rules.Move, text, why string, ok bool) {
	if r.pending == nil {
		return rules.Move{}, "", "", false
	}
	return r.pending.move, r.pending.text, r.pending.why, true
}

// Ply returns the number of moves played (without copying the record).
func (r *Referee) Ply() int { return len(r.moves) }

// MoveAt is entry i of the record's moves (ok false when there is none):
// RecordFrom(i, ...)'s first move without a copy of the slice, for a
// caller told of every move.
func (r *Referee) MoveAt(i int) (m MoveRecord, ok bool) {
	if i < 0 || i >= len(r.rec.Moves) {
		return m, false
	}
	return r.rec.Moves[i], true
}

// RecordFrom is Record with only the entries after the first moves,
// warnings, claims and decisions (copied): for a caller that follows a
// game as it goes, without copying the whole record at every move.
func (r *Referee) RecordFrom(moves, warnings, claims, decisions int) Record {
	tail := func(n, l int) int { return min(max(n, 0), l) }
	rec := r.rec
	rec.Moves = append([]MoveRecord(nil), rec.Moves[tail(moves, len(rec.Moves)):]...)
	rec.Warnings = append([]Warning(nil), rec.Warnings[tail(warnings, len(rec.Warnings)):]...)
	rec.Claims = append([]ClaimRecord(nil), rec.Claims[tail(claims, len(rec.Claims)):]...)
	rec.Decisions = append([]Decision(nil), rec.Decisions[tail(decisions, len(rec.Decisions)):]...)
	rec.Result = r.result
	return rec
}
