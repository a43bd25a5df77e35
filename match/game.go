package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// GameRecord is a finished game: the referee's record, the PDN game built
// from it, and what the players said and how long things took.
type GameRecord struct {
	arbiter.Record
	White, Black string
	// Game is the PDN record (tags Event, Site, Date, Round, White, Black,
	// Result, GameType (or Variant when the rules have no game type), FEN
	// when not the initial position, TimeControl, Termination, PlyCount).
	// Callers may change tags before PDN.
	Game *pdn.Game
	// Info is, per accepted move, the engine's last search information line.
	Info []string
	// Wait is, per accepted move, the wall time of the player's Play call;
	// Latency the part of it between the request written and the reply read
	// (engine thinking plus transport; see Reply.Latency).
	Wait, Latency []time.Duration
	// InfoAt is, per accepted move, when the engine's last info line was
	// read (see Reply.InfoAt; 0 without one).
	InfoAt []time.Duration
	// Overhead is the arbiter's own time during the game: the total wall time
	// minus the time spent waiting for the players.
	Overhead time.Duration
	// Started and Finished bound the game.
	Started, Finished time.Time
}

// PDN writes the game as PDN text.
func (g *GameRecord) PDN() (string, error) {
	var b strings.Builder
	if err := pdn.Write(&b, g.Game); err != nil {
		return "", fmt.Errorf("match: writing PDN: %w", err)
	}
	return b.String(), nil
}

// Options tune PlayGameOptions; the zero value gives the defaults shown.
type Options struct {
	// Slack is how long past the referee's deadline a player may still
	// answer (its answer to "stop" or "ping"); the referee judges the time
	// of whatever arrives (2s).
	Slack time.Duration
	// EndTimeout bounds the end-of-game exchange (DXP GAMEEND) (5s).
	EndTimeout time.Duration
	// Judge, when set, is told of every accepted move that did not end
	// the game: the mover, the position after the move and the mover's
	// engine's last info line. When it answers
	// ok the game ends there by the arbiter's decision (Referee.Adjudicate)
	// with its outcome and reason (see match/engines/adjudicate). A move the rules
	// end the game with is never shown to it.
	Judge func(c rules.Color, pos rules.Position, info string) (o rules.Outcome, reason string, ok bool)
	// OnMove, when set, is told of every accepted move as it is played, the
	// game's last move included (a live view follows the game with it). It
	// runs in the game's goroutine between the reply and the next request,
	// so it must return at once.
	OnMove func(Moved)
	// NoPDN leaves GameRecord.Game nil, for a caller that makes the game's
	// PDN itself from the Record (the tournament runner, with its
	// annotations): made here too, it was made twice, some 2% of a fast
	// match's CPU.
	NoPDN bool
}

// Moved is an accepted move as Options.OnMove is told of it.
type Moved struct {
	Ply  int                // 1-based
	Move arbiter.MoveRecord // as the referee recorded it: text, time used, clock after
	Info string             // the mover's engine's last info line ("" when none)
	// Clocks are both sides' time left after the move (0 untimed).
	Clocks [2]time.Duration
}

// PlayGame referees one game between two players and returns the finished
// record. Engine faults end the game through the referee (crash, stall,
// time forfeit, illegal-move policy); an error is returned only when the
// game could not be played at all (bad config, an engine that cannot be
// started) or ctx was cancelled, together with the record so far.
func PlayGame(ctx context.Context, cfg arbiter.Config, white, black Player, log zerolog.Logger) (*GameRecord, error) {
	return PlayGameOptions(ctx, cfg, white, black, log, Options{})
}

