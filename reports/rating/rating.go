package rating

import (
	"fmt"
	"math"
)

// System names the rating rules an event is reported under.
type System string

// The systems an event can be rated under.
const (
	// None: the event is not rated; no change is computed.
	None System = ""
	// FIDE: FIDE Rating Regulations B.02 (1 March 2024), used by national
	// draughts federations that rate with the FIDE Elo rules.
	FIDE System = "fide"
	// FMJD: the Elo method of this package with the development factor
	// set by the director (see the package doc: the FMJD's own table and
	// factor were not verified).
	FMJD System = "fmjd"
)

// Systems lists the systems in the order a form offers them.
var Systems = []System{None, FIDE, FMJD}

// ParseSystem reads a system name; "" and "none" are None.
func ParseSystem(s string) (System, error) {
	switch s {
	case "", "none":
		return None, nil
	case string(FIDE):
		return FIDE, nil
	case string(FMJD):
		return FMJD, nil
	}
	return None, fmt.Errorf("rating system %q: want none, fide or fmjd", s)
}

// MaxDiff is the 400-point rule of FIDE B.02 art. 8.3.1: a larger
// difference counts as 400 for a player rated below NoCapFrom.
const MaxDiff = 400

// NoCapFrom is the amendment of art. 8.3.1 effective from 1 October 2025:
// "For players rated 2650 and above, the difference between ratings shall
// be used in all cases".
const NoCapFrom = 2650

// Game is one rated game of a player: the opponent's rating before the
// event and the player's score (1, 0.5 or 0).
type Game struct {
	Opponent int
	Score    float64
}

// expectedTable is FIDE B.02 table 8.1.2 (checked entry by entry against
// the 2024 text): row i holds the largest rating difference D (higher
// minus lower) for which the higher-rated player's score probability PD is
// 0.50 + i/100; the text's rows read "0-3 .50", "4-10 .51", ... "620-735
// .99", "> 735 1.0". Under the 400-point rule a player below 2650 never
// gets past row 42 (392-411, .92).
var expectedTable = [...]int{
	3, 10, 17, 25, 32, 39, 46, 53, 61, 68, // .50 .. .59
	76, 83, 91, 98, 106, 113, 121, 129, 137, 145, // .60 .. .69
	153, 162, 170, 179, 188, 197, 206, 215, 225, 235, // .70 .. .79
	245, 256, 267, 278, 290, 302, 315, 328, 344, 357, // .80 .. .89
	374, 391, 411, 432, 456, 484, 517, 559, 619, 735, // .90 .. .99
}

// Expected is the score probability PD of a player rated own against an
// opponent rated opp: table 8.1.2 with the 400-point rule of art. 8.3.1,
// which applies to a player rated below NoCapFrom. It returns hundredths
// (50 = 0.50) so sums stay exact.
func Expected(own, opp int) int {
	d := own - opp
	neg := d < 0
	if neg {
		d = -d
	}
	if d > MaxDiff && own < NoCapFrom {
		d = MaxDiff
	}
	h := higherPD(d)
	if neg {
		return 100 - h
	}
	return h
}

// higherPD is table 8.1.2 for the higher-rated player, d ≥ 0, without
// the 400-point rule: PD in hundredths.
func higherPD(d int) int {
	for i, top := range expectedTable {
		if d <= top {
			return 50 + i
		}
	}
	return 100
}

// GameChange is K·(score − PD) for one game (art. 8.3.2), unrounded: the
// change a game contributes to the event's total.
func GameChange(own, k int, g Game) float64 {
	return float64(k) * (g.Score - float64(Expected(own, g.Opponent))/100)
}

// Change is K·ΣΔR over the games (art. 8.3.2 c, d), unrounded; Round
// gives the published figure.
func Change(own, k int, games []Game) float64 {
	sum := 0.0
	for _, g := range games {
		sum += g.Score - float64(Expected(own, g.Opponent))/100
	}
	return float64(k) * sum
}

// Round is art. 8.3.4: to the nearest whole number, 0.5 away from zero.
// A change within 1e-9 of a half counts as the half (ΣΔR sums hundredths
// in floating point).
func Round(x float64) int {
	return int(math.Round(math.Round(x*1e6) / 1e6))
}

// Player is what FIDEK reads of a player.
type Player struct {
	Rating int
	// Games is the number of rated games the player had completed before
	// the event; Reached2400 whether a published rating ever reached 2400;
	// Junior whether the player is in or before the year of their 18th
	// birthday.
	Games       int
	Reached2400 bool
	Junior      bool
}

// Why a player has the K they have (KFor): the article's case, or the
// director's own figure.
const (
	KSet    = "set"    // set by the director (or the rating list)
	KNew    = "new"    // art. 8.3.3: new to the list, fewer than 30 games
	KJunior = "junior" // art. 8.3.3: to the end of the year of the 18th birthday, under 2300
	K2400   = "2400"   // art. 8.3.3: a published rating reached 2400
	KRating = "rating" // art. 8.3.3: under 2400
)

