package cb

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/rules"
)

// variantOf names the rules of a CheckerBoard game type.
var variantOf = map[int]string{GTEnglish: "english", GTItalian: "italian", GTSpanish: "spanish",
	GTRussian: "russian", GTBrazilian: "brazilian", GTCzech: "czech"}

// CoorToNumber is the square number (1..32) of board[x][y] under the game
// type's numbering (CheckerBoard's coorstonumber).
func CoorToNumber(x, y int, gametype int) int {
	switch gametype {
	case GTItalian:
		return 1 + 4*y + x/2
	case GTSpanish:
		return 1 + 4*(7-y) + (7-x)/2
	case GTCzech:
		return 33 - (1 + 4*y + x/2)
	}
	return 4*(y+1) - x/2
}

// NumberToCoor is the inverse of CoorToNumber (CheckerBoard's
// numbertocoors).
func NumberToCoor(n int, gametype int) (x, y int) {
	n--
	switch gametype {
	case GTItalian:
		y = n / 4
		x = 2 * (n % 4)
	case GTSpanish:
		y = 7 - n/4
		x = 2 * (3 - n%4)
	case GTCzech:
		n = 31 - n
		y = n / 4
		x = 2 * (n % 4)
	default:
		y = n / 4
		x = 2 * (3 - n%4)
	}
	if y%2 == 1 {
		x++
	}
	return x, y
}

// Options are the host's switches.
type Options struct {
	// NoGuard hands getmove the clock as it stands and never raises
	// *playnow on the host's own account (the engine keeps its time
	// itself, as under CheckerBoard): for tests that show what the guard
	// prevents, and for engines known to keep time exactly.
	NoGuard bool
}

// host is one Hub session in front of a library.
type host struct {
	lib     *Lib
	v       *rules.Variant
	name    string
	mu      sync.Mutex // out, and searching
	out     *bufio.Writer
	err     error
	pos     rules.Position
	posOK   bool
	level   match.Level
	reset   bool // the next getmove starts a new game
	running bool
	guard   *guard
}

// Serve runs the Hub protocol for lib on in/out until "quit" or the end of
// the input. The engine's name comes from enginecommand "name", its rules
// from "get gametype" (English when it does not say), declared as the
// Hub parameter "variant" with that one value; any other parameter is
// passed on as enginecommand "set NAME VALUE" (e.g. hashsize, book).
// The host keeps the engine inside its clock (see guard) unless
// opts.NoGuard.
func Serve(lib *Lib, in io.Reader, out io.Writer, opts Options) error {
	h := &host{lib: lib, out: bufio.NewWriter(out), reset: true, guard: newGuard(opts.NoGuard)}
	h.name = strings.TrimSuffix(filepath.Base(lib.Path), filepath.Ext(lib.Path))
	if r, ok, err := lib.Command("name"); err == nil && ok && strings.TrimSpace(r) != "" {
		h.name = strings.TrimSpace(r)
	}
	if r, ok, err := lib.Command("get gametype"); err == nil && ok {
		if gt, err := strconv.Atoi(strings.TrimSpace(r)); err == nil {
			lib.GameType = gt
		}
	}
	vname, ok := variantOf[lib.GameType]
	if !ok {
		return fmt.Errorf("cb: %s plays CheckerBoard game type %d, which the arbiter does not know", lib.Path, lib.GameType)
	}
	h.v = rules.MustLookup(vname)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		l, err := hub.ParseLine(sc.Text())
		if err != nil {
			h.println(hub.Cmd("error", "message", err.Error()).String())
			continue
		}
		switch l.Command {
		case "hub":
			h.println(hub.Cmd("id", "name", h.name, "author", "CheckerBoard API engine "+filepath.Base(lib.Path)).String())
			h.println(hub.Cmd("param", "name", "variant", "value", vname, "type", "enum", "values", vname).String())
			h.println("wait")
		case "set-param":
			name, _ := l.Get("name")
			value, _ := l.Get("value")
			if name == "variant" {
				if value != vname {
					h.println(hub.Cmd("error", "message", fmt.Sprintf("this engine plays %s, not %s", vname, value)).String())
				}
				continue
			}
			if reply, ok, err := lib.Command("set " + name + " " + value); err != nil || !ok {
				h.println(hub.Cmd("error", "message", fmt.Sprintf("enginecommand \"set %s %s\" not understood: %q %v", name, value, reply, err)).String())
			}
		case "init":
			h.println("ready")
		case "new-game":
			h.reset = true
		case "pos":
			h.posOK = false
			s, _ := l.Get("pos")
			p, err := hub.ParsePos(h.v, s)
			if err != nil {
				h.println(hub.Cmd("error", "message", err.Error()).String())
				continue
			}
			moves, _ := l.Get("moves")
			for _, mt := range strings.Fields(moves) {
				m, err := p.ParseHubMove(mt)
				if err != nil {
					h.println(hub.Cmd("error", "message", "moves: "+err.Error()).String())
					p = rules.Position{}
					break
				}
				p = p.Play(m)
			}
			h.pos, h.posOK = p, p.Variant() != nil
		case "level":
			if lv, err := hub.ParseLevel(l); err == nil {
				h.level = lv
			} else {
				h.println(hub.Cmd("error", "message", err.Error()).String())
			}
		case "go":
			h.goSearch()
		case "stop":
			lib.PlayNow()
		case "ping":
			h.println("pong")
		case "ponder-hit":
		case "quit":
			return h.failed()
		}
		if err := h.failed(); err != nil {
			return err
		}
	}
	return h.failed()
}

