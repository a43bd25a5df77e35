// Package cluster runs one event over many machines with NATS JetStream: a
// coordinator (the tournament runner with an Executor that hands its games
// out) and any number of workers that play them with the same game runner
// as a local event (tournament.Local).
//
// The protocol, all on one NATS account:
//
//   - Stream GamesStream (work-queue retention, file storage) holds the
//     games to play, one message each on arbiter.games.<event>, with the
//     message id <event>.<game> (Nats-Msg-Id): a coordinator that restarts
//     publishes its unfinished games again and the server drops the copies.
//     The duplicate window is long (DedupWindow), so this holds however
//     long the coordinator was away.
//   - Every worker pulls from one durable consumer (WorkersConsumer): a
//     game goes to one worker at a time; one that is not acknowledged
//     within the ack wait (a worker died, or was cut off) goes to another.
//     A worker playing a game sends "in progress" when it takes it and
//     every third of the ack wait until its ack is confirmed, so a long
//     game is not handed out again. One whose news came late is: a worker
//     that gets back a game it is playing goes on with it (never plays it
//     twice), another worker declines it (the claims below), and the
//     coordinator stores the first result of a game.
//   - The KV bucket EventsBucket holds each event's description under its
//     id: the effective configuration, the openings and, per engine, the
//     build it must be (program checksum or declared version). A worker
//     reads it once per event.
//   - A worker sends a finished game to arbiter.result.<event> as a request;
//     the coordinator replies once the game is in its store (or was
//     already: a second copy of a result is acknowledged and ignored), and
//     only then does the worker acknowledge the game.
//   - A worker that cannot play an event's game (an engine it does not
//     have, or not the same build) says why on arbiter.refused.<event> and
//     gives the game back; the coordinator logs the reason.
//   - Before it plays a game a worker claims it from the coordinator on
//     arbiter.claim.<event> (ClaimMsg): a first delivery with its first
//     news (nobody else can have had it), a later one by a request it
//     waits for; the worker's news renews the claim. The
//     coordinator grants a game to one worker at a time: a game the server
//     hands out again while its worker is alive (its news came late) is
//     declined by the worker that gets it, and taken over once the claim
//     has had no news for ClaimLife. A stored game is acknowledged
//     unplayed. A renewal carries a reply subject of its worker's, which
//     the coordinator answers only when the claim passed to another worker
//     or the game is stored: the worker (stalled meanwhile: suspended,
//     paused, cut off) then stops the game unsettled and sends no result;
//     a result whose claimant lost the claim to another is refused. The
//     first-result rule stays the safety net (a coordinator restarted
//     knows no claims until the workers' news renews them).
//   - When an SPRT stops the event the coordinator purges its games from
//     the stream and publishes on arbiter.stop.<event>; workers abandon the
//     event's games in progress.
//
// An event's id is made from its configuration hash and the creation time
// of its database, so an event started over in a fresh directory never
// meets the message ids of the earlier one.
//
// Imported by cmd/arbiter only; it imports the engines' runner and store,
// never the people's wing.
package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/schedule"
)

// Names of the JetStream objects and subjects.
const (
	GamesStream     = "ARBITER_GAMES"
	WorkersConsumer = "arbiter-workers"
	EventsBucket    = "arbiter-events"
	gamesSubject    = "arbiter.games."
	resultSubject   = "arbiter.result."
	refusedSubject  = "arbiter.refused."
	stopSubject     = "arbiter.stop."
	// pingSubject+<event> is answered by the event's coordinator while it
	// runs: a worker plays no game whose result nobody would take.
	pingSubject = "arbiter.ping."
	// claimSubject+<event>: a worker asks the coordinator for a game
	// before it plays it, renews the claim with its news and gives it up
	// with the game (ClaimMsg).
	claimSubject = "arbiter.claim."
)

// DedupWindow is how long the games stream remembers a message id.
const DedupWindow = 14 * 24 * time.Hour

// DefaultAckWait is how long a game may go without news from its worker
// before it is handed to another.
const DefaultAckWait = 30 * time.Second

// EventID is the id of the event with configuration hash hash whose
// database was created at created.
func EventID(hash string, created time.Time) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%s\n%d", hash, created.UnixNano()))
	return hex.EncodeToString(h[:8])
}

