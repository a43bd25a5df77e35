package arbiter

import (
	"errors"
	"fmt"
	"slices"
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
	Margin      time.Duration   // per side and game: how much overspending (summed) a flag forgives
	Clock       Clock           // nil = real clock
}

// Referee referees one game. It is not safe for concurrent use: one game
// goroutine drives it.
type Referee struct {
	cfg Config
	// cite is the variant whose rulebook a claim's evidence cites
	// (DrawArticle): cfg.Variant, or for a claims audit the preset the
	// record is of, which the audit plays as a custom variant of its own.
	cite *rules.Variant
	// drawEvidence is what an automatic draw was declared on (DrawEvidence).
	drawEvidence Evidence
	clock        *gameClock // Config.Clock less pauses and down time (decision.go)
	pos          rules.Position
	history      []rules.Position
	moves        []rules.Move
	clocks       [2]sideClock

	// The side to move's clock: running since start; started says
	// StartThinking was called this turn (later calls keep the start).
	start   time.Time
	started bool

	// legalMoves are pos's legal moves once generated (haveLegal): only
	// when a capture or an illegal move needs them, at most once per move;
	// a plain move is checked with Position.Find, which needs no generation
	// when no capture exists.
	legalMoves []rules.Move
	haveLegal  bool
	irrev      int // index in history after the last irreversible move

	warnings [2]int // WCDF warnings per side
	pending  *pendingIllegal
	lost     *IllegalLoss // the illegal move that lost the game

	draws  drawTrackers
	rec    Record
	result Result
}

// IllegalLoss is the illegal move that lost a game and what made it lose:
// Strict (the strict policy), or else it was the side's second (WCDF).
type IllegalLoss struct {
	Warning
	Strict bool
}

// IllegalLoss reports the illegal move that lost the game, for a page
// that says it in its reader's language (the Result's Reason says it in
// English); false when the game did not end so.
func (r *Referee) IllegalLoss() (IllegalLoss, bool) {
	if r.lost == nil {
		return IllegalLoss{}, false
	}
	return *r.lost, true
}

// pendingIllegal is an illegal move waiting for the opponent's decision.
type pendingIllegal struct {
	text, why string
	ex        Explanation
	move      rules.Move
	used      time.Duration
}

