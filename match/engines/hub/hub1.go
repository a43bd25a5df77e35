package hub

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Hub-1 is the protocol of Scan 2.0 (2015) and the engines written for the
// Hub GUI of its time (Options.Version 1). It has the same life cycle as
// version 2 (handshake, init, a search per move, stop and ping) with
// positional words instead of name=value arguments:
//
//	arbiter -> engine                  engine -> arbiter
//	hub                                name <text>, author <text>, country <text>, wait
//	set <name> <value>                 (parameters are not declared)
//	init                               ready
//	new                                (new game: clear the hash table)
//	pos <w|b><50 squares>              (lower-case side to move; squares as in version 2)
//	move <move>                        (one per move since the last irreversible one)
//	level <moves> <time ms> <inc ms>   (or: time <ms> per move, depth <n>)
//	go                                 info <depth> <mean depth> <score cp> <nodes> <s> <Mnps> <pv...>
//	                                   move <move> [<ponder>]
//	stop, ping                         pong
//	quit
//
// "pos" resets the engine's limits, so the level comes after the position
// and its moves. Scan 2.0 echoes every line it reads during a search as
// `input "<line>"`; the player ignores it silently.

// known1 are the commands of Hub-1 engines.
var known1 = map[string]bool{"name": true, "author": true, "country": true, "version": true, "wait": true, "ready": true,
	"info": true, "move": true, "pong": true, "error": true, "input": true}

// reply1 maps a Hub-1 line's first word to what Play does with it.
var reply1 = map[string]string{"move": "move1", "info": "info1", "pong": "pong", "error": "error", "input": "error"}

// handshake1 keeps the engine's name, author, country and version lines as
// its id (the rest of the line is the value).
func (e *Player) handshake1(cmd, raw string, kept *int) *match.Fault {
	switch cmd {
	case "name", "author", "country", "version":
		_, val, _ := strings.Cut(strings.TrimLeft(raw, " \t"), cmd)
		val = strings.TrimSpace(val)
		if _, ok := e.id[cmd]; !ok && len(e.id) >= MaxIDs {
			return limit(fmt.Sprintf("it sent more than %d id lines during the handshake", MaxIDs))
		}
		*kept += len(cmd) + len(val)
		if *kept > MaxHandshake {
			return limit(fmt.Sprintf("its id lines took more than %d bytes during the handshake", MaxHandshake))
		}
		e.id[cmd] = val
	}
	return nil
}

// appendRequest1 appends a Hub-1 search request: the position after the
// last irreversible move, the moves since (for repetitions), the level
// (after the position, which resets it) and "go".
func (e *Player) appendRequest1(b []byte, req match.Request) []byte {
	e.scan(req)
	c := &e.pos
	b = append(b, "pos "...)
	turn := len(b)
	b = appendPosString(b, c.base)
	b[turn] |= 0x20 // Hub-1 writes the side to move in lower case
	b = append(b, '\n')
	for rest := c.text; len(rest) > 0; {
		word := rest
		if i := bytes.IndexByte(rest, ' '); i >= 0 {
			word, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		b = append(b, "move "...)
		b = append(b, word...)
		b = append(b, '\n')
	}
	b = appendLevel1(b, req.Level)
	return append(b, "go\n"...)
}

// appendLevel1 appends the Hub-1 limit lines of lv: "level moves time inc"
// in milliseconds for a clock (time is the clock less the increment, as in
// version 2: the engine adds the increment), "time ms" for a fixed time per
// move, "depth n". Without a limit nothing is sent (the engine's default
// after "pos" is no limit). Hub-1 has no node limit.
func appendLevel1(b []byte, lv match.Level) []byte {
	if lv.Time > 0 {
		t, inc := hubClock(lv)
		b = append(b, "level "...)
		b = strconv.AppendInt(b, int64(max(lv.MovesToGo, 0)), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, t.Milliseconds(), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, inc.Milliseconds(), 10)
		b = append(b, '\n')
	}
	if lv.MoveTime > 0 {
		b = append(b, "time "...)
		b = strconv.AppendInt(b, max(lv.MoveTime.Milliseconds(), 1), 10)
		b = append(b, '\n')
	}
	if lv.Depth > 0 {
		b = append(b, "depth "...)
		b = strconv.AppendInt(b, int64(lv.Depth), 10)
		b = append(b, '\n')
	}
	return b
}

// moveArgs1 reads "move <move> [<ponder>]".
func moveArgs1(raw string) (move, ponder string) {
	f := strings.Fields(raw)
	if len(f) > 1 {
		move = f[1]
	}
	if len(f) > 2 {
		ponder = f[2]
	}
	return move, ponder
}

// info1 rewrites a Hub-1 info line, "info depth mean-depth score(cp) nodes
// time Mnps pv...", in the version-2 form the record and the adjudication
// read (score in men). A line that does not have that shape, or breaks the
// line syntax (control characters, invalid UTF-8), is kept as written.
func info1(raw string) string {
	if !utf8.ValidString(raw) || strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
		return raw
	}
	f := strings.Fields(raw)
	if len(f) < 7 || f[0] != "info" {
		return raw
	}
	score, err := strconv.Atoi(f[3])
	if err != nil {
		return raw
	}
	l := Cmd("info", "depth", f[1], "mean-depth", f[2], "score", strconv.FormatFloat(float64(score)/100, 'f', 2, 64),
		"nodes", f[4], "time", f[5], "nps", f[6])
	if len(f) > 7 {
		l.Args = append(l.Args, Arg{Name: "pv", Value: strings.Join(f[7:], " ")})
	}
	return l.String()
}

// Request1 is the Hub-1 lines of a search of p under lv, as a game's
// first search sends them (the position, the level lines, "go"; no
// moves): what a conformance check sends without a Player.
func Request1(p rules.Position, lv match.Level) []string {
	b := append([]byte("pos "), appendPosString(nil, p)...)
	b[len("pos ")] |= 0x20 // the side to move in lower case
	return append(append([]string{string(b)}, Level1(lv)...), "go")
}

// Level1 is the Hub-1 limit lines of lv (none: no limit).
func Level1(lv match.Level) []string {
	b := appendLevel1(nil, lv)
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}
