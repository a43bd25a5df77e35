// Package check runs a conformance check of a Hub engine (version 2, a
// CheckerBoard engine through its host, or version 1, Scan 2.0's Hub-1): the handshake, searches of a list
// of positions, each form of "level", "stop" and "ping" during a search,
// input it does not know, the time it uses against its limit, and "quit".
// Each check is a line of a checklist with what was seen and, for a
// failure, what to fix, as fastchess's --compliance does for UCI engines.
//
// Imported by cmd/arbiter (engine-check); it imports the game (match) and the
// Hub protocol.
package check

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/hub"
	"github.com/draughts-arbiter/arbiter/match/internal/proc"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Status is the outcome of one check.
type Status string

// Outcomes: a failure breaks the protocol or the rules (an arbiter would
// forfeit the engine for it); a warning is allowed but unhelpful.
const (
	Pass Status = "PASS"
	Fail Status = "FAIL"
	Warn Status = "WARN"
	// Skip is checks not run: they would fail for a cause already failed.
	Skip Status = "SKIP"
)

// Item is one line of the checklist.
type Item struct {
	Status Status
	Name   string // what was checked
	Detail string // what was seen
	Fix    string // for a failure or warning: what the engine should do
}

// Options configure a check.
type Options struct {
	Command []string // the engine's argv
	Dir     string
	Env     []string
	Params  []hub.Param // set-param before init
	Variant *rules.Variant
	// Positions are searched one by one (the variant's start position and a
	// few positions with captures when empty).
	Positions []rules.Position
	// MoveTime is the time per move of the position searches (200ms).
	MoveTime time.Duration
	// InitTimeout bounds "hub" -> "wait" and "init" -> "ready" (60s).
	InitTimeout time.Duration
	// Reply bounds the answer to ping, and to stop (1s).
	Reply time.Duration
	// Log receives the exchange ("> line", "< line"), nil: none.
	Log io.Writer
	// Version is the Hub version the engine speaks: 2 (0 is 2) or 1
	// (Hub-1: positional words, "move" for "done", no declared
	// parameters; see match/engines/hub's hub1.go).
	Version int
}

// Run checks the engine and returns the checklist. An engine that dies or
// stops answering is started again for the checks that follow.
func Run(opts Options) []Item {
	if opts.MoveTime <= 0 {
		opts.MoveTime = 200 * time.Millisecond
	}
	if opts.InitTimeout <= 0 {
		opts.InitTimeout = 60 * time.Second
	}
	if opts.Reply <= 0 {
		opts.Reply = time.Second
	}
	if len(opts.Positions) == 0 {
		opts.Positions = Positions(opts.Variant)
	}
	c := &checker{opts: opts, v1: opts.Version == 1, done: "done"}
	if c.v1 {
		c.done = "move"
	}
	defer c.close()
	if !c.start(true) {
		return c.items
	}
	for i, p := range opts.Positions {
		if c.position(i+1, p); i == 0 && c.refused {
			// The first position is the variant's start (or the user's
			// first): refused, every check that follows searches a position
			// too, and each would wait out its time and fail for the same
			// cause (ten failures and half a minute for an engine told the
			// wrong variant). A later refusal is that position's own fault.
			c.add(Skip, "the remaining checks", "not run: each searches a position, which the engine refused (above)",
				"mend what the failure above says, then run engine-check again")
			c.quit()
			return c.items
		}
	}
	c.levels()
	c.stopDuringSearch()
	c.pingDuringSearch()
	c.badInput()
	c.quit()
	return c.items
}

type checker struct {
	opts   Options
	items  []Item
	p      *proc.Process
	ok     bool // the engine is running and ready
	inGame bool // "new-game" was sent to this process
	id     map[string]string
	v1     bool   // the engine speaks Hub-1
	done   string // the word of a search's answer: done, or Hub-1's move
	// refused: a position search ended without a move, the engine saying
	// why (an error line): it does not accept the positions it is sent.
	refused bool
}

