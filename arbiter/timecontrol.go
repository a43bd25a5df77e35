package arbiter

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Period is one period of a PDN time control: Moves moves in Time, with
// Increment added to the clock after each move made in the period.
// Moves == 0 means the rest of the game.
type Period struct {
	Moves     int
	Time      time.Duration
	Increment time.Duration
}

// TimeControl is the time (or search) limit of one side. The zero value is
// "no limit": no clock, no depth or node limit.
//
// Clock rules: at the start the clock holds Periods[0].Time. After each
// move the time used is taken off (less the delay, see below) and the
// period's Increment is added. When a period with a move count is
// completed, the next period's Time is added; the last period repeats if it
// has a move count ("40/7200" is 40 moves in 2 h, then 40 more in 2 h, ...).
// PerMove is a fixed budget for every move, not banked. A clock never
// shows less than zero: time a move takes past its limit is booked against
// the referee's margin (Config.Margin), one allowance per side and game
// that an increment or a new period does not refill. Depth and Nodes
// are search limits for engines; they carry no clock unless Periods or
// PerMove are given too.
type TimeControl struct {
	Periods []Period
	// Delay is a simple (US) delay: each move the clock waits Delay before
	// it starts to run, so a move may take up to Delay + remaining.
	Delay time.Duration
	// Bronstein is a Bronstein delay: after each move the time used is given
	// back, up to Bronstein; the flag still falls when the bank runs out.
	Bronstein time.Duration
	// PerMove is a fixed time per move (no bank); excludes Periods.
	PerMove time.Duration
	// Depth and Nodes limit an engine's search (0 = no limit).
	Depth int
	Nodes int64
}

// Limits that keep arithmetic on clocks far from overflow.
const (
	maxTCDuration = 1_000_000 * time.Second // about 11.5 days
	maxTCMoves    = 1000
	maxTCPeriods  = 16
	maxTCDepth    = 1000
	maxTCNodes    = 1_000_000_000_000_000
)

// ErrTimeControl is wrapped by every ParseTimeControl error.
var ErrTimeControl = errors.New("bad time control")

// ParseTimeControl reads a time control. The syntax is the PDN TimeControl
// tag plus engine-match extras, as tokens separated by spaces or commas:
//
//   - no limit (also "" and "none"; the zero TimeControl)
//     300               300 s for the whole game
//     300+2             300 s, plus 2 s after each move (Fischer increment)
//     40/7200           40 moves in 7200 s (the last period repeats)
//     40/7200:3600+60   periods joined by ':': 40 moves in 2 h, then the rest
//     of the game in 1 h with 60 s added after each move
//     delay=5           simple (US) delay of 5 s per move (needs a period)
//     bronstein=5       Bronstein delay of 5 s per move (needs a period)
//     move=2            fixed 2 s per move, no bank (not with periods);
//     "move-time=2" and "movetime=2" are accepted too
//     depth=8           search depth limit for engines (no clock by itself)
//     nodes=100000      node limit for engines (no clock by itself)
//
// Times are seconds with up to 9 decimals ("60+0.5") or Go durations with
// units ("5m+3s", "1h30m", "500ms"); at most 1,000,000 s each. Extras may be
// combined with periods: "300+2 depth=12". String writes the canonical form,
// which ParseTimeControl reads back to the same value.
func ParseTimeControl(s string) (TimeControl, error) {
	var tc TimeControl
	fail := func(format string, a ...any) (TimeControl, error) {
		return TimeControl{}, fmt.Errorf("time control %q: %w: %s", s, ErrTimeControl, fmt.Sprintf(format, a...))
	}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	if len(fields) == 0 {
		return tc, nil
	}
	if len(fields) == 1 {
		switch strings.ToLower(fields[0]) {
		case "-", "none":
			return tc, nil
		}
	}
	seen := map[string]bool{}
	for i, f := range fields {
		key, val, isExtra := strings.Cut(f, "=")
		if !isExtra {
			if i != 0 {
				return fail("periods %q must come first", f)
			}
			ps, err := parsePeriods(f)
			if err != nil {
				return fail("%v", err)
			}
			tc.Periods = ps
			continue
		}
		key = strings.ToLower(key)
		switch key {
		case "move-time", "movetime":
			key = "move"
		}
		if seen[key] {
			return fail("%s given twice", key)
		}
		seen[key] = true
		switch key {
		case "delay", "bronstein", "move":
			d, err := parseSeconds(val)
			if err != nil {
				return fail("%s: %v", key, err)
			}
			if d <= 0 {
				return fail("%s must be more than 0", key)
			}
			switch key {
			case "delay":
				tc.Delay = d
			case "bronstein":
				tc.Bronstein = d
			default:
				tc.PerMove = d
			}
		case "depth":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > maxTCDepth {
				return fail("depth %q is not a number from 1 to %d", val, maxTCDepth)
			}
			tc.Depth = n
		case "nodes":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil || n < 1 || n > maxTCNodes {
				return fail("nodes %q is not a number from 1 to %d", val, int64(maxTCNodes))
			}
			tc.Nodes = n
		default:
			return fail("unknown setting %q (want delay, bronstein, move, depth or nodes)", key)
		}
	}
	if err := tc.Validate(); err != nil {
		return TimeControl{}, fmt.Errorf("time control %q: %w", s, err)
	}
	return tc, nil
}

