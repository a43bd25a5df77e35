package arbiter

import (
	"errors"
	"fmt"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Errors returned by claims and decisions.
var (
	ErrGameOver     = errors.New("the game is over")
	ErrClaimRefused = errors.New("claim refused")
	ErrNoDecision   = errors.New("no decision is pending")
)

// Config sets up a Referee. The zero values are documented per field.
type Config struct {
	Variant     *rules.Variant  // required
	Start       *rules.Position // nil = variant's start position
	TimeControl [2]TimeControl  // indexed by rules.Color (White=0, Black=1); zero = untimed
	Policy      Policy          // "" = PolicyWCDF
	AutoClaim   bool            // claim draws on the engines' behalf as soon as valid
	MaxMoves    int             // 0 = none; adjudicate a draw after this many moves (each side)
	Margin      time.Duration   // absorbs scheduling noise before a flag falls
	Clock       Clock           // nil = real clock
}

// Referee referees one game. It is not safe for concurrent use: one game
// goroutine drives it.
type Referee struct {
	cfg     Config
	clock   Clock
	pos     rules.Position
	history []rules.Position
	moves   []rules.Move
	clocks  [2]sideClock

	// The side to move's clock: running since start; started says
	// StartThinking was called this turn (later calls keep the start).
	start   time.Time
	started bool

	warnings [2]int // WCDF warnings per side
	pending  *pendingIllegal

	draws  drawTrackers
	rec    Record
	result Result
}

// pendingIllegal is an illegal move waiting for the opponent's decision.
type pendingIllegal struct {
	text, why string
	move      rules.Move
	used      time.Duration
}

// NewReferee starts a game.
func NewReferee(cfg Config) (*Referee, error) {
	if cfg.Variant == nil {
		return nil, errors.New("arbiter: Config.Variant is nil")
	}
	p, err := ParsePolicy(string(cfg.Policy))
	if err != nil {
		return nil, err
	}
	cfg.Policy = p
	if cfg.Margin < 0 {
		return nil, fmt.Errorf("arbiter: negative margin %v", cfg.Margin)
	}
	if cfg.MaxMoves < 0 {
		return nil, fmt.Errorf("arbiter: negative MaxMoves %d", cfg.MaxMoves)
	}
	start := rules.NewPosition(cfg.Variant)
	if cfg.Start != nil {
		start = *cfg.Start
		if start.Variant() != cfg.Variant {
			return nil, fmt.Errorf("arbiter: start position %s is not set up for variant %q", start.FEN(), cfg.Variant.Name)
		}
	}
	r := &Referee{cfg: cfg, clock: cfg.Clock, pos: start}
	if r.clock == nil {
		r.clock = realClock{}
	}
	for c := range r.clocks {
		r.clocks[c] = newSideClock(cfg.TimeControl[c])
	}
	r.history = append(r.history, start)
	r.draws = newDrawTrackers(cfg.Variant, start, cfg.MaxMoves)
	r.rec = Record{Variant: cfg.Variant, Start: start, TimeControl: cfg.TimeControl, Policy: cfg.Policy}
	r.start = r.clock.Now()
	r.checkEnd()
	return r, nil
}

// Position returns the current position.
func (r *Referee) Position() rules.Position { return r.pos }

// Turn returns the side to move.
func (r *Referee) Turn() rules.Color { return r.pos.Turn() }

// History returns the positions since the start, the start first and the
// current position last (len = number of moves + 1). The slice is a copy.
func (r *Referee) History() []rules.Position { return append([]rules.Position(nil), r.history...) }

// Moves returns the moves played so far (a copy); History()[i] is the
// position before Moves()[i].
func (r *Referee) Moves() []rules.Move { return append([]rules.Move(nil), r.moves...) }

// StartThinking says the side to move is asked to move now: its clock runs
// from this moment. Calling it again in the same turn (after a Retry) keeps
// the clock running from the first call. Without it, the side's clock runs
// from the moment the previous move was accepted (or the referee was made).
func (r *Referee) StartThinking() {
	if r.started || r.Done() || r.pending != nil {
		return
	}
	r.start = r.clock.Now()
	r.started = true
}

// Deadline returns when the side to move's flag falls (its clock start
// plus its limit plus the margin); zero if untimed or the game is over.
func (r *Referee) Deadline() time.Time {
	c := &r.clocks[r.pos.Turn()]
	if r.Done() || !c.tc.Timed() {
		return time.Time{}
	}
	return r.start.Add(c.limit() + r.cfg.Margin)
}

// Remaining returns the time on c's clock at the start of its current (or
// next) turn: for the side to move it does not count the running move.
// With a fixed time per move it is that time; 0 when untimed.
func (r *Referee) Remaining(c rules.Color) time.Duration { return r.clocks[c].remaining }

// MovesToGo returns how many moves c must make in its current period, 0
// when the period lasts to the end of the game (or untimed).
func (r *Referee) MovesToGo(c rules.Color) int { return r.clocks[c].movesToGo() }

// Elapsed returns the time the side to move has used on its running move.
func (r *Referee) Elapsed() time.Duration {
	if r.Done() {
		return 0
	}
	if r.pending != nil {
		return r.pending.used
	}
	return r.clock.Now().Sub(r.start)
}

// Submit plays m for the side to move. It stops the side's clock and checks
// time first (a flag falls exactly when the time used exceeds the limit
// plus the margin), then legality: a move that is not among the legal moves
// (same from, to and captured set) is handled by the illegal-move policy.
func (r *Referee) Submit(m rules.Move) Verdict {
	if r.Done() {
		return GameOver
	}
	if r.pending != nil {
		return AwaitDecision
	}
	used := r.clock.Now().Sub(r.start)
	if r.flag(used) {
		return GameOver
	}
	legal, ok := r.legal(m)
	if !ok {
		return r.illegal(m, true, fmt.Sprintf("%d-%d", m.From, m.To), "not a legal move", used)
	}
	r.play(legal, used, false)
	return r.verdict()
}

// SubmitIllegal reports that the side to move sent something that is not a
// legal move: garbage, an unknown move, a move for the wrong side. text is
// what it sent, why says what is wrong. Time is checked first, then the
// illegal-move policy applies; under opponent-decides there is nothing that
// could stand, so it is corrected at once (Retry, no penalty).
func (r *Referee) SubmitIllegal(text, why string) Verdict {
	if r.Done() {
		return GameOver
	}
	if r.pending != nil {
		return AwaitDecision
	}
	used := r.clock.Now().Sub(r.start)
	if r.flag(used) {
		return GameOver
	}
	return r.illegal(rules.Move{}, false, text, why, used)
}

// Decide settles a pending illegal move under opponent-decides: correct =
// true takes it back (the offender moves again on its own clock, no
// penalty counted); correct = false lets it stand: it is played as made.
func (r *Referee) Decide(correct bool) (Verdict, error) {
	return Retry, ErrNoDecision
}

// Pending reports whether an illegal move awaits the opponent's decision.
func (r *Referee) Pending() bool { return r.pending != nil }

// Claim is a draw claim by c of the given kind (DrawThreefold or the
// variant's N-move rule, e.g. Draw40Move) in the current position. A valid
// claim ends the game; a wrong one is refused with the reason, recorded,
// and changes nothing else.
func (r *Referee) Claim(c rules.Color, kind Termination) error {
	return ErrClaimRefused
}

// ClaimWithMove is a claim by the side to move made together with the move
// it intends to play (WCDF: threefold repetition is claimed BEFORE the move
// that would create the position for the third time). A valid claim plays
// m and ends the game drawn; a wrong one returns an error and changes
// nothing else: m is not played, and the side may still Submit it.
func (r *Referee) ClaimWithMove(c rules.Color, kind Termination, m rules.Move) (Verdict, error) {
	return Accepted, ErrClaimRefused
}

// Agree ends the game drawn by agreement.
func (r *Referee) Agree() error {
	if r.Done() {
		return ErrGameOver
	}
	r.finish(Result{Draw, DrawAgreement, "the players agreed a draw"})
	return nil
}

// Adjudicate ends the game with outcome o by the arbiter's decision.
func (r *Referee) Adjudicate(o Outcome, reason string) error {
	if r.Done() {
		return ErrGameOver
	}
	if o == Ongoing {
		return errors.New("arbiter: cannot adjudicate an ongoing result")
	}
	r.finish(Result{o, Adjudication, reason})
	return nil
}

// Forfeit ends the game as a loss for c with termination t (Resignation,
// TimeForfeit, EngineCrashed, EngineStalled, IllegalMove). It does nothing
// once the game is over.
func (r *Referee) Forfeit(c rules.Color, t Termination, reason string) {
	if r.Done() {
		return
	}
	r.finish(Result{WinFor(c.Opponent()), t, reason})
}

// Done reports whether the game is over.
func (r *Referee) Done() bool { return r.result.Outcome != Ongoing }

// Result returns the result (Outcome Ongoing while the game goes on).
func (r *Referee) Result() Result { return r.result }

// Record returns a copy of the record so far.
func (r *Referee) Record() Record {
	rec := r.rec
	rec.Moves = append([]MoveRecord(nil), rec.Moves...)
	rec.Warnings = append([]Warning(nil), rec.Warnings...)
	rec.Claims = append([]ClaimRecord(nil), rec.Claims...)
	rec.Result = r.result
	return rec
}

func (r *Referee) finish(res Result) {
	r.result = res
	r.rec.Result = res
	r.pending = nil
}

// flag ends the game on time if used oversteps the side to move's limit.
func (r *Referee) flag(used time.Duration) bool {
	side := r.pos.Turn()
	c := &r.clocks[side]
	if !c.flagged(used, r.cfg.Margin) {
		return false
	}
	r.finish(Result{WinFor(side.Opponent()), TimeForfeit,
		fmt.Sprintf("%s used %v, more than its %v plus the %v margin", side, used, c.limit(), r.cfg.Margin)})
	return true
}

// legal finds m among the legal moves by identity. It keeps m's path when
// that is one of the move's capture paths, so long notation shows the path
// the player took.
func (r *Referee) legal(m rules.Move) (rules.Move, bool) {
	lm, ok := r.pos.Find(m.From, m.To, m.Captured)
	return lm, ok
}

func (r *Referee) illegal(m rules.Move, isMove bool, text, why string, used time.Duration) Verdict {
	side := r.pos.Turn()
	r.finish(Result{WinFor(side.Opponent()), IllegalMove, fmt.Sprintf("%s played %s: %s", side, text, why)})
	return GameOver
}

// play applies a move (legal, or an illegal one let stand).
func (r *Referee) play(m rules.Move, used time.Duration, illegal bool) {
	side := r.pos.Turn()
	text := r.pos.MoveText(m)
	c := &r.clocks[side]
	c.charge(used)
	next := r.pos.Play(m)
	r.moves = append(r.moves, m)
	r.history = append(r.history, next)
	r.rec.Moves = append(r.rec.Moves, MoveRecord{Color: side, Move: m, Text: text, Used: used, Clock: c.remaining, Illegal: illegal})
	r.pos = next
	r.start = r.clock.Now()
	r.started = false
	r.checkEnd()
}

func (r *Referee) verdict() Verdict {
	if r.Done() {
		return GameOver
	}
	return Accepted
}

// checkEnd ends the game when the side to move has no legal move.
func (r *Referee) checkEnd() {
	if r.pos.HasMoves() {
		return
	}
	side := r.pos.Turn()
	if r.cfg.Variant.Losing {
		r.finish(Result{WinFor(side), Normal, fmt.Sprintf("%s has no legal move and wins (losing variant)", side)})
		return
	}
	r.finish(Result{WinFor(side.Opponent()), Normal, fmt.Sprintf("%s has no legal move", side)})
}
