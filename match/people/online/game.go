package online

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules"
)

// handClock is the referee's clock: set to each input's time before the
// input is applied, so that a replay sees exactly the times the game saw.
type handClock struct{ t time.Time }

func (c *handClock) Now() time.Time { return c.t }

// input is what is stored and replayed: an intent of a role, or an
// internal input of the server.
type input struct {
	Role   Role   `json:"role"`
	Intent Intent `json:"intent,omitzero"`
	// Internal inputs: flag (the server's timer), engine-illegal and
	// engine-fault (an engine's answer), downtime (a restart).
	Internal string        `json:"internal,omitempty"`
	Engine   bool          `json:"engine,omitempty"` // the engine side's move
	Text     string        `json:"text,omitempty"`
	Why      string        `json:"why,omitempty"`
	Fault    string        `json:"fault,omitempty"`
	Amount   time.Duration `json:"amount,omitempty"`
	// Mv is an engine's move exactly as it sent it (a move text could not
	// carry an illegal capture's pieces).
	Mv *wireMove `json:"mv,omitempty"`
}

// wireMove is a rules.Move in JSON.
type wireMove struct {
	From     int   `json:"from"`
	To       int   `json:"to"`
	Captured []int `json:"captured,omitempty"`
	Path     []int `json:"path,omitempty"`
	Promotes bool  `json:"promotes,omitempty"`
}

func toWire(m rules.Move) *wireMove {
	w := &wireMove{From: int(m.From), To: int(m.To), Promotes: m.Promotes}
	for sq := range m.Captured.All() {
		w.Captured = append(w.Captured, int(sq))
	}
	for _, sq := range m.Path {
		w.Path = append(w.Path, int(sq))
	}
	return w
}

// move checks the squares against v (a stored input is data, not trust).
func (w *wireMove) move(v *rules.Variant) (rules.Move, bool) {
	n := v.Squares()
	ok := func(x int) bool { return x >= 1 && x <= n }
	if !ok(w.From) || !ok(w.To) || len(w.Captured) > n || len(w.Path) > 2*n {
		return rules.Move{}, false
	}
	m := rules.Move{From: rules.Square(w.From), To: rules.Square(w.To), Promotes: w.Promotes}
	for _, x := range w.Captured {
		if !ok(x) {
			return rules.Move{}, false
		}
		m.Captured = m.Captured.With(rules.Square(x))
	}
	for _, x := range w.Path {
		if !ok(x) {
			return rules.Move{}, false
		}
		m.Path = append(m.Path, rules.Square(x))
	}
	return m, true
}

// game is one game of the hall. Every field is guarded by mu.
type game struct {
	mu      sync.Mutex
	id      string
	sp      *spec
	created time.Time
	ref     *arbiter.Referee
	clk     *handClock
	v       int64
	lastAt  time.Time

	offer    rules.Color
	hasOffer bool
	presence [4]int
	joined   [4]bool         // the role has opened the game (before a restart too)
	rematch  map[Role]string // after Rematch: the new game's token for each player of this one

	// seen is how much of the referee's record has been turned into events.
	seen seen

	subs    map[*sub]struct{}
	timer   *time.Timer
	eng     *engineRun
	replay  bool  // applying stored inputs: no tokens, no publishing
	broken  error // could not be restored
	closed  bool
	evicted bool // dropped from the hall's memory (a finished game): look it up again
	// adjourned: untouched for long, it no longer counts as running; a
	// look or an act through one of its links takes it up again.
	adjourned bool
	seenAt    time.Time // last looked at (Snapshot, Watch): with lastAt, when it was touched
	// stalled: the store did not take a write (why, for a person); the
	// game waits, clocks stopped since stalledAt (stall.go).
	stalled   string
	stalledAt time.Time
	pending   []Event // events of the input being applied
	last      *rules.Move

	lastClaimAccepted, lastClaimAuto bool
	lastAutoEvidence                 *arbiter.Evidence // the evidence of the last automatic claim
}

type seen struct {
	moves, warnings, claims, decisions int
	pending                            bool
	over                               bool
	wcdf                               [2]int
}