func (c *checker) add(s Status, name, detail, fix string) {
	c.items = append(c.items, Item{Status: s, Name: name, Detail: detail, Fix: fix})
}

func (c *checker) log(dir, line string) {
	if c.opts.Log != nil {
		fmt.Fprintf(c.opts.Log, "%s %s\n", dir, line)
	}
}

func (c *checker) send(lines ...string) error {
	var b strings.Builder
	for _, l := range lines {
		c.log(">", l)
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return c.p.Write(b.String(), 2*time.Second)
}

// readUntil reads lines until want returns true or the deadline passes;
// it returns the lines read (want's line last) and whether want was met.
func (c *checker) readUntil(deadline time.Time, want func(cmd string, raw string) bool) ([]string, bool, error) {
	var got []string
	for {
		raw, err := c.p.ReadLine(deadline)
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) && !c.exited() {
				return got, false, nil
			}
			return got, false, fmt.Errorf("the engine %s", c.gone(err))
		}
		c.log("<", raw)
		got = append(got, raw)
		cmd := raw
		if i := strings.IndexAny(strings.TrimSpace(raw), " \t"); i >= 0 {
			cmd = strings.TrimSpace(raw)[:i]
		}
		if want(strings.TrimSpace(cmd), raw) {
			return got, true, nil
		}
	}
}

func (c *checker) exited() bool {
	select {
	case <-c.p.Exited():
		return true
	default:
		return false
	}
}

func (c *checker) gone(err error) string {
	select {
	case <-c.p.Exited():
	case <-time.After(500 * time.Millisecond):
		return fmt.Sprintf("closed its output (%v)", err)
	}
	why := "exited"
	if xerr := c.p.ExitErr(); xerr != nil {
		why += " (" + xerr.Error() + ")"
	}
	select {
	case <-c.p.StderrDone():
	case <-time.After(500 * time.Millisecond):
	}
	if last := c.p.LastStderr(); last != "" {
		why += fmt.Sprintf("; last stderr line %q", last)
	}
	return why
}

func (c *checker) close() {
	if c.p != nil {
		c.p.Write("quit\n", 200*time.Millisecond)
		c.p.CloseInput()
		c.p.Stop(time.Second)
		c.p = nil
	}
	c.ok = false
}

