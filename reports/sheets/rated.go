package sheets

import (
	"fmt"

	"github.com/draughts-arbiter/arbiter/internal/message"
	elo "github.com/draughts-arbiter/arbiter/reports/rating"
)

// ratedGames is a player's rated games in the first upTo rounds that
// count (results in, round not open): by round index, the game and its
// change K·(score − PD) (art. 8.3.2). ok is false for an unrated player.
func (ev *Event) ratedGames(p *Player, es []entry) (games map[int]elo.Game, change map[int]float64, ok bool) {
	if !ev.Rated || p.Rating <= 0 {
		return nil, nil, false
	}
	games, change = map[int]elo.Game{}, map[int]float64{}
	k := p.k()
	for r, e := range es {
		if e.pending || e.Opponent == 0 || ev.Played[r].Open {
			continue
		}
		s, played := elo.GameScore(e.Result)
		o := ev.player(e.Opponent)
		if !played || o == nil || o.Rating <= 0 {
			continue
		}
		g := elo.Game{Opponent: o.Rating, Score: s}
		games[r], change[r] = g, elo.GameChange(p.Rating, k, g)
	}
	return games, change, true
}

// k is the player's K: Player.K, or art. 8.3.3 from the rating alone.
func (p *Player) k() int {
	if p.K > 0 {
		return p.K
	}
	return elo.EventK(p.Rating)
}

// initial is an unrated player's initial rating (FIDE B.02 art. 8.2,
// reports/rating.Initial) from the counted games against rated
// opponents, as the text "initial rating 1993 after 5 games"; "" for a
// rated player, or while the articles give none (fewer than 5 games, a
// zero score, under 1400).
func (ev *Event) initial(p *Player, es []entry) string {
	if !ev.Rated || p.Rating > 0 {
		return ""
	}
	var gs []elo.Game
	for r, e := range es {
		if e.pending || e.Opponent == 0 || ev.Played[r].Open {
			continue
		}
		s, played := elo.GameScore(e.Result)
		if o := ev.player(e.Opponent); played && o != nil && o.Rating > 0 {
			gs = append(gs, elo.Game{Opponent: o.Rating, Score: s})
		}
	}
	ru, ok := elo.Initial(gs)
	if !ok {
		return ""
	}
	return ev.text("sheet.initial", "rating", ru, "games", len(gs))
}

// ratingTotals is the published change (art. 8.3.4, signed) and the
// performance Ra + dp of a player's rated games, "" when there are none.
func ratingTotals(p *Player, games map[int]elo.Game) (change, perf string) {
	if len(games) == 0 {
		return "", ""
	}
	gs := make([]elo.Game, 0, len(games))
	for r := 0; len(gs) < len(games); r++ {
		if g, ok := games[r]; ok {
			gs = append(gs, g)
		}
	}
	c := elo.Round(elo.Change(p.Rating, p.k(), gs))
	rp, _ := elo.Performance(gs)
	return signed(c), fmt.Sprint(rp)
}

func signed(c int) string {
	if c > 0 {
		return fmt.Sprintf("+%d", c)
	}
	if c < 0 {
		return fmt.Sprintf("−%d", -c)
	}
	return "0"
}

// signedTenth prints a game's change to one decimal, as the rating report
// lists it, with the decimal sign of language lang ("+12,3" in Russian).
func signedTenth(lang string, x float64) string {
	s := message.Decimal(lang, x, 1)
	if x > 0 && s != message.Decimal(lang, 0, 1) {
		return "+" + s
	}
	return s
}
