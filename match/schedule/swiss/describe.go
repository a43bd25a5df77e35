package swiss

import (
	"fmt"
	"sort"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// PlayerState is what the pairing of a round sees of one player, for a
// director's checklist (the columns JaVaFo's and bbpPairings' checklists
// print): pairing score, colour difference and preference, the floats of
// the two previous rounds and the PAB eligibility.
type PlayerState struct {
	Number int
	Score  int // pairing score, with any acceleration, in Scoring's units
	// ColourDiff is whites minus blacks over played games (C.04.3 1.6).
	ColourDiff int
	Preference tally.Color // NoColor: none
	// Strength is "absolute", "strong", "mild" or "" (C.04.3 1.7).
	Strength string
	// Float1 and Float2 are the floats one and two rounds back: "D"
	// (down), "U" (up) or "" (C.04.3 1.4).
	Float1, Float2 string
	ByeEligible    bool // C.04.1 (2025) art. 4
	Absent         bool
	// Index is set in a Burstein round after the seeding rounds: the
	// Buchholz and Sonneborn-Berger of C.04.4.2 1.7.1 that rank the player
	// in its bracket (1.8), in Scoring's units (Sonneborn-Berger in
	// units squared).
	Index *Index
}

// Index is a player's Opposition Evaluation Index (C.04.4.2 1.7.1).
type Index struct{ Buchholz, SonnebornBerger int }

// Describe gives each player's state for pairing the next round, in the
// pairing order (score, then pairing number; C.04.3 1.2; in a Burstein
// round score, then the Index and pairing number, C.04.4.2 1.8).
func Describe(players []tally.Player, opt Options) ([]PlayerState, error) {
	ev, err := newEvent(players, opt)
	if err != nil {
		return nil, err
	}
	all := append([]*pstate(nil), ev.all...)
	isB := ev.rule("", "burstein") != ""
	idx := map[*pstate]index{}
	if isB {
		for _, s := range all {
			idx[s] = ev.indexOf(s)
		}
	}
	b := &burstein{ev: ev, idx: idx}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score > all[j].score
		}
		if isB {
			return b.ranksAbove(all[i], all[j])
		}
		return all[i].pos < all[j].pos
	})
	fl := map[floatDir]string{floatDown: "D", floatUp: "U"}
	out := make([]PlayerState, 0, len(all))
	for _, s := range all {
		st := PlayerState{Number: s.p.Number, Score: s.score, Preference: s.pref,
			Float1: fl[s.float[1]], Float2: fl[s.float[2]], ByeEligible: s.byeOK, Absent: s.p.Absent}
		for _, c := range s.colours {
			if c == tally.White {
				st.ColourDiff++
			} else {
				st.ColourDiff--
			}
		}
		if isB {
			x := idx[s]
			st.Index = &Index{Buchholz: x.bh, SonnebornBerger: x.sb}
		}
		switch {
		case s.pref == tally.NoColor:
		case s.absolute:
			st.Strength = "absolute"
		case s.strong:
			st.Strength = "strong"
		default:
			st.Strength = "mild"
		}
		out = append(out, st)
	}
	return out, nil
}

// Breaches lists what in round r, a pairing of the next round made by
// someone else, breaks the absolute criteria or the round's own
// consistency, each naming the rule: a player paired twice or not at all,
// an absent player paired, a rematch (C.04.1 art. 2, C.04.3 C.1), a
// forbidden pair, a second PAB or one to an ineligible player (C.04.1
// art. 4, C.04.3 C.2), two players of the same absolute colour preference
// (C.04.3 C.3, outside the topscorers' exception of the last round), or a
// board whose colours break the colour allocation rules (C.04.3 5.2).
// None for a pairing Pair could have made.
func Breaches(players []tally.Player, opt Options, r Round) ([]string, error) {
	ev, err := newEvent(players, opt)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[int]bool{}
	mark := func(n int) *pstate {
		s := ev.byNumber[n]
		switch {
		case s == nil:
			out = append(out, fmt.Sprintf("player %d is not in the event", n))
		case seen[n]:
			out = append(out, fmt.Sprintf("player %d is paired twice", n))
		case s.p.Absent:
			out = append(out, fmt.Sprintf("player %d is paired but absent from the round", n))
		}
		seen[n] = true
		return s
	}
	for _, b := range r.Boards {
		w, bl := mark(b.White), mark(b.Black)
		if w == nil || bl == nil {
			continue
		}
		switch {
		case w.opponent[b.Black]:
			out = append(out, fmt.Sprintf("%d-%d: they have played each other already (C.04.1 art. 2, %s)", b.White, b.Black, ev.rule("C.04.3 C.1", "C.04.4.2 [C1]")))
		case w.forbidden[b.Black]:
			out = append(out, fmt.Sprintf("%d-%d: a prohibited pairing (XXP/260)", b.White, b.Black))
		case !ev.compatible(w, bl):
			out = append(out, fmt.Sprintf("%d-%d: both have an absolute preference for %s (%s)", b.White, b.Black, colourWord(w.pref), ev.rule("C.04.3 C.3", "C.04.4.2 [C3]")))
		case w.absolute && w.pref == tally.Black || bl.absolute && bl.pref == tally.White:
			if !(w.absolute && bl.absolute && w.pref == bl.pref) {
				out = append(out, fmt.Sprintf("%d-%d: the colours break an absolute colour preference (%s)", b.White, b.Black, ev.rule("C.04.3 5.2", "C.04.4.2 5.2")))
			}
		}
	}
	if r.Bye != 0 {
		if s := mark(r.Bye); s != nil && !s.byeOK {
			out = append(out, fmt.Sprintf("player %d gets the PAB but had one, or scored a win's points without playing (C.04.1 art. 4, %s)", r.Bye, ev.rule("C.04.3 C.2", "C.04.4.2 [C2]")))
		}
	}
	for _, s := range ev.all {
		if !s.p.Absent && !seen[s.p.Number] {
			out = append(out, fmt.Sprintf("player %d is present but neither paired nor given the PAB", s.p.Number))
		}
	}
	return out, nil
}

func colourWord(c tally.Color) string {
	if c == tally.Black {
		return "black"
	}
	return "white"
}

// rule names the article of the system that pairs the round: the Dutch
// one, or the Burstein one after the seeding rounds.
func (ev *event) rule(dutch, burstein string) string {
	if ev.opt.System == Burstein && ev.played+1 > SeedingRounds(ev.opt.Rounds) {
		return burstein
	}
	return dutch
}
