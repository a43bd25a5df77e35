// Package enginelog caps what one engine writes to the engine log: an
// engine flooding its output (info, stderr, chat) must not fill the disk.
// Each game may log GameCap bytes of engine lines and each engine EventCap
// over the whole event (all its processes together); past a cap the log
// says so, lines are counted instead of written, and the last TailLines are
// kept and written at the end of the game (the end of an engine's output
// is what explains a crash).
//
// Imported by the engine protocols (hub, dxp) and the engines' runner; it
// imports nothing of the module.
package enginelog

import (
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/rs/zerolog"
)

// Default caps.
const (
	// GameCap bounds the bytes of engine lines logged per game per engine
	// (a game of a verbose engine logs a few hundred KiB).
	GameCap = 8 << 20
	// EventCap bounds the bytes of engine lines logged per engine for the
	// whole event.
	EventCap = 256 << 20
	// TailLines lines of output after a cap are kept and written at the end
	// of the game, each cut to TailLineBytes.
	TailLines     = 100
	TailLineBytes = 1024
)

// lineOverhead approximates the JSON around a line (keys, timestamp,
// engine name: about 100 bytes in the match command's logs), so that a
// flood of empty lines counts too.
const lineOverhead = 100

// Limits are the caps of a Log; zero fields take the defaults above.
type Limits struct {
	Game, Event int64
	Tail        int
}

// Budget is one engine's allowance for the whole event, shared by all the
// Logs of its processes. It is safe for concurrent use.
type Budget struct {
	left atomic.Int64
	told atomic.Bool // the event cap has been announced
}

// NewBudget returns an event budget of n bytes (n <= 0: EventCap).
func NewBudget(n int64) *Budget {
	if n <= 0 {
		n = EventCap
	}
	b := &Budget{}
	b.left.Store(n)
	return b
}

// Log is the engine log of one engine process, game by game. Its methods
// are safe for concurrent use (stderr is read by a goroutine of its own).
type Log struct {
	log   zerolog.Logger
	lim   Limits
	event *Budget

	mu      sync.Mutex
	used    int64 // bytes logged this game
	capped  bool  // this game's cap (or the event's) is reached
	dropped int64 // lines not written this game
	dbytes  int64
	tail    []string // ring of the last lines not written
	next    int      // where the ring writes next
	on      bool     // see On
}

// New returns a Log writing to log. event may be nil (a budget of its own).
func New(log zerolog.Logger, lim Limits, event *Budget) *Log {
	if lim.Game <= 0 {
		lim.Game = GameCap
	}
	if lim.Tail <= 0 {
		lim.Tail = TailLines
	}
	if event == nil {
		event = NewBudget(lim.Event)
	}
	// A logger without a writer (the zero Logger) or below Info writes
	// nothing: decided once, so that each line costs nothing then.
	ev := log.Info()
	on := ev.Enabled()
	ev.Discard()
	return &Log{log: log, lim: lim, event: event, on: on}
}

// On reports whether the log writes the exchange at all (a logger with a
// writer, at Info level or below); callers skip building lines otherwise.
func (l *Log) On() bool { return l.on }

// Logger is the underlying logger, for the arbiter's own events (start,
// stop, warnings), which an engine cannot multiply.
func (l *Log) Logger() *zerolog.Logger { return &l.log }

// Line logs one line of the exchange: dir is ">" (to the engine), "<"
// (from it) or "stderr".
func (l *Log) Line(dir, line string) {
	if !l.on {
		return
	}
	size := int64(len(line) + len(dir) + lineOverhead)
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.capped {
		switch {
		case l.event.left.Add(-size) < 0:
			l.capped = true
			if !l.event.told.Swap(true) {
				l.log.Warn().Int64("cap", l.eventCap()).Msg("engine log: this engine's cap for the event is reached; from now on each game logs only how much was dropped")
			}
		case l.used+size > l.lim.Game:
			l.capped = true
			l.log.Warn().Int64("cap", l.lim.Game).Int("tail", l.lim.Tail).Msg("engine log: this game's cap is reached; the rest of the game's output is dropped, its last lines are written at the end of the game")
		default:
			l.used += size
			l.log.Info().Str("dir", dir).Str("line", line).Msg("")
			return
		}
	}
	l.dropped++
	l.dbytes += int64(len(line))
	if l.event.left.Load() < 0 && l.event.told.Load() {
		return // past the event's cap: counts only
	}
	if len(line) > TailLineBytes {
		n := TailLineBytes
		for n > 0 && !utf8.RuneStart(line[n]) {
			n--
		}
		line = line[:n]
	}
	line = dir + " " + line
	if len(l.tail) < l.lim.Tail {
		l.tail = append(l.tail, line)
		return
	}
	l.tail[l.next] = line
	l.next = (l.next + 1) % len(l.tail)
}

func (l *Log) eventCap() int64 {
	if l.lim.Event > 0 {
		return l.lim.Event
	}
	return EventCap
}

// EndGame closes the game's log: when lines were dropped it says how many
// and writes the last ones kept. The cap stays reached until StartGame:
// what an engine writes after the game counts against its game. Calling
// it with nothing dropped writes nothing.
func (l *Log) EndGame() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flush()
}

// StartGame ends the last game's log (EndGame) and gives the new game its
// full cap.
func (l *Log) StartGame() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flush()
	l.used, l.capped = 0, false
}

func (l *Log) flush() {
	if l.dropped > 0 {
		kept := len(l.tail)
		l.log.Warn().Int64("dropped_lines", l.dropped).Int64("dropped_bytes", l.dbytes).Int("tail", kept).
			Msg("engine log: output dropped over the cap in this game; its last lines follow")
		for i := range kept {
			l.log.Info().Bool("tail", true).Str("line", l.tail[(l.next+i)%kept]).Msg("")
		}
	}
	l.dropped, l.dbytes, l.next = 0, 0, 0
	clear(l.tail)
	l.tail = l.tail[:0]
}