func newGame(id string, sp *spec, created time.Time) (*game, error) {
	g := &game{id: id, sp: sp, created: created, clk: &handClock{t: created}, subs: map[*sub]struct{}{}}
	ref, err := arbiter.NewReferee(sp.config(g.clk))
	if err != nil {
		return nil, err
	}
	g.ref = ref
	g.lastAt = created
	return g, nil
}

// colorName is "white" or "black".
func colorName(c rules.Color) string { return c.String() }

// emit adds an event of the input being applied.
func (g *game) emit(typ, code string, args map[string]string, mv *MoveInfo) {
	g.pending = append(g.pending, Event{Type: typ, At: g.clk.t, Msg: newMsg(code, args), Move: mv})
}

// apply applies one input at time at. It returns the refusal when the
// input is refused, and then it has changed nothing. The events it
// produced are in g.pending (versions and states are filled in by the
// caller, one state per event).
func (g *game) apply(at time.Time, in input, tok func(Role) (string, *tokenRow, error)) (string, *tokenRow, *Refusal) {
	g.clk.t = at
	g.lastAt = at
	if in.Internal != "" {
		return "", nil, g.internal(in)
	}
	k := in.Intent.Kind
	if r := in.Intent.check(); r != nil {
		return "", nil, r
	}
	switch k {
	case "move", "claim", "offer", "accept", "decline", "resign", "decide":
		c, ok := in.Role.player()
		if !ok {
			return "", nil, refuse(message.Forbidden, "refused.role", "role", in.Role.String(), "kind", k)
		}
		if g.sp.engine != "" && c == g.sp.engineSide && !in.Engine {
			return "", nil, refuse(message.Forbidden, "refused.engine-side", "color", colorName(c))
		}
		return "", nil, g.player(c, in)
	case "pause", "resume", "add-time", "declare", "annotate", "reissue":
		if in.Role != RoleArbiter {
			return "", nil, refuse(message.Forbidden, "refused.role", "role", in.Role.String(), "kind", k)
		}
		return g.arbiterIntent(in.Intent, tok)
	case "":
		return "", nil, badInput("kind", "no action given")
	}
	return "", nil, refuse(message.Invalid, "refused.unknown-kind", "kind", clip(k, 32))
}

// player handles the intents of the player of side c.
func (g *game) player(c rules.Color, in input) *Refusal {
	ref := g.ref
	it := in.Intent
	if ref.Done() {
		return refuse(message.Conflict, "refused.game-over")
	}
	if ref.Paused() && it.Kind != "resign" {
		return refuse(message.Conflict, "refused.paused")
	}
	turn := ref.Turn()
	switch it.Kind {
	case "move":
		if ref.Pending() {
			if c == turn {
				return g.decisionFirst()
			}
			// FMJD/KNDB: a move of the opponent's own lets the illegal move stand.
			return g.standThenMove(c, it)
		}
		if c != turn {
			return refuse(message.Conflict, "refused.not-your-turn", "turn", colorName(turn))
		}
		if in.Engine && in.Mv != nil {
			m, ok := in.Mv.move(g.sp.variant)
			if !ok {
				return badInput("mv", "squares off the board")
			}
			g.submit(c, attempt{move: m})
			return nil
		}
		a, r := readMove(ref.Position(), it.Move, it.Path)
		if r != nil {
			return r
		}
		if r := g.friendlyRefusal(ref.Position(), a); r != nil {
			return r
		}
		g.submit(c, a)
	case "claim":
		kind, r := g.claimKind(it.Claim)
		if r != nil {
			return r
		}
		if ref.Pending() {
			return g.decisionFirst()
		}
		if it.WithMove != "" {
			if c != turn {
				return refuse(message.Conflict, "refused.not-your-turn", "turn", colorName(turn))
			}
			a, r := readMove(ref.Position(), it.WithMove, nil)
			if r != nil {
				return r
			}
			if r := g.friendlyRefusal(ref.Position(), a); r != nil {
				return r
			}
			if !a.legal {
				// The referee records the claim as refused: its move is illegal.
				a.move = rules.Move{From: a.move.From, To: a.move.To, Captured: a.move.Captured}
			}
			g.startClock()
			ref.ClaimWithMove(c, kind, a.move)
			g.afterMove(c)
		} else {
			ref.Claim(c, kind)
		}
	case "offer":
		switch {
		case g.hasOffer && g.offer == c:
			return refuse(message.Conflict, "refused.offer-open")
		case g.hasOffer:
			return g.accept(c)
		}
		g.offer, g.hasOffer = c, true
		g.emit(EvOffer, "offer.made", kv("color", colorName(c)), nil)
	case "accept":
		if !g.hasOffer || g.offer == c {
			return refuse(message.Conflict, "refused.no-offer")
		}
		return g.accept(c)
	case "decline":
		if !g.hasOffer || g.offer == c {
			return refuse(message.Conflict, "refused.no-offer")
		}
		g.hasOffer = false
		g.emit(EvOffer, "offer.declined", kv("color", colorName(c)), nil)
	case "resign":
		ref.Forfeit(c, arbiter.Resignation, c.String()+" resigned")
	case "decide":
		if !ref.Pending() || c == turn {
			return refuse(message.Conflict, "refused.no-decision")
		}
		if it.Correct == nil {
			return badInput("correct", "say true (correct it) or false (let it stand)")
		}
		ref.Decide(*it.Correct)
		g.afterMove(turn)
	}
	return nil
}

