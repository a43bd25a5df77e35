package reports

import (
	"fmt"
	"math"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
	"github.com/draughts-arbiter/arbiter/rules"
)

// SwissEvent says that an event is a Swiss: its games are encounters
// (GamesPerEncounter colour-reversed games of one opening between two
// engines), and an encounter's score (more points than the opponent over
// its games: a win; as many: a draw) is the Swiss result of the round.
// The report then adds the Swiss standings, ordered by the Swiss score and
// TieBreaks.
type SwissEvent struct {
	Rounds            int // planned
	GamesPerEncounter int
	// TieBreaks are the tie-breaks after the score, in order; names as
	// tiebreak.Parse reads them.
	TieBreaks []string
}

// SwissStandings are a Swiss event's standings after its complete rounds.
type SwissStandings struct {
	Rounds   int `json:"rounds"`          // planned
	Complete int `json:"rounds_complete"` // rounds whose every encounter is finished
	// TieBreaks name the columns of each row's TieBreaks, in order
	// (reports/tiebreak's names), Acronyms as FIDE C.07 writes them.
	TieBreaks []string   `json:"tie_breaks"`
	Acronyms  []string   `json:"tie_break_acronyms"`
	Rows      []SwissRow `json:"rows"`
}

// SwissRow is one engine's line of the Swiss standings. Points and the
// tie-breaks are on the federation's scale (Scoring): an encounter won
// counts as a game won.
type SwissRow struct {
	Rank   int     `json:"rank"`   // tied engines share a rank
	Number int     `json:"number"` // pairing number: the seeding order, 1-based
	Name   string  `json:"name"`
	Points float64 `json:"points"`
	// TieBreaks are the values of SwissStandings.TieBreaks.
	TieBreaks []float64 `json:"tie_breaks"`
	// Won, Drawn, Lost count the encounters played; Byes the rounds out.
	Won   int `json:"won"`
	Drawn int `json:"drawn"`
	Lost  int `json:"lost"`
	Byes  int `json:"byes"`
	// Rounds is the engine's round by round history.
	Rounds []SwissRound `json:"rounds"`
}

// SwissRound is one round of an engine's history.
type SwissRound struct {
	// Opponent is the opponent's name and number ("" and 0 for a bye).
	Opponent string `json:"opponent,omitempty"`
	Number   int    `json:"opponent_number,omitempty"`
	// Color is "white" when the engine had White in the first game of
	// each pair, "black" otherwise, "" for a bye.
	Color string `json:"color,omitempty"`
	// Result is "win", "draw", "loss" or "bye".
	Result string `json:"result"`
}

// Code is the round as a crosstable writes it: the opponent's number, the
// colour and the result, "12w+" (won with White against number 12), "bye".
func (r SwissRound) Code() string {
	if r.Opponent == "" {
		return r.Result
	}
	res := map[string]string{"win": "+", "draw": "=", "loss": "-"}[r.Result]
	return fmt.Sprintf("%d%c%s", r.Number, r.Color[0], res)
}

// SwissHistories rebuilds the Swiss players (pairing number i+1 for
// engines[i]) from the games of an event whose encounters have gpe games:
// the rounds 1, 2, ... up to the first one not complete (an encounter
// with fewer finished games, fewer than len(engines)/2 encounters). It
// returns the players and the number of complete rounds. An encounter's
// White is the White of its first game (the lowest Pair, the first game
// listed); the engine on no board of a complete round had the
// pairing-allocated bye. A game without a score ("*", "0-0") gives its
// encounter no points.
func SwissHistories(engines []string, games []Game, gpe int) ([]tally.Player, int, error) {
	if gpe <= 0 {
		return nil, 0, fmt.Errorf("reports: Swiss encounters of %d games", gpe)
	}
	index := make(map[string]int, len(engines))
	for i, e := range engines {
		index[e] = i
	}
	type board struct {
		round, board int
		white, black int
		pair         int // lowest pair seen
		games        int
		points       [2]float64 // white's, black's over the encounter
	}
	boards := map[[2]int]*board{}
	for gi := range games {
		g := &games[gi]
		wi, ok1 := index[g.White]
		bi, ok2 := index[g.Black]
		if !ok1 || !ok2 || wi == bi {
			return nil, 0, fmt.Errorf("reports: %s: not a game between two of the Swiss event's engines", g.describe(gi))
		}
		k := [2]int{g.Round, g.Board}
		b := boards[k]
		if b == nil {
			b = &board{round: g.Round, board: g.Board, white: wi, black: bi, pair: g.Pair}
			boards[k] = b
		} else if g.Pair < b.pair {
			b.pair, b.white, b.black = g.Pair, wi, bi
		}
		if !(wi == b.white && bi == b.black || wi == b.black && bi == b.white) {
			return nil, 0, fmt.Errorf("reports: %s: round %d board %d is an encounter of %s and %s", g.describe(gi), g.Round, g.Board,
				engines[b.white], engines[b.black])
		}
		b.games++
		o, err := parseResult(g.Result)
		if err != nil || !o.Scored() {
			continue
		}
		pw, pb := o.Points(rules.White), o.Points(rules.Black)
		if wi == b.white {
			b.points[0] += pw
			b.points[1] += pb
		} else {
			b.points[0] += pb
			b.points[1] += pw
		}
	}
	byRound := map[int][]*board{}
	for _, b := range boards {
		byRound[b.round] = append(byRound[b.round], b)
	}
	players := make([]tally.Player, len(engines))
	for i := range players {
		players[i].Number = i + 1
	}
	n := len(engines)
	complete := 0
	for r := 1; ; r++ {
		bs := byRound[r]
		if len(bs) > n/2 {
			return nil, 0, fmt.Errorf("reports: round %d has %d boards; %d engines make %d", r, len(bs), n, n/2)
		}
		if len(bs) != n/2 || n/2 == 0 {
			break
		}
		full := true
		for _, b := range bs {
			full = full && b.games == gpe
		}
		if !full {
			break
		}
		played := make([]bool, n)
		entries := make([]tally.Entry, n)
		for _, b := range bs {
			if played[b.white] || played[b.black] {
				return nil, 0, fmt.Errorf("reports: round %d: %s or %s plays on two boards", r, engines[b.white], engines[b.black])
			}
			played[b.white], played[b.black] = true, true
			rw, rb := tally.Draw, tally.Draw
			switch {
			case b.points[0] > b.points[1]:
				rw, rb = tally.Win, tally.Loss
			case b.points[0] < b.points[1]:
				rw, rb = tally.Loss, tally.Win
			}
			entries[b.white] = tally.Entry{Opponent: b.black + 1, Color: tally.White, Result: rw}
			entries[b.black] = tally.Entry{Opponent: b.white + 1, Color: tally.Black, Result: rb}
		}
		for i := range players {
			if !played[i] {
				entries[i] = tally.Entry{Result: tally.PairingBye}
			}
			players[i].History = append(players[i].History, entries[i])
		}
		complete = r
	}
	return players, complete, nil
}

