package swiss

import (
	"fmt"
	"sort"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// floatDir is how a player floated in an earlier round (C.04.3 1.4).
type floatDir int8

const (
	floatNone floatDir = iota
	floatDown
	floatUp
)

// pstate is what the pairing derives from a player's history.
type pstate struct {
	p      *tally.Player
	pos    int // 0-based position in the initial order (pairing numbers)
	rank   int // 0-based effective pairing number, among the players taking part
	score  int // pairing score: points plus Baku virtual points
	raw    int // points without acceleration (board order, C.04.2)
	played int // games played over the board

	// Colour data (C.04.3 1.6-1.7), over played games only.
	imbalance int         // |whites - blacks|
	pref      tally.Color // NoColor: no preference
	absolute  bool        // |difference| > 1 or the same colour twice in a row
	strong    bool        // difference of exactly 1 (and not absolute)
	repeated  tally.Color // the colour of the last two games when they are the same
	colours   []tally.Color

	byeOK    bool        // may receive the pairing-allocated bye (C.04.1, C.04.3 C.2)
	float    [3]floatDir // float[1], float[2]: one and two rounds back
	opponent map[int]bool
	// forbidden: the players s may not meet this round (Options.Forbidden).
	forbidden map[int]bool
}

func (s *pstate) hasAbsoluteImbalance() bool { return s.imbalance > 1 }

// event is the derived state of every player, for the round being paired.
type event struct {
	opt      Options
	sc       tally.Scoring
	played   int // rounds already paired (the round to pair is played+1)
	all      []*pstate
	byNumber map[int]*pstate
}

// bakuPoints is the virtual score of C.04.5.1 before round r (1-based) for
// the player at 0-based initial position rank among n players: group A is
// the first 2*ceil(n/4) players; the accelerated rounds are the first half
// (rounded up) of the event, the first half of them (rounded up) with one
// point, the rest with half a point.
func bakuPoints(opt Options, sc tally.Scoring, n, rank, r int) int {
	if !opt.Baku || opt.Rounds <= 0 {
		return 0
	}
	ga := 2 * ((n + 3) / 4)
	if rank >= ga {
		return 0
	}
	acc := (opt.Rounds + 1) / 2
	full := (acc + 1) / 2
	switch {
	case r <= full:
		return sc.Win
	case r <= acc:
		return sc.Draw
	}
	return 0
}

// BakuPoints is the virtual points of the Baku acceleration (C.04.5.1),
// in units of opt.Scoring (zero: DefaultScoring), that the player at
// 0-based position pos of the initial order of n players gets before
// round r (1-based); 0 without opt.Baku. A TRF writes them as XXA or
// 250 records so that another program pairs the same way.
func BakuPoints(opt Options, n, pos, r int) int {
	sc := opt.Scoring
	if sc == (tally.Scoring{}) {
		sc = tally.DefaultScoring
	}
	return bakuPoints(opt, sc, n, pos, r)
}

// virtual is s's acceleration before round r (1-based): the given
// accelerations when there are, else Baku's.
func (ev *event) virtual(s *pstate, n, r int) int {
	if ev.opt.Acceleration != nil {
		a := ev.opt.Acceleration[s.p.Number]
		if r-1 < len(a) {
			return a[r-1]
		}
		return 0
	}
	return bakuPoints(ev.opt, ev.sc, n, s.pos, r)
}

func newEvent(players []tally.Player, opt Options) (*event, error) {
	sc := opt.Scoring
	if sc == (tally.Scoring{}) {
		sc = tally.DefaultScoring
	}
	ev := &event{opt: opt, sc: sc, byNumber: make(map[int]*pstate)}
	if len(players) == 0 {
		return ev, nil
	}
	ev.played = len(players[0].History)
	order := make([]*tally.Player, len(players))
	for i := range players {
		p := &players[i]
		if p.Number <= 0 {
			return nil, fmt.Errorf("swiss: player %d has pairing number %d", i+1, p.Number)
		}
		if len(p.History) != ev.played {
			return nil, fmt.Errorf("swiss: player %d has %d rounds of history, player %d has %d", p.Number, len(p.History), players[0].Number, ev.played)
		}
		if ev.byNumber[p.Number] != nil {
			return nil, fmt.Errorf("swiss: pairing number %d appears twice", p.Number)
		}
		ev.byNumber[p.Number] = &pstate{p: p}
		order[i] = p
	}
	sort.Slice(order, func(i, j int) bool { return order[i].Number < order[j].Number })
	if ev.opt.FirstColor == tally.NoColor {
		ev.opt.FirstColor = InferFirstColor(order)
	}
	n := len(order)
	valid := 0
	for pos, p := range order {
		s := ev.byNumber[p.Number]
		s.pos = pos
		// The effective pairing number counts the players who take part
		// in the pairing: present now, or paired (or given the PAB) in an
		// earlier round; an entrant absent from round 1 on is not counted
		// (as bbpPairings ranks them).
		s.rank = -1
		if !p.Absent || participated(p) {
			s.rank = valid
			valid++
		}
		ev.all = append(ev.all, s)
		for r, e := range p.History {
			if e.Opponent != 0 {
				o := ev.byNumber[e.Opponent]
				if o == nil || e.Opponent == p.Number {
					return nil, fmt.Errorf("swiss: player %d round %d: opponent %d is not in the event", p.Number, r+1, e.Opponent)
				}
			}
		}
	}
	for _, s := range ev.all {
		ev.derive(s, n)
	}
	for _, g := range opt.Forbidden {
		for _, a := range g {
			for _, b := range g {
				if sa, sb := ev.byNumber[a], ev.byNumber[b]; sa != nil && sb != nil && a != b {
					if sa.forbidden == nil {
						sa.forbidden = map[int]bool{}
					}
					sa.forbidden[b] = true
				}
			}
		}
	}
	return ev, nil
}

// scoreBefore is the pairing score of s when round r (1-based) was paired.
func (ev *event) scoreBefore(s *pstate, r int, n int) int {
	t := 0
	for _, e := range s.p.History[:r-1] {
		t += ev.sc.Points(e.Result)
	}
	return t + ev.virtual(s, n, r)
}

func (ev *event) derive(s *pstate, n int) {
	p := s.p
	s.raw = p.Score(ev.sc)
	s.score = s.raw + ev.virtual(s, n, ev.played+1)
	s.opponent = make(map[int]bool)
	s.byeOK = true
	whites, blacks, run := 0, 0, 0
	var last tally.Color
	for _, e := range p.History {
		if e.Played() {
			// C.04.1: only games played over the board forbid a rematch
			// and count for colours; a forfeit does neither.
			s.opponent[e.Opponent] = true
			s.played++
			s.colours = append(s.colours, e.Color)
			if e.Color == tally.White {
				whites++
			} else {
				blacks++
			}
			if run > 0 && e.Color == last {
				run++
			} else {
				run = 1
			}
			last = e.Color
			continue
		}
		// C.04.3 (2025) 1.? / C.2: no PAB to a player who already had one
		// or who scored as much as a win without playing.
		if e.Result == tally.PairingBye || ev.sc.Points(e.Result) >= ev.sc.Win {
			s.byeOK = false
		}
	}
	low := tally.White
	if whites > blacks {
		low = tally.Black
		s.imbalance = whites - blacks
	} else {
		s.imbalance = blacks - whites
	}
	switch {
	case s.imbalance > 1:
		s.pref = low
	case run > 1:
		s.pref = other(last)
	case s.imbalance > 0:
		s.pref = low
	case run > 0:
		s.pref = other(last)
	}
	if run > 1 {
		s.repeated = last
	}
	s.absolute = s.imbalance > 1 || s.repeated != tally.NoColor
	s.strong = !s.absolute && s.imbalance > 0
	s.float[1], s.float[2] = ev.floatOf(s, 1, n), ev.floatOf(s, 2, n)
}

// floatOf is how s floated `back` rounds before the round to pair
// (C.04.3 (2025) 1.4). Art. 1.4.2 gives a float only to two players with
// different scores who "have played each other"; art. 1.4.3 gives a
// downfloat to a player who "scores without playing in a round more points
// than those rewarded for a loss". So a round not played over the board
// (a bye, an absence, or a forfeit against a named opponent) is a downfloat
// when it scored more than a loss (the forfeit's winner) and no float
// otherwise (the forfeit's loser). bbpPairings reads the rule the same way;
// the code before issue 26 compared the scores of a forfeit's two players
// as if the game had been played, which 1.4.2 does not allow.
func (ev *event) floatOf(s *pstate, back, n int) floatDir {
	if back > ev.played {
		return floatNone
	}
	r := ev.played - back + 1
	e := s.p.History[r-1]
	if !e.Played() {
		if ev.sc.Points(e.Result) > ev.sc.Loss {
			return floatDown
		}
		return floatNone
	}
	mine := ev.scoreBefore(s, r, n)
	theirs := ev.scoreBefore(ev.byNumber[e.Opponent], r, n)
	switch {
	case mine > theirs:
		return floatDown
	case mine < theirs:
		return floatUp
	}
	return floatNone
}

// InferFirstColor is the colour the first player in the initial order had,
// or was to have, in round 1 (C.04.3 (2025) 5.1: drawn by lot before round
// 1), read from the history when no file or setting says it. As
// bbpPairings infers it: the first round in which anyone has a colour
// (forfeits included); the players who took part in the pairing of that
// round or an earlier one, in pairing-number order, the k-th of them (from
// 0) standing for the initial colour when k is even and its opposite when
// k is odd; the first of them with a colour in that round decides. NoColor
// when no round has a colour yet (the caller's default applies: White).
// players must be in pairing-number order.
func InferFirstColor(players []*tally.Player) tally.Color {
	first := -1
	for _, p := range players {
		for r, e := range p.History {
			if e.Color != tally.NoColor && (first < 0 || r < first) {
				first = r
			}
		}
	}
	if first < 0 {
		return tally.NoColor
	}
	k := 0
	for _, p := range players {
		took := false
		for r := 0; r <= first && r < len(p.History); r++ {
			took = took || tookPart(p.History[r])
		}
		if !took {
			continue
		}
		if first >= len(p.History) {
			k++
			continue
		}
		if c := p.History[first].Color; c != tally.NoColor {
			if k%2 == 1 {
				return other(c)
			}
			return c
		}
		k++
	}
	return tally.NoColor
}

// tookPart reports whether a round's entry was paired, or given the PAB
// ("0000 - +", a forfeit win without an opponent, is the PAB of older TRF
// files, as bbpPairings reads it).
func tookPart(e tally.Entry) bool {
	return e.Opponent != 0 || e.Result == tally.PairingBye || e.Result == tally.ForfeitWin
}

// participated reports whether p was paired, or given the PAB, in some
// round ("0000 - +", a forfeit win without an opponent, is the PAB of
// older TRF files, as bbpPairings reads it).
func participated(p *tally.Player) bool {
	for _, e := range p.History {
		if tookPart(e) {
			return true
		}
	}
	return false
}

func other(c tally.Color) tally.Color {
	switch c {
	case tally.White:
		return tally.Black
	case tally.Black:
		return tally.White
	}
	return tally.NoColor
}

// topscorer is a player with more than half the maximum possible score, in
// the last round only (C.04.3 1.8 and A.7): their colour constraints relax.
func (ev *event) lastRound() bool { return ev.opt.Rounds > 0 && ev.played >= ev.opt.Rounds-1 }

func (ev *event) topscorer(s *pstate) bool {
	m := ev.sc.Win
	if ev.sc.Draw > m {
		m = ev.sc.Draw
	}
	return 2*s.score > ev.played*m
}

// compatible: the two may meet without breaking an absolute criterion
// (C.04.3 C.1 no rematch, C.3 no two players with the same absolute colour
// preference, except topscorers in the last round).
func (ev *event) compatible(a, b *pstate) bool {
	if a.opponent[b.p.Number] || a.forbidden[b.p.Number] {
		return false
	}
	if a.absolute && b.absolute && a.pref == b.pref {
		// C.04.4.2 2.1.3 [C3] knows no topscorers.
		return ev.opt.System != Burstein && ev.lastRound() && (ev.topscorer(a) || ev.topscorer(b))
	}
	return true
}

// higher reports whether a ranks above b in the pairing order (C.04.3 1.2:
// score, then pairing number).
func higher(a, b *pstate) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.rank < b.rank
}