// PlayGameOptions is PlayGame with Options.
func PlayGameOptions(ctx context.Context, cfg arbiter.Config, white, black Player, log zerolog.Logger, opts Options) (*GameRecord, error) {
	if opts.Slack <= 0 {
		opts.Slack = 2 * time.Second
	}
	if opts.EndTimeout <= 0 {
		opts.EndTimeout = 5 * time.Second
	}
	ref, err := arbiter.NewReferee(cfg)
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	players := [2]Player{white, black}
	g := &GameRecord{White: white.Name(), Black: black.Name(), Started: time.Now()}
	start := ref.Position()
	var waited time.Duration

	// The side to move starts last: a DXP engine that moves first begins
	// thinking when it accepts the game, before the referee's clock runs.
	for _, c := range []rules.Color{start.Turn().Opponent(), start.Turn()} {
		if ref.Done() {
			break
		}
		t0 := time.Now()
		err := StartGame(ctx, players[c], cfg.Variant, start, cfg.TimeControl[c], c)
		waited += time.Since(t0)
		if err != nil {
			if f, ok := AsFault(err); ok {
				log.Warn().Str("side", c.String()).Err(err).Msg("engine failed to start the game")
				forfeit(ref, c, f)
				break
			}
			return g.finish(ref, waited, opts.NoPDN), fmt.Errorf("match: %s (%s): %w", players[c].Name(), c, err)
		}
	}
	// The names may be known only now (Hub "id name=").
	g.White, g.Black = white.Name(), black.Name()

	moves := make([]rules.Move, 0, 128)
	retry := false
	for !ref.Done() {
		c := ref.Turn()
		ref.StartThinking()
		req := Request{
			Start:    start,
			Moves:    moves,
			Position: ref.Position(),
			Level:    levelFor(ref, c, cfg.TimeControl[c], ownMoves(start, c, len(moves))),
			Deadline: ref.Deadline(),
			Retry:    retry,
		}
		pctx, cancel := ctx, context.CancelFunc(noCancel)
		if !req.Deadline.IsZero() {
			req.Limit = req.Deadline.Add(opts.Slack)
			if !enforcesLimit(players[c]) {
				pctx, cancel = context.WithDeadline(ctx, req.Limit)
			}
		}
		t0 := time.Now()
		reply, err := players[c].Play(pctx, req)
		wait := time.Since(t0)
		waited += wait
		cancel()
		var v arbiter.Verdict
		switch {
		case err != nil:
			f, ok := AsFault(err)
			if !ok {
				if ctx.Err() != nil {
					return g.finish(ref, waited, opts.NoPDN), fmt.Errorf("match: game interrupted: %w", err)
				}
				// A player error that is not a fault (a bug or an I/O failure
				// of our own) still ends the game; the engine is blamed.
				f = &Fault{Kind: Crash, Reason: err.Error(), Err: err}
			}
			log.Info().Str("side", c.String()).Str("fault", f.Kind.String()).Str("reason", f.Reason).Str("text", f.Text).Msg("engine fault")
			if m, ok := plainAttempt(ref.Position(), f); ok {
				// A move on the board: the referee explains it as it does a
				// person's ("a man moves forward only (FMJD rules, art.
				// 3.4)"), where the reason said only "not a legal move".
				v = ref.Submit(m)
			} else if f.Kind == Illegal {
				why := f.Reason
				if f.Err != nil {
					why += ": " + f.Err.Error()
				}
				text := f.Text
				if text == "" {
					text = "(nothing)"
				}
				v = ref.SubmitIllegal(text, why)
			} else {
				forfeit(ref, c, f)
				v = arbiter.GameOver
			}
		case reply.Resign:
			why := c.String() + " resigned"
			if reply.Text != "" {
				why += " (" + reply.Text + ")"
			}
			ref.Forfeit(c, arbiter.Resignation, why)
			v = arbiter.GameOver
		case reply.ClaimDraw:
			v = claimDraw(ref, c)
		case reply.ClaimWin:
			// It is the claimant's turn, so the rules have not ended the game
			// in its favour; an engine that stops playing has left it.
			ref.Forfeit(c, arbiter.Resignation, c.String()+" left the game claiming a win that the rules do not give (the game was not over)")
			v = arbiter.GameOver
		default:
			if reply.Checked {
				v = ref.SubmitChecked(reply.Move, reply.Legal)
			} else {
				v = ref.Submit(reply.Move)
			}
			if v == arbiter.Accepted || (v == arbiter.GameOver && len(ref.Record().Moves) > len(moves)) {
				moves = append(moves, reply.Move)
				g.Wait = append(g.Wait, wait)
				g.Latency = append(g.Latency, reply.Latency)
				g.InfoAt = append(g.InfoAt, reply.InfoAt)
				info := ""
				if n := len(reply.Info); n > 0 {
					info = reply.Info[n-1]
				}
				g.Info = append(g.Info, info)
				if opts.OnMove != nil {
					onMove(ref, info, opts.OnMove)
				}
				if v == arbiter.Accepted && opts.Judge != nil {
					if o, why, ok := opts.Judge(c, ref.Position(), info); ok {
						if err := ref.Adjudicate(o, why); err == nil {
							v = arbiter.GameOver
						}
					}
				}
			}
		}
		if v == arbiter.AwaitDecision {
			// Engines cannot choose: an illegal move is always corrected.
			v, _ = ref.Decide(true)
		}
		retry = v == arbiter.Retry
	}
	res := ref.Result()
	log.Info().Str("result", res.PDN(cfg.Variant)).Str("termination", string(res.Termination)).Str("reason", res.Reason).Int("plies", len(moves)).Msg("game over")
	for _, c := range []rules.Color{rules.White, rules.Black} {
		if ge, ok := players[c].(GameEnder); ok {
			ectx, cancel := context.WithTimeout(ctx, opts.EndTimeout)
			t0 := time.Now()
			if err := ge.EndGame(ectx, res, c); err != nil {
				log.Warn().Str("side", c.String()).Err(err).Msg("end of game exchange failed")
			}
			waited += time.Since(t0)
			cancel()
		}
	}
	return g.finish(ref, waited, opts.NoPDN), nil
}

// onMove tells fn of the move the referee accepted last, copying only that
// move of the record (no slice of it).
func onMove(ref *arbiter.Referee, info string, fn func(Moved)) {
	n := ref.Ply()
	m, ok := ref.MoveAt(n - 1)
	if !ok {
		return
	}
	fn(Moved{Ply: n, Move: m, Info: info, Clocks: [2]time.Duration{ref.Remaining(rules.White), ref.Remaining(rules.Black)}})
}

