package hub

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/rules"
)

// PosString writes p in the Hub position format: the side to move ('W' or
// 'B') followed by one character per square in PDN order: 'w'/'b' men,
// 'W'/'B' kings, 'e' empty. That is 51 characters on 10x10 boards (the
// published form) and, by the same rule, 33 on 8x8 boards and 73 on 12x12.
func PosString(p rules.Position) string {
	return string(appendPosString(make([]byte, 0, p.Variant().Squares()+1), p))
}

// appendPosString appends PosString(p) to b: the side to move, then the
// squares (it runs before every move).
func appendPosString(b []byte, p rules.Position) []byte {
	return p.AppendSquares(append(b, p.Turn().Letter()), hubLetters)
}

// hubLetters are the Hub protocol's square letters.
var hubLetters = rules.SquareLetters{Empty: 'e', WhiteMan: 'w', BlackMan: 'b', WhiteKing: 'W', BlackKing: 'B'}

// ParsePos reads a Hub position string for variant v.
func ParsePos(v *rules.Variant, s string) (rules.Position, error) {
	n := v.Squares()
	if len(s) != n+1 {
		return rules.Position{}, fmt.Errorf("hub pos %q: %w: %d characters, want %d for %s", s, ErrSyntax, len(s), n+1, v.Name())
	}
	var turn rules.Color
	switch s[0] {
	case 'W', 'w':
		turn = rules.White
	case 'B', 'b':
		turn = rules.Black
	default:
		return rules.Position{}, fmt.Errorf("hub pos: %w: side to move %q", ErrSyntax, s[0])
	}
	white, black, kings, bad := rules.ReadSquares(s[1:], hubLetters)
	if bad > 0 {
		return rules.Position{}, fmt.Errorf("hub pos: %w: square %d is %q", ErrSyntax, bad, s[bad])
	}
	// A start position with state beyond the board (Parachute's
	// parachutists) is not in its string: the board of the start means it.
	return rules.Setup(v, turn, white, black, kings).WithStartState(), nil
}

// Irreversible reports whether m, played in p, can never be undone: a
// capture or a man move. Positions before it cannot repeat.
func Irreversible(p rules.Position, m rules.Move) bool {
	if m.IsCapture() {
		return true
	}
	_, k, ok := p.Piece(m.From)
	return !ok || k == rules.Man
}

// PosCommand builds the "pos" line for a game: the position after the last
// irreversible move and the moves played since, so that the engine can see
// repetitions.
func PosCommand(start rules.Position, moves []rules.Move) Line {
	base, from := start, 0
	p := start
	for i, m := range moves {
		next := p.Play(m)
		if Irreversible(p, m) {
			base, from = next, i+1
		}
		p = next
	}
	return posLine(base, moves[from:])
}

// posLine is "pos pos=<base> [moves=<moves>]".
func posLine(base rules.Position, moves []rules.Move) Line {
	l := Line{Command: "pos", Args: []Arg{{Name: "pos", Value: PosString(base)}}}
	if len(moves) > 0 {
		var b strings.Builder
		for i, m := range moves {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(rules.HubMove(m))
		}
		l.Args = append(l.Args, Arg{Name: "moves", Value: b.String()})
	}
	return l
}

// appendHubMove appends rules.HubMove(m) to b.
func appendHubMove(b []byte, m rules.Move) []byte {
	b = strconv.AppendInt(b, int64(m.From), 10)
	if !m.IsCapture() {
		b = append(b, '-')
		return strconv.AppendInt(b, int64(m.To), 10)
	}
	b = append(b, 'x')
	b = strconv.AppendInt(b, int64(m.To), 10)
	for sq := range m.Captured.All() {
		b = append(b, 'x')
		b = strconv.AppendInt(b, int64(sq), 10)
	}
	return b
}

// seconds writes d in seconds with millisecond precision.
func seconds(d time.Duration) string { return string(appendSeconds(nil, d)) }

// appendSeconds appends seconds(d) to b. It runs before every move:
// integer arithmetic, not a float's formatting; half a millisecond rounds
// up, and a negative d is 0.
func appendSeconds(b []byte, d time.Duration) []byte {
	if d < 0 {
		d = 0
	}
	ms := d / time.Millisecond
	if d%time.Millisecond >= time.Millisecond/2 {
		ms++
	}
	b = strconv.AppendInt(b, int64(ms/1000), 10)
	return append(b, '.', byte('0'+ms/100%10), byte('0'+ms/10%10), byte('0'+ms%10))
}

