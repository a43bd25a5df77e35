package tiebreak

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// Options are the event's settings that the tie-breaks need.
type Options struct {
	Scoring tally.Scoring // zero value: tally.DefaultScoring
	Edition Edition
	// RoundRobin marks pre-determined pairings (round-robin, Berger
	// tables): forfeits count as games against the scheduled opponent in
	// the Buchholz family, Sonneborn-Berger and the direct encounter.
	RoundRobin bool
	// Rounds ranks the event after this many rounds (standings after
	// round 3 of 7); 0 counts every round in the histories.
	Rounds int
}

// Standing is one line of a ranking.
type Standing struct {
	Number int // pairing number
	Rank   int // 1-based, shared by players equal in score and every tie-break
	Score  int // in the scoring's units
	// Values has one value per tie-break of the order, in its order: in
	// score units to the tie-break's Power (see TieBreak.Power); for the
	// direct encounter, the player's place from the bottom among those
	// tied before it (higher is better).
	Values []float64
	// Level has one flag per tie-break of the order: whether the player
	// was level with another on the score and the tie-breaks before it
	// when its turn came, so that it took part in breaking a tie.
	Level []bool
}

// NotShown is what a standings table prints for a value not shown.
const NotShown = "–"

// Shown tells whether the value of tie-break k of order is printed for
// this player. The direct encounter (C.07 6) is defined among players
// level on the criteria before it: a player alone there has no value
// (Values holds a 1, one tier of one), which a standings table prints as
// a dash, not as a place. Every other tie-break is a value of each player.
func (s Standing) Shown(order Order, k int) bool {
	return k < len(order) && (order[k] != DirectEncounter || (k < len(s.Level) && s.Level[k]))
}

// event is the state read once for all tie-breaks.
type event struct {
	opt      Options
	scoring  tally.Scoring
	nrounds  int
	players  []tally.Player
	rounds   [][]round
	score    []int // own score
	adjusted []int // C.07 16.3
}

// maxRounds bounds the rounds read (a history longer than any event is
// bad input, not a reason to allocate).
const maxRounds = 1000

func newEvent(players []tally.Player, opt Options) (*event, error) {
	ev := &event{opt: opt, scoring: opt.Scoring, players: players}
	if ev.scoring == (tally.Scoring{}) {
		ev.scoring = tally.DefaultScoring
	}
	index := make(map[int]int, len(players))
	n := -1
	for i, p := range players {
		if p.Number <= 0 {
			return nil, fmt.Errorf("tiebreak: player %d has pairing number %d; numbers start at 1", i+1, p.Number)
		}
		if _, dup := index[p.Number]; dup {
			return nil, fmt.Errorf("tiebreak: pairing number %d is given to two players", p.Number)
		}
		index[p.Number] = i
		if n < 0 {
			n = len(p.History)
		} else if len(p.History) != n {
			return nil, fmt.Errorf("tiebreak: player %d has %d rounds, player %d has %d; every history must have the same rounds",
				p.Number, len(p.History), players[0].Number, n)
		}
	}
	n = max(n, 0)
	if opt.Rounds < 0 || opt.Rounds > n {
		return nil, fmt.Errorf("tiebreak: standings after round %d asked; %d rounds are recorded", opt.Rounds, n)
	}
	if opt.Rounds > 0 {
		n = opt.Rounds
	}
	if n > maxRounds {
		return nil, fmt.Errorf("tiebreak: %d rounds; at most %d", n, maxRounds)
	}
	ev.nrounds = n
	ev.rounds = make([][]round, len(players))
	ev.score = make([]int, len(players))
	ev.adjusted = make([]int, len(players))
	for i, p := range players {
		rs := make([]round, n)
		for r := range n {
			e := p.History[r]
			opp := -1
			if e.Opponent != 0 {
				j, ok := index[e.Opponent]
				if !ok {
					return nil, fmt.Errorf("tiebreak: player %d round %d: opponent %d is not a player", p.Number, r+1, e.Opponent)
				}
				if j == i {
					return nil, fmt.Errorf("tiebreak: player %d round %d: paired with itself", p.Number, r+1)
				}
				opp = j
			}
			rs[r] = round{opponent: opp, color: e.Color, result: e.Result, points: ev.scoring.Points(e.Result)}
			ev.score[i] += rs[r].points
		}
		classify(rs, opt.RoundRobin)
		ev.rounds[i] = rs
	}
	for i := range players {
		ev.adjusted[i] = adjusted(ev.rounds[i], ev.scoring)
	}
	return ev, nil
}