// start runs the engine through the handshake and init. report: add the
// items (the first start); a restart adds an item only when it fails.
func (c *checker) start(report bool) bool {
	c.close()
	p, err := proc.Start(c.opts.Command, c.opts.Dir, c.opts.Env, func(s string) { c.log("stderr", s) })
	if err != nil {
		c.add(Fail, "start", err.Error(), "check the command and its working directory")
		return false
	}
	c.p, c.inGame = p, false
	t0 := time.Now()
	if err := c.send("hub"); err != nil {
		c.add(Fail, "handshake", err.Error(), "read commands from standard input")
		return false
	}
	c.id = map[string]string{}
	var params []hub.Param
	var junk []string
	// A first line in another protocol's words ends the wait at once.
	looks, heard := "", 0
	version := 2
	if c.v1 {
		version = 1
	}
	lines, ok, err := c.readUntil(time.Now().Add(c.opts.InitTimeout), func(cmd, raw string) bool {
		if strings.TrimSpace(raw) != "" {
			if heard++; heard == 1 {
				looks = hub.ForeignProtocol(raw, version)
			}
		}
		return cmd == "wait" || looks != ""
	})
	if looks != "" {
		c.add(Fail, "handshake", fmt.Sprintf("not a Hub engine: it answered \"hub\" with %q, which looks like %s", lines[len(lines)-1], looks),
			"run it with the protocol it speaks (proto=hub1, cb or dxp in the engine spec), or make it answer \"hub\" with id and param lines, then \"wait\"")
		return false
	}
	for _, raw := range lines {
		if c.v1 {
			// Hub-1: "name <text>", "author <text>", ..., "wait".
			word, rest, _ := strings.Cut(strings.TrimSpace(raw), " ")
			switch word {
			case "name", "author", "country", "version":
				c.id[word] = strings.TrimSpace(rest)
			case "wait":
			default:
				junk = append(junk, raw)
			}
			continue
		}
		l, perr := hub.ParseLine(raw)
		switch {
		case perr != nil:
			junk = append(junk, raw)
		case l.Command == "id":
			for _, a := range l.Args {
				c.id[a.Name] = a.Value
			}
		case l.Command == "param":
			pr := hub.Param{}
			pr.Name, _ = l.Get("name")
			pr.Value, _ = l.Get("value")
			pr.Type, _ = l.Get("type")
			if v, ok := l.Get("values"); ok {
				pr.Values = strings.Fields(v)
			}
			params = append(params, pr)
		case l.Command == "wait":
		default:
			junk = append(junk, raw)
		}
	}
	switch {
	case err != nil:
		c.add(Fail, "handshake", err.Error()+" before \"wait\"", c.handshakeFix())
		return false
	case !ok:
		c.add(Fail, "handshake", fmt.Sprintf("no \"wait\" within %v of \"hub\"; it printed %s", c.opts.InitTimeout, printed(lines)), c.handshakeFix())
		return false
	}
	if report {
		detail := fmt.Sprintf("id name=%q version=%q, %d parameters, wait after %v", c.id["name"], c.id["version"], len(params), round(time.Since(t0)))
		fix := "send \"id name=... version=...\": the arbiter records it to notice a changed engine"
		if c.v1 {
			detail = fmt.Sprintf("name %q, wait after %v", c.id["name"], round(time.Since(t0)))
			fix = "send \"name <engine> <version>\": the arbiter records it to notice a changed engine"
		}
		switch {
		case c.id["name"] == "":
			c.add(Warn, "handshake", detail, fix)
		default:
			c.add(Pass, "handshake", detail, "")
		}
		if len(junk) > 0 {
			c.add(Warn, "handshake output", fmt.Sprintf("%d lines that are not Hub answers, e.g. %q", len(junk), junk[0]), "write only protocol lines to standard output (debug text to stderr)")
		}
	}
	var sets []string
	userVariant := slices.ContainsFunc(c.opts.Params, func(p hub.Param) bool { return p.Name == "variant" })
	if v := c.opts.Variant; v != nil && !userVariant {
		for _, pr := range params {
			if pr.Name != "variant" {
				continue
			}
			value, found := hub.VariantValue(v, pr.Value, pr.Values)
			switch {
			case !found && report:
				c.add(Warn, "variant", fmt.Sprintf("param variant offers %q, none called %s", strings.Join(pr.Values, " "), v.Name()),
					variantFix(v, pr.Value, pr.Values))
			case found && value != pr.Value:
				sets = append(sets, hub.Cmd("set-param", "name", "variant", "value", value).String())
			}
		}
	}
	for _, pr := range c.opts.Params {
		if c.v1 {
			sets = append(sets, "set "+pr.Name+" "+pr.Value)
			continue
		}
		sets = append(sets, hub.Cmd("set-param", "name", pr.Name, "value", pr.Value).String())
	}
	t0 = time.Now()
	if err := c.send(append(sets, "init")...); err != nil {
		c.add(Fail, "init", err.Error(), "keep reading standard input after the handshake")
		return false
	}
	_, ok, err = c.readUntil(time.Now().Add(c.opts.InitTimeout), func(cmd, _ string) bool { return cmd == "ready" })
	switch {
	case err != nil:
		c.add(Fail, "init", err.Error()+" before \"ready\"", "answer \"init\" with \"ready\" once loaded")
		return false
	case !ok:
		c.add(Fail, "init", fmt.Sprintf("no \"ready\" within %v of \"init\"", c.opts.InitTimeout), "answer \"init\" with \"ready\" once loaded")
		return false
	}
	if report {
		c.add(Pass, "init", fmt.Sprintf("ready after %v", round(time.Since(t0))), "")
	}
	c.ok = true
	return true
}