// hubClock splits Level.Time, what the side may use for this move, into
// Hub's time= and inc=, whose sum the engine takes as its allowance: time=
// is Time-Inc. A clock holding less than the increment (the first move of
// 1+5, where the increment comes after the move) is sent as time=0 with
// inc= what the clock holds, so the engine is never told of time it lacks;
// the next move's level states the clock afresh.
func hubClock(lv match.Level) (t, inc time.Duration) {
	if lv.Time < lv.Inc {
		return 0, lv.Time
	}
	return lv.Time - lv.Inc, lv.Inc
}

// appendLevel appends LevelCommand(lv).String() to b without building the
// Line: it is sent before every move.
func appendLevel(b []byte, lv match.Level) []byte {
	b = append(b, "level"...)
	n := len(b)
	if lv.Time > 0 {
		if lv.MovesToGo > 0 {
			b = append(b, " moves="...)
			b = strconv.AppendInt(b, int64(lv.MovesToGo), 10)
		}
		t, inc := hubClock(lv)
		b = append(b, " time="...)
		b = appendSeconds(b, t)
		if inc > 0 {
			b = append(b, " inc="...)
			b = appendSeconds(b, inc)
		}
	}
	if lv.MoveTime > 0 {
		b = append(b, " move-time="...)
		b = appendSeconds(b, lv.MoveTime)
	}
	if lv.Depth > 0 {
		b = append(b, " depth="...)
		b = strconv.AppendInt(b, int64(lv.Depth), 10)
	}
	if lv.Nodes > 0 {
		b = append(b, " nodes="...)
		b = strconv.AppendInt(b, lv.Nodes, 10)
	}
	if len(b) == n {
		b = append(b, " infinite"...)
	}
	return b
}

// LevelCommand builds the "level" line: the clock form `[moves=M] time=T
// [inc=I]` when there is a clock, `move-time=S` for a fixed time per move,
// and `depth=N` / `nodes=N` limits, on one line; `level infinite` when there
// is no limit at all. Hub adds the increment before every move while
// Level.Time is what the side may use now, so time= is sent as Time-Inc:
// the engine's own sum then equals the referee's allowance.
func LevelCommand(lv match.Level) Line {
	l := Line{Command: "level"}
	add := func(name, value string) { l.Args = append(l.Args, Arg{Name: name, Value: value}) }
	if lv.Time > 0 {
		if lv.MovesToGo > 0 {
			add("moves", strconv.Itoa(lv.MovesToGo))
		}
		t, inc := hubClock(lv)
		add("time", seconds(t))
		if inc > 0 {
			add("inc", seconds(inc))
		}
	}
	if lv.MoveTime > 0 {
		add("move-time", seconds(lv.MoveTime))
	}
	if lv.Depth > 0 {
		add("depth", strconv.Itoa(lv.Depth))
	}
	if lv.Nodes > 0 {
		add("nodes", strconv.FormatInt(lv.Nodes, 10))
	}
	if len(l.Args) == 0 {
		l.Args = append(l.Args, Arg{Name: "infinite", Flag: true})
	}
	return l
}

// ParseLevel reads a "level" line back into a Level (for engines).
func ParseLevel(l Line) (match.Level, error) {
	var lv match.Level
	num := func(name string) (float64, bool, error) {
		v, ok := l.Get(name)
		if !ok {
			return 0, false, nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1e12 {
			return 0, true, fmt.Errorf("hub level: %w: %s=%q", ErrSyntax, name, v)
		}
		return f, true, nil
	}
	dur := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	for _, name := range []string{"depth", "nodes", "move-time", "moves", "time", "inc"} {
		f, ok, err := num(name)
		if err != nil {
			return lv, err
		}
		if !ok {
			continue
		}
		switch name {
		case "depth":
			lv.Depth = int(f)
		case "nodes":
			lv.Nodes = int64(f)
		case "move-time":
			lv.MoveTime = dur(f)
		case "moves":
			lv.MovesToGo = int(f)
		case "time":
			lv.Time = dur(f)
		case "inc":
			lv.Inc = dur(f)
		}
	}
	return lv, nil
}
