package online

import (
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Role is who acts or watches through a link.
type Role uint8

// Roles. RoleWhite and RoleBlack equal rules.White and rules.Black.
const (
	RoleWhite Role = iota
	RoleBlack
	RoleSpectator
	RoleArbiter
)

var roleNames = [...]string{"white", "black", "spectator", "arbiter"}

// Roles lists every role.
func Roles() []Role { return []Role{RoleWhite, RoleBlack, RoleSpectator, RoleArbiter} }

// String is white, black, spectator or arbiter.
func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return fmt.Sprintf("Role(%d)", r)
}

// MarshalText writes the role's name (JSON map keys and values).
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a role's name.
func (r *Role) UnmarshalText(b []byte) error {
	x, ok := ParseRole(string(b))
	if !ok {
		return fmt.Errorf("unknown role %q", b)
	}
	*r = x
	return nil
}

// ParseRole reads a role's name.
func ParseRole(s string) (Role, bool) {
	for i, n := range roleNames {
		if s == n {
			return Role(i), true
		}
	}
	return 0, false
}

// player reports whether r plays a side, and which.
func (r Role) player() (rules.Color, bool) {
	switch r {
	case RoleWhite:
		return rules.White, true
	case RoleBlack:
		return rules.Black, true
	}
	return 0, false
}

// Setup is what the creator of a game chooses. Hall.Create checks every
// field (a *SetupError names the one that is wrong).
type Setup struct {
	Variant     string `json:"variant,omitempty"`      // preset name; or
	Rules       string `json:"rules,omitempty"`        // a custom rule set in YAML (configs' variant syntax), at most 8 KiB
	TimeControl string `json:"time_control,omitempty"` // PDN syntax (arbiter.ParseTimeControl); "" = untimed
	// Clock is the time control as players write it (ReadClock: "5+3" is 5
	// minutes and 3 seconds per move, or a preset's name), the create page's
	// field; give it or TimeControl, not both.
	Clock string `json:"clock,omitempty"`
	// Mode is "tournament" (the policy for illegal moves: the variant's
	// federation's, or Policy) or "friendly" (an illegal move is refused and
	// explained, with no penalty: nothing reaches the referee). "" is
	// tournament, as before Mode existed; the create page chooses friendly
	// for a game against an engine or without a clock.
	Mode       string `json:"mode,omitempty"`
	Policy     string `json:"policy,omitempty"`      // wcdf | opponent-decides | strict; "" = the variant's
	Draws      string `json:"draws,omitempty"`       // claim | auto | "" = the variant's
	FEN        string `json:"fen,omitempty"`         // optional start position, at most 512 bytes
	Opening    string `json:"opening,omitempty"`     // optional ballot "3move:17" (book:number) or PDN moves
	Engine     string `json:"engine,omitempty"`      // a name from Config.Engines
	EngineSide string `json:"engine_side,omitempty"` // white | black
	Beginner   bool   `json:"beginner,omitempty"`    // legal moves shown to the player to move
	White      string `json:"white,omitempty"`       // display names, at most 64 runes
	Black      string `json:"black,omitempty"`
}

// Created is a new game: its id and the secret token of each role's link
// (no token for a side an engine plays).
type Created struct {
	ID     string          `json:"id"`
	Tokens map[Role]string `json:"tokens"`
}

// EngineSpec is an operator-configured engine, as the match and tournament
// commands configure one (Argv, Protocol, Address, Options, ...). Its
// TimeControl is ignored: the game's clock rules.
type EngineSpec = configs.EngineSpec

// Config sets up a Hall.
type Config struct {
	Path     string                // the SQLite file (created if missing)
	Engines  map[string]EngineSpec // the operator's engines by name
	Log      zerolog.Logger
	MaxGames int              // running games at once (0 = 1000)
	Now      func() time.Time // the time (tests); nil = the process's clock
	// Limits per game (0 = the defaults).
	MaxEvents int // events per game (20000)
	// RetryEvery is how often a game stalled by a failed write (a full
	// disk) tries again (0: DefaultRetryEvery).
	RetryEvery time.Duration
	// IdleAfter is how long a game may stand untouched (no clock running,
	// no move, no viewer) before it is adjourned (adjourn.go); 0:
	// DefaultIdleAfter, negative: never.
	IdleAfter time.Duration
	// NewPlayer makes the player for an engine (nil: the Hub or DXP player
	// the match and tournament commands use).
	NewPlayer func(EngineSpec, zerolog.Logger) match.Player
}