// printed quotes the first lines of a program's output for a failed
// handshake: the best clue to what it is.
func printed(lines []string) string {
	if len(lines) == 0 {
		return "nothing"
	}
	q := make([]string, 0, 4)
	for _, l := range lines[:min(len(lines), 4)] {
		if len(l) > 120 {
			l = l[:120]
		}
		q = append(q, strconv.Quote(l))
	}
	return strings.Join(q, ", ")
}

// handshakeFix is the advice for a handshake that did not end in "wait".
func (c *checker) handshakeFix() string {
	if c.v1 {
		return "answer \"hub\" with name (and author, country) lines, then \"wait\""
	}
	return "answer \"hub\" with id and param lines, then \"wait\""
}

// level is how lv reads in the checklist: the level line(s) sent.
func (c *checker) level(lv match.Level) string {
	if !c.v1 {
		return hub.LevelCommand(lv).String()
	}
	lines := hub.Level1(lv)
	if len(lines) == 0 {
		return "no limit"
	}
	return strings.Join(lines, "; ")
}

// ensure restarts the engine when an earlier check left it dead or deaf.
func (c *checker) ensure(name string) bool {
	if c.ok && !c.exited() {
		return true
	}
	if !c.start(false) {
		c.add(Fail, name, "not run: the engine could not be started again", "")
		return false
	}
	return true
}

// searchResult is what a search gave.
type searchResult struct {
	move, ponder string
	took         time.Duration
	info, junk   []string
	done         bool
	badDone      string // a done line that does not parse
	// said is the search's first "error" line (the cause; those after are
	// its consequences): a search that ends without a move quotes it, as a
	// match's forfeit reason does (a Hub-1 engine told no variant refuses
	// the position and never moves).
	said string
}

// search sends a new game, the position, the level and "go think", runs
// during (if any) and waits for "done" until limit after "go". The error
// is the engine's death or a write that failed.
func (c *checker) search(p rules.Position, lv match.Level, limit time.Duration, during func() ([]string, error)) (searchResult, error) {
	var r searchResult
	// One game per engine session: a fault an engine has at its K-th
	// search shows at the K-th check.
	lines := []string{hub.PosCommand(p, nil).String(), hub.LevelCommand(lv).String(), "go think"}
	newGame := "new-game"
	if c.v1 {
		lines, newGame = hub.Request1(p, lv), "new"
	}
	if !c.inGame {
		lines = append([]string{newGame}, lines...)
		c.inGame = true
	}
	if err := c.send(lines...); err != nil {
		c.ok = false
		return r, err
	}
	t0 := time.Now()
	var early []string // lines during read, a done among them
	if during != nil {
		var err error
		if early, err = during(); err != nil {
			c.ok = false
			return r, err
		}
	}
	lines = nil
	ok := false
	var err error
	for _, raw := range early {
		if strings.HasPrefix(strings.TrimSpace(raw), c.done) {
			ok = true
		}
	}
	if !ok {
		lines, ok, err = c.readUntil(t0.Add(limit), func(cmd, _ string) bool { return cmd == c.done })
	}
	lines = append(early, lines...)
	r.took = time.Since(t0)
	for _, raw := range lines {
		if c.v1 {
			// Hub-1: "move <move> [<ponder>]", info, pong, error and
			// Scan 2.0's echo of its input.
			f := strings.Fields(raw)
			switch {
			case len(f) > 0 && f[0] == "move":
				if len(f) > 1 {
					r.move = f[1]
				}
				if len(f) > 2 {
					r.ponder = f[2]
				}
			case len(f) > 0 && (f[0] == "info" || f[0] == "pong" || f[0] == "error" || f[0] == "input"):
				if f[0] == "info" {
					r.info = append(r.info, raw)
				}
				if f[0] == "error" && r.said == "" {
					r.said = strings.TrimSpace(raw)
				}
			default:
				r.junk = append(r.junk, raw)
			}
			continue
		}
		l, perr := hub.ParseLine(raw)
		switch {
		case strings.HasPrefix(strings.TrimSpace(raw), "done"):
			if perr != nil {
				r.badDone = raw
				break
			}
			r.move, _ = l.Get("move")
			r.ponder, _ = l.Get("ponder")
		case perr == nil && (l.Command == "info" || l.Command == "pong" || l.Command == "error"):
			if l.Command == "info" {
				r.info = append(r.info, raw)
			}
			if l.Command == "error" && r.said == "" {
				r.said = strings.TrimSpace(raw)
			}
		default:
			r.junk = append(r.junk, raw)
		}
	}
	r.done = ok
	if err != nil || !ok {
		c.ok = false
	}
	return r, err
}

