// Package reports turns the games of an event into statistics (standings,
// Elo with intervals, crosstable, pentanomial pair counts, SPRT; the
// arithmetic is in reports/stats) and writes them out as report.html
// (charts, offline, one file), results.json and games.pdn.
//
// The package knows nothing about the store or the scheduler: callers convert
// their rows into an Event and hand it over. Everything here is a pure
// function of that Event, so a report can be rebuilt at any time from the
// database and comes out the same.
//
// Imported by the engines' runner, the HTTP front and cmd/arbiter; it imports
// the rules, the referee and its own subpackages, never match (data flows
// into reports, not out of them).
package reports

import (
	"fmt"
	"time"

	"github.com/draughts-arbiter/arbiter/reports/stats"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Event is everything a report needs about one event (tournament or match).
// The zero value is an empty event; Engines may be left empty, in which case
// the engine list is taken from the games in order of first appearance.
type Event struct {
	Name        string // event name, shown as the report title
	Variant     string // variant name, e.g. "english"
	TimeControl string // time control as text, e.g. "40/7200" or "300+2"
	// Engines lists the participants in seeding order. Engines that never
	// played still appear in the standings with zero games.
	Engines []string
	Games   []Game
	// SPRT, when set, runs a sequential probability ratio test on the
	// event. It needs exactly two engines.
	SPRT *stats.SPRTConfig

	// What the event details of the report show; all optional.
	Site       string
	ConfigHash string // hash of the effective configuration
	// Settings are the event's policies as its configuration states them
	// (illegal-move policy, draw claims, adjudication, opening book, ...),
	// in display order.
	Settings []Setting
	// Participants describes the engines (command, protocol, what they
	// said they are), by name; engines not listed show their name only.
	Participants []EngineInfo
	// Stopped says why the event ended before its plan did ("" = it did not).
	Stopped string
	// Swiss, when set, makes the event a Swiss: the report adds its Swiss
	// standings.
	Swiss *SwissEvent
}

// Setting is one line of the event details: a label, its value and, when
// there is one, a link to where the rule is written down.
type Setting struct {
	Label string `json:"label"`
	Value string `json:"value"`
	Link  string `json:"link,omitempty"`
}

// EngineInfo is what the report says about one participant.
type EngineInfo struct {
	Name     string `json:"name"`
	Command  string `json:"command,omitempty"`
	Protocol string `json:"protocol,omitempty"`
	// Options are the options the event gives the engine (Hub set-param,
	// Hub 1 set, CheckerBoard "set"), by name: two engines of one command
	// differ only in them.
	Options map[string]string `json:"options,omitempty"`
	// ID and Version are what the engine said it is (Hub "id name=" and
	// "id version=", DXP GAMEACC); Checksum is the SHA-256 of its program.
	ID       string `json:"id,omitempty"`
	Version  string `json:"version,omitempty"`
	Checksum string `json:"checksum,omitempty"`
	// HostGuard sums, over the event's games, what the engine's
	// CheckerBoard host did to keep it inside its clock (Overshoot is
	// the one learned by its last game); absent for other engines. Made
	// from the games: a value given in Event.Participants is ignored.
	HostGuard *HostGuard `json:"host_guard,omitempty"`
}

// Game is one game of the event as the report sees it.
type Game struct {
	Round int // 1-based round number
	Board int // 1-based board number within the round
	// Pair groups the two colour-reversed games of one opening between the
	// same two engines (for pentanomial counts). Pair numbers are 1-based
	// and need only be unique per encounter; 0 means the game is not part
	// of a pair.
	Pair  int
	White string // engine playing White
	Black string // engine playing Black
	// Result is a PDN result, read by rules.ParseResult: "1-0", "0-1",
	// "1/2-1/2", the wide forms "2-0", "0-2", "1-1". "*" (or "") marks a
	// game that did not finish, "0-0" a double forfeit: such a game is
	// listed but left out of every statistic.
	Result      string
	Termination string // free text, e.g. "normal", "time forfeit"
	Plies       int    // number of half-moves played
	Opening     string // opening name or FEN the game started from
	// MoveTimes holds the thinking time of every ply, alternating sides
	// starting with FirstMover.
	MoveTimes []time.Duration
	// Latency holds, like MoveTimes, each ply's latency: the time between
	// the request written to the engine and its reply read that the engine
	// did not report as thinking (the pipes', the scheduler's and the
	// machine's share). nil when unknown (a game stored before latencies
	// were measured); a negative ply's is unknown (its engine reported no
	// search time, as a DXP engine does not: store.UnknownLatency).
	Latency []time.Duration
	// FirstMover is "white" or "black": the side that made the first ply
	// (in English draughts Black moves first). Empty means "white".
	FirstMover string
	PDN        string // the complete PDN text of the game
	Started    time.Time
	Finished   time.Time
	Worker     string // the cluster worker that played it ("" = none)
	// StartFEN is the position the game started from ("" = the variant's
	// start), and Moves the plies with what the engine said of them: the
	// report's board viewer replays them. Both may be empty (the game is
	// then listed but cannot be replayed).
	StartFEN string
	Moves    []Move
	// Record, when set, is the game's compact record (EncodeRecord) and
	// Moves are not read.
	Record string
	// Reason says more about the termination (the arbiter's explanation).
	Reason string
	// HostGuard is, per side ([0] White, [1] Black), what the side's
	// CheckerBoard host did to keep the engine inside its clock; zero for
	// other engines.
	HostGuard [2]HostGuard
}

// HostGuard is what a CheckerBoard engine's host (arbiter cb-host) did to
// keep it inside its clock: of the Moves it timed with a deadline, how
// many it Stopped by raising playnow before the flag, and the engine's
// Overshoot (the wall time it takes over the time it is given) as the
// host had learned it by its last move.
type HostGuard struct {
	Stopped   int     `json:"stopped"`
	Moves     int     `json:"moves"`
	Overshoot float64 `json:"overshoot"`
}

// Move is one ply of a game as the viewer shows it.
type Move struct {
	Text string
	// Score is the mover's engine's evaluation in men, from the mover's
	// side (HasScore false when it gave none), at search depth Depth.
	Score    float64
	HasScore bool
	Depth    int
}

// parseResult is rules.ParseResult without the form (the reports write
// the narrow one).
func parseResult(s string) (rules.Outcome, error) {
	o, _, err := rules.ParseResult(s)
	return o, err
}

// whiteMovesFirst reads Game.FirstMover.
func whiteMovesFirst(firstMover string) (bool, error) {
	switch firstMover {
	case "", "white", "White", "WHITE", "w", "W":
		return true, nil
	case "black", "Black", "BLACK", "b", "B":
		return false, nil
	}
	return false, fmt.Errorf("first mover %q is neither white nor black", firstMover)
}

// moverIsWhite reports whether ply i (0-based) was played by White.
func moverIsWhite(whiteFirst bool, ply int) bool { return whiteFirst == (ply%2 == 0) }

// describe names a game for error messages.
func (g *Game) describe(i int) string {
	return fmt.Sprintf("game %d (round %d, board %d, %s-%s)", i+1, g.Round, g.Board, g.White, g.Black)
}
