package director

import (
	"fmt"
	"slices"
	"sort"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

// RequestedBye is r when it is a bye asked for (or an absence: H, Z or F)
// on a side of a board, as a round-robin's player keeps the board; 0 for a
// game or a forfeit.
func RequestedBye(r tally.Result) tally.Result {
	switch r {
	case tally.HalfBye, tally.ZeroBye, tally.FullBye:
		return r
	}
	return 0
}

func isBye(r tally.Result) bool { return RequestedBye(r) != 0 }

// Entry is what round r gave player p, in pairing numbers; ok is false
// while the round's result for p is not in.
func (sn *Snapshot) Entry(p *Player, r *Round) (e tally.Entry, ok bool) {
	for _, b := range r.Boards {
		var own, other tally.Result
		var opp int
		var col tally.Color
		switch p.ID {
		case b.White:
			own, other, opp, col = b.WhiteResult, b.BlackResult, b.Black, tally.White
		case b.Black:
			own, other, opp, col = b.BlackResult, b.WhiteResult, b.White, tally.Black
		default:
			continue
		}
		if own == 0 || other == 0 {
			return tally.Entry{}, false
		}
		if isBye(own) {
			return tally.Entry{Result: own}, true
		}
		o := sn.player(opp)
		n := 0
		if o != nil {
			n = o.Number
		}
		return tally.Entry{Opponent: n, Color: col, Result: own}, true
	}
	if r.Bye == p.ID {
		return tally.Entry{Result: tally.PairingBye}, true
	}
	if k, ok := r.Absent[p.ID]; ok {
		return tally.Entry{Result: k}, true
	}
	return tally.Entry{Result: tally.ZeroBye}, true
}

// Closed is the number of closed rounds (they come first).
func (sn *Snapshot) Closed() int {
	n := 0
	for _, r := range sn.Rounds {
		if r.State != Closed {
			break
		}
		n++
	}
	return n
}

// absentFrom reports whether p is not paired in round n: withdrawn, or a
// bye asked for.
func (sn *Snapshot) absentFrom(p *Player, n int) bool {
	if p.Withdrawn != 0 && p.Withdrawn <= n {
		return true
	}
	_, asked := sn.Requested[n][p.ID]
	return asked
}

// State is the event after its closed rounds as the pairing and the
// tie-breaks read it: every player in pairing-number order, with one
// History entry per closed round, Absent set for the players who will not
// be paired in the next round (withdrawn, or a bye asked for).
func (sn *Snapshot) State() []tally.Player {
	return sn.StateAfter(sn.Closed())
}

// StateAfter is State after the first n rounds (all of them closed).
func (sn *Snapshot) StateAfter(n int) []tally.Player {
	n = min(n, sn.Closed())
	ps := slices.Clone(sn.Players)
	sort.Slice(ps, func(i, j int) bool { return ps[i].Number < ps[j].Number })
	out := make([]tally.Player, 0, len(ps))
	for i := range ps {
		p := &ps[i]
		sp := tally.Player{Number: p.Number, Rating: p.Rating, History: make([]tally.Entry, 0, n), Absent: sn.absentFrom(p, n+1)}
		for r := 0; r < n; r++ {
			e, _ := sn.Entry(p, &sn.Rounds[r])
			sp.History = append(sp.History, e)
		}
		out = append(out, sp)
	}
	return out
}

// Standing is one line of the standings.
type Standing struct {
	Rank   int       `json:"rank"` // shared by players equal in score and every tie-break
	Player Player    `json:"player"`
	Score  int       `json:"score"`  // scoring units
	Values []float64 `json:"values"` // one per tie-break of the event's order
	// Shown has one flag per tie-break: whether its value is printed
	// (tiebreak.Standing.Shown: the direct encounter only among players
	// level before it; a dash elsewhere).
	Shown []bool        `json:"shown"`
	Cells []tally.Entry `json:"cells"` // one per round counted
}

// Standings ranks the players after the closed rounds by score, then by
// the event's tie-breaks (reports/tiebreak). The printed sheets and the
// TRF count these; the director's page counts LiveStandings.
func (sn *Snapshot) Standings() ([]Standing, error) {
	return sn.rank(sn.State())
}

// Count says which rounds a ranking counts: the first Round, the last of
// them still open when Provisional, with In of its Of boards' results in.
type Count struct {
	Round       int  `json:"round"`
	Provisional bool `json:"provisional,omitempty"`
	In          int  `json:"in,omitempty"`
	Of          int  `json:"of,omitempty"`
}

// LiveStandings is Standings while no round is open; while one is (paired,
// not closed) it counts that round too, with the results already entered:
// a board still pending counts as a game lost by both players (no points
// under the usual scoring) until its result is in, so that the
// provisional ranking is as close as it can be to the one the round will
// give. Count says what was counted.
func (sn *Snapshot) LiveStandings() ([]Standing, Count, error) {
	c := Count{Round: sn.Closed()}
	if c.Round == len(sn.Rounds) {
		st, err := sn.Standings()
		return st, c, err
	}
	// Only the last round can be open: a round is paired once the one
	// before is closed.
	r := &sn.Rounds[c.Round]
	c.Round++
	c.Provisional, c.Of = true, len(r.Boards)
	for _, b := range r.Boards {
		if b.Done() {
			c.In++
		}
	}
	st := sn.StateAfter(c.Round - 1)
	for i := range st {
		if p := sn.ByNumber(st[i].Number); p != nil {
			st[i].History = append(st[i].History, sn.provisionalEntry(p, r))
		}
	}
	out, err := sn.rank(st)
	return out, c, err
}

// provisionalEntry is Entry, a pending board counting as a loss against
// the opponent.
func (sn *Snapshot) provisionalEntry(p *Player, r *Round) tally.Entry {
	if e, ok := sn.Entry(p, r); ok {
		return e
	}
	for _, b := range r.Boards {
		opp, col := b.Black, tally.White
		switch p.ID {
		case b.White:
		case b.Black:
			opp, col = b.White, tally.Black
		default:
			continue
		}
		n := 0
		if o := sn.player(opp); o != nil {
			n = o.Number
		}
		return tally.Entry{Opponent: n, Color: col, Result: tally.Loss}
	}
	return tally.Entry{Result: tally.ZeroBye}
}

// rank ranks st by score, then by the event's tie-breaks.
func (sn *Snapshot) rank(st []tally.Player) ([]Standing, error) {
	order, err := sn.Event.TieBreakOrder()
	if err != nil {
		return nil, err
	}
	ranked, err := tiebreak.Rank(st, order, tiebreak.Options{Scoring: sn.Event.Scoring, RoundRobin: sn.Event.System == RoundRobin})
	if err != nil {
		return nil, fmt.Errorf("director: event %s: ranking: %w", sn.Event.ID, err)
	}
	hist := map[int][]tally.Entry{}
	for _, p := range st {
		hist[p.Number] = p.History
	}
	out := make([]Standing, 0, len(ranked))
	for _, r := range ranked {
		p := sn.ByNumber(r.Number)
		if p == nil {
			continue
		}
		shown := make([]bool, len(order))
		for k := range order {
			shown[k] = r.Shown(order, k)
		}
		out = append(out, Standing{Rank: r.Rank, Player: *p, Score: r.Score, Values: r.Values, Shown: shown, Cells: hist[r.Number]})
	}
	return out, nil
}