// noAnswer fails a check whose search never answered with a move: detail
// quotes the engine's first error line, and fix (in Hub 2's words) is told
// in Hub 1's ("move" for "done"), led, for a Hub-1 engine not told its
// variant, by how to tell it: Hub 1 declares no parameters, so the arbiter
// sends "set variant" only when the spec asks (option.variant=...), and
// an engine that plays another variant by default refuses the position.
func (c *checker) noAnswer(what, detail string, r searchResult, fix string) {
	if c.v1 {
		detail = strings.Replace(detail, "no done", "no move", 1)
		fix = strings.ReplaceAll(fix, " done", " a move line")
	}
	if r.said != "" {
		detail += "; the engine said: " + r.said
	}
	if c.v1 && !c.variantGiven() && c.opts.Variant != nil {
		v := c.opts.Variant.Name()
		fix = fmt.Sprintf("a Hub-1 engine learns its variant only from its options: add option.variant=%s to the engine spec "+
			"(--engine 'proto=hub1 option.variant=%s cmd=...'), unless it plays %s by default; then %s", v, v, v, fix)
	}
	c.add(Fail, what, detail, fix)
}

// variantGiven reports whether the engine is told its variant by a
// parameter (option.variant=...).
func (c *checker) variantGiven() bool {
	for _, p := range c.opts.Params {
		if strings.EqualFold(p.Name, "variant") {
			return true
		}
	}
	return false
}

// judge checks a search's move against p.
func judge(p rules.Position, r searchResult) (ok bool, detail, fix string) {
	if r.badDone != "" {
		return false, fmt.Sprintf("the done line %q breaks the Hub syntax", r.badDone), "quote values with spaces; no control characters"
	}
	if r.move == "" {
		return false, "done without a move", "always send done move=... (the arbiter never asks in a finished position)"
	}
	m, err := p.ParseHubMove(r.move)
	if err != nil {
		return false, fmt.Sprintf("move %q is not legal in %s: %v", r.move, p.FEN(), err),
			"write captures as from x to x every captured square (Hub notation), and play only legal moves (captures are compulsory)"
	}
	if r.ponder != "" {
		if _, err := p.Play(m).ParseHubMove(r.ponder); err != nil {
			return true, fmt.Sprintf("ponder move %q is not legal after %s", r.ponder, r.move), "send a ponder move legal after the move, or none"
		}
	}
	return true, "", ""
}