// friendlyRefusal refuses an illegal attempt in a friendly game, with the
// referee's explanation; the referee never sees it, so nothing is counted.
func (g *game) friendlyRefusal(p rules.Position, a attempt) *Refusal {
	if !g.sp.friendly || a.legal {
		return nil
	}
	if a.none {
		return refuse(message.Invalid, "refused.friendly", "move", clip(a.text, 64), "why", a.why)
	}
	x := arbiter.Explain(p, a.move)
	if x.Code == arbiter.CodeLegal {
		return nil
	}
	r := refuse(message.Invalid, "refused.friendly", "move", clip(a.text, 64), "why", x.Cited())
	r.Why = explanationMsg(x)
	return r
}

// explanationMsg is the referee's explanation as the message that explains
// a refusal's, a warning's or an illegal move's {why}: its code and
// arguments, and the rulebook's article as a message of its own (Cite) for
// the variants whose rulebook the referee cites.
func explanationMsg(x arbiter.Explanation) *Msg {
	m := &Msg{Code: x.Code, Args: x.Args, Text: x.String()}
	if x.Article.Number != "" {
		c := x.Article.Message()
		m.Cite = &c
	}
	return m
}

func (g *game) decisionFirst() *Refusal {
	w := g.pendingWarning()
	return refuse(message.Conflict, "refused.decision-first", "decider", colorName(g.ref.Turn().Opponent()), "move", w.move)
}

// standThenMove lets the pending illegal move stand (the decider, c,
// replied with a move of its own) and plays c's move.
func (g *game) standThenMove(c rules.Color, it Intent) *Refusal {
	// Read the move in the position after the illegal move first, so that
	// a refused reply (ambiguous, empty) changes nothing.
	p := g.pendingPosition()
	a, r := readMove(p, it.Move, it.Path)
	if r != nil {
		return r
	}
	g.ref.Decide(false)
	g.afterMove(c.Opponent())
	if g.ref.Done() || g.ref.Turn() != c {
		return nil
	}
	// The position now is p; a was read in it.
	g.submit(c, a)
	return nil
}

// submit hands an attempt of side c to the referee.
func (g *game) submit(c rules.Color, a attempt) {
	g.startClock()
	if a.none {
		g.ref.SubmitIllegal(clip(a.text, 64), a.why)
	} else {
		g.ref.Submit(a.move)
	}
	if g.ref.Pending() && g.sp.engine != "" && g.sp.engineSide == c.Opponent() {
		// An engine cannot choose: a person's illegal move is corrected,
		// as in an engine match.
		g.ref.Decide(true)
	}
	g.afterMove(c)
}

// startClock starts the first move's clock: the game's clock starts with
// the first thing done at the board, not when the game was created (the
// players may not have opened their links yet). It is called only where
// an input is about to change the game, so that a replay repeats it.
func (g *game) startClock() {
	if g.ref.Ply() == 0 {
		g.ref.StartThinking()
	}
}

// afterMove settles a draw offer after a move of mover: the offerer's
// move withdraws it, the opponent's move declines it.
func (g *game) afterMove(mover rules.Color) {
	before := g.seen.moves
	g.collect()
	if !g.hasOffer || g.seen.moves == before {
		return
	}
	g.hasOffer = false
	if g.ref.Done() {
		return
	}
	if g.offer == mover {
		g.emit(EvOffer, "offer.withdrawn", kv("color", colorName(mover)), nil)
	} else {
		g.emit(EvOffer, "offer.declined", kv("color", colorName(mover)), nil)
	}
}

