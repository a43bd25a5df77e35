// Package adjudicate ends engine games by the engines' own evaluations, as
// cutechess-cli's -resign and -draw do: a game in which one side has said
// for several moves that it is lost (and, two-sided, its opponent that it
// is winning) is adjudicated a loss for it; a game past a move number in
// which both sides have said for several moves that it is level is
// adjudicated a draw. The scores are those of the engines' Hub "info"
// lines (hub.ParseSearchInfo), in men, each from the mover's side.
//
// It also ends a game whose position an endgame database holds
// (rules/egdb) with the database's value, the truth of the position under
// perfect play: EGDB, adjudication.egdb.
//
// It never overrides the rules: a Judge is asked only after a move that did
// not end the game, and it is off unless configured
// (adjudication.resign, adjudication.draw, adjudication.egdb).
//
// Imported by configs and the engines' runner; it imports only the rules
// (rules, rules/egdb).
package adjudicate

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
)

// Resign adjudicates a loss: the side whose score was at most -Score for
// MoveCount moves in a row loses; TwoSided also needs its opponent's score
// at least +Score over its own last MoveCount moves.
type Resign struct {
	MoveCount int
	Score     float64
	TwoSided  bool
}

// Draw adjudicates a draw once MoveNumber full moves are played and both
// sides' scores were within Score of zero over their last MoveCount moves.
type Draw struct {
	MoveNumber int
	MoveCount  int
	Score      float64
}

// EGDB adjudicates by an endgame database: a game that reaches a position
// the database holds ends with its value, for the results asked.
type EGDB struct {
	DB      Tablebase
	Results EGDBResults
}

// Tablebase is what the adjudication asks of an endgame database
// (*egdb.DB): the value of a position for the side to move, Unknown when it
// has more pieces than the database holds.
type Tablebase interface {
	Probe(rules.Position) (egdb.Value, error)
}

// EGDBResults says which of a database's values end a game.
type EGDBResults string

// The results of EGDB.
const (
	EGDBAll   EGDBResults = "all"   // wins and draws
	EGDBWins  EGDBResults = "wins"  // wins only: a drawn position is played on
	EGDBDraws EGDBResults = "draws" // draws only: a won position is played on
)

// Rules are an event's adjudication rules; nil fields are off.
type Rules struct {
	Resign *Resign
	Draw   *Draw
	EGDB   *EGDB
}

// Off reports whether no rule is on.
func (r Rules) Off() bool { return r.Resign == nil && r.Draw == nil && r.EGDB == nil }

// Check says what is wrong with the rules' values, naming the key.
func (r Rules) Check() error {
	var errs []error
	if s := r.Resign; s != nil {
		if s.MoveCount < 1 || s.MoveCount > 10000 {
			errs = append(errs, fmt.Errorf("resign.movecount: %d; want 1 to 10000 moves", s.MoveCount))
		}
		if !(s.Score > 0) || s.Score > 1000 {
			errs = append(errs, fmt.Errorf("resign.score: %v; want a score above 0 (in men, e.g. 3.5)", s.Score))
		}
	}
	if d := r.Draw; d != nil {
		if d.MoveCount < 1 || d.MoveCount > 10000 {
			errs = append(errs, fmt.Errorf("draw.movecount: %d; want 1 to 10000 moves", d.MoveCount))
		}
		if d.MoveNumber < 0 || d.MoveNumber > 100000 {
			errs = append(errs, fmt.Errorf("draw.movenumber: %d; want 0 or more", d.MoveNumber))
		}
		if !(d.Score >= 0) || d.Score > 1000 {
			errs = append(errs, fmt.Errorf("draw.score: %v; want 0 or more (in men, e.g. 0.1)", d.Score))
		}
	}
	if e := r.EGDB; e != nil {
		switch e.Results {
		case EGDBAll, EGDBWins, EGDBDraws:
		default:
			errs = append(errs, fmt.Errorf("egdb.results: %q; want all, wins or draws", e.Results))
		}
	}
	return errors.Join(errs...)
}

// Judge follows one game. The zero Rules give a judge that never rules.
type Judge struct {
	rules  Rules
	scores [2][]float64 // per side, the scores of its moves in a row that had one
	moves  int          // full moves completed, as counted by Move
	first  rules.Color  // the side that moved first in the game
	seen   bool
}

// NewJudge starts a game's judge.
func (r Rules) NewJudge() *Judge { return &Judge{rules: r} }

// window is how many scores a side keeps: enough for every rule.
func (j *Judge) window() int {
	n := 0
	if j.rules.Resign != nil {
		n = j.rules.Resign.MoveCount
	}
	if j.rules.Draw != nil {
		n = max(n, j.rules.Draw.MoveCount)
	}
	return n
}