// position searches p with a fixed time per move.
func (c *checker) position(n int, p rules.Position) {
	name := fmt.Sprintf("position %d", n)
	if !c.ensure(name) {
		return
	}
	limit := c.opts.MoveTime
	lv := match.Level{MoveTime: limit}
	level := c.level(lv)
	r, err := c.search(p, lv, limit+c.opts.Reply+time.Second, nil)
	what := fmt.Sprintf("%s (%s, %s)", name, p.FEN(), level)
	switch {
	case err != nil:
		c.add(Fail, what, err.Error(), crashFix)
		return
	case !r.done:
		c.noAnswer(what, fmt.Sprintf("no done within %v", round(r.took)), r, "answer every go with done, within the time the level gives")
		c.refused = r.said != ""
		return
	}
	ok, detail, fix := judge(p, r)
	if !ok {
		c.add(Fail, what, detail, fix)
		return
	}
	if detail != "" {
		c.add(Warn, what, detail, fix)
		return
	}
	st, d, f := timeUse(r.took, limit, c.opts.Reply)
	c.add(st, what, fmt.Sprintf("done move=%s after %v; %s", r.move, round(r.took), d), f)
	if len(r.junk) > 0 {
		c.add(Warn, what+": output", fmt.Sprintf("%d lines that are not Hub answers, e.g. %q", len(r.junk), r.junk[0]),
			"write only protocol lines to standard output (debug text to stderr)")
	}
}

// timeUse judges time used against a limit: past the limit plus slack is a
// failure (a time forfeit in a game), under a tenth of it with a fixed
// time is fine.
func timeUse(took, limit, slack time.Duration) (Status, string, string) {
	if took > limit+slack {
		return Fail, fmt.Sprintf("used %v of %v", took.Round(time.Millisecond), limit), "stop searching in time: the arbiter forfeits an engine past its clock"
	}
	return Pass, fmt.Sprintf("within %v", limit), ""
}

// levels checks each form of "level" the arbiter sends.
func (c *checker) levels() {
	p := c.opts.Positions[0]
	tests := []struct {
		name  string
		lv    match.Level
		limit time.Duration // the allowance; 0: no time limit
	}{
		{"level time+inc", match.Level{Time: 2 * time.Second, Inc: 100 * time.Millisecond}, 2100 * time.Millisecond},
		{"level moves+time", match.Level{Time: 1500 * time.Millisecond, MovesToGo: 3}, 1500 * time.Millisecond},
		{"level move-time", match.Level{MoveTime: 300 * time.Millisecond}, 300 * time.Millisecond},
		{"level depth", match.Level{Depth: 2}, 0},
	}
	for _, tt := range tests {
		if !c.ensure(tt.name) {
			return
		}
		level := c.level(tt.lv)
		wait := tt.limit + c.opts.Reply + time.Second
		if tt.limit == 0 {
			wait = 10 * time.Second
		}
		r, err := c.search(p, tt.lv, wait, nil)
		what := fmt.Sprintf("%s (%s)", tt.name, level)
		switch {
		case err != nil:
			c.add(Fail, what, err.Error(), crashFix)
			continue
		case !r.done:
			c.noAnswer(what, fmt.Sprintf("no done within %v", wait), r, "answer go under every level form with done (depth and nodes limits too)")
			continue
		}
		if ok, detail, fix := judge(p, r); !ok {
			c.add(Fail, what, detail, fix)
			continue
		}
		if tt.limit == 0 {
			c.add(Pass, what, fmt.Sprintf("done move=%s after %v", r.move, round(r.took)), "")
			continue
		}
		st, d, f := timeUse(r.took, tt.limit, 0)
		c.add(st, what, fmt.Sprintf("done move=%s after %v; %s", r.move, round(r.took), d), f)
	}
}

