// Package pairfile is the pairing engine as other programs call it, on an
// event held in a TRF file (match/schedule/swiss/trf): pair the next round
// (Next, WritePairs), check every recorded round against the engine
// (Check), generate random events to test engines against each other
// (Generate) and write the checklist a director audits (Checklist). It
// speaks the forms of bbpPairings and JaVaFo so that a program calling
// them can call this instead. cmd/arbiter's `pair` command is its user;
// any front end may import it.
package pairfile

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// ErrInput marks an event the engine cannot pair as given (no number of
// rounds, all rounds paired, a point system it does not support): the
// caller's input is at fault, not the engine.
var ErrInput = errors.New("pairfile: invalid input")

func inputf(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrInput, fmt.Sprintf(format, a...))
}

// SystemOf is the pairing system the file's type names: Burstein for
// FIDE_BURSTEIN and FIDE_BURSTEIN_BAKU (TRF-2026 record 192, the codes
// bbpPairings reads and writes) or a TRF16 type (092) that says
// Burstein, else Dutch.
func SystemOf(ev *trf.Event) swiss.System {
	if strings.HasPrefix(ev.System, "FIDE_BURSTEIN") || (ev.System == "" && strings.Contains(strings.ToLower(ev.Type), "burstein")) {
		return swiss.Burstein
	}
	return swiss.Dutch
}

// SetSystem makes the file's type (192) name sys, keeping its Baku
// acceleration (_BAKU): what a caller does when the command line names
// the system (arbiter pair --dutch or --burstein).
func SetSystem(ev *trf.Event, sys swiss.System) {
	code := "FIDE_DUTCH_2025"
	if sys == swiss.Burstein {
		code = "FIDE_BURSTEIN"
	}
	if strings.HasSuffix(ev.System, "_BAKU") {
		code += "_BAKU"
	}
	ev.System = code
}

// Options are the pairing options the file asks for round (1-based): the
// system (192, SystemOf), the number of rounds, the point system (XXS or 162) in the smallest unit
// that also counts the accelerations, the accelerations (XXA or 250;
// Baku by the 192 type when there are none), the initial colour (XXC or
// 152; else inferred from the file's first round with colours) and the prohibited pairings of
// that round (XXP, 260). unit is the scoring's unit in tenths of a point.
func Options(ev *trf.Event, round int) (opt swiss.Options, unit int, err error) {
	ps := trf.FIDEPoints
	if ev.PointSystem != nil {
		ps = *ev.PointSystem
	}
	if ps.ForfeitLoss != ps.Loss {
		return opt, 0, inputf("a forfeit loss scores %s and a loss %s: the engine scores them alike", tenths(ps.ForfeitLoss), tenths(ps.Loss))
	}
	var acc []int
	for _, p := range ev.Players {
		acc = append(acc, p.Acceleration...)
	}
	sc, unit := ps.ScoringWith(acc...)
	opt = swiss.Options{Rounds: ev.Rounds, Scoring: sc, FirstColor: ev.FirstColor, Baku: ev.Baku(), System: SystemOf(ev)}
	if opt.FirstColor == tally.NoColor {
		// From the whole file, not only the rounds before `round`: the
		// checker's round 1 has no history to infer it from.
		ps := make([]*tally.Player, len(ev.Players))
		for i := range ev.Players {
			ps[i] = &ev.Players[i].Player
		}
		sort.Slice(ps, func(i, j int) bool { return ps[i].Number < ps[j].Number })
		opt.FirstColor = swiss.InferFirstColor(ps)
	}
	for _, p := range ev.Players {
		if len(p.Acceleration) == 0 {
			continue
		}
		if opt.Acceleration == nil {
			opt.Acceleration = map[int][]int{}
		}
		a := make([]int, len(p.Acceleration))
		for i, v := range p.Acceleration {
			a[i] = v / unit
		}
		opt.Acceleration[p.Number] = a
	}
	for _, f := range ev.Forbidden {
		if f.In(round) {
			opt.Forbidden = append(opt.Forbidden, f.Players)
		}
	}
	return opt, unit, nil
}

