package tournament

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/reports"
)

// swissState is what a Swiss event's rounds need beyond the runner's
// plan: the finished games, from which the players' histories (and so the
// next pairing) are rebuilt, and the byes given.
type swissState struct {
	plan  *schedule.SwissPlan
	games map[int]reports.Game // finished, in this run or before, by index; guarded by runner.mu
	byes  []int                // round -> engine index of its bye (-1: none)
}

// list is the finished games in plan order: the first of an encounter
// gives its colours (see reports.SwissHistories), whatever order the games
// finished in.
func (s *swissState) list() []reports.Game {
	ids := make([]int, 0, len(s.games))
	for id := range s.games {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]reports.Game, len(ids))
	for i, id := range ids {
		out[i] = s.games[id]
	}
	return out
}

// defaultPair is the pairing of a Swiss event when Options.Pair is nil.
var defaultPair swiss.Pairer = swiss.Pair

// runSwiss plays a Swiss event round by round: it pairs round r from the
// results of rounds 1..r-1 (pair), adds its games to the plan (their
// indices are fixed by the round and board, see schedule.SwissPlan), plays
// those not stored yet, and goes on to the next round once every game of
// this one is in. The pairing is a function of the results, so a resumed
// event pairs its rounds again as they were and finds their stored games
// at their places; a stored game that the pairing does not give (another
// pairing program, a changed field) stops the event with an error.
func (r *runner) runSwiss(ctx context.Context, sw *schedule.SwissPlan, stored map[int]store.Game, drained func() bool) error {
	pair := r.opt.Pair
	if pair == nil {
		pair = defaultPair
	}
	opt := swiss.Options{Rounds: sw.Rounds()}
	if r.ev.Swiss != nil {
		opt.System, opt.Baku = r.ev.Swiss.System, r.ev.Swiss.Baku
	}
	n := len(r.names)
	r.mu.Lock()
	r.swiss = &swissState{plan: sw, games: map[int]reports.Game{}}
	r.mu.Unlock()
	for round := 1; round <= sw.Rounds(); round++ {
		if ctx.Err() != nil || drained() {
			return nil
		}
		r.mu.Lock()
		players, complete, err := reports.SwissHistories(r.names, r.swiss.list(), sw.GamesPerEncounter())
		r.mu.Unlock()
		if err != nil {
			return fmt.Errorf("tournament: %w", err)
		}
		if complete != round-1 {
			return fmt.Errorf("tournament: round %d: the rounds before it are not complete (%d are)", round, complete)
		}
		pr, err := pair(players, opt)
		if err != nil {
			if errors.Is(err, swiss.ErrNoPairing) {
				return fmt.Errorf("tournament: round %d of %d: %w (fewer rounds, or a round-robin, suit %d engines)", round, sw.Rounds(), err, n)
			}
			return fmt.Errorf("tournament: pairing round %d: %w", round, err)
		}
		if err := checkRound(pr, n, sw.Boards()); err != nil {
			return fmt.Errorf("tournament: pairing round %d: %w", round, err)
		}
		var games []schedule.Pairing
		for b, bd := range pr.Boards {
			games = append(games, sw.Encounter(round, b+1, bd.White-1, bd.Black-1)...)
		}
		toPlay := games[:0:0]
		r.mu.Lock()
		if len(games) > 0 && games[0].Index != len(r.plan) {
			r.mu.Unlock()
			return fmt.Errorf("tournament: round %d starts at game %d, after %d planned (a bug)", round, games[0].Index+1, len(r.plan))
		}
		for _, p := range games {
			g, ok := stored[p.Index]
			if !ok {
				toPlay = append(toPlay, p)
				continue
			}
			if g.White != p.White || g.Black != p.Black || g.Round != p.Round || g.Board != p.Board {
				r.mu.Unlock()
				return fmt.Errorf("tournament: %s: game %d (round %d, board %d) is %s-%s, but round %d is paired %s-%s there "+
					"(the pairing changed since it was played: another version of the arbiter?); use another output directory",
					r.st.Path(), g.ID+1, g.Round, g.Board, r.names[g.White], r.names[g.Black], round, r.names[p.White], r.names[p.Black])
			}
			res := Result{Pairing: p, WhiteName: r.names[g.White], BlackName: r.names[g.Black], Result: g.Result,
				Termination: g.Termination, Reason: g.Reason, Plies: g.Plies, Opening: g.Opening, Resumed: true}
			r.pending[p.Index] = res
			r.swiss.games[p.Index] = reportsGame(res)
		}
		r.plan = append(r.plan, games...)
		r.swiss.byes = append(r.swiss.byes, pr.Bye-1)
		r.log.Debug().Int("round", round).Int("boards", len(pr.Boards)).Int("bye", pr.Bye).Int("to_play", len(toPlay)).Msg("Swiss round paired")
		r.handIn(false) // releases r.mu
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(max(1, r.exec.Slots()))
		for _, p := range toPlay {
			if gctx.Err() != nil || drained() {
				break
			}
			g.Go(func() error {
				if drained() {
					return nil
				}
				return r.playRecovered(gctx, p)
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
		r.mu.Lock()
		players, complete, err = reports.SwissHistories(r.names, r.swiss.list(), sw.GamesPerEncounter())
		if err == nil && complete == round {
			r.swissTable, err = reports.SwissTable(r.names, players, reports.ScoringFor(r.ev.Variant.Name()), sw.Rounds(), r.tieBreaks())
		}
		r.mu.Unlock()
		if err != nil {
			return fmt.Errorf("tournament: %w", err)
		}
		if complete < round {
			return nil // stopped (drained, cancelled) in the round
		}
		r.log.Info().Int("round", round).Int("of", sw.Rounds()).Msg("Swiss round complete")
	}
	return nil
}

// tieBreaks are the event's Swiss tie-breaks.
func (r *runner) tieBreaks() []string {
	if r.ev.Swiss == nil {
		return nil
	}
	return r.ev.Swiss.TieBreaks
}

// checkRound checks a pairing of n players on boards boards: every player
// once, on a board or as the bye.
func checkRound(pr swiss.Round, n, boards int) error {
	if len(pr.Boards) != boards {
		return fmt.Errorf("%d boards for %d players; want %d", len(pr.Boards), n, boards)
	}
	seen := make([]bool, n+1)
	take := func(p int) error {
		if p < 1 || p > n {
			return fmt.Errorf("pairing number %d of %d players", p, n)
		}
		if seen[p] {
			return fmt.Errorf("player %d paired twice", p)
		}
		seen[p] = true
		return nil
	}
	for _, b := range pr.Boards {
		if err := take(b.White); err != nil {
			return err
		}
		if err := take(b.Black); err != nil {
			return err
		}
	}
	if n%2 == 1 {
		return take(pr.Bye)
	}
	if pr.Bye != 0 {
		return fmt.Errorf("a bye (player %d) in an even field", pr.Bye)
	}
	return nil
}

// snapshot is the standings; a Swiss event's are in the order of its
// Swiss standings, with them. r.mu is held.
func (r *runner) snapshot() Standings {
	st := r.standings.snapshot().scored(reports.ScoringFor(r.ev.Variant.Name()))
	if r.swissTable == nil {
		return st
	}
	byName := make(map[string]Standing, len(st))
	for _, s := range st {
		byName[s.Engine] = s
	}
	out := make(Standings, 0, len(st))
	for i := range r.swissTable.Rows {
		row := &r.swissTable.Rows[i]
		s := byName[row.Name]
		s.Rank, s.Swiss, s.SwissTieBreaks = row.Rank, row, r.swissTable.Acronyms
		out = append(out, s)
	}
	return out
}