func (h *host) println(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err != nil {
		return
	}
	h.out.WriteString(s)
	h.out.WriteByte('\n')
	if err := h.out.Flush(); err != nil {
		h.err = fmt.Errorf("cb-host: writing to the arbiter: %w", err)
	}
}

func (h *host) failed() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

// goSearch starts getmove in a goroutine: the host goes on reading, so
// that "stop" sets *playnow and "ping" is answered during the search.
func (h *host) goSearch() {
	h.mu.Lock()
	busy := h.running
	h.mu.Unlock()
	if busy {
		h.println(hub.Cmd("error", "message", "go during a search").String())
		return
	}
	if !h.posOK {
		h.println(hub.Cmd("error", "message", "go without a valid position").String())
		return
	}
	t0 := time.Now()
	var b Board
	h.toBoard(h.pos, &b)
	color := int32(White)
	if h.pos.Turn() == rules.Black {
		color = Black
	}
	p := h.guard.plan(h.level)
	if h.reset {
		p.info |= ResetMoves
		h.reset = false
	}
	before := b
	h.mu.Lock()
	h.running = true
	h.mu.Unlock()
	h.lib.ResetPlayNow()
	go h.search(p, t0, &b, before, color)
}

// search runs getmove for plan p, started at t0 (when "go" was read), and
// answers the move. At p.deadline the host raises *playnow itself; the
// "info" line says so (stopped=host), with what the guard has learned of
// the engine (overshoot, the reserve, how many moves it had to stop).
func (h *host) search(p plan, t0 time.Time, b *Board, before Board, color int32) {
	var raisedAt atomic.Int64 // after t0, ns; 0 while not raised
	var timer *time.Timer
	if p.deadline > 0 {
		timer = time.AfterFunc(max(p.deadline-time.Since(t0), 0), func() {
			raisedAt.Store(int64(max(time.Since(t0), 1)))
			h.lib.PlayNow()
		})
	}
	res, m, str := h.lib.GetMove(b, color, p.maxtime, p.info, p.moreinfo)
	took := time.Since(t0)
	if timer != nil {
		timer.Stop()
	}
	at := time.Duration(raisedAt.Load())
	text := h.moveText(&before, b, color, &m)
	msg := strings.Join(strings.Fields(str), " ")
	args := []string{"time", strconv.FormatFloat(took.Seconds(), 'f', 3, 64), "result", resultName(res), "message", msg,
		"maxtime", strconv.FormatFloat(p.maxtime, 'f', 4, 64)}
	h.mu.Lock()
	g := h.guard
	g.learn(p, took, at > 0)
	if p.deadline > 0 {
		args = append(args, "deadline", strconv.FormatFloat(p.deadline.Seconds(), 'f', 4, 64))
		if at > 0 {
			args = append(args, "stopped", "host", "stopped-at", strconv.FormatFloat(at.Seconds(), 'f', 4, 64))
		}
		args = append(args, "overshoot", strconv.FormatFloat(g.ratio[p.kind], 'f', 3, 64),
			"stop-latency", strconv.FormatFloat(g.stopLatency.Seconds(), 'f', 4, 64),
			"host-stops", strconv.Itoa(g.raised)+"/"+strconv.Itoa(g.moves))
	}
	h.running = false
	h.mu.Unlock()
	h.println(hub.Cmd("info", args...).String())
	h.println(hub.Cmd("done", "move", text).String())
}

func resultName(r int32) string {
	switch r {
	case Draw:
		return "draw"
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return "unknown"
}

// toBoard writes p on b.
func (h *host) toBoard(p rules.Position, b *Board) {
	*b = Board{}
	for sq := 1; sq <= 32; sq++ {
		c, k, ok := p.Piece(rules.Square(sq))
		if !ok {
			continue
		}
		v := int32(White)
		if c == rules.Black {
			v = Black
		}
		if k == rules.King {
			v |= King
		} else {
			v |= Man
		}
		x, y := NumberToCoor(sq, h.lib.GameType)
		b[x][y] = v
	}
}

// moveText writes the engine's move in Hub notation, as the engine made
// it: read from the change of the board (how CheckerBoard itself reads an
// English engine's move), or, when the board does not show one move (a
// capture back to the start square, or a board left unchanged), from the
// CBmove struct.
func (h *host) moveText(before, after *Board, color int32, m *Move) string {
	gt := h.lib.GameType
	var from, to, caps []int
	for x := range 8 {
		for y := range 8 {
			b, a := before[x][y], after[x][y]
			if b == a {
				continue
			}
			sq := CoorToNumber(x, y, gt)
			switch {
			case b&color != 0 && a == Free:
				from = append(from, sq)
			case a&color != 0 && b&color == 0:
				to = append(to, sq)
			case b != Free && b&color == 0 && a == Free:
				caps = append(caps, sq)
			}
		}
	}
	if len(from) != 1 || len(to) != 1 {
		from = []int{CoorToNumber(int(m.From.X&7), int(m.From.Y&7), gt)}
		to = []int{CoorToNumber(int(m.To.X&7), int(m.To.Y&7), gt)}
		caps = caps[:0]
		for i := 0; i < int(min(max(m.Jumps, 0), 12)); i++ {
			caps = append(caps, CoorToNumber(int(m.Del[i].X&7), int(m.Del[i].Y&7), gt))
		}
	}
	slices.Sort(caps)
	var b strings.Builder
	b.WriteString(strconv.Itoa(from[0]))
	if len(caps) == 0 {
		b.WriteByte('-')
		b.WriteString(strconv.Itoa(to[0]))
		return b.String()
	}
	b.WriteByte('x')
	b.WriteString(strconv.Itoa(to[0]))
	for _, c := range caps {
		b.WriteByte('x')
		b.WriteString(strconv.Itoa(c))
	}
	return b.String()
}