// stopDuringSearch: "level infinite", "go think", "stop" after a moment:
// the engine must answer done promptly.
func (c *checker) stopDuringSearch() {
	const name = "stop during a search"
	if !c.ensure(name) {
		return
	}
	p := c.opts.Positions[0]
	var sent time.Time
	early := false
	r, err := c.search(p, match.Level{}, 300*time.Millisecond+c.opts.Reply, func() ([]string, error) {
		// Wait 300 ms for a done (an engine may stop by itself), then stop.
		lines, ok, err := c.readUntil(time.Now().Add(300*time.Millisecond), func(cmd, _ string) bool { return cmd == c.done })
		if err != nil || ok {
			early = ok
			return lines, err
		}
		sent = time.Now()
		return lines, c.send("stop")
	})
	switch {
	case err != nil:
		c.add(Fail, name, err.Error(), crashFix)
	case !r.done:
		c.noAnswer(name, fmt.Sprintf("no done within %v of stop", c.opts.Reply), r, "read input during the search; on stop, send done with the best move so far")
	default:
		if ok, detail, fix := judge(p, r); !ok {
			c.add(Fail, name, detail, fix)
			return
		}
		if early {
			c.add(Pass, name, fmt.Sprintf("done move=%s after %v, before the stop (an engine may stop by itself; stop was not tried)", r.move, round(r.took)), "")
			return
		}
		c.add(Pass, name, fmt.Sprintf("done move=%s %v after stop", r.move, round(time.Since(sent))), "")
	}
}

// pingDuringSearch: "ping" while searching must be answered at once, and
// the search go on.
func (c *checker) pingDuringSearch() {
	const name = "ping during a search"
	if !c.ensure(name) {
		return
	}
	p := c.opts.Positions[0]
	var pong time.Duration
	var perr error
	early := false
	r, err := c.search(p, match.Level{}, c.opts.Reply, func() ([]string, error) {
		lines, ok, err := c.readUntil(time.Now().Add(100*time.Millisecond), func(cmd, _ string) bool { return cmd == c.done })
		if err != nil || ok {
			early = ok
			return lines, err
		}
		t0 := time.Now()
		if err := c.send("ping"); err != nil {
			return lines, err
		}
		more, ok, err := c.readUntil(t0.Add(c.opts.Reply), func(cmd, _ string) bool { return cmd == "pong" })
		pong = time.Since(t0)
		lines = append(lines, more...)
		switch {
		case err != nil:
			return lines, err
		case !ok:
			perr = fmt.Errorf("no pong within %v", c.opts.Reply)
		}
		return lines, c.send("stop")
	})
	switch {
	case err != nil:
		c.add(Fail, name, err.Error(), crashFix)
	case perr != nil:
		c.add(Fail, name, perr.Error(), "answer ping with pong at any time, during a search too (the arbiter takes silence for a hang)")
	case !r.done:
		c.noAnswer(name, "pong, but no done after the stop that followed", r, "on stop, send done with the best move so far")
	case early:
		c.add(Pass, name, fmt.Sprintf("done move=%s after %v, before the ping (an engine may stop by itself; ping was not tried during a search)", r.move, round(r.took)), "")
	default:
		c.add(Pass, name, fmt.Sprintf("pong after %v, then done move=%s on stop", round(pong), r.move), "")
	}
}

// quoteAll is lines as Go quotes them, joined by commas.
func quoteAll(lines []string) string {
	q := make([]string, len(lines))
	for i, l := range lines {
		q[i] = strconv.Quote(l)
	}
	return strings.Join(q, ", ")
}