// forfeit ends the game for a crash, stall, timeout or exceeded limit of
// side c.
func forfeit(ref *arbiter.Referee, c rules.Color, f *Fault) {
	reason := f.Reason
	// A deadline or an end of file adds nothing to a reason that says
	// "no move in time" or "closed its output".
	if f.Err != nil && !errors.Is(f.Err, context.DeadlineExceeded) && !errors.Is(f.Err, io.EOF) {
		reason += ": " + f.Err.Error()
	}
	switch f.Kind {
	case Crash:
		ref.Forfeit(c, arbiter.EngineCrashed, c.Name()+"'s engine crashed: "+reason)
	case Stall:
		ref.Forfeit(c, arbiter.EngineStalled, c.Name()+"'s engine stalled: "+reason)
	case Timeout:
		ref.Forfeit(c, arbiter.TimeForfeit, c.Name()+" gave no move in time: "+reason)
	case Limit:
		ref.Forfeit(c, arbiter.EngineFault, c.Name()+"'s engine was stopped by the arbiter: "+reason)
	default:
		ref.SubmitIllegal(f.Text, reason)
	}
}

// claimDraw handles an engine that ends the game claiming a draw (DXP
// GAMEEND "draw"): the claim is tried under each draw rule of the variant
// (arbiter.DrawKinds); when none holds, the engine has left a game the
// rules do not end, which counts as a resignation.
func claimDraw(ref *arbiter.Referee, c rules.Color) arbiter.Verdict {
	kinds := arbiter.DrawKinds(ref.Position().Variant())
	var why []string
	for _, k := range kinds {
		err := ref.Claim(c, k)
		if err == nil || ref.Done() {
			return arbiter.GameOver
		}
		why = append(why, err.Error())
	}
	ref.Forfeit(c, arbiter.Resignation, c.Name()+" left the game claiming a draw that the rules do not give: "+strings.Join(why, "; "))
	return arbiter.GameOver
}

// levelFor derives the protocol level of side c, which has made made moves,
// from the referee's clock.
func levelFor(ref *arbiter.Referee, c rules.Color, tc arbiter.TimeControl, made int) Level {
	lv := Level{Depth: tc.Depth, Nodes: tc.Nodes}
	switch {
	case tc.PerMove > 0:
		lv.MoveTime = tc.PerMove
	case len(tc.Periods) > 0:
		// Level.Time 0 means no clock (level infinite): an empty clock is
		// stated as 1 ms, which is what a move may still take before the margin.
		lv.Time = max(ref.Remaining(c)+tc.Delay, time.Millisecond)
		lv.MovesToGo = ref.MovesToGo(c)
		lv.Inc = tc.Periods[periodIndex(tc, made)].Increment
	}
	return lv
}

// ownMoves is the number of moves c, the side to move, has made after plies
// moves from start.
func ownMoves(start rules.Position, c rules.Color, plies int) int {
	if start.Turn() == c {
		return plies / 2
	}
	return (plies + 1) / 2
}

// periodIndex is the period in which a side's next move falls after made
// moves (the last period repeats when it has a move count).
func periodIndex(tc arbiter.TimeControl, made int) int {
	for i, p := range tc.Periods {
		if p.Moves == 0 || made < p.Moves {
			return i
		}
		if i == len(tc.Periods)-1 {
			return i
		}
		made -= p.Moves
	}
	return 0
}

// finish builds the record and the PDN game.
func (g *GameRecord) finish(ref *arbiter.Referee, waited time.Duration, noPDN bool) *GameRecord {
	g.Finished = time.Now()
	g.Overhead = g.Finished.Sub(g.Started) - waited
	g.Record = ref.Record()
	if !noPDN {
		g.Game = g.Record.PDN(g.PDNTags())
	}
	return g
}

// PDNTags are the tags of the game's PDN (GameRecord.Game): the players'
// names and the date it started.
func (g *GameRecord) PDNTags() arbiter.PDNTags {
	return arbiter.PDNTags{White: g.White, Black: g.Black, Date: g.Started}
}

// noCancel is the cancel of a ctx passed on unchanged.
func noCancel() {}

// plainAttempt reads an engine's illegal move that is a plain move on the
// board, two squares joined by "-" ("21-17"), as the move it names there.
// A capture's text is left to SubmitIllegal: Hub writes the captured
// squares after the landing one, not the path the referee explains.
func plainAttempt(p rules.Position, f *Fault) (rules.Move, bool) {
	if f.Kind != Illegal {
		return rules.Move{}, false
	}
	a, b, ok := strings.Cut(strings.TrimSpace(f.Text), "-")
	if !ok || strings.ContainsAny(a+b, "-x: ") {
		return rules.Move{}, false
	}
	v := p.Variant()
	from, err1 := v.ParseSquare(a)
	to, err2 := v.ParseSquare(b)
	if err1 != nil || err2 != nil {
		return rules.Move{}, false
	}
	m := p.BoardMove([]rules.Square{from, to})
	if arbiter.Explain(p, m).Code == arbiter.CodeLegal {
		return rules.Move{}, false // legal after all: keep the engine's fault as it was found
	}
	return m, true
}