func (g *game) accept(c rules.Color) *Refusal {
	g.hasOffer = false
	g.emit(EvOffer, "offer.accepted", kv("color", colorName(c)), nil)
	g.ref.Agree()
	return nil
}

// claimKind maps a claim's name to the referee's termination.
func (g *game) claimKind(s string) (arbiter.Termination, *Refusal) {
	v := g.sp.variant
	d := v.Draws()
	s = strings.ToLower(strings.TrimSpace(s))
	have := []string{"threefold"}
	if d.MoveRule > 0 {
		have = append(have, fmt.Sprintf("%d-move", d.MoveRule))
	}
	if d.EndgameRules {
		have = append(have, "16-move", "5-move")
	}
	switch {
	case s == "threefold" || s == "repetition":
		return arbiter.DrawThreefold, nil
	case d.MoveRule > 0 && (s == fmt.Sprintf("%d-move", d.MoveRule) || s == "move-rule"):
		return arbiter.MoveRuleTermination(d.MoveRule), nil
	case d.EndgameRules && s == "16-move":
		return arbiter.Draw16Move, nil
	case d.EndgameRules && s == "5-move":
		return arbiter.Draw5Move, nil
	case s == "":
		return "", badInput("claim", "say which rule: "+strings.Join(have, ", "))
	}
	return "", refuse(message.Invalid, "refused.unknown-claim", "claim", clip(s, 32), "rules", strings.Join(have, ", "))
}

// arbiterIntent handles the arbiter's intents.
func (g *game) arbiterIntent(it Intent, tok func(Role) (string, *tokenRow, error)) (string, *tokenRow, *Refusal) {
	ref := g.ref
	switch it.Kind {
	case "pause":
		switch {
		case ref.Done():
			return "", nil, refuse(message.Conflict, "refused.game-over")
		case ref.Paused():
			return "", nil, refuse(message.Conflict, "refused.paused")
		}
		g.startClock()
		ref.Pause(it.Text)
	case "resume":
		if !ref.Paused() {
			return "", nil, refuse(message.Conflict, "refused.not-paused")
		}
		ref.Resume()
	case "add-time":
		c, ok := parseColor(it.Color)
		if !ok {
			return "", nil, badInput("color", "want white or black")
		}
		if it.Seconds <= 0 {
			return "", nil, badInput("seconds", fmt.Sprintf("want 1 to %d", MaxAddSeconds))
		}
		if ref.Done() {
			return "", nil, refuse(message.Conflict, "refused.game-over")
		}
		if !g.sp.tc.Timed() || g.sp.tc.PerMove > 0 {
			return "", nil, refuse(message.Conflict, "refused.no-time-control")
		}
		g.startClock()
		if err := ref.AddTime(c, time.Duration(it.Seconds)*time.Second, it.Text); err != nil {
			return "", nil, badInput("seconds", err.Error())
		}
	case "declare":
		o, _, err := rules.ParseResult(it.Outcome)
		if err != nil || !o.Scored() {
			return "", nil, badInput("outcome", "want 1-0, 0-1 or 1/2-1/2")
		}
		if ref.Done() {
			return "", nil, refuse(message.Conflict, "refused.game-over")
		}
		reason := it.Text
		if reason == "" {
			reason = "the arbiter's decision"
		}
		ref.Adjudicate(o, reason)
	case "annotate":
		if strings.TrimSpace(it.Text) == "" {
			return "", nil, badInput("text", "empty")
		}
		ref.Annotate(it.Text)
	case "reissue":
		name := it.Role
		if name == "" {
			name = it.Color
		}
		r, ok := ParseRole(name)
		if !ok {
			return "", nil, badInput("role", "want white, black, spectator or arbiter")
		}
		if c, isPlayer := r.player(); isPlayer && g.sp.engine != "" && c == g.sp.engineSide {
			return "", nil, refuse(message.Conflict, "refused.engine-side", "color", colorName(c))
		}
		var token string
		var row *tokenRow
		if tok != nil { // live; a replay only repeats the event
			var err error
			if token, row, err = tok(r); err != nil {
				return "", nil, badInput("role", err.Error())
			}
		}
		g.emit(EvReissue, "arbiter.reissue", kv("role", r.String()), nil)
		return token, row, nil
	}
	return "", nil, nil
}