// badInput: an unknown command, an unknown argument and a line that
// breaks the syntax must be ignored.
func (c *checker) badInput() {
	const name = "unknown and malformed input"
	if !c.ensure(name) {
		return
	}
	bad := []string{"xyzzy-unknown-command arg=1", `pos pos="unterminated`, "ping"}
	if c.v1 {
		bad = []string{"xyzzy-unknown-command 1", "pos not-a-position", "ping"}
	}
	if err := c.send(bad...); err != nil {
		c.ok = false
		c.add(Fail, name, err.Error(), "ignore commands and arguments you do not know")
		return
	}
	lines, ok, err := c.readUntil(time.Now().Add(c.opts.Reply), func(cmd, _ string) bool { return cmd == "pong" })
	switch {
	case err != nil:
		// The engine is dead or deaf: a search after it would fail the
		// same way (a second failure with a cryptic "broken pipe"), so the
		// one failure names the lines it was sent.
		c.ok = false
		c.add(Fail, name, fmt.Sprintf("%v, after the lines %s", err, quoteAll(bad)),
			"ignore commands and arguments you do not know, and lines you cannot read (an error line is fine)")
		return
	case !ok:
		c.ok = false
		c.add(Fail, name, fmt.Sprintf("no pong within %v after the lines %s", c.opts.Reply, quoteAll(bad)), "ignore commands and arguments you do not know")
		return
	default:
		detail := "ignored; pong"
		if len(lines) > 1 {
			detail = fmt.Sprintf("answered with %d other line(s) (fine), then pong", len(lines)-1)
		}
		c.add(Pass, name, detail, "")
	}
	// And the engine still searches.
	p := c.opts.Positions[0]
	r, err := c.search(p, match.Level{MoveTime: c.opts.MoveTime}, c.opts.MoveTime+c.opts.Reply+time.Second, nil)
	switch {
	case err != nil:
		c.add(Fail, name+": search after it", err.Error(), "recover from input you cannot read")
	case !r.done:
		c.noAnswer(name+": search after it", "no done", r, "recover from input you cannot read")
	}
}

// crashFix is the advice for an engine that died during a check.
const crashFix = "keep running until quit (the arbiter records a crash and restarts the engine); its stderr says why"

// round is d for a checklist: milliseconds, or tenths of them below 10 ms.
func round(d time.Duration) time.Duration {
	if d < 10*time.Millisecond {
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(time.Millisecond)
}

// quit: the engine must exit soon after "quit".
func (c *checker) quit() {
	const name = "quit"
	if !c.ensure(name) {
		return
	}
	c.log(">", "quit")
	if err := c.p.Write("quit\n", time.Second); err != nil {
		c.add(Fail, name, err.Error(), crashFix)
		return
	}
	t0 := time.Now()
	select {
	case <-c.p.Exited():
		c.add(Pass, name, fmt.Sprintf("exited after %v", round(time.Since(t0))), "")
	case <-time.After(2 * time.Second):
		c.add(Warn, name, "still running 2 s after quit (the arbiter kills it)", "exit on quit, and when standard input closes")
	}
}

// Positions are the default positions of a check: the start position and
// the first positions with a capture and with a capture of two or more
// pieces in a game of moves chosen by a fixed rule (the move at index
// 7*ply+3 of the legal list, wrapped), so that the engine's capture
// notation is tried.
func Positions(v *rules.Variant) []rules.Position {
	p := rules.NewPosition(v)
	out := []rules.Position{p}
	var one, multi bool
	for ply := 0; ply < 200 && (!one || !multi); ply++ {
		moves := p.LegalMoves()
		if len(moves) == 0 {
			break
		}
		if moves[0].IsCapture() {
			n := 0
			for _, m := range moves {
				n = max(n, m.Captured.Len())
			}
			if !one || n >= 2 && !multi {
				out = append(out, p)
				one = true
				multi = multi || n >= 2
			}
		}
		m := moves[(ply*7+3)%len(moves)]
		p = p.Play(m)
	}
	return out
}

// variantFix is the fix for an engine whose variant parameter does not
// offer the checked variant: when it offers one the arbiter knows (by the
// names engines use, Scan's "normal" for international), the check was most
// likely run on an engine of another game, and --variant is the answer.
func variantFix(checked *rules.Variant, current string, offered []string) string {
	for _, o := range append([]string{current}, offered...) {
		if name, ok := hub.PresetFor(o); ok && name != checked.Name() {
			return fmt.Sprintf("the checks play %s; to check the engine in the game it plays, run engine-check again with --variant %s "+
				"(its default is international); else name the variants as the arbiter does", checked.Name(), name)
		}
	}
	return "name the variants as the arbiter does, or set the option variant in the event"
}