// term is one round's contribution to a Buchholz or an ARO, and whether
// it is a voluntarily unplayed round (cut first, C.07 16.5).
type term struct {
	value     int
	voluntary bool
}

// buchholzTerms are a player's Buchholz contributions (C.07 8.1): the
// adjusted score of each opponent met (16.3), and for each unplayed round
// the dummy opponent's score (16.4).
func (ev *event) buchholzTerms(p int) []term {
	ts := make([]term, 0, ev.nrounds)
	for i, r := range ev.rounds[p] {
		if r.cat.isGame() {
			ts = append(ts, term{value: ev.adjusted[r.opponent]})
		} else {
			ts = append(ts, term{value: ev.dummy(p, i), voluntary: r.cat.voluntary()})
		}
	}
	return ts
}

// cut drops low least significant terms and high most significant ones
// (C.07 14.1-14.4). A low cut takes a voluntarily unplayed round first, the
// lowest of them, when it is not lower than the least significant value
// (16.5.1, 16.5.2: a player does not keep a bye's value by cutting a
// weak opponent); the high cut has no such exception.
func cut(ts []term, low, high int) []term {
	ts = slices.Clone(ts)
	for range low {
		if len(ts) == 0 {
			break
		}
		least := 0
		for i, t := range ts {
			if t.value < ts[least].value {
				least = i
			}
		}
		pick := least
		vur := -1
		for i, t := range ts {
			if t.voluntary && (vur < 0 || t.value < ts[vur].value) {
				vur = i
			}
		}
		if vur >= 0 && ts[vur].value >= ts[least].value {
			pick = vur
		}
		ts = slices.Delete(ts, pick, pick+1)
	}
	for range high {
		if len(ts) == 0 {
			break
		}
		most := 0
		for i, t := range ts {
			if t.value > ts[most].value {
				most = i
			}
		}
		ts = slices.Delete(ts, most, most+1)
	}
	return ts
}

func sum(ts []term) float64 {
	t := 0
	for _, x := range ts {
		t += x.value
	}
	return float64(t)
}

// value is the value of a tie-break that does not depend on the group
// (all but the direct encounter).
func (ev *event) value(tb TieBreak, p int) float64 {
	s := ev.scoring
	rs := ev.rounds[p]
	count := func(f func(r round) bool) float64 {
		n := 0
		for _, r := range rs {
			if f(r) {
				n++
			}
		}
		return float64(n)
	}
	won := func(r round) bool {
		return r.cat == played && (r.result == tally.Win || r.result == tally.UnratedWin)
	}
	switch tb {
	case Buchholz:
		return sum(ev.buchholzTerms(p))
	case BuchholzCut1:
		return sum(cut(ev.buchholzTerms(p), 1, 0))
	case BuchholzCut2:
		return sum(cut(ev.buchholzTerms(p), 2, 0))
	case MedianBuchholz:
		return sum(cut(ev.buchholzTerms(p), 1, 1))
	case SonnebornBerger:
		// C.07 9.1: the sum over rounds of the opponent's adjusted score
		// times the points scored against it; an unplayed round is scored
		// against its dummy opponent (16.4).
		t := 0
		for i, r := range rs {
			if r.cat.isGame() {
				t += ev.adjusted[r.opponent] * r.points
			} else {
				t += ev.dummy(p, i) * r.points
			}
		}
		return float64(t)
	case Wins:
		// 7.1: rounds in which the player got a win's points, with or
		// without playing (a forfeit win, a full-point bye, a PAB worth a
		// win).
		return count(func(r round) bool { return r.points == s.Win })
	case GamesWon:
		return count(won)
	case GamesWithBlack:
		return count(func(r round) bool { return r.cat == played && r.color == tally.Black })
	case WinsWithBlack:
		return count(func(r round) bool { return won(r) && r.color == tally.Black })
	case ProgressiveScore:
		// 7.5: the running score after each round, summed; art. 16 does
		// not govern it (unplayed rounds count at their points).
		t, run := 0, 0
		for _, r := range rs {
			run += r.points
			t += run
		}
		return float64(t)
	case AverageRating, AverageRatingCut1:
		return ev.aro(p, tb == AverageRatingCut1)
	}
	return 0
}