// Next pairs the round after the last one the file records. Requested
// byes written ahead in that round's column (0000 - H, F, Z; or 240
// records) keep those players out. The file must give the number of
// rounds (XXR or 142), which the last round's rules need.
func Next(ev *trf.Event) (swiss.Round, error) {
	players, err := ev.PairingState()
	if err != nil {
		return swiss.Round{}, fmt.Errorf("%w: %v", ErrInput, err)
	}
	if len(players) == 0 {
		return swiss.Round{}, inputf("the file has no players (001 lines)")
	}
	round := len(players[0].History) + 1
	if ev.Rounds == 0 {
		return swiss.Round{}, inputf("the file does not say how many rounds the event has: add a line \"XXR n\" (or \"142 n\")")
	}
	if round > ev.Rounds {
		return swiss.Round{}, inputf("all %d rounds are paired already: nothing to pair (to pair one more, raise the number of rounds: \"XXR %d\", or \"142 %d\")",
			ev.Rounds, ev.Rounds+1, ev.Rounds+1)
	}
	opt, _, err := Options(ev, round)
	if err != nil {
		return swiss.Round{}, err
	}
	return swiss.Pair(players, opt)
}

// WritePairs writes a round as bbpPairings and JaVaFo do: the number of
// pairs, then one pair a line, White first, in board order, and the
// player given the PAB as "N 0".
func WritePairs(w io.Writer, r swiss.Round) error {
	n := len(r.Boards)
	if r.Bye != 0 {
		n++
	}
	if _, err := fmt.Fprintf(w, "%d\n", n); err != nil {
		return err
	}
	for _, b := range r.Boards {
		if _, err := fmt.Fprintf(w, "%d %d\n", b.White, b.Black); err != nil {
			return err
		}
	}
	if r.Bye != 0 {
		if _, err := fmt.Fprintf(w, "%d 0\n", r.Bye); err != nil {
			return err
		}
	}
	return nil
}

// tookPart reports whether a round's entry was paired or given the PAB
// ("0000 - +", a forfeit win without opponent, is older files' PAB).
func tookPart(e tally.Entry) bool {
	return e.Opponent != 0 || isPAB(e)
}

func isPAB(e tally.Entry) bool {
	return e.Opponent == 0 && (e.Result == tally.PairingBye || e.Result == tally.ForfeitWin)
}

// stateBefore is the players as they were when round r (1-based) was
// paired: the history of the earlier rounds; absent who were not paired
// in round r.
func stateBefore(all []tally.Player, r int) []tally.Player {
	out := make([]tally.Player, len(all))
	for i, p := range all {
		q := p
		q.History = p.History[:r-1]
		q.Absent = !tookPart(p.History[r-1])
		out[i] = q
	}
	return out
}

// recorded is the pairing of round r as the file records it; a board
// whose colours the file does not give (a forfeit written "-") has its
// lower number first and unknown set.
func recorded(all []tally.Player, r int) (rd swiss.Round, unknown map[swiss.Board]bool) {
	unknown = map[swiss.Board]bool{}
	for _, p := range all {
		e := p.History[r-1]
		switch {
		case isPAB(e):
			rd.Bye = p.Number
		case e.Opponent == 0:
		case e.Color == tally.White:
			rd.Boards = append(rd.Boards, swiss.Board{White: p.Number, Black: e.Opponent})
		case e.Color == tally.NoColor && p.Number < e.Opponent:
			b := swiss.Board{White: p.Number, Black: e.Opponent}
			rd.Boards = append(rd.Boards, b)
			unknown[b] = true
		}
	}
	return rd, unknown
}

func tenths(v int) string { return fmt.Sprintf("%d.%d", v/10, v%10) }

// sortBoards orders boards by White then Black, for comparing rounds as sets.
func sortBoards(bs []swiss.Board) []swiss.Board {
	out := append([]swiss.Board(nil), bs...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].White != out[j].White {
			return out[i].White < out[j].White
		}
		return out[i].Black < out[j].Black
	})
	return out
}