// Intent is what a player or the arbiter asks for (the JSON a browser
// posts). See the package doc and WEB.md for which role may do what.
type Intent struct {
	Kind     string   `json:"kind"`
	Move     string   `json:"move,omitempty"`      // PDN move text, or squares with - / x
	Path     []string `json:"path,omitempty"`      // squares clicked, from first to last
	Claim    string   `json:"claim,omitempty"`     // threefold | 40-move | 25-move | 16-move | 5-move | N-move
	WithMove string   `json:"with_move,omitempty"` // the move a claim is made with
	Correct  *bool    `json:"correct,omitempty"`   // decide: correct the illegal move (true) or let it stand
	Seconds  int      `json:"seconds,omitempty"`   // add-time
	Color    string   `json:"color,omitempty"`     // add-time: white | black; reissue: the role
	Role     string   `json:"role,omitempty"`      // reissue: the role whose link is renewed
	Outcome  string   `json:"outcome,omitempty"`   // declare: 1-0 | 0-1 | 1/2-1/2 (or the wide forms)
	Text     string   `json:"text,omitempty"`      // a reason (pause, declare, add-time) or an annotation
}

// Reply answers an accepted intent: the events it produced (in order), the
// game's version and state after them, and for reissue the new token (sent
// to the arbiter only, never in an event).
type Reply struct {
	V      int64   `json:"v"`
	Events []Event `json:"events"`
	State  State   `json:"state"`
	Token  string  `json:"token,omitempty"`
}

// Msg is a message of the referee or about the game: a code from Codes,
// the arguments of its template, and the English text (the one coded
// message type, message.Message). Its Why, on a warning or an illegal
// move, is the referee's explanation (an arbiter.Codes code,
// "illegal.backward", with its arguments), for a client that translates
// what Args["why"] says in English. On a claim's answer or an automatic
// draw's announcement it is the evidence (an "evidence.*" code: where the
// position occurred, or the N-move count), for what Args["reason"] says in
// English; absent when the evidence is said only in English (a problem,
// one piece each).
type Msg = message.Message

// Event is one thing that happened in a game, as every viewer sees it.
type Event struct {
	V     int64     `json:"v"`
	Type  string    `json:"type"`
	At    time.Time `json:"at"`
	Msg   Msg       `json:"msg"`
	Move  *MoveInfo `json:"move,omitempty"`
	State State     `json:"state"`
}

// Event types.
const (
	EvMove        = "move"
	EvWarning     = "warning"
	EvIllegal     = "illegal" // an illegal move awaiting (or after) the opponent's decision
	EvClaim       = "claim"
	EvOffer       = "offer"
	EvDecision    = "decision"
	EvResult      = "result"
	EvPresence    = "presence"
	EvPause       = "pause"
	EvClock       = "clock" // resume, add-time
	EvAnnotation  = "annotation"
	EvReissue     = "reissue"
	EvResumeAfter = "resume-after-restart"
)

// MoveInfo is the move of a move event.
type MoveInfo struct {
	Ply      int      `json:"ply"`
	Text     string   `json:"text"`
	Color    string   `json:"color"`
	From     string   `json:"from"`
	To       string   `json:"to"`
	Captured []string `json:"captured,omitempty"`
	ClockMS  int64    `json:"clock_ms"`
	Illegal  bool     `json:"illegal,omitempty"` // an illegal move the opponent let stand
}