// Validate checks a time control built by hand (ParseTimeControl's results
// are valid). Errors wrap ErrTimeControl.
func (tc TimeControl) Validate() error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrTimeControl, fmt.Sprintf(format, a...))
	}
	if len(tc.Periods) > maxTCPeriods {
		return fail("more than %d periods", maxTCPeriods)
	}
	inRange := func(d time.Duration) bool { return d >= 0 && d <= maxTCDuration }
	for i, p := range tc.Periods {
		switch {
		case p.Moves < 0 || p.Moves > maxTCMoves:
			return fail("period %d: move count %d is not from 0 to %d", i+1, p.Moves, maxTCMoves)
		case p.Moves == 0 && i != len(tc.Periods)-1:
			return fail("period %d has no move count, so no period can follow it", i+1)
		case p.Time <= 0 || !inRange(p.Time):
			return fail("period %d: time %v must be more than 0 and at most %v", i+1, p.Time, maxTCDuration)
		case !inRange(p.Increment):
			return fail("period %d: increment %v is out of range", i+1, p.Increment)
		}
	}
	if !inRange(tc.Delay) || !inRange(tc.Bronstein) || !inRange(tc.PerMove) {
		return fail("delay or time per move out of range")
	}
	if tc.Depth < 0 || tc.Depth > maxTCDepth || tc.Nodes < 0 || tc.Nodes > maxTCNodes {
		return fail("depth or node limit out of range")
	}
	if tc.PerMove > 0 && len(tc.Periods) > 0 {
		return fail("fixed time per move cannot be combined with periods")
	}
	if (tc.Delay > 0 || tc.Bronstein > 0) && len(tc.Periods) == 0 {
		return fail("a delay needs a period to delay (e.g. \"300 delay=5\")")
	}
	if tc.Delay > 0 && tc.Bronstein > 0 {
		return fail("choose one of delay and bronstein")
	}
	return nil
}

func parsePeriods(s string) ([]Period, error) {
	parts := strings.Split(s, ":")
	if len(parts) > maxTCPeriods {
		return nil, fmt.Errorf("more than %d periods", maxTCPeriods)
	}
	ps := make([]Period, 0, len(parts))
	for i, part := range parts {
		var p Period
		rest := part
		if m, t, ok := strings.Cut(part, "/"); ok {
			n, err := strconv.Atoi(m)
			if err != nil || n < 1 || n > maxTCMoves {
				return nil, fmt.Errorf("period %d: move count %q is not a number from 1 to %d", i+1, m, maxTCMoves)
			}
			p.Moves, rest = n, t
		} else if i != len(parts)-1 {
			return nil, fmt.Errorf("period %d (%q) has no move count, so no period can follow it%s", i+1, part, minutesSecondsHint(part, parts[i+1]))
		}
		t, inc, hasInc := strings.Cut(rest, "+")
		d, err := parseSeconds(t)
		if err != nil {
			return nil, fmt.Errorf("period %d: time: %w", i+1, err)
		}
		if d <= 0 {
			return nil, fmt.Errorf("period %d: time must be more than 0", i+1)
		}
		p.Time = d
		if hasInc {
			if p.Increment, err = parseSeconds(inc); err != nil {
				return nil, fmt.Errorf("period %d: increment: %w", i+1, err)
			}
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// minutesSecondsHint explains ":" to whoever wrote minutes:seconds
// ("1:30+1", as cutechess reads it): here, as in PDN's TimeControl tag,
// ":" separates periods ("40/7200:3600").
func minutesSecondsHint(minutes, next string) string {
	secs, _, _ := strings.Cut(next, "+")
	m, err1 := strconv.Atoi(minutes)
	s, err2 := strconv.Atoi(secs)
	if err1 != nil || err2 != nil || len(secs) != 2 || s >= 60 || m < 0 {
		return ""
	}
	inc := strings.TrimPrefix(next, secs)
	return fmt.Sprintf(` (":" separates periods here, as in PDN's "40/7200:3600"; for %d min %d s write %d%s)`, m, s, m*60+s, inc)
}

// parseSeconds reads "7200", "0.5" (seconds, exact to the nanosecond) or a
// Go duration with units ("5m", "1h30m", "500ms").
func parseSeconds(s string) (time.Duration, error) {
	if s == "" {
		return 0, errors.New("empty time")
	}
	digitsOnly := true
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '.' {
			digitsOnly = false
			break
		}
	}
	var d time.Duration
	if !digitsOnly {
		if s[0] == '-' || s[0] == '+' {
			return 0, fmt.Errorf("time %q: no sign allowed", s)
		}
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, fmt.Errorf("time %q is neither seconds nor a duration like 5m or 1.5s", s)
		}
	} else {
		whole, frac, _ := strings.Cut(s, ".")
		if whole == "" && frac == "" || strings.Contains(frac, ".") {
			return 0, fmt.Errorf("time %q is not a number of seconds", s)
		}
		if len(frac) > 9 {
			return 0, fmt.Errorf("time %q is finer than a nanosecond", s)
		}
		if len(whole) > 7 {
			return 0, fmt.Errorf("time %q is more than %d s", s, int64(maxTCDuration/time.Second))
		}
		w := int64(0)
		if whole != "" {
			w, _ = strconv.ParseInt(whole, 10, 64)
		}
		ns := int64(0)
		if frac != "" {
			ns, _ = strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
		}
		d = time.Duration(w)*time.Second + time.Duration(ns)
	}
	if d > maxTCDuration {
		return 0, fmt.Errorf("time %q is more than %d s", s, int64(maxTCDuration/time.Second))
	}
	return d, nil
}

// formatSeconds writes d in seconds, exactly: "7200", "0.5", "1.000000001".
func formatSeconds(d time.Duration) string {
	s := strconv.FormatInt(int64(d/time.Second), 10)
	if ns := int64(d % time.Second); ns != 0 {
		f := strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
		s += "." + f
	}
	return s
}

// String writes the time control in the canonical form ParseTimeControl
// reads: the PDN periods ("40/7200:3600+60") followed by the extras
// ("delay=5", "move=2", "depth=8", ...), or "-" for no limit. It is what
// goes into the PDN TimeControl tag.
func (tc TimeControl) String() string {
	var parts []string
	if len(tc.Periods) > 0 {
		var b strings.Builder
		for i, p := range tc.Periods {
			if i > 0 {
				b.WriteByte(':')
			}
			if p.Moves > 0 {
				b.WriteString(strconv.Itoa(p.Moves))
				b.WriteByte('/')
			}
			b.WriteString(formatSeconds(p.Time))
			if p.Increment > 0 {
				b.WriteByte('+')
				b.WriteString(formatSeconds(p.Increment))
			}
		}
		parts = append(parts, b.String())
	}
	if tc.Delay > 0 {
		parts = append(parts, "delay="+formatSeconds(tc.Delay))
	}
	if tc.Bronstein > 0 {
		parts = append(parts, "bronstein="+formatSeconds(tc.Bronstein))
	}
	if tc.PerMove > 0 {
		parts = append(parts, "move="+formatSeconds(tc.PerMove))
	}
	if tc.Depth > 0 {
		parts = append(parts, "depth="+strconv.Itoa(tc.Depth))
	}
	if tc.Nodes > 0 {
		parts = append(parts, "nodes="+strconv.FormatInt(tc.Nodes, 10))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

// Timed reports whether the time control has a clock (periods or a fixed
// time per move); depth and node limits alone are untimed.
func (tc TimeControl) Timed() bool { return len(tc.Periods) > 0 || tc.PerMove > 0 }

// Equal reports whether tc and o are the same time control.
func (tc TimeControl) Equal(o TimeControl) bool {
	if len(tc.Periods) != len(o.Periods) {
		return false
	}
	for i := range tc.Periods {
		if tc.Periods[i] != o.Periods[i] {
			return false
		}
	}
	return tc.Delay == o.Delay && tc.Bronstein == o.Bronstein && tc.PerMove == o.PerMove &&
		tc.Depth == o.Depth && tc.Nodes == o.Nodes
}
