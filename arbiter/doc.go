// Package arbiter is the referee of one game of draughts.
//
// A Referee owns the position, both clocks, the record and the policies of
// a single game. It knows nothing of engine processes, sockets or HTML: the
// match package (engines) and, later, a human front end drive it the same
// way:
//
//	ref, err := arbiter.NewReferee(cfg)
//	for !ref.Done() {
//		ref.StartThinking()          // the side to move's clock runs
//		m := ask(ref.Position(), ref.Deadline())
//		switch ref.Submit(m) {      // checks time first, then legality
//		case arbiter.Retry:         // WCDF warning: ask the same side again
//		case arbiter.AwaitDecision: // opponent-decides: call Decide
//		}
//	}
//	rec := ref.Record()
//
// Draw rules are small tracker values fed each move (see draws.go): threefold
// repetition, the N-move rule (WCDF 40-move, FMJD 25-move and the other
// presets' rules), the FMJD 16- and 5-move endgame rules and an optional
// max-moves adjudication.
//
// A Referee is used by one game goroutine and is NOT safe for concurrent
// use; callers that share one must lock around it.
package arbiter