// State is the game as it stands after an event.
type State struct {
	FEN         string          `json:"fen"`
	Turn        string          `json:"turn"`
	Status      string          `json:"status"` // running | paused | over
	Result      string          `json:"result"` // PDN result, "*" while running
	Termination string          `json:"termination,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	Clocks      Clocks          `json:"clocks"`
	Ply         int             `json:"ply"`
	Warnings    map[string]int  `json:"warnings"`
	Offer       string          `json:"offer"` // the side whose draw offer is open, ""
	Pending     *Pending        `json:"pending_decision"`
	Presence    map[string]bool `json:"presence"`
	Board       Board           `json:"board"`
	Last        *Last           `json:"last,omitempty"`
	// Legal lists the legal moves of the side to move in a beginner game
	// (public knowledge; only the player to move is shown them).
	Legal []string `json:"legal,omitempty"`
}

// Clocks are the times left in milliseconds; Running names the side whose
// clock runs ("" when none: untimed, paused, over, or a decision pending).
type Clocks struct {
	White   int64  `json:"white"`
	Black   int64  `json:"black"`
	Running string `json:"running"`
	Timed   bool   `json:"timed"`
}

// Pending is an illegal move waiting for the opponent's decision.
type Pending struct {
	Offender string `json:"offender"`
	Decider  string `json:"decider"`
	Move     string `json:"move"`
	Why      string `json:"why"`
}

// Board is the pieces on the board.
type Board struct {
	Width  int     `json:"width"`
	Height int     `json:"height"`
	Pieces []Piece `json:"pieces"`
}

// Piece is one piece on a square.
type Piece struct {
	Sq    string `json:"sq"`
	Color string `json:"color"`
	King  bool   `json:"king"`
}

// Last is the last move played.
type Last struct {
	From     string   `json:"from"`
	To       string   `json:"to"`
	Captured []string `json:"captured,omitempty"`
}

// Geometry is the board's layout: every playable square's name, row and
// column (row 0 at the top, where White promotes).
type Geometry struct {
	Width   int      `json:"width"`
	Height  int      `json:"height"`
	Squares []Square `json:"squares"`
}

// Captures are the variant's facts a page needs to tell a capture entered
// landing by landing that is complete from one that may go on (so that the
// last click sends it, with no "Send move" to press): whether men capture
// backwards, whether kings fly, and what a man reaching the far row in a
// capture does ("stop": crowned, the move ends; "continue": crowned, it goes
// on as a king; "pass": it goes on as a man, crowned only if it ends there;
// "never"). The referee alone judges the move that is sent.
type Captures struct {
	MenBackward bool   `json:"men_backward"`
	KingsFly    bool   `json:"kings_fly"`
	Promotion   string `json:"promotion"`
}

// Square is a playable square.
type Square struct {
	Name string `json:"name"`
	Row  int    `json:"row"`
	Col  int    `json:"col"`
}

// MoveLine is one move of the game's record.
type MoveLine struct {
	Ply     int    `json:"ply"`
	Text    string `json:"text"`
	Color   string `json:"color"`
	ClockMS int64  `json:"clock_ms"`
	Illegal bool   `json:"illegal,omitempty"`
}

// Snapshot is everything a page needs to draw a game for a role.
type Snapshot struct {
	V          int64      `json:"v"`
	ID         string     `json:"id"`
	Role       Role       `json:"role"`
	Setup      Setup      `json:"setup"`
	Variant    string     `json:"variant"`
	Geometry   Geometry   `json:"geometry"`
	Captures   Captures   `json:"captures"`
	FlippedFor Role       `json:"flipped_for"`
	Moves      []MoveLine `json:"moves"`
	Messages   []Event    `json:"messages"`
	State      State      `json:"state"`
	Legal      []string   `json:"legal,omitempty"`
	// Engine is the side an engine plays, "" for none.
	Engine string `json:"engine,omitempty"`
	// Rematch is the token of this player's link to the rematch (Hall.Rematch),
	// "" until one is started.
	Rematch string `json:"rematch,omitempty"`
	// Policy is the illegal-move policy in force under tournament rules,
	// the variant's when Setup.Policy is "" (the page says which before an
	// illegal move is played); "" in a friendly game.
	Policy string `json:"policy,omitempty"`
}

// Refusal is an intent the game refuses: wrong role (Forbidden), not now
// (Conflict: not your turn, game over, paused), or bad input (Invalid). It
// changes nothing. An illegal move is NOT a refusal: the referee judges it.
type Refusal struct {
	Code string
	Args map[string]string
	// Kind is what sort of refusal it is; the web front maps it to a status.
	Kind message.Kind
	// Why is the explanation of a refused illegal move (a friendly game):
	// the referee's code (an arbiter.Codes code) for a translation of
	// Args["why"].
	Why *Msg
}

func (r *Refusal) Error() string { return render(r.Code, r.Args) }

// Msg is the refusal as a message.
func (r *Refusal) Msg() Msg { return newMsg(r.Code, r.Args) }

// SetupError is a Setup field that Create refuses.
type SetupError struct {
	Field string // the JSON name of the field
	Err   error
}

func (e *SetupError) Error() string { return "setup: " + e.Field + ": " + e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }
