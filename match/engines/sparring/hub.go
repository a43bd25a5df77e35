package sparring

import (
	"bufio"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Config configures the sparring engine.
type Config struct {
	Name    string         // "id name=" (default "sparring")
	Variant *rules.Variant // default international; Hub "set-param name=variant" changes it
	Level   Level
	Seed    uint64
	Faults  []Fault
}

func (c *Config) defaults() {
	if c.Name == "" {
		c.Name = "sparring"
	}
	if c.Variant == nil {
		c.Variant = rules.MustLookup("international")
	}
}

// engine is the game state shared by the Hub and DXP front ends.
type engine struct {
	cfg      Config
	requests int // move requests in this game
}

func newEngine(cfg Config) *engine {
	cfg.defaults()
	return &engine{cfg: cfg}
}

func (e *engine) newGame() { e.requests = 0 }

// rngFor is the random source for one move: a function of the seed, the
// position and the move request's number in the game, not of the games this
// process happened to play before. So a tournament replays move for move
// whatever its concurrency and however engine processes are reused.
func (e *engine) rngFor(p rules.Position) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(p.NumericFEN()))
	return rand.New(rand.NewPCG(e.cfg.Seed, h.Sum64()^uint64(e.requests)*0x9e3779b97f4a7c15))
}

// lineWriter writes whole lines, flushed (the front end's goroutine is
// its only writer: a pong too is written where the ping is read). The
// first write error sticks: every later println returns it, and ServeHub
// ends with it (a GUI that closed our output cannot be answered again).
type lineWriter struct {
	w   *bufio.Writer
	err error
}

func (w *lineWriter) println(s string) error {
	if w.err != nil {
		return w.err
	}
	w.w.WriteString(s)
	w.w.WriteByte('\n')
	if err := w.w.Flush(); err != nil {
		w.err = fmt.Errorf("sparring: writing to the GUI: %w", err)
	}
	return w.err
}

// failed returns the sticky write error, if any.
func (w *lineWriter) failed() error {
	return w.err
}

// ServeHub runs the Hub protocol on in/out until "quit" or the end of the
// input. The variant is Config.Variant unless the GUI sets the "variant"
// parameter (any preset name); "level" and "seed" are parameters too. It
// returns ErrCrash or ErrHang when such a fault fires (the caller exits
// with status 3, or sleeps without reading, respectively), and the write
// error when the GUI cannot be written to.
func ServeHub(in io.Reader, out io.Writer, cfg Config) error {
	e := newEngine(cfg)
	w := &lineWriter{w: bufio.NewWriter(out)}
	r := newHubInput(in, w)
	var (
		pos   rules.Position
		posOK bool
		level match.Level
	)
	presets := strings.Join(rules.Presets(), " ")
	for {
		if err := w.failed(); err != nil {
			return err
		}
		raw, rerr := r.next()
		if rerr != nil {
			return endOfInput(rerr, w)
		}
		l, err := hub.ParseLine(raw)
		if err != nil {
			w.println(hub.Cmd("error", "message", err.Error()).String())
			continue
		}
		switch l.Command {
		case "hub":
			w.println(hub.Cmd("id", "name", e.cfg.Name, "version", "1.0", "author", "draughts-arbiter", "country", "-").String())
			w.println(hub.Cmd("param", "name", "variant", "value", e.cfg.Variant.Name(), "type", "enum", "values", presets).String())
			w.println(hub.Cmd("param", "name", "level", "value", e.cfg.Level.String(), "type", "string").String())
			w.println(hub.Cmd("param", "name", "seed", "value", strconv.FormatUint(e.cfg.Seed, 10), "type", "int").String())
			w.println("wait")
		case "set-param":
			name, _ := l.Get("name")
			value, _ := l.Get("value")
			if err := e.setParam(name, value); err != nil {
				w.println(hub.Cmd("error", "message", err.Error()).String())
			}
		case "init":
			w.println("ready")
		case "new-game":
			e.newGame()
		case "pos":
			pos, posOK = e.readPos(l, w)
		case "level":
			if lv, err := hub.ParseLevel(l); err == nil {
				level = lv
			}
		case "go":
			if !posOK {
				w.println(hub.Cmd("error", "message", "go without a valid position").String())
				continue
			}
			if err := e.answer(pos, &hubWire{r.search(w, level)}); err != nil {
				return err
			}
		case "quit":
			return w.failed()
		}
	}
}