// NewGames is art. 8.3.3's "until he has completed events with at least
// 30 games": a player with fewer has K = 40.
const NewGames = 30

// FIDEK is the development coefficient of art. 8.3.3.
func FIDEK(p Player) int {
	k, _ := KFor(p)
	return k
}

// KFor is FIDEK with the case of art. 8.3.3 that gives it (KNew,
// KJunior, K2400, KRating). The 2400 case comes first: "K = 10 once a
// player's published rating has reached 2400 ... even if the rating
// drops below 2400".
func KFor(p Player) (k int, why string) {
	switch {
	case p.Reached2400 || p.Rating >= 2400:
		return 10, K2400
	case p.Games < NewGames:
		return 40, KNew
	case p.Junior && p.Rating < 2300:
		return 40, KJunior
	}
	return 20, KRating
}

// Junior is art. 8.3.3's "until the end of the year of their 18th
// birthday" for a player born in the year born, in the year of the event
// (false when born is 0, not known).
func Junior(born, year int) bool { return born > 0 && year <= born+18 }

// EventK is the K an event uses for a player of whom it knows only the
// rating (not the games played before, nor the age): art. 8.3.3's 20 below
// 2400 and 10 from 2400. A new player's or a junior's K of 40 is the
// federation's to apply.
func EventK(r int) int { return FIDEK(Player{Rating: r, Games: 30}) }

// CapK is the last sentence of art. 8.3.3: if K·n exceeds 700 for the n
// games of the period, K is the largest whole number with K·n ≤ 700.
func CapK(k, n int) int {
	if n > 0 && k*n > 700 {
		return 700 / n
	}
	return k
}

// HalfK is FMJD Annex 9 art. 1.2.2.2: an event at a time control other
// than the official one (not shorter than 3 hours per round) has its
// development factor reduced by 50 %.
func HalfK(k int) float64 { return float64(k) / 2 }

// dpTable is FIDE B.02 table 8.1.1 (checked entry by entry against the
// 2024 text): dpTable[i] is dp for a fractional score p = 0.50 + i/100;
// the lower half is its mirror (.49 → -7, ... .00 → -800). "For a zero or
// 1.0 score dp is necessarily indeterminate but is shown notionally as
// 800" (art. 8.1).
var dpTable = [...]int{
	0, 7, 14, 21, 29, 36, 43, 50, 57, 65, // .50 .. .59
	72, 80, 87, 95, 102, 110, 117, 125, 133, 141, // .60 .. .69
	149, 158, 166, 175, 184, 193, 202, 211, 220, 230, // .70 .. .79
	240, 251, 262, 273, 284, 296, 309, 322, 336, 351, // .80 .. .89
	366, 383, 401, 422, 444, 470, 501, 538, 589, 677, // .90 .. .99
	800, // 1.00
}

// DP is table 8.1.1: the rating difference dp for a fractional score p,
// p rounded to hundredths.
func DP(p float64) int {
	h := int(math.Round(p * 100))
	if h < 0 {
		h = 0
	}
	if h > 100 {
		h = 100
	}
	if h >= 50 {
		return dpTable[h-50]
	}
	return -dpTable[50-h]
}

// Performance is Ra + dp: Ra the average of the opponents' ratings
// (rounded to the nearest whole number), dp from table 8.1.1 for the
// fraction of the points scored. ok is false without games.
func Performance(games []Game) (rp int, ok bool) {
	if len(games) == 0 {
		return 0, false
	}
	sum, pts := 0, 0.0
	for _, g := range games {
		sum += g.Opponent
		pts += g.Score
	}
	ra := int(math.Round(float64(sum) / float64(len(games))))
	return ra + DP(pts/float64(len(games))), true
}

// Initial-rating bounds of FIDE B.02: art. 8.2.3 (at most 2200), art.
// 7.1.4 (at least 5 games against rated opponents, at least 1400) and
// art. 8.2.2 (two hypothetical opponents rated 1800, drawn).
const (
	InitialMax      = 2200
	InitialMin      = 1400
	InitialMinGames = 5
	hypothetical    = 1800
)

// Initial is the rating of an unrated player from their games against
// rated opponents (art. 8.2): Ra is the average of the opponents plus two
// hypothetical opponents rated 1800 against whom the player draws, p the
// score over all those games, Ru = Ra + dp rounded to the nearest whole
// number, at most 2200. ok is false when art. 7.1.4 or 8.2.1 gives no
// rating: fewer than 5 games, a zero score (disregarded), or Ru below 1400.
func Initial(games []Game) (ru int, ok bool) {
	if len(games) < InitialMinGames {
		return 0, false
	}
	sum, pts := 2*hypothetical, 1.0
	scored := 0.0
	for _, g := range games {
		sum += g.Opponent
		pts += g.Score
		scored += g.Score
	}
	if scored == 0 {
		return 0, false
	}
	n := float64(len(games) + 2)
	ra := float64(sum) / n
	ru = int(math.Round(ra + float64(DP(pts/n))))
	if ru > InitialMax {
		ru = InitialMax
	}
	if ru < InitialMin {
		return 0, false
	}
	return ru, true
}