func parseColor(s string) (rules.Color, bool) {
	switch s {
	case "white":
		return rules.White, true
	case "black":
		return rules.Black, true
	}
	return 0, false
}

// internal handles the server's own inputs.
func (g *game) internal(in input) *Refusal {
	ref := g.ref
	switch in.Internal {
	case "flag":
		if ref.Ply() > 0 {
			ref.CheckTime()
		}
	case "engine-illegal":
		if ref.Done() || ref.Pending() || ref.Paused() {
			return refuse(message.Conflict, "refused.game-over")
		}
		g.startClock()
		ref.SubmitIllegal(in.Text, in.Why)
		g.afterMove(ref.Turn())
	case "engine-fault":
		if ref.Done() {
			return refuse(message.Conflict, "refused.game-over")
		}
		c := g.sp.engineSide
		t := arbiter.Termination(in.Fault)
		ref.Forfeit(c, t, in.Why)
	case "downtime":
		ref.Downtime(in.Amount, in.Why)
	default:
		return badInput("internal", "unknown input "+in.Internal)
	}
	return nil
}

func (g *game) pendingWarning() pendingInfo {
	_, text, why, _ := g.ref.PendingIllegal()
	return pendingInfo{text, why}
}

type pendingInfo struct{ move, why string }

// pendingPosition is the position the pending illegal move would make.
func (g *game) pendingPosition() rules.Position {
	m, _, _, _ := g.ref.PendingIllegal()
	return g.ref.Position().Play(m)
}