// EventSpec is what a worker needs to know of an event (EventsBucket).
type EventSpec struct {
	// Protocol is the coordinator's version of this protocol (Protocol);
	// a worker plays only the events of its own version's coordinators.
	Protocol int    `json:"protocol,omitempty"`
	ID       string `json:"id"`
	Name     string `json:"name"`
	// Config is the effective configuration (configs.Event.Effective); a
	// worker takes the rules, clocks and tags from it, never a command.
	Config   string        `json:"config"`
	Openings []OpeningSpec `json:"openings"`
	Engines  []EngineBuild `json:"engines"`
	Stopped  string        `json:"stopped,omitempty"`
	// Speed, when set, asks workers to scale the time controls by their
	// speed against this one (the coordinator's; see Speed).
	Speed   float64 `json:"speed,omitempty"`
	Planned int     `json:"planned"`
}

// Protocol is this protocol's version, which the coordinator publishes in
// each EventSpec. Version 2 answers a renewal of a claim that passed to
// another worker (the worker stops its copy); a coordinator of version 1
// (no version in its EventSpec) takes those renewals for claims, so a
// worker refuses its events rather than play them by rules it does not
// keep. A worker of version 1 still plays a version 2 coordinator's
// games: its claims are read as they were meant, and its results, naming
// no claimant, by the first-result rule.
const Protocol = 2

// OpeningSpec is one opening of the event, by index.
type OpeningSpec struct {
	Name string `json:"name"`
	FEN  string `json:"fen"`
}

// EngineBuild is the build an engine of the event must be: the SHA-256 of
// its program file as the coordinator has it, or the version its
// definition declares (then the checksum is not compared). Both empty:
// anything by that name.
type EngineBuild struct {
	Name     string `json:"name"`
	Checksum string `json:"checksum,omitempty"`
	Version  string `json:"version,omitempty"`
}

// GameMsg is one game to play.
type GameMsg struct {
	Event   string           `json:"event"`
	Pairing schedule.Pairing `json:"pairing"`
}

// ResultMsg is a finished game, from the worker that played it.
type ResultMsg struct {
	Event  string     `json:"event"`
	Worker string     `json:"worker"`
	Game   store.Game `json:"game"`
	// Claimant is the worker process's claimant (ClaimMsg): a result whose
	// claim passed to another is refused ("" = an older worker: taken).
	Claimant string `json:"claimant,omitempty"`
}

// Reply answers a ResultMsg.
type Reply struct {
	OK        bool   `json:"ok,omitempty"`        // stored now, or before (Duplicate)
	Duplicate bool   `json:"duplicate,omitempty"` // the game was already finished
	Stopped   bool   `json:"stopped,omitempty"`   // the event stopped: the game is not wanted
	Error     string `json:"error,omitempty"`     // refused (a bad result) or not stored
	// Holder, when set, is the worker the game's claim passed to: the
	// result is refused, and its worker drops the game unsettled (it is
	// the holder's delivery now).
	Holder string `json:"holder,omitempty"`
}

// Refusal says why a worker does not play an event's games.
type Refusal struct {
	Worker string `json:"worker"`
	Game   int    `json:"game"`
	Reason string `json:"reason"`
}

// ClaimMsg claims a game for a worker (a request), renews the claim (Renew,
// published with the worker's news; an older worker publishes it without
// Renew and without a reply subject), or gives the game up (Release, a
// request). A renewal's reply subject is answered only when the claim
// passed to another worker (Holder) or the game is stored (Finished).
type ClaimMsg struct {
	Game   int    `json:"game"`
	Worker string `json:"worker"` // the worker's name, for the others' logs
	// Claimant is unique to one worker process: two workers given the
	// same name are two claimants.
	Claimant string `json:"claimant"`
	Release  bool   `json:"release,omitempty"`
	Renew    bool   `json:"renew,omitempty"`
}

// ClaimReply answers a ClaimMsg.
type ClaimReply struct {
	Granted bool `json:"granted,omitempty"`
	// Holder is the worker playing the game (not granted), and LeftMS how
	// long its claim lasts without news, in milliseconds. Answering a
	// renewal, Holder is the worker the claim passed to.
	Holder   string `json:"holder,omitempty"`
	LeftMS   int64  `json:"left_ms,omitempty"`
	Finished bool   `json:"finished,omitempty"` // the game is stored: nothing to play
	Stopped  bool   `json:"stopped,omitempty"`  // the event stopped
	Error    string `json:"error,omitempty"`    // a claim that makes no sense (not a game of the plan)
}

// ClaimLife is how long a claim on a game lasts without news from its
// worker: two ack waits. The server hands a game out again after one ack
// wait without news; a claim that lapsed with it would not keep the game
// with a worker whose news is merely late (a loaded machine), only with
// one whose news the test itself withholds. A worker whose news stopped
// for two ack waits is taken to be gone (killed, cut off) and its game
// goes to another.
func ClaimLife(ackWait time.Duration) time.Duration { return 2 * ackWait }

func msgID(event string, game int) string { return fmt.Sprintf("%s.%d", event, game) }
