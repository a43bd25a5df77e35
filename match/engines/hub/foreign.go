package hub

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/draughts-arbiter/arbiter/match"
)

// NotHubError is the start of a program that answers "hub" in another
// protocol's words: the arbiter was told to speak Hub to it (the default
// proto=hub, or proto=hub1) and its first line already shows it will not
// answer. It is found at once, not after the start-up timeout. Its message
// quotes what the program printed and says what to do; it wraps a Crash
// fault, so that a game in progress counts it as the engine's failure to
// start.
type NotHubError struct {
	Looks   string   // the protocol the output looks like, e.g. "UCI (chess)"
	Printed []string // the program's first lines
	Version int      // the Hub version the arbiter expected
	Fault   *match.Fault
}

func (e *NotHubError) Error() string {
	return fmt.Sprintf("it is not a Hub engine: asked %q, it printed %s, which looks like %s. %s",
		"hub", quoteLines(e.Printed), e.Looks, expectHint(e.Version))
}

func (e *NotHubError) Unwrap() error { return e.Fault }

// expectHint says which protocol the arbiter spoke and what to try.
func expectHint(version int) string {
	want := `Hub version 2 (proto=hub, the default: "hub" answered by id and param lines, then "wait")`
	if version == 1 {
		want = `Hub version 1 (proto=hub1: "hub" answered by name, version, ... lines, then "wait")`
	}
	return "The arbiter expected " + want +
		`; if the engine speaks another protocol give it in the engine spec (proto=hub, hub1, cb or dxp), ` +
		`and "arbiter engine-check --engine SPEC" shows what it answers`
}

// quoteLines quotes a program's output for a message: "nothing" when
// there is none.
func quoteLines(lines []string) string {
	if len(lines) == 0 {
		return "nothing"
	}
	q := make([]string, len(lines))
	for i, l := range lines {
		q[i] = strconv.Quote(truncate(l, 120))
	}
	return strings.Join(q, ", ")
}

// maxHeard is how many of a program's first lines a start-up error quotes.
const maxHeard = 4

// The patterns are compiled at first use (a program that does not answer
// as a Hub engine), not at every start of the arbiter's process.
var (
	// DXP messages (DXP 1.0 over a pipe by mistake): a GAMEREQ ("R01",
	// a 32-character name, W or Z for the colour) or a GAMEACC ("A", a
	// 32-character name, an acceptance code).
	dxpLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(R01.{32}[WZ]|A.{32}[0-3]$)`) })
	// A reply that the command "hub" is not known.
	unknownHub = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(unknown|unrecogni[sz]ed|invalid|illegal|not understood|bad)\b.*\bhub\b|\bhub\b.*(unknown|unrecogni[sz]ed|invalid|not understood|not a command|not found)`)
	})
)

// ForeignProtocol names the protocol a program's first line of output
// shows it speaks instead of Hub ("" = nothing sure: it may be a banner
// before the Hub answer, which is allowed). Only unmistakable forms count:
// an engine must never be refused for an odd greeting.
func ForeignProtocol(line string, version int) string {
	line = strings.TrimSpace(line)
	cmd := command(line)
	switch {
	case line == "uciok" || line == "readyok" ||
		strings.HasPrefix(line, "bestmove ") || strings.HasPrefix(line, "option name ") ||
		(strings.HasPrefix(line, "id name ") || strings.HasPrefix(line, "id author ")) && !strings.Contains(line, "="):
		return "UCI, the chess engines' protocol"
	case strings.HasPrefix(line, "feature ") || strings.HasPrefix(line, "Error (unknown command)"):
		return "xboard/CECP, the chess engines' protocol"
	case dxpLine().MatchString(line):
		return "DXP (proto=dxp: DXP is spoken over TCP, with addr= or listen=true)"
	case version != 1 && known1[cmd] && !known[cmd] && cmd != "input":
		// Hub-1's handshake lines ("name Scan", "version 2.0") under Hub 2.
		// The handshake would go on, and every game break on "pos".
		return "Hub version 1 (proto=hub1)"
	case unknownHub().MatchString(line):
		return `a program that does not know the command "hub"`
	}
	return ""
}

// hear keeps a line of the handshake for the messages and fails at once
// when the program's first line shows another protocol.
func (e *Player) hear(raw string) error {
	first := len(e.heard) == 0
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	if len(e.heard) < maxHeard {
		e.heard = append(e.heard, raw)
	}
	if !first {
		return nil
	}
	looks := ForeignProtocol(raw, e.opts.Version)
	if looks == "" {
		return nil
	}
	e.broken = true
	err := &NotHubError{Looks: looks, Printed: e.heard, Version: e.opts.Version}
	err.Fault = &match.Fault{Kind: match.Crash, Reason: "it is not a Hub engine: its first line looks like " + looks, Text: truncate(raw, 64)}
	return err
}

// heardNote completes a failed handshake's reason: what the program
// printed and what to try.
func (e *Player) heardNote(want string) string {
	if want != "wait" {
		return ""
	}
	return fmt.Sprintf("; it printed %s. %s", quoteLines(e.heard), expectHint(e.opts.Version))
}