// collect turns what the referee recorded since the last call into events,
// in the order a reader wants them.
func (g *game) collect() {
	ref := g.ref
	sn := &g.seen
	rec := ref.RecordFrom(sn.moves, sn.warnings, sn.claims, sn.decisions)
	for i, w := range rec.Warnings {
		if w.Decision == "" {
			sn.wcdf[w.Color]++
		}
		args := kv("color", colorName(w.Color), "opponent", colorName(w.Color.Opponent()), "decider", colorName(w.Color.Opponent()),
			"move", w.Text, "why", w.Why)
		n := len(g.pending)
		switch {
		case w.Decision == "":
			args["count"] = strconv.Itoa(sn.wcdf[w.Color])
			if !(ref.Done() && ref.Result().Termination == arbiter.IllegalMove && i == len(rec.Warnings)-1 && sn.wcdf[w.Color] >= 2) {
				g.emit(EvWarning, "warning.wcdf", args, nil)
			}
		case w.Decision == "stands":
			g.emit(EvDecision, "decision.stands", args, nil)
		case sn.pending:
			g.emit(EvDecision, "decision.corrected", args, nil)
		default:
			g.emit(EvWarning, "warning.corrected", args, nil)
		}
		if x := w.Explanation; x.Code != "" && len(g.pending) > n {
			g.pending[n].Msg.Why = explanationMsg(x)
		}
	}
	sn.warnings += len(rec.Warnings)
	for _, d := range rec.Decisions {
		switch d.Kind {
		case arbiter.DecisionPause:
			g.emit(EvPause, "arbiter.pause", kv("reason", d.Text), nil)
		case arbiter.DecisionResume:
			g.emit(EvClock, "arbiter.resume", nil, nil)
		case arbiter.DecisionAddTime:
			g.emit(EvClock, "arbiter.add-time", kv("color", colorName(d.Color), "seconds", strconv.FormatInt(int64(d.Amount/time.Second), 10), "reason", d.Text), nil)
		case arbiter.DecisionAnnotation:
			g.emit(EvAnnotation, "arbiter.annotation", kv("text", d.Text), nil)
		case arbiter.DecisionServerDown:
			g.emit(EvResumeAfter, "server.down", kv("seconds", strconv.FormatFloat(d.Amount.Seconds(), 'f', 1, 64), "reason", d.Text), nil)
		}
	}
	sn.decisions += len(rec.Decisions)
	v := g.sp.variant
	for j, m := range rec.Moves {
		mi := &MoveInfo{Ply: sn.moves + j, Text: m.Text, Color: colorName(m.Color), From: v.SquareName(m.Move.From), To: v.SquareName(m.Move.To),
			ClockMS: m.Clock.Milliseconds(), Illegal: m.Illegal}
		for sq := range m.Move.Captured.All() {
			mi.Captured = append(mi.Captured, v.SquareName(sq))
		}
		code := "move.played"
		if m.Illegal {
			code = "move.illegal-stood"
		}
		g.emit(EvMove, code, kv("color", colorName(m.Color), "opponent", colorName(m.Color.Opponent()), "move", m.Text), mi)
	}
	sn.moves += len(rec.Moves)
	if n := len(rec.Moves); n > 0 {
		g.last = &rec.Moves[n-1].Move
	}
	for _, c := range rec.Claims {
		code := "claim.refused"
		if c.Accepted {
			code = "claim.accepted"
		}
		// The reason follows "refused." or "valid.": a sentence of its own.
		args := kv("color", colorName(c.Color), "claim", claimName(c.Kind), "reason", sentence(c.Reason))
		if c.Move != "" {
			args["move"] = c.Move
		}
		evidenceArgs(args, c.Evidence)
		if c.Auto {
			args["auto"] = "true"
		}
		g.emit(EvClaim, code, args, nil)
		// The reason as a code of its own, so that each language can say
		// it; args.reason stays the English fallback.
		g.pending[len(g.pending)-1].Msg.Why = evidenceMsg(c.Evidence)
		g.lastClaimAccepted, g.lastClaimAuto = c.Accepted, c.Auto
		if c.Auto {
			ev := c.Evidence
			g.lastAutoEvidence = &ev
		}
	}
	sn.claims += len(rec.Claims)
	if p := ref.Pending(); p && !g.seen.pending {
		m, text, why, _ := ref.PendingIllegal()
		c := ref.Turn()
		g.emit(EvIllegal, "decision.pending", kv("color", colorName(c), "opponent", colorName(c.Opponent()), "move", text, "why", why), nil)
		if x := arbiter.Explain(ref.Position(), m); x.Code != "" {
			g.pending[len(g.pending)-1].Msg.Why = explanationMsg(x)
		}
	}
	g.seen.pending = ref.Pending()
	if ref.Done() && !g.seen.over {
		g.seen.over = true
		res := ref.Result()
		args := kv("result", res.PDN(v), "termination", string(res.Termination), "reason", res.Reason)
		loser := rules.White
		if res.Outcome == rules.WinFor(rules.White) {
			loser = rules.Black
		}
		args["color"] = colorName(loser)
		code := "result.over"
		var lost *arbiter.IllegalLoss
		claimed := g.lastClaimAccepted && !g.lastClaimAuto
		switch res.Termination {
		case arbiter.Normal:
			if res.Outcome != rules.Draw {
				// The side to move has none (a loss, or in the giveaway
				// games a win: the result says which).
				code = "result.no-move" // blocked
				if ref.Position().OutOfPieces() {
					code = "result.no-pieces"
				}
				args["color"] = colorName(ref.Position().Turn())
			}
		case arbiter.Resignation:
			code = "result.resigned"
		case arbiter.TimeForfeit:
			code = "result.flag"
		case arbiter.DrawAgreement:
			code = "result.agreed"
		case arbiter.Adjudication:
			code = "result.declared"
		case arbiter.EngineCrashed, arbiter.EngineStalled, arbiter.EngineFault:
			code = "result.engine"
		case arbiter.IllegalMove:
			// The move and why it is illegal in the reader's language, as
			// the warning before it was (the reason is English).
			if l, ok := ref.IllegalLoss(); ok {
				code = "result.illegal-second"
				if l.Strict {
					code = "result.illegal-strict"
				}
				args["color"], args["move"], args["why"] = colorName(l.Color), l.Text, l.Why
				lost = &l
			}
		case arbiter.DrawThreefold, arbiter.Draw16Move, arbiter.Draw5Move, arbiter.MoveRuleTermination(v.Draws().MoveRule):
			if !claimed {
				code = "result.draw-rule"
			}
		}
		if code == "result.over" {
			// After "Game over: 1-0 (illegal move)." a sentence begins.
			args["reason"] = res.ReasonSentence()
		}
		g.emit(EvResult, code, args, nil)
		if lost != nil && lost.Explanation.Code != "" {
			g.pending[len(g.pending)-1].Msg.Why = explanationMsg(lost.Explanation)
		}
		if code == "result.draw-rule" {
			// The reason as a code of its own, as for a claim.
			if ev, ok := ref.DrawEvidence(); ok {
				g.pending[len(g.pending)-1].Msg.Why = evidenceMsg(ev)
			} else if g.lastAutoEvidence != nil {
				g.pending[len(g.pending)-1].Msg.Why = evidenceMsg(*g.lastAutoEvidence)
			}
		}
	}
}

