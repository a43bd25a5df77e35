package director

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"sort"
	"strconv"

	"github.com/draughts-arbiter/arbiter/reports/rating"
	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// RatingRound is a player's rating change from one round's game.
type RatingRound struct {
	Round    int     `json:"round"`
	Opponent int     `json:"opponent"` // the opponent's rating
	Score    float64 `json:"score"`
	Change   float64 `json:"change"` // K·(score − PD), unrounded
}

// RatingLine is one player's rating change over the event.
type RatingLine struct {
	Player int    `json:"player"` // entry id
	Number int    `json:"number"`
	Name   string `json:"name"`
	FedID  string `json:"fed_id,omitempty"`
	Rating int    `json:"rating"`
	K      int    `json:"k"`
	// KFrom is why the player has that K (rating.KSet, KNew, KJunior,
	// K2400, KRating: FIDE B.02 art. 8.3.3).
	KFrom string `json:"k_from"`
	// Rounds are the rated games, by round ([] for none).
	Rounds []RatingRound `json:"rounds"`
	// Total is ΣΔR·K unrounded; Change the published figure (art. 8.3.4).
	Total  float64 `json:"total"`
	Change int     `json:"change"`
	// Performance is Ra + dp over the rated games (0 with none).
	Performance int `json:"performance"`
}

// Ratings is an event's rating changes under FIDE B.02 (reports/rating).
type Ratings struct {
	System string       `json:"system"` // "fide"
	Lines  []RatingLine `json:"lines"`
	// Initial are the unrated players who played rated opponents, with
	// their initial rating so far (art. 8.2; [] for none).
	Initial []InitialLine `json:"initial"`
}

// InitialLine is an unrated player's initial rating from the event's
// games against rated opponents (FIDE B.02 art. 8.2, rating.Initial).
type InitialLine struct {
	Player int     `json:"player"` // entry id
	Number int     `json:"number"`
	Name   string  `json:"name"`
	FedID  string  `json:"fed_id,omitempty"`
	Games  int     `json:"games"` // games against rated opponents
	Score  float64 `json:"score"`
	// Rating is Ru (art. 8.2.3), 0 while the articles give none; None
	// then says why: "games" (fewer than 5, art. 7.1.4), "zero" (no
	// point, disregarded, art. 8.2.1), "low" (under 1400, art. 7.1.4).
	Rating int    `json:"rating"`
	None   string `json:"none,omitempty"`
}

// PlayerK is a player's development coefficient K under FIDE B.02 art.
// 8.3.3 and why (rating.KSet, KNew, ...): the director's K when set (a
// K from the federation's list is one: ApplyRatingList); otherwise 10
// from a rating of 2400, 40 for fewer than 30 rated games before the
// event, 40 to the end of the year of the 18th birthday under 2300, 20
// else. Games and Born of 0 are not known (see Player): such a player is
// not taken as new nor junior. A published rating that reached 2400 and
// dropped below it is the director's to set (K = 10): the event does
// not know the rating's history.
func (sn *Snapshot) PlayerK(p Player) (k int, from string) {
	if p.K > 0 {
		return p.K, rating.KSet
	}
	games := p.Games
	if games == 0 {
		games = rating.NewGames
	}
	return rating.KFor(rating.Player{Rating: p.Rating, Games: games, Junior: rating.Junior(p.Born, sn.Year())})
}

// Year is the year the event is played in: its start date's, or the year
// it was created in without one.
func (sn *Snapshot) Year() int {
	if len(sn.Event.Start) >= 4 {
		if y, err := strconv.Atoi(sn.Event.Start[:4]); err == nil {
			return y
		}
	}
	return sn.Event.Created.Year()
}

