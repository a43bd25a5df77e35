// Package arbiter is the referee of one game of draughts.
//
// A Referee owns the position, both clocks, the record and the policies of
// a single game. It knows nothing of engine processes, sockets or HTML: the
// match package (engines) and, later, a human front end drive it the same
// way:
//
//	ref, err := arbiter.NewReferee(cfg)
//	for !ref.Done() {
//		ref.StartThinking()               // the side to move's clock runs
//		m, ok := ask(ref.Position(), ref.Deadline())
//		if !ok {                          // no answer by the deadline
//			ref.CheckTime()               // the flag falls (or Forfeit: stalled)
//			continue
//		}
//		switch ref.Submit(m) {           // checks time first, then legality
//		case arbiter.Retry:              // WCDF warning: ask the same side again
//		case arbiter.AwaitDecision:      // opponent-decides: ask, then Decide
//		}
//	}
//	rec := ref.Record()
//
// Time is measured with a Clock (Go's monotonic clock by default, a fake
// one in tests) from StartThinking to Submit. Config.Margin is one
// allowance per side for the whole game: each move's time past its limit
// uses part of it, and a flag falls exactly when a move's overspend passes
// what is left (a clock never shows less than zero); see TimeControl for
// the clock rules and ParseTimeControl for the syntax.
//
// Illegal moves follow Config.Policy (wcdf, strict, opponent-decides). An
// illegal move that the opponent lets stand under opponent-decides must be
// a move on the board: a rules.Move whose From holds a piece of the side to
// move and whose To is empty (Captured, if any, only opposing pieces); it
// is applied with Position.Play and recorded with MoveRecord.Illegal.
//
// Draw rules are small tracker values fed each move (see draws.go): threefold
// repetition, the N-move rule (WCDF 40-move, FMJD 25-move and the other
// presets' rules), the FMJD 16- and 5-move endgame rules and an optional
// max-moves adjudication. Variants whose threefold repetition is automatic
// (Variant.Draws().ThreefoldAutomatic, FMJD style) have all their draw rules
// declared by the referee; the others (WCDF style) are claimed, by the
// players (Claim, ClaimWithMove) or, with Config.AutoClaim, by the referee
// on their behalf as soon as a claim is valid.
//
// What the referee says is meant for players as well as engines: an
// illegal move's Warning carries an Explanation (Explain: a message code
// such as illegal.capture-compulsory, its arguments and English text;
// Codes lists them for translations; for the international and English
// presets also the article of the FMJD or WCDF rulebook the rule stands
// in, ArticleFor), and every claim an Evidence (where
// the position occurred, or the N-move window and what broke it; for the
// same presets also the article of the draw rule, DrawArticle, which the
// claim's reason and an automatic draw's cite: Evidence.Cited).
// Record.PDN writes the game with all of it as comments, and AuditClaims
// (`arbiter check --claims`) judges the claims and draws of any PDN
// record against its moves.
//
// A Referee is used by one game goroutine and is NOT safe for concurrent
// use; callers that share one must lock around it.
//
// Anyone may import it (the game, both wings, the reports); it imports the
// rules and the coded messages (internal/message), never match or HTTP.
package arbiter