// claimName is a claim's kind as the client names it: threefold, 40-move...
func claimName(t arbiter.Termination) string {
	s := strings.TrimPrefix(string(t), "draw by ")
	s = strings.TrimSuffix(s, " rule")
	return strings.TrimSuffix(s, " repetition")
}

// state is the game as it stands now (the clock of the side to move read
// at g.clk's time).
func (g *game) state() State {
	ref := g.ref
	v := g.sp.variant
	p := ref.Position()
	st := State{FEN: p.FEN(), Turn: colorName(p.Turn()), Status: "running", Result: ref.Result().PDN(v), Ply: ref.Ply(),
		Warnings: map[string]int{"white": ref.Warnings(rules.White), "black": ref.Warnings(rules.Black)},
		Presence: map[string]bool{"white": g.presence[RoleWhite] > 0, "black": g.presence[RoleBlack] > 0}}
	if g.sp.engine != "" {
		st.Presence[colorName(g.sp.engineSide)] = g.eng != nil
	}
	switch {
	case ref.Done():
		st.Status = "over"
		st.Termination = string(ref.Result().Termination)
		st.Reason = ref.Result().Reason
	case ref.Paused():
		st.Status = "paused"
	}
	if g.hasOffer && !ref.Done() {
		st.Offer = colorName(g.offer)
	}
	if m, text, why, ok := ref.PendingIllegal(); ok {
		_ = m
		st.Pending = &Pending{Offender: colorName(p.Turn()), Decider: colorName(p.Turn().Opponent()), Move: text, Why: why}
	}
	tc := g.sp.tc
	st.Clocks.Timed = tc.Timed()
	if tc.Timed() {
		left := [2]time.Duration{ref.Remaining(rules.White), ref.Remaining(rules.Black)}
		// The clock starts with the first thing done at the board (startClock).
		started := !ref.Done() && !ref.Pending() && (ref.Ply() > 0 || g.seen.warnings > 0)
		if started {
			c := p.Turn()
			used := ref.Elapsed() // frozen while paused
			if tc.PerMove == 0 {
				used = max(0, used-tc.Delay)
			}
			left[c] = max(0, left[c]-used)
			if !ref.Paused() {
				st.Clocks.Running = colorName(c)
			}
		}
		if res := ref.Result(); ref.Done() && res.Termination == arbiter.TimeForfeit {
			// The flag fell: the flagged side has no time left, whatever
			// its clock held when its move began (every client and the
			// API then show the same 0).
			flagged := rules.White
			if res.Outcome == rules.WinFor(rules.White) {
				flagged = rules.Black
			}
			left[flagged] = 0
		}
		st.Clocks.White, st.Clocks.Black = left[0].Milliseconds(), left[1].Milliseconds()
	}
	st.Board = Board{Width: v.Board().Width, Height: v.Board().Height}
	for _, c := range []rules.Color{rules.White, rules.Black} {
		for sq := range p.Pieces(c).All() {
			st.Board.Pieces = append(st.Board.Pieces, Piece{Sq: v.SquareName(sq), Color: colorName(c), King: p.Kings().Has(sq)})
		}
	}
	if g.last != nil {
		m := *g.last
		st.Last = &Last{From: v.SquareName(m.From), To: v.SquareName(m.To)}
		for sq := range m.Captured.All() {
			st.Last.Captured = append(st.Last.Captured, v.SquareName(sq))
		}
	}
	if g.sp.setup.Beginner && !ref.Done() {
		st.Legal = g.legal()
	}
	return st
}

// legal lists the legal moves of the side to move in PDN.
func (g *game) legal() []string {
	p := g.ref.Position()
	ms := p.LegalMoves()
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = p.MoveTextAmong(m, ms)
	}
	return out
}