// endOfInput is what a Hub front end returns when its input ends: the
// write error that ended it, if any (a ping's pong may have failed), else
// nil at the end of the input and the read error otherwise.
func endOfInput(err error, w *lineWriter) error {
	if werr := w.failed(); werr != nil {
		return werr
	}
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

func (e *engine) setParam(name, value string) error {
	switch name {
	case "variant":
		v, err := rules.Lookup(value)
		if err != nil {
			return err
		}
		e.cfg.Variant = v
	case "level":
		l, err := ParseLevel(value)
		if err != nil {
			return err
		}
		e.cfg.Level = l
	case "seed":
		n, err := strconv.ParseUint(value, 10, 64)
		if err != nil {
			return fmt.Errorf("seed %q: %w", value, err)
		}
		e.cfg.Seed = n
	}
	return nil
}

func (e *engine) readPos(l hub.Line, w *lineWriter) (rules.Position, bool) {
	s, _ := l.Get("pos")
	p, err := hub.ParsePos(e.cfg.Variant, s)
	if err != nil {
		w.println(hub.Cmd("error", "message", err.Error()).String())
		return p, false
	}
	moves, _ := l.Get("moves")
	for _, mt := range strings.Fields(moves) {
		m, err := p.ParseHubMove(mt)
		if err != nil {
			w.println(hub.Cmd("error", "message", "moves: "+err.Error()).String())
			return p, false
		}
		p = p.Play(m)
	}
	return p, true
}

// hubWire is the Hub front end of answer.
type hubWire struct{ search }

func (h *hubWire) move(p rules.Position, m rules.Move, depth int, thought time.Duration) error {
	info := hub.Cmd("info", "depth", strconv.Itoa(depth), "score", strconv.FormatFloat(float64(Score(p, m))/manValue, 'f', 2, 64),
		"time", strconv.FormatFloat(thought.Seconds(), 'f', 6, 64), "pv", rules.HubMove(m))
	// One write for both lines: one wake-up of the GUI instead of two.
	return h.w.println(info.String() + "\n" + hub.Cmd("done", "move", rules.HubMove(m)).String())
}

// noMove: the protocol never asks in a terminal position; answer anyway.
func (h *hubWire) noMove(rules.Position) error { return h.w.println("done") }

// garbage is an answer that cannot be read (the arbiter ignores other junk).
func (h *hubWire) garbage() error { return h.w.println("done \x01\x02 garbage \"unterminated") }

// search is what both Hub front ends of answer share: the search's
// limits, its input (a ping is answered and a stop taken while it runs),
// and the means of the hang and slow faults.
type search struct {
	w     *lineWriter
	level match.Level
	in    *hubInput
	// end is when the search stops on its own and plays the best move it
	// has searched to the full depth (zero: at the depth, or a stop).
	end time.Time
}

func (r *hubInput) search(w *lineWriter, level match.Level) search {
	r.startSearch()
	s := search{w: w, level: level, in: r}
	if b := timeBudget(level); b > 0 {
		s.end = time.Now().Add(b)
	}
	return s
}

func (h *search) interrupted() bool {
	return !h.end.IsZero() && time.Now().After(h.end) || h.in.interrupted(0)
}

// timeBudget is how long a search may take under level: a share of the
// clock, as an engine keeps its time. A fixed depth on material explodes
// in some positions (kings in an ending): level 9 lost on time at 5+0.1
// in English, a forfeit an engine author takes for the arbiter's. A
// quarter of a fixed move time, and of the increment, is left for the
// pipes and a busy machine; never more than a quarter of the time left.
// Zero: no clock (a depth or nodes limit, or none).
func timeBudget(lv match.Level) time.Duration {
	const minBudget = time.Millisecond
	switch {
	case lv.MoveTime > 0:
		return max(lv.MoveTime*3/4, minBudget)
	case lv.Time > 0:
		moves := time.Duration(lv.MovesToGo)
		if moves <= 0 {
			moves = 25 // the moves an engine expects to be left, as engines guess
		}
		return max(min(lv.Time/moves+lv.Inc*3/4, lv.Time/4), minBudget)
	}
	return 0
}

// hang: nothing to do here; the server returns ErrHang, and the engine
// reads no more.
func (h *search) hang() {}

// slow thinks past any limit, answering ping, until a stop.
func (h *search) slow() {
	end := time.Now().Add(slowBudget(h.level))
	for wait := time.Until(end); wait > 0 && !h.in.interrupted(wait); wait = time.Until(end) {
	}
}

// slowBudget is how long a slow-at fault thinks: well past any limit the
// level allows.
func slowBudget(lv match.Level) time.Duration {
	switch {
	case lv.MoveTime > 0:
		return lv.MoveTime + 2*time.Second
	case lv.Time > 0:
		return lv.Time + lv.Inc + 2*time.Second
	}
	return 5 * time.Second
}