// Ratings computes every rated player's change, round by round, from the
// results in so far: games played between two rated players (a rating
// above 0). K is each player's (PlayerK). Players are in pairing-number
// order.
func (sn *Snapshot) Ratings() Ratings {
	byID := map[int]*Player{}
	for i := range sn.Players {
		byID[sn.Players[i].ID] = &sn.Players[i]
	}
	games := map[int][]RatingRound{}
	unrated := map[int][]rating.Game{} // an unrated player's games against rated opponents
	add := func(n int, me, opp *Player, res tally.Result) {
		s, ok := rating.GameScore(res)
		if !ok || me == nil || opp == nil || opp.Rating <= 0 {
			return
		}
		if me.Rating <= 0 {
			unrated[me.ID] = append(unrated[me.ID], rating.Game{Opponent: opp.Rating, Score: s})
			return
		}
		k, _ := sn.PlayerK(*me)
		ch := rating.GameChange(me.Rating, k, rating.Game{Opponent: opp.Rating, Score: s})
		games[me.ID] = append(games[me.ID], RatingRound{Round: n, Opponent: opp.Rating, Score: s, Change: ch})
	}
	for _, rd := range sn.Rounds {
		for _, b := range rd.Boards {
			if !b.Done() {
				continue
			}
			add(rd.N, byID[b.White], byID[b.Black], b.WhiteResult)
			add(rd.N, byID[b.Black], byID[b.White], b.BlackResult)
		}
	}
	out := Ratings{System: string(rating.FIDE), Lines: []RatingLine{}, Initial: []InitialLine{}}
	for _, p := range sn.Players {
		if p.Rating <= 0 {
			if gs := unrated[p.ID]; len(gs) > 0 {
				out.Initial = append(out.Initial, initialLine(p, gs))
			}
			continue
		}
		l := RatingLine{Player: p.ID, Number: p.Number, Name: p.Name, FedID: p.FedID, Rating: p.Rating, Rounds: games[p.ID]}
		l.K, l.KFrom = sn.PlayerK(p)
		if l.Rounds == nil {
			l.Rounds = []RatingRound{}
		}
		gs := make([]rating.Game, len(l.Rounds))
		for i, g := range l.Rounds {
			gs[i] = rating.Game{Opponent: g.Opponent, Score: g.Score}
		}
		l.Total = rating.Change(p.Rating, l.K, gs)
		l.Change = rating.Round(l.Total)
		l.Performance, _ = rating.Performance(gs)
		out.Lines = append(out.Lines, l)
	}
	sort.SliceStable(out.Lines, func(i, j int) bool { return out.Lines[i].Number < out.Lines[j].Number })
	sort.SliceStable(out.Initial, func(i, j int) bool { return out.Initial[i].Number < out.Initial[j].Number })
	return out
}

// initialLine is an unrated player's initial rating from gs, the games
// against rated opponents (art. 8.2), or why there is none yet.
func initialLine(p Player, gs []rating.Game) InitialLine {
	l := InitialLine{Player: p.ID, Number: p.Number, Name: p.Name, FedID: p.FedID, Games: len(gs)}
	for _, g := range gs {
		l.Score += g.Score
	}
	ru, ok := rating.Initial(gs)
	switch {
	case ok:
		l.Rating = ru
	case len(gs) < rating.InitialMinGames:
		l.None = "games"
	case l.Score == 0:
		l.None = "zero"
	default:
		l.None = "low"
	}
	return l
}

// RatingsCSV is the rating report for the federation: one row per rated
// player (number, name, federation id, rating, K, k_from, games, score,
// opponents' average, performance, change, new rating) and, per round,
// the change from that round's game; then a row per unrated player who
// played rated opponents (k_from "initial", new_rating their initial
// rating, empty while art. 8.2 gives none).
func (sn *Snapshot) RatingsCSV() []byte {
	rs := sn.Ratings()
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"number", "name", "fed_id", "rating", "k", "k_from", "games", "score", "opponents_average", "performance", "change", "new_rating"}
	for _, rd := range sn.Rounds {
		head = append(head, fmt.Sprintf("round_%d", rd.N))
	}
	_ = w.Write(head)
	for _, l := range rs.Lines {
		score, sum := 0.0, 0
		per := map[int]float64{}
		for _, g := range l.Rounds {
			score += g.Score
			sum += g.Opponent
			per[g.Round] = g.Change
		}
		avg, perf := "", ""
		if len(l.Rounds) > 0 {
			avg = fmt.Sprint((sum + len(l.Rounds)/2) / len(l.Rounds))
			perf = fmt.Sprint(l.Performance)
		}
		row := []string{fmt.Sprint(l.Number), l.Name, l.FedID, fmt.Sprint(l.Rating), fmt.Sprint(l.K), l.KFrom, fmt.Sprint(len(l.Rounds)),
			fmt.Sprint(score), avg, perf, fmt.Sprintf("%+d", l.Change), fmt.Sprint(l.Rating + l.Change)}
		for _, rd := range sn.Rounds {
			c, ok := per[rd.N]
			if ok {
				row = append(row, fmt.Sprintf("%+.1f", c))
			} else {
				row = append(row, "")
			}
		}
		_ = w.Write(row)
	}
	// Unrated players: their games against rated opponents and the
	// initial rating they give (art. 8.2), k_from "initial".
	for _, l := range rs.Initial {
		ru := ""
		if l.Rating > 0 {
			ru = fmt.Sprint(l.Rating)
		}
		row := []string{fmt.Sprint(l.Number), l.Name, l.FedID, "", "", "initial", fmt.Sprint(l.Games), fmt.Sprint(l.Score), "", "", "", ru}
		for range sn.Rounds {
			row = append(row, "")
		}
		_ = w.Write(row)
	}
	w.Flush()
	return buf.Bytes()
}