// evidenceMsg is a claim's evidence as a message of its own (a client
// renders it in place of {reason}): a threefold repetition's occurrences
// or an N-move or endgame rule's count, also one that no move has
// started yet (since the start, since the move that broke it, or broken
// by the claimed move), with the rulebook's article of the draw rule as a
// message of its own (Cite) where the referee cites one, as for an
// illegal move's explanation. Nil for evidence said only in English (a
// problem, the one-piece-each draw): args.reason says it then.
func evidenceMsg(e arbiter.Evidence) *Msg {
	m := evidenceCode(e)
	if m != nil && e.Article.Number != "" {
		c := e.Article.Message()
		m.Cite = &c
	}
	return m
}

// evidenceCode is evidenceMsg without the article.
func evidenceCode(e arbiter.Evidence) *Msg {
	if e.Problem != "" {
		return nil
	}
	switch {
	case e.Kind == arbiter.DrawThreefold && e.Window == nil && len(e.Occurred) > 0:
		var at []string
		start := false // the position stood at the start of the record
		for _, p := range e.Occurred {
			if p.Ply >= 0 {
				at = append(at, p.Label)
			} else {
				start = true
			}
		}
		if len(at) == 0 { // only at the start: no move to list, no "since"
			code := "evidence.threefold-start-only"
			args := kv("count", strconv.Itoa(len(e.Occurred)))
			return &Msg{Code: code, Args: args, Text: render(code, args)}
		}
		since := "the start"
		if e.Since.Ply >= 0 {
			since = e.Since.String()
		}
		code := "evidence.threefold"
		if !e.Valid {
			code += "-short"
		}
		if e.Move != "" {
			code += "-move"
		}
		if start {
			code += "-start"
		}
		args := kv("count", strconv.Itoa(len(e.Occurred)), "at", strings.Join(at, ", "), "since", since)
		if e.Move != "" {
			args["move"] = e.Move
		}
		return &Msg{Code: code, Args: args, Text: render(code, args)}
	case e.Window != nil && e.Window.Counted == 0:
		// Nothing counted: a claim at the start, or just after a capture
		// (its readers' most common refusal); it was said only in English.
		w := e.Window
		code := "evidence.window-none"
		args := kv("moves", strconv.Itoa(w.Moves), "needed", strconv.Itoa(w.Needed), "rule", w.Rule)
		switch {
		case e.Move != "" && w.BrokenWhy != "": // the claimed move broke the count
			code += "-move"
			args["move"], args["broke"] = e.Move, strings.Replace(w.BrokenWhy, "was ", "is ", 1)
		case w.Broken.Ply >= 0 && w.BrokenWhy != "":
			code += "-since"
			args["broken"], args["broke"] = w.Broken.String(), w.BrokenWhy
		}
		return &Msg{Code: code, Args: args, Text: render(code, args)}
	case e.Window != nil:
		w := e.Window
		code := "evidence.window"
		if !e.Valid {
			code += "-short"
		}
		args := kv("moves", strconv.Itoa(w.Moves), "counted", strconv.Itoa(w.Counted), "needed", strconv.Itoa(w.Needed),
			"rule", w.Rule, "first", w.First.String())
		return &Msg{Code: code, Args: args, Text: render(code, args)}
	}
	return nil
}

// evidenceArgs adds a claim's evidence to its message's arguments: where
// the position occurred, or the N-move window and what broke it.
func evidenceArgs(args map[string]string, e arbiter.Evidence) {
	if len(e.Occurred) > 0 {
		at := make([]string, len(e.Occurred))
		for i, p := range e.Occurred {
			at[i] = p.String()
		}
		args["occurred"] = strings.Join(at, ", ")
		args["since"] = e.Since.String()
	}
	if w := e.Window; w != nil {
		args["window_rule"] = w.Rule
		args["window_first"] = w.First.String()
		args["window_counted"] = strconv.Itoa(w.Counted)
		args["window_needed"] = strconv.Itoa(w.Needed)
		if w.BrokenWhy != "" {
			args["window_broken"] = w.Broken.String()
			args["window_broken_why"] = w.BrokenWhy
		}
	}
	if e.Problem != "" {
		args["problem"] = e.Problem
	}
}
