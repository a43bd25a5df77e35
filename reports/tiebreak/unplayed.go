package tiebreak

import "github.com/draughts-arbiter/arbiter/rules/tally"

// Edition is the dated text of C.07 whose rules for unplayed rounds apply.
type Edition int

// Editions. The zero value is the one in force.
const (
	// Edition2026 is applied from 1 March 2026: the dummy opponent of an
	// unplayed round has the participant's own score, capped (16.4.1,
	// 16.4.2).
	Edition2026 Edition = iota
	// Edition2024 is applied from 1 August 2024 to 28 February 2026: the
	// dummy opponent has the participant's own score, uncapped.
	Edition2024
)

// category is the class of an unplayed round (C.07 16.2, Swiss events).
type category int8

const (
	played          category = iota // a game over the board
	awardedBye                      // 16.2.1: pairing-allocated bye, full-point bye
	forfeitWin                      // 16.2.2
	byeBeforePlay                   // 16.2.3: requested bye followed by a round that is not voluntarily unplayed
	forfeitLoss                     // 16.2.4 (a double forfeit is one for each side)
	byeToTheEnd                     // 16.2.5: requested bye followed only by voluntarily unplayed rounds, or in the last round
	forfeitAsPlayed                 // round-robin: a forfeit counts as a game against the scheduled opponent
)

// voluntary reports a voluntarily unplayed round (VUR, C.07 16.1.2):
// requested byes and forfeit losses. Absence and withdrawal are recorded
// as zero-point byes ('Z'), so the rounds after a withdrawal are VURs too.
func (c category) voluntary() bool {
	return c == byeBeforePlay || c == forfeitLoss || c == byeToTheEnd
}

// isGame reports a round that counts as a game against the opponent in
// the Buchholz family and Sonneborn-Berger: over the board, or a forfeit
// of a round-robin.
func (c category) isGame() bool { return c == played || c == forfeitAsPlayed }

// round is one round of a player as the tie-breaks read it.
type round struct {
	opponent int // index into event.players; -1 for none
	color    tally.Color
	result   tally.Result
	points   int
	cat      category
}

// classify gives the categories of a player's rounds (C.07 16.2). A
// requested bye is 16.2.3 when some later round is not voluntarily
// unplayed, else 16.2.5; a round-robin's forfeits count as played
// (C.07 16.1: the unplayed-round rules are for Swiss events, and in
// pre-determined pairings a forfeit is a result against the scheduled
// opponent).
func classify(rs []round, roundRobin bool) {
	for i := range rs {
		r := &rs[i]
		switch r.result {
		case tally.Win, tally.Draw, tally.Loss, tally.UnratedWin, tally.UnratedDraw, tally.UnratedLoss:
			if r.opponent >= 0 {
				r.cat = played
			} else {
				// A game result without an opponent is read as an absence.
				r.cat = byeToTheEnd
			}
		case tally.PairingBye, tally.FullBye:
			r.cat = awardedBye
		case tally.ForfeitWin:
			r.cat = forfeitWin
		case tally.ForfeitLoss:
			r.cat = forfeitLoss
		default: // HalfBye, ZeroBye and anything else: requested or absent
			r.cat = byeToTheEnd
		}
		if roundRobin && r.opponent >= 0 && (r.cat == forfeitWin || r.cat == forfeitLoss) {
			r.cat = forfeitAsPlayed
		}
	}
	// A requested bye followed by a round that is not a VUR is 16.2.3.
	laterPlayable := false
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].cat == byeToTheEnd && laterPlayable {
			rs[i].cat = byeBeforePlay
		}
		if !rs[i].cat.voluntary() {
			laterPlayable = true
		}
	}
}

// adjusted is the score a player's opponents see in their tie-breaks
// (C.07 16.3): every round at the points awarded (16.3.1), except those of
// category 16.2.5, which count as draws (16.3.2), so that a withdrawal
// does not punish the players met before it.
func adjusted(rs []round, s tally.Scoring) int {
	t := 0
	for _, r := range rs {
		if r.cat == byeToTheEnd {
			t += s.Draw
		} else {
			t += r.points
		}
	}
	return t
}

// dummy is the score of the dummy opponent of a player's unplayed round i
// (C.07 16.4): the player's own score; from the 2026 edition capped, for a
// forfeit at the scheduled opponent's adjusted score (16.4.1) and for any
// other unplayed round at a draw's points times the rounds counted
// (16.4.2), so that a bye never lends a player more strength than a field
// of draws.
func (ev *event) dummy(p, i int) int {
	own := ev.score[p]
	if ev.opt.Edition == Edition2024 {
		return own
	}
	r := ev.rounds[p][i]
	limit := ev.scoring.Draw * ev.nrounds
	if (r.cat == forfeitWin || r.cat == forfeitLoss) && r.opponent >= 0 {
		limit = ev.adjusted[r.opponent]
	}
	return min(own, limit)
}