// Move tells the judge of a move by side c, which led to pos, whose engine
// gave score (in men, from its side; has is false when it gave none), and
// which did not end the game. It answers whether the game is to end now,
// with the outcome and the reason, the evidence included: the database's
// value, or the scores of the last moves.
func (j *Judge) Move(c rules.Color, pos rules.Position, score float64, has bool) (rules.Outcome, string, bool) {
	if j.rules.Off() {
		return rules.Ongoing, "", false
	}
	if o, why, ok := j.rules.EGDB.judge(pos); ok {
		return o, why, true
	}
	if !j.seen {
		j.first, j.seen = c, true
	}
	if c != j.first {
		j.moves++ // the second side's move completes a full move
	}
	if !has {
		j.scores[c] = j.scores[c][:0] // a move without a score breaks the run
	} else {
		s := append(j.scores[c], score)
		if n := j.window(); len(s) > n {
			s = s[len(s)-n:]
		}
		j.scores[c] = s
	}
	if r := j.rules.Resign; r != nil {
		lost := func(s float64) bool { return s <= -r.Score }
		won := func(s float64) bool { return s >= r.Score }
		own, op := j.last(c, r.MoveCount), j.last(c.Opponent(), r.MoveCount)
		if own != nil && all(own, lost) && (!r.TwoSided || op != nil && all(op, won)) {
			return rules.WinFor(c.Opponent()), j.resignReason(c, own, op), true
		}
		// Two-sided, the side that just moved may be the winner that
		// completes the agreement.
		if r.TwoSided && own != nil && all(own, won) && op != nil && all(op, lost) {
			return rules.WinFor(c), j.resignReason(c.Opponent(), op, own), true
		}
	}
	if d := j.rules.Draw; d != nil && j.moves >= d.MoveNumber {
		a, b := j.last(c, d.MoveCount), j.last(c.Opponent(), d.MoveCount)
		level := func(s float64) bool { return math.Abs(s) <= d.Score }
		if a != nil && b != nil && all(a, level) && all(b, level) {
			w, bl := a, b
			if c == rules.Black {
				w, bl = b, a
			}
			return rules.Draw, fmt.Sprintf("adjudicated a draw by engine evaluation after %d moves: both sides' scores within %s of 0 over their last %d moves (White %s; Black %s)",
				j.moves, men(d.Score), d.MoveCount, list(w), list(bl)), true
		}
	}
	return rules.Ongoing, "", false
}

func (j *Judge) resignReason(loser rules.Color, own, other []float64) string {
	r := j.rules.Resign
	s := fmt.Sprintf("adjudicated by engine evaluation: %s's score was %s or worse over its last %d moves (%s)",
		loser.Name(), men(-r.Score), r.MoveCount, list(own))
	if r.TwoSided {
		s += fmt.Sprintf(", and %s's %s or better (%s)", loser.Opponent().Name(), men(r.Score), list(other))
	}
	return s
}

// last is side c's last n scores, nil if it has fewer in a row.
func (j *Judge) last(c rules.Color, n int) []float64 {
	s := j.scores[c]
	if len(s) < n {
		return nil
	}
	return s[len(s)-n:]
}

func all(s []float64, ok func(float64) bool) bool {
	for _, v := range s {
		if !ok(v) {
			return false
		}
	}
	return true
}

// men writes a score bound in men: 3.50.
func men(s float64) string { return strconv.FormatFloat(s, 'f', 2, 64) }

func list(s []float64) string {
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = fmt.Sprintf("%+.2f", v)
	}
	return strings.Join(parts, ", ")
}

// judge is the database's verdict on pos, when it holds pos and its value
// is one of the results asked. A database that cannot be read is no
// verdict: the game goes on under the rules (the event checked the tables
// when it started).
func (e *EGDB) judge(pos rules.Position) (rules.Outcome, string, bool) {
	if e == nil || e.DB == nil {
		return rules.Ongoing, "", false
	}
	v, err := e.DB.Probe(pos)
	if err != nil || v == egdb.Unknown || v == egdb.Draw && e.Results == EGDBWins || v != egdb.Draw && e.Results == EGDBDraws {
		return rules.Ongoing, "", false
	}
	o := v.Outcome(pos.Turn())
	n := egdb.MaterialOf(pos).Pieces()
	if o == rules.Draw {
		return o, fmt.Sprintf("%s: a draw (%d pieces)", egdb.Reason, n), true
	}
	winner := rules.White
	if o == rules.BlackWins {
		winner = rules.Black
	}
	return o, fmt.Sprintf("%s: %s wins (%d pieces)", egdb.Reason, winner.Name(), n), true
}