// NewReferee starts a game.
func NewReferee(cfg Config) (*Referee, error) {
	if err := cfg.Variant.Ready(); err != nil {
		return nil, fmt.Errorf("arbiter: Config.Variant: %w", err)
	}
	p, err := ParsePolicy(string(cfg.Policy))
	if err != nil {
		return nil, err
	}
	cfg.Policy = p
	for c, tc := range cfg.TimeControl {
		if err := tc.Validate(); err != nil {
			return nil, fmt.Errorf("arbiter: %s's time control: %w", rules.Color(c), err)
		}
	}
	if cfg.Margin < 0 {
		return nil, fmt.Errorf("arbiter: negative margin %v", cfg.Margin)
	}
	if cfg.MaxMoves < 0 {
		return nil, fmt.Errorf("arbiter: negative MaxMoves %d", cfg.MaxMoves)
	}
	start := rules.NewPosition(cfg.Variant)
	if cfg.Start != nil {
		start = *cfg.Start
		if !start.Variant().Equal(cfg.Variant) {
			return nil, fmt.Errorf("arbiter: start position %s is not set up for variant %q", start.FEN(), cfg.Variant.Name())
		}
	}
	r := &Referee{cfg: cfg, cite: cfg.Variant, clock: &gameClock{inner: cfg.Clock}, pos: start}
	if r.clock.inner == nil {
		r.clock.inner = realClock{}
	}
	for c := range r.clocks {
		r.clocks[c] = newSideClock(cfg.TimeControl[c])
	}
	// Room for a typical game, so that a move does not regrow three slices.
	const plies = 128
	r.history = append(make([]rules.Position, 0, plies+1), start)
	r.moves = make([]rules.Move, 0, plies)
	r.draws = newDrawTrackers(cfg.Variant, start, cfg.MaxMoves)
	r.rec = Record{Variant: cfg.Variant, Start: start, TimeControl: cfg.TimeControl, Policy: cfg.Policy,
		Moves: make([]MoveRecord, 0, plies)}
	r.start = r.clock.Now()
	r.checkEnd()
	if !r.Done() && r.automatic() && cfg.Variant.Draws().OnePieceEach && onePieceEach(start) {
		// A start of one piece each is drawn before a move (Turkish).
		r.finish(Result{rules.Draw, DrawOnePieceEach, "drawn by the rules: " + r.onePieceEvidence(nil, "").String()})
	}
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

// LastIrreversible returns the index in History of the position after the
// last irreversible move (a man move or a capture), 0 if there was none:
// positions before it can never recur, so an engine needs only
// History()[i] and Moves()[i:] to see every repetition (Hub `pos ... moves=`).
func (r *Referee) LastIrreversible() int { return r.irrev }

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
// plus its limit plus what its earlier moves left of the margin) on
// Config.Clock; zero if untimed, paused or the game is over.
func (r *Referee) Deadline() time.Time {
	c := &r.clocks[r.pos.Turn()]
	if r.Done() || r.pending != nil || r.clock.paused || !c.tc.Timed() {
		return time.Time{}
	}
	return r.clock.outer(r.start.Add(c.limit() + c.marginLeft(r.cfg.Margin)))
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

// DrawEvidence is what the automatic draw that ended the game was declared
// on (the FMJD rules, no claim); false when the game did not end so.
func (r *Referee) DrawEvidence() (Evidence, bool) {
	return r.drawEvidence, r.drawEvidence.Kind != "" && r.Done()
}

// CheckTime ends the game by time forfeit if the side to move's flag has
// fallen by now (used time > limit + margin left) and reports whether the game
// is over. A caller whose wait for a move ran past Deadline calls it
// instead of Submit. It does nothing while a decision is pending.
func (r *Referee) CheckTime() bool {
	if r.Done() || r.pending != nil {
		return r.Done()
	}
	return r.flag(r.clock.Now().Sub(r.start))
}

// Submit plays m for the side to move. It stops the side's clock and checks
// time first (a flag falls exactly when the time used exceeds the limit
// plus what is left of the margin), then legality: a move that is not
// among the legal moves (same from, to and captured set) is handled by the
// illegal-move policy.
func (r *Referee) Submit(m rules.Move) Verdict { return r.submit(m, false) }

// SubmitChecked is Submit for a move the caller found among the legal
// moves of Position() (rules.Position.ParseHubMoveLegal, as the Hub player
// does), with that position's whole legal list when it generated one (nil
// otherwise): the referee takes the move without looking it up again, and
// keeps the list for the move's notation. A move that does not fit the
// position at a glance (no piece of the side to move on its from square)
// is looked up as Submit does.
func (r *Referee) SubmitChecked(m rules.Move, legal []rules.Move) Verdict {
	if legal != nil && !r.haveLegal && r.pending == nil && !r.Done() {
		r.legalMoves, r.haveLegal = legal, true
	}
	return r.submit(m, true)
}

// fits is the glance of SubmitChecked: a piece of the side to move stands
// on m's from square.
func (r *Referee) fits(m rules.Move) bool {
	c, _, ok := r.pos.Piece(m.From)
	return ok && c == r.pos.Turn()
}

func (r *Referee) submit(m rules.Move, checked bool) Verdict {
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
	legal, ok := m, checked && r.fits(m)
	if !ok {
		legal, ok = r.legal(m)
	}
	if !ok {
		// Only an illegal move pays for the explanation. The reason is
		// what a player reads (a warning, a result banner), with the
		// rulebook's article where one is cited: the position is the
		// record's, not repeated as a FEN in it.
		ex := Explain(r.pos, m)
		return r.illegal(m, true, moveText(r.cfg.Variant, m), ex, ex.Cited(), used)
	}
	r.play(legal, used, false)
	r.afterMove(r.pos.Turn().Opponent(), r.rec.Moves[len(r.rec.Moves)-1].Text)
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
	ex := Explanation{Code: CodeUnreadable, Args: map[string]string{"text": text, "why": why}}
	return r.illegal(rules.Move{}, false, text, ex, why, used)
}

// Decide settles a pending illegal move under opponent-decides. correct =
// true takes it back: the offender moves again in the same position on its
// own clock, and no penalty is counted. correct = false lets it stand: it
// is played as made (Position.Play), recorded with Illegal set, and the
// game goes on from the position it produced. The clocks stand still while
// the decision is pending.
func (r *Referee) Decide(correct bool) (Verdict, error) {
	if r.Done() {
		return GameOver, ErrGameOver
	}
	p := r.pending
	if p == nil {
		return Accepted, ErrNoDecision
	}
	r.pending = nil
	side := r.pos.Turn()
	w := Warning{Ply: len(r.moves), Color: side, Text: p.text, Why: p.why, Explanation: p.ex, Decision: "corrected"}
	if correct {
		r.rec.Warnings = append(r.rec.Warnings, w)
		r.start = r.clock.Now().Add(-p.used)
		r.started = true
		return Retry, nil
	}
	w.Decision = "stands"
	r.rec.Warnings = append(r.rec.Warnings, w)
	r.play(p.move, p.used, true)
	r.afterMove(side, r.rec.Moves[len(r.rec.Moves)-1].Text)
	return r.verdict(), nil
}

// Pending reports whether an illegal move awaits the opponent's decision.
func (r *Referee) Pending() bool { return r.pending != nil }

// Warnings returns how many WCDF warnings c has had.
func (r *Referee) Warnings(c rules.Color) int { return r.warnings[c] }

// automatic reports whether the variant's draws are declared by the
// arbiter (FMJD style: Draws.ThreefoldAutomatic) rather than claimed
// (WCDF style). The N-move and endgame rules follow the same switch.
func (r *Referee) automatic() bool { return r.cfg.Variant.Draws().ThreefoldAutomatic }

// Claim is a draw claim by c of the given kind (DrawThreefold, the
// variant's N-move rule such as Draw40Move, or Draw16Move/Draw5Move) in the
// current position. Either side may claim. A valid claim ends the game
// drawn; a wrong one returns an error wrapping ErrClaimRefused with the
// reason, is recorded, and changes nothing else.
func (r *Referee) Claim(c rules.Color, kind Termination) error {
	if r.Done() {
		return ErrGameOver
	}
	return r.settleClaim(c, r.claimValid(kind, nil, ""), false)
}

// ClaimWithMove is a claim by the side to move made together with the move
// it intends to play (WCDF: threefold repetition is claimed BEFORE the move
// that would create the position for the third time; the N-move rule may
// be claimed with the move that completes it). Time is checked first, as
// for Submit. A valid claim plays m and ends the game drawn (unless m
// itself wins: then the win stands). A wrong claim returns an error
// wrapping ErrClaimRefused and changes nothing else: m is not played, the
// clock runs on, and the side may still Submit it.
func (r *Referee) ClaimWithMove(c rules.Color, kind Termination, m rules.Move) (Verdict, error) {
	if r.Done() {
		return GameOver, ErrGameOver
	}
	if r.pending != nil {
		return AwaitDecision, fmt.Errorf("%w: an illegal move awaits the opponent's decision", ErrClaimRefused)
	}
	side := r.pos.Turn()
	if c != side {
		return Accepted, r.settleClaim(c, Evidence{Kind: kind, Problem: fmt.Sprintf("only the side to move (%s) can claim with a move", side.Name())}, false)
	}
	used := r.clock.Now().Sub(r.start)
	if r.flag(used) {
		return GameOver, fmt.Errorf("%w: %s's flag fell before the claim", ErrGameOver, side.Name())
	}
	legal, ok := r.legal(m)
	if !ok {
		text := moveText(r.cfg.Variant, m)
		return Accepted, r.settleClaim(c, Evidence{Kind: kind, Move: text, Problem: "the claim's move " + text + " is not a legal move: " + Explain(r.pos, m).Cited()}, false)
	}
	text := r.legalText(legal)
	ev := r.claimValid(kind, &legal, text)
	if !ev.Valid {
		return Accepted, r.settleClaim(c, ev, false)
	}
	r.play(legal, used, false)
	if r.Done() { // the move won outright
		return GameOver, nil
	}
	why := ev.Cited()
	r.rec.Claims = append(r.rec.Claims, ClaimRecord{Ply: len(r.moves) - 1, Color: c, Kind: kind, Move: text, Accepted: true, Reason: why, Evidence: ev})
	r.finish(Result{rules.Draw, kind, fmt.Sprintf("%s claimed with %s: %s", c.Name(), text, why)})
	return GameOver, nil
}

// claimValid checks a claim of kind in the current position, or after m
// (written text) when m is not nil, and returns the evidence it was judged
// on, with the article of the rule where the rulebook is cited. It runs
// only when a claim is made or due, never per move.
func (r *Referee) claimValid(kind Termination, m *rules.Move, text string) Evidence {
	e := r.claimEvidence(kind, m, text)
	if e.Problem == "" { // judged on the rule: it has the rule's article
		e.Article, _ = DrawArticle(r.cite, kind)
	}
	return e
}

// claimEvidence is claimValid without the article.
func (r *Referee) claimEvidence(kind Termination, m *rules.Move, text string) Evidence {
	v := r.cfg.Variant
	d := &r.draws
	switch {
	case kind == DrawThreefold:
		return r.threefoldEvidence(m, text)
	case v.Draws().MoveRule > 0 && kind == MoveRuleTermination(v.Draws().MoveRule):
		return r.moveRuleEvidence(kind, m, text)
	case v.Draws().EndgameRules && (kind == Draw16Move || kind == Draw5Move):
		eg := &d.endgame
		e := Evidence{Kind: kind, Move: text}
		switch {
		case m != nil:
			e.Problem = "claim the endgame rules after the move"
		case eg.limit == 0 || eg.termination() != kind:
			e.Problem = "the material on the board is not that rule's endgame"
		default:
			e = r.endgameEvidence(kind)
		}
		return e
	case v.Draws().OnePieceEach && kind == DrawOnePieceEach:
		return r.onePieceEvidence(m, text)
	case v.Draws().TwoKingsOneKing > 0 && kind == DrawTwoKingsOneKing, v.Draws().KingOneKing > 0 && kind == DrawKingOneKing:
		e := Evidence{Kind: kind, Move: text}
		switch {
		case m != nil:
			e.Problem = "claim the kings endgame rules after the move"
		case d.kings.kind == noKingsEnd || d.kings.termination() != kind:
			e.Problem = "the material on the board is not that rule's endgame"
		default:
			e = r.kingsEvidence(kind)
		}
		return e
	case kind == DrawAgreement:
		return Evidence{Kind: kind, Move: text, Problem: "a draw by agreement needs both players (Agree)"}
	}
	return Evidence{Kind: kind, Move: text, Problem: fmt.Sprintf("%q is not a draw rule of variant %s", string(kind), v.Name())}
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return fmt.Sprintf("%dth", n)
}

// settleClaim records a claim judged on ev and ends the game when it is
// valid.
func (r *Referee) settleClaim(c rules.Color, ev Evidence, auto bool) error {
	kind, why := ev.Kind, ev.Cited()
	r.rec.Claims = append(r.rec.Claims, ClaimRecord{Ply: len(r.moves), Color: c, Kind: kind, Move: ev.Move, Auto: auto, Accepted: ev.Valid, Reason: why, Evidence: ev})
	if !ev.Valid {
		return fmt.Errorf("%w: %s by %s: %s", ErrClaimRefused, kind, c, why)
	}
	r.finish(Result{rules.Draw, kind, fmt.Sprintf("%s claimed: %s", c.Name(), why)})
	return nil
}

// Agree ends the game drawn by agreement.
func (r *Referee) Agree() error {
	if r.Done() {
		return ErrGameOver
	}
	r.finish(Result{rules.Draw, DrawAgreement, r.agreement(true).Cited()})
	return nil
}

// agreement is the evidence of a draw offer the opponent accepted (agreed)
// or declined, with the rulebook's article on agreement: what Agree gives
// as the reason and what the claims audit says of an agreement it reads
// in a record, which has only the players' word to judge by.
func (r *Referee) agreement(agreed bool) Evidence {
	e := Evidence{Kind: DrawAgreement, Valid: agreed}
	e.Article, _ = DrawArticle(r.cite, DrawAgreement)
	return e
}

// Adjudicate ends the game with outcome o by the arbiter's decision.
func (r *Referee) Adjudicate(o rules.Outcome, reason string) error {
	if r.Done() {
		return ErrGameOver
	}
	if !o.Scored() {
		return fmt.Errorf("arbiter: cannot adjudicate %s: want a win or a draw", o)
	}
	r.decide(Decision{Kind: DecisionResult, Text: o.PDN(r.cfg.Variant.WideResults()) + ": " + reason})
	r.finish(Result{o, Adjudication, reason})
	return nil
}

// Forfeit ends the game as a loss for c with termination t (Resignation,
// TimeForfeit, EngineCrashed, EngineStalled, EngineFault, IllegalMove). It does nothing
// once the game is over.
func (r *Referee) Forfeit(c rules.Color, t Termination, reason string) {
	if r.Done() {
		return
	}
	r.finish(Result{rules.WinFor(c.Opponent()), t, reason})
}

// Done reports whether the game is over.
func (r *Referee) Done() bool { return r.result.Outcome != rules.Ongoing }

// Result returns the result (Outcome Ongoing while the game goes on).
func (r *Referee) Result() Result { return r.result }

// Record returns a copy of the record so far. The moves of a finished
// game are shared, not copied: no move is added after the result, so
// they are as immutable as a copy (clipped, so that an append by the
// caller copies), and a match of fast games keeps a copy of every game's
// moves (10 KB) off the collector.
func (r *Referee) Record() Record {
	rec := r.rec
	if r.Done() {
		rec.Moves = slices.Clip(rec.Moves)
	} else {
		rec.Moves = append([]MoveRecord(nil), rec.Moves...)
	}
	rec.Warnings = append([]Warning(nil), rec.Warnings...)
	rec.Claims = append([]ClaimRecord(nil), rec.Claims...)
	rec.Decisions = append([]Decision(nil), rec.Decisions...)
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
	shown := showAbove(used, c.limit()+c.marginLeft(r.cfg.Margin))
	why := fmt.Sprintf("%s used %s, more than its %s plus the %s margin", side.Name(), shown, ShowDuration(c.limit()), ShowDuration(r.cfg.Margin))
	if c.overspent > 0 {
		why = fmt.Sprintf("%s used %s, more than its %s plus the %s left of the %s margin (earlier moves overspent %s)",
			side.Name(), shown, ShowDuration(c.limit()), ShowDuration(c.marginLeft(r.cfg.Margin)), ShowDuration(r.cfg.Margin), ShowDuration(c.overspent))
	}
	r.finish(Result{rules.WinFor(side.Opponent()), TimeForfeit, why})
	return true
}

// legal finds m among the legal moves by identity. It keeps m's path when
// that is one of the move's capture paths, so long notation shows the path
// the player took.
func (r *Referee) legal(m rules.Move) (rules.Move, bool) {
	if !m.IsCapture() && !r.haveLegal {
		// The usual case, answered without generating every move.
		return r.pos.Find(m.From, m.To, m.Captured)
	}
	var lm rules.Move
	ok := false
	for _, c := range r.legalList() {
		if c.Same(m) {
			lm, ok = c, true
			break
		}
	}
	if !ok || !m.IsCapture() || len(m.Path) == 0 || slices.Equal(m.Path, lm.Path) {
		return lm, ok
	}
	for _, pm := range r.pos.LegalPaths() {
		if pm.Same(m) && slices.Equal(pm.Path, m.Path) {
			return pm, true
		}
	}
	return lm, true
}

// legalList returns the legal moves of pos, generated on first use.
func (r *Referee) legalList() []rules.Move {
	if !r.haveLegal {
		r.legalMoves, r.haveLegal = r.pos.LegalMoves(), true
	}
	return r.legalMoves
}

// legalText writes a legal move of pos in PDN (Position.MoveText).
func (r *Referee) legalText(m rules.Move) string {
	if !m.IsCapture() {
		return r.pos.MoveText(m) // needs no list
	}
	return r.pos.MoveTextAmong(m, r.legalList())
}

// moveText writes a move that may be illegal: from-to or fromxto.
func moveText(v *rules.Variant, m rules.Move) string {
	n := v.Squares()
	name := func(sq rules.Square) string {
		if sq < 1 || int(sq) > n {
			return fmt.Sprintf("?%d", sq)
		}
		return v.SquareName(sq)
	}
	sep := "-"
	if m.IsCapture() {
		sep = "x"
		if v.Notation() == rules.Algebraic {
			sep = ":"
		}
	}
	return name(m.From) + sep + name(m.To)
}

// geometric checks that an illegal move could stand: it moves a piece of
// the side to move to an empty square (or back to its own square after a
// capture) and captures only opposing pieces. It returns the move with
// Promotes set when a man ends on its king row.
func geometric(p rules.Position, m rules.Move) (rules.Move, error) {
	v := p.Variant()
	n := v.Squares()
	if m.From < 1 || int(m.From) > n || m.To < 1 || int(m.To) > n {
		return m, fmt.Errorf("square off the board")
	}
	side := p.Turn()
	c, k, ok := p.Piece(m.From)
	if !ok || c != side {
		return m, fmt.Errorf("no %s piece on %s", side, v.SquareName(m.From))
	}
	if m.To == m.From && !m.IsCapture() {
		return m, fmt.Errorf("the piece does not move")
	}
	if m.To != m.From && p.Occupied().Has(m.To) {
		return m, fmt.Errorf("%s is occupied", v.SquareName(m.To))
	}
	all := rules.Set{}
	for sq := 1; sq <= n; sq++ {
		all = all.With(rules.Square(sq))
	}
	if !m.Captured.Minus(all).Empty() || !m.Captured.Minus(p.Pieces(side.Opponent())).Empty() {
		return m, fmt.Errorf("captures squares without an opposing piece")
	}
	m.Promotes = false
	if k == rules.Man {
		// the far row, or the variant's promotion squares (Corner)
		m.Promotes = v.Crowns(side, m.To)
	}
	m.Path = nil
	return m, nil
}

// illegal applies the illegal-move policy to something the side to move
// sent. isMove says m is a move on the board (Submit) rather than text.
func (r *Referee) illegal(m rules.Move, isMove bool, text string, ex Explanation, why string, used time.Duration) Verdict {
	side := r.pos.Turn()
	lose := func(extra string) Verdict {
		r.finish(Result{rules.WinFor(side.Opponent()), IllegalMove, fmt.Sprintf("%s played %s: %s%s", side.Name(), text, why, extra)})
		r.lost = &IllegalLoss{Warning{Ply: len(r.moves), Color: side, Text: text, Why: why, Explanation: ex}, r.cfg.Policy == PolicyStrict}
		return GameOver
	}
	retry := func(decision string) Verdict {
		r.rec.Warnings = append(r.rec.Warnings, Warning{Ply: len(r.moves), Color: side, Text: text, Why: why, Explanation: ex, Decision: decision})
		r.started = true // the clock keeps running from the turn's start
		return Retry
	}
	switch r.cfg.Policy {
	case PolicyStrict:
		return lose(" (strict policy)")
	case PolicyOpponentDecides:
		if isMove {
			if gm, err := geometric(r.pos, m); err == nil {
				r.pending = &pendingIllegal{text: text, why: why, ex: ex, move: gm, used: used}
				return AwaitDecision
			}
		}
		// Nothing on the board could stand: corrected at once.
		return retry("corrected")
	default:
		r.warnings[side]++
		if r.warnings[side] >= 2 {
			return lose(" (second illegal move in the game)")
		}
		return retry("")
	}
}

// play applies a move (legal, or an illegal one let stand), books the
// clock and feeds the draw trackers, and ends the game if the side now to
// move has no legal move. Draw rules are checked by afterMove.
func (r *Referee) play(m rules.Move, used time.Duration, illegal bool) {
	side := r.pos.Turn()
	var text string
	if illegal {
		text = moveText(r.cfg.Variant, m)
	} else {
		text = r.legalText(m)
	}
	c := &r.clocks[side]
	c.charge(used)
	before := r.pos
	next := before.Play(m)
	r.draws.update(before, m, next)
	if irreversible(before, m) {
		r.irrev = len(r.history)
	}
	r.moves = append(r.moves, m)
	r.history = append(r.history, next)
	r.rec.Moves = append(r.rec.Moves, MoveRecord{Color: side, Move: m, Text: text, Used: used, Clock: c.remaining, Illegal: illegal})
	r.pos = next
	r.start = r.clock.Now()
	r.started = false
	r.checkEnd()
}

// afterMove declares automatic draws, makes AutoClaim claims for mover
// (with the move's text, as a WCDF claim before the move would be), and
// applies MaxMoves adjudication.
func (r *Referee) afterMove(mover rules.Color, moveText string) {
	if r.Done() {
		return
	}
	d := &r.draws
	if r.automatic() {
		// The evidence is built only when a draw is due (once a game).
		if kind := r.dueDraw(); kind != "" {
			r.drawEvidence = r.claimValid(kind, nil, "")
			r.finish(Result{rules.Draw, kind, "drawn by the rules: " + r.drawEvidence.Cited()})
		}
	} else if r.cfg.AutoClaim {
		if kind := r.dueDraw(); kind != "" {
			ev := r.claimValid(kind, nil, "")
			why := ev.Cited()
			r.rec.Claims = append(r.rec.Claims, ClaimRecord{Ply: len(r.moves) - 1, Color: mover, Kind: kind, Move: moveText, Auto: true, Accepted: true, Reason: why, Evidence: ev})
			r.finish(Result{rules.Draw, kind, fmt.Sprintf("claimed for %s with %s: %s", mover.Name(), moveText, why)})
		}
	}
	if !r.Done() && d.maxMoves.due() {
		r.finish(Result{rules.Draw, Adjudication, fmt.Sprintf("drawn after %d moves each (move limit)", d.maxMoves.n)})
	}
}

// dueDraw is the draw rule due in the position on the board, "" when none.
// Cheap checks only: this runs after every move.
func (r *Referee) dueDraw() Termination {
	d := &r.draws
	dr := r.cfg.Variant.Draws()
	switch {
	case dr.OnePieceEach && onePieceEach(r.pos):
		return DrawOnePieceEach
	case d.rep.count(r.pos) >= 3:
		return DrawThreefold
	case d.moveRule.due():
		return MoveRuleTermination(d.moveRule.n)
	case dr.EndgameRules && d.endgame.due():
		return d.endgame.termination()
	case d.kings.due():
		return d.kings.termination()
	}
	return ""
}

func (r *Referee) verdict() Verdict {
	if r.Done() {
		return GameOver
	}
	return Accepted
}

// checkEnd ends the game when the side to move has no legal move (in
// Breakthrough, when a man has been crowned).
func (r *Referee) checkEnd() {
	r.legalMoves, r.haveLegal = nil, false
	if r.pos.HasMoves() {
		return
	}
	// The rules say who won and why: no move, or Breakthrough's back row.
	o, why := r.pos.EndReason()
	r.finish(Result{o, Normal, why})
}
