package swiss

import (
	"sort"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// prefsCompatible: at least one has no preference, or they differ.
func prefsCompatible(a, b tally.Color) bool {
	return a == tally.NoColor || b == tally.NoColor || a != b
}

// lastDifference walks both players' played colours back from the latest
// game, in step, to the most recent round in which they differed
// (C.04.3 E.4); NoColor when there is none.
func lastDifference(a, b *pstate) (tally.Color, tally.Color) {
	i, j := len(a.colours)-1, len(b.colours)-1
	for i >= 0 && j >= 0 {
		if a.colours[i] != b.colours[j] {
			return a.colours[i], b.colours[j]
		}
		i--
		j--
	}
	return tally.NoColor, tally.NoColor
}

// colourOf is the colour a gets against b, by C.04.3 E.1-E.5:
// E.1 both preferences; E.2 the stronger (absolute, then the bigger
// imbalance; strong over mild); E.4 alternate from the most recent round
// in which they had different colours; E.5 the higher-ranked player's
// preference; with no preference at all, the initial colour by the higher
// player's rank (odd pairing numbers get the initial colour).
func (ev *event) colourOf(a, b *pstate) tally.Color {
	c := neutralColour(a, b)
	if c != tally.NoColor {
		return c
	}
	initial := ev.opt.FirstColor
	if initial == tally.NoColor {
		initial = tally.White
	}
	if a.pref == tally.NoColor {
		if higher(b, a) {
			if b.rank%2 == 1 {
				return initial
			}
			return other(initial)
		}
		if a.rank%2 == 1 {
			return other(initial)
		}
		return initial
	}
	if higher(b, a) {
		return other(b.pref)
	}
	return a.pref
}

func neutralColour(a, b *pstate) tally.Color {
	switch {
	case prefsCompatible(a.pref, b.pref):
		if a.pref != tally.NoColor {
			return a.pref
		}
		return other(b.pref)
	case a.absolute && (a.imbalance > b.imbalance || !b.absolute):
		return a.pref
	case b.absolute && (b.imbalance > a.imbalance || !a.absolute):
		return other(b.pref)
	case a.strong && !b.strong:
		return a.pref
	case b.strong && !a.strong:
		return other(b.pref)
	}
	ca, cb := lastDifference(a, b)
	if ca != tally.NoColor && cb != tally.NoColor {
		return cb
	}
	return tally.NoColor
}

// seat is the board of a and b with a playing colour c.
func seat(c tally.Color, a, b *pstate) Board {
	if c == tally.White {
		return Board{White: a.p.Number, Black: b.p.Number}
	}
	return Board{White: b.p.Number, Black: a.p.Number}
}

// boardOrder sorts the boards as C.04.2 asks and the reference program
// prints them: by the score of the higher player of each board, then the
// score of the lower one, then the rank of the higher one (scores without
// acceleration).
func (ev *event) boardOrder(boards []Board) {
	type key struct{ hs, ls, hr int }
	keys := make(map[Board]key, len(boards))
	for _, bd := range boards {
		w, b := ev.byNumber[bd.White], ev.byNumber[bd.Black]
		h, l := w, b
		if l.raw > h.raw || (l.raw == h.raw && l.rank < h.rank) {
			h, l = l, h
		}
		keys[bd] = key{h.raw, l.raw, h.rank}
	}
	sort.SliceStable(boards, func(i, j int) bool {
		a, b := keys[boards[i]], keys[boards[j]]
		if a.hs != b.hs {
			return a.hs > b.hs
		}
		if a.ls != b.ls {
			return a.ls > b.ls
		}
		return a.hr < b.hr
	})
}