// SwissTable ranks Swiss players (pairing number i+1 for engines[i]) by
// their score under tally.DefaultScoring, then by the tie-breaks in order
// (reports/tiebreak, FIDE C.07 with its rules for unplayed rounds; names
// as tiebreak.Parse reads them), then by pairing number, and shows points
// and tie-breaks on the federation's scale sc. planned is the event's
// number of rounds.
func SwissTable(engines []string, players []tally.Player, sc Scoring, planned int, tieBreaks []string) (*SwissStandings, error) {
	if len(players) != len(engines) {
		return nil, fmt.Errorf("reports: %d Swiss players for %d engines", len(players), len(engines))
	}
	order, err := tiebreak.Parse(strings.Join(tieBreaks, ","))
	if err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	scoring := tally.DefaultScoring
	ranked, err := tiebreak.Rank(players, order, tiebreak.Options{Scoring: scoring})
	if err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	scale := sc.Win / float64(scoring.Win) // units -> federation points
	out := &SwissStandings{Rounds: planned}
	for _, tb := range order {
		out.TieBreaks = append(out.TieBreaks, tb.String())
		out.Acronyms = append(out.Acronyms, tb.Acronym())
	}
	if len(players) > 0 {
		out.Complete = len(players[0].History)
	}
	rows := make([]SwissRow, len(players))
	for i, p := range players {
		if p.Number != i+1 {
			return nil, fmt.Errorf("reports: Swiss player %d has pairing number %d", i+1, p.Number)
		}
		row := SwissRow{Number: i + 1, Name: engines[i]}
		for _, e := range p.History {
			if !e.Played() || e.Opponent < 1 || e.Opponent > len(players) {
				row.Byes++
				row.Rounds = append(row.Rounds, SwissRound{Result: "bye"})
				continue
			}
			rd := SwissRound{Opponent: engines[e.Opponent-1], Number: e.Opponent, Color: "white"}
			if e.Color == tally.Black {
				rd.Color = "black"
			}
			switch scoring.Points(e.Result) {
			case scoring.Win:
				row.Won++
				rd.Result = "win"
			case scoring.Draw:
				row.Drawn++
				rd.Result = "draw"
			default:
				row.Lost++
				rd.Result = "loss"
			}
			row.Rounds = append(row.Rounds, rd)
		}
		rows[i] = row
	}
	for _, s := range ranked {
		row := rows[s.Number-1]
		row.Rank, row.Points = s.Rank, float64(s.Score)*scale
		for k, v := range s.Values {
			// A value is in score units to the tie-break's power.
			row.TieBreaks = append(row.TieBreaks, v*math.Pow(scale, float64(order[k].Power())))
		}
		out.Rows = append(out.Rows, row)
	}
	return out, nil
}

// swissStandings are the Swiss standings of ev (nil when it is not a
// Swiss).
func swissStandings(ev Event, engines []string, sc Scoring) (*SwissStandings, error) {
	if ev.Swiss == nil {
		return nil, nil
	}
	players, _, err := SwissHistories(engines, ev.Games, ev.Swiss.GamesPerEncounter)
	if err != nil {
		return nil, err
	}
	return SwissTable(engines, players, sc, ev.Swiss.Rounds, ev.Swiss.TieBreaks)
}