// aro is the average rating of the opponents met over the board
// (C.07 10.1), rounded to the nearest whole number, half up. Forfeits and
// byes have no opponent's rating; an unrated opponent (rating 0) is left
// out of the average, and with Cut-1 (14.1) the cut falls on that game
// first, else on the lowest-rated opponent.
func (ev *event) aro(p int, cut1 bool) float64 {
	var ratings []int
	unrated := 0
	for _, r := range ev.rounds[p] {
		if r.cat != played {
			continue
		}
		if rt := ev.players[r.opponent].Rating; rt > 0 {
			ratings = append(ratings, rt)
		} else {
			unrated++
		}
	}
	if cut1 && unrated == 0 && len(ratings) > 0 {
		slices.Sort(ratings)
		ratings = ratings[1:]
	}
	if len(ratings) == 0 {
		return 0
	}
	t := 0
	for _, r := range ratings {
		t += r
	}
	return math.Floor(float64(t)/float64(len(ratings)) + 0.5)
}

// Values computes one tie-break for every player, in the players' order.
// The direct encounter is computed among players equal in score.
func Values(players []tally.Player, tb TieBreak, opt Options) ([]float64, error) {
	st, err := Rank(players, Order{tb}, opt)
	if err != nil {
		return nil, err
	}
	byNumber := make(map[int]float64, len(st))
	for _, s := range st {
		byNumber[s.Number] = s.Values[0]
	}
	out := make([]float64, len(players))
	for i, p := range players {
		out[i] = byNumber[p.Number]
	}
	return out, nil
}

// Rank ranks the players: by score, then by each tie-break of the order
// applied to the players still equal; players equal in everything share a
// rank and are listed by pairing number. The direct encounter is computed
// within each group still tied when its turn comes (C.07 6).
func Rank(players []tally.Player, order Order, opt Options) ([]Standing, error) {
	for _, tb := range order {
		if _, ok := infos[tb]; !ok {
			return nil, fmt.Errorf("tiebreak: unknown tie-break %d in the order", int(tb))
		}
	}
	ev, err := newEvent(players, opt)
	if err != nil {
		return nil, err
	}
	n := len(players)
	vals := make([][]float64, n)
	level := make([][]bool, n)
	for i := range vals {
		vals[i] = make([]float64, len(order))
		level[i] = make([]bool, len(order))
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(ev.score[b], ev.score[a]); c != 0 {
			return c
		}
		return cmp.Compare(players[a].Number, players[b].Number)
	})
	// groups are runs of idx still tied; each tie-break refines them.
	groups := split(idx, func(a, b int) bool { return ev.score[a] == ev.score[b] })
	for k, tb := range order {
		var next [][]int
		for _, g := range groups {
			for _, p := range g {
				level[p][k] = len(g) > 1
			}
			if tb == DirectEncounter {
				for p, v := range ev.directEncounter(g) {
					vals[p][k] = v
				}
			} else {
				for _, p := range g {
					vals[p][k] = ev.value(tb, p)
				}
			}
			slices.SortStableFunc(g, func(a, b int) int {
				if c := cmp.Compare(vals[b][k], vals[a][k]); c != 0 {
					return c
				}
				return cmp.Compare(players[a].Number, players[b].Number)
			})
			next = append(next, split(g, func(a, b int) bool { return vals[a][k] == vals[b][k] })...)
		}
		groups = next
	}
	out := make([]Standing, 0, n)
	for _, g := range groups {
		rank := len(out) + 1
		for _, p := range g {
			out = append(out, Standing{Number: players[p].Number, Rank: rank, Score: ev.score[p], Values: vals[p], Level: level[p]})
		}
	}
	return out, nil
}

// split cuts a sorted run into groups of neighbours equal by eq.
func split(s []int, eq func(a, b int) bool) [][]int {
	var out [][]int
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && eq(s[i], s[j]) {
			j++
		}
		out = append(out, s[i:j:j])
		i = j
	}
	return out
}
