package sparring

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/rules"
)

// ServeHub1 runs Hub-1, the protocol of Scan 2.0 (see match/engines/hub's hub1.go
// for the commands), on in/out until "quit" or the end of the input. It
// behaves as ServeHub does (variant, level and seed are parameters, set
// with "set NAME VALUE"; the faults fire alike) and answers as Scan 2.0
// does: "move M" with a positional "info" line before it.
func ServeHub1(in io.Reader, out io.Writer, cfg Config) error {
	e := newEngine(cfg)
	w := &lineWriter{w: bufio.NewWriter(out)}
	r := newHubInput(in, w)
	var (
		pos   rules.Position
		posOK bool
		level match.Level
	)
	for {
		if err := w.failed(); err != nil {
			return err
		}
		raw, rerr := r.next()
		if rerr != nil {
			return endOfInput(rerr, w)
		}
		f := strings.Fields(raw)
		if len(f) == 0 {
			continue
		}
		arg := func(i int) string {
			if i < len(f) {
				return f[i]
			}
			return ""
		}
		ms := func(s string) (time.Duration, error) {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 {
				return 0, fmt.Errorf("%q is not a number of milliseconds", s)
			}
			return time.Duration(n) * time.Millisecond, nil
		}
		var err error
		switch f[0] {
		case "hub":
			w.println("name " + e.cfg.Name + " 1.0")
			w.println("author draughts-arbiter")
			w.println("country -")
			w.println("wait")
		case "set":
			err = e.setParam(arg(1), arg(2))
		case "init":
			w.println("ready")
		case "new":
			e.newGame()
		case "start":
			pos, posOK, level = rules.NewPosition(e.cfg.Variant), true, match.Level{}
		case "pos":
			pos, err = hub.ParsePos(e.cfg.Variant, arg(1))
			posOK, level = err == nil, match.Level{} // "pos" resets the limits, as in Scan 2.0
		case "move":
			var m rules.Move
			if !posOK {
				err = fmt.Errorf("move without a position")
			} else if m, err = pos.ParseHubMove(arg(1)); err == nil {
				pos = pos.Play(m)
			}
		case "level":
			var t, inc time.Duration
			moves, err1 := strconv.Atoi(arg(1))
			t, err2 := ms(arg(2))
			inc, err3 := ms(arg(3))
			if err1 != nil || err2 != nil || err3 != nil || moves < 0 {
				err = fmt.Errorf("level %q: want level MOVES TIME-MS INC-MS", strings.Join(f[1:], " "))
				break
			}
			level.MovesToGo, level.Time, level.Inc = moves, t, inc
		case "time":
			level.MoveTime, err = ms(arg(1))
		case "depth":
			level.Depth, err = strconv.Atoi(arg(1))
		case "go":
			if !posOK {
				err = fmt.Errorf("go without a valid position")
				break
			}
			if err := e.answer(pos, &hub1Wire{r.search(w, level)}); err != nil {
				return err
			}
		case "quit":
			return w.failed()
		}
		if err != nil {
			w.println("error " + err.Error())
		}
	}
}

// hub1Wire is the Hub-1 front end of answer.
type hub1Wire struct{ search }

func (h *hub1Wire) move(p rules.Position, m rules.Move, depth int, thought time.Duration) error {
	mv := rules.HubMove(m)
	info := fmt.Sprintf("info %d %d.0 %d 1 %.2f 0.0 %s", depth, depth, Score(p, m), thought.Seconds(), mv)
	return h.w.println(info + "\nmove " + mv)
}

func (h *hub1Wire) noMove(rules.Position) error { return h.w.println("move") }

// garbage: a move line whose move is junk.
func (h *hub1Wire) garbage() error { return h.w.println("move \x01\x02garbage") }
