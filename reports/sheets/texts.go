package sheets

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

// english is every fixed text the sheets print, by key, in English: the
// default of each key an Event's Texts leaves out. A {name} in a text is
// filled in by the sheet (a round's number, a score); numbers, dates and
// the event's own data (names, clubs, the variant) are never translated.
// The keys are those of the web client's catalogs (sheet.*), so that a
// server hands the sheets its catalog as it is.
var english = map[string]string{
	// Titles (the page's <title> and heading).
	"sheet.title.pairings":       "Pairings, round {n}",
	"sheet.title.standings":      "Standings after round {n}",
	"sheet.title.crosstable":     "Crosstable",
	"sheet.title.card":           "Player card",
	"sheet.title.cards":          "Player cards",
	"sheet.title.pairings_none":  "Pairings",
	"sheet.title.standings_none": "Standings",
	"sheet.sub.after":            "after round {n}",
	"sheet.sub.after_of":         "after round {n} of {rounds}",
	// Column headings.
	"sheet.col.board":    "Bd",
	"sheet.col.number":   "No.",
	"sheet.col.white":    "White",
	"sheet.col.black":    "Black",
	"sheet.col.points":   "Pts",
	"sheet.col.result":   "Result",
	"sheet.col.rank":     "Rank",
	"sheet.col.name":     "Name",
	"sheet.col.fed":      "Fed",
	"sheet.col.rating":   "Rating",
	"sheet.col.round":    "Rd",
	"sheet.col.round_n":  "R{n}",
	"sheet.col.colour":   "Colour",
	"sheet.col.opponent": "Opponent",
	"sheet.col.score":    "Score",
	// Words in the cells.
	"sheet.colour.white":       "White",
	"sheet.colour.black":       "Black",
	"sheet.colour.w":           "w",
	"sheet.colour.b":           "b",
	"sheet.bye":                "bye",
	"sheet.bye.full":           "full-point bye",
	"sheet.bye.half":           "half-point bye",
	"sheet.absent":             "absent",
	"sheet.grid.bye":           "{points} bye",
	"sheet.card.forfeit":       "{result} forfeit",
	"sheet.card.rating":        "rating {rating}",
	"sheet.card.rating_change": "rating change {change}, performance {performance}",
	"sheet.initial":            "initial rating {rating} after {games} {games|game|games}",
	"sheet.col.rating_change":  "Rating ±",
	"sheet.col.performance":    "Perf.",
	"sheet.legend.rating":      "Rating ± and Perf.: the rating change (games played against rated opponents, by FIDE B.02 art. 8.3, K of each player, art. 8.3.3) and the performance, the opponents' average plus dp (table 8.1.1).",
	"sheet.card.total":         "Total",
	"sheet.pairings.byes":      "Not on a board",
	"sheet.withdrawn":          "withdrawn from round {n}",
	// Navigation between the rounds (screen only).
	"sheet.nav.rounds": "Pairings of round:",
	"sheet.nav.after":  "Standings after round:",
	// The round's print-out: the pairings, then one result slip a board.
	"sheet.title.print":     "Round {n}: pairings and result slips",
	"sheet.slip.title":      "Result slip",
	"sheet.slip.board":      "Round {n}, board {board}",
	"sheet.slip.tick":       "Tick the result; both players sign.",
	"sheet.slip.signature":  "Signature",
	"sheet.slip.white_wins": "White wins",
	"sheet.slip.draw":       "Draw",
	"sheet.slip.black_wins": "Black wins",
	// A sheet with nothing to list yet (Notice), cards without players.
	"sheet.notice.pairings":   "No round has been published yet.",
	"sheet.notice.standings":  "No round has been closed yet: standings appear when round 1 is closed.",
	"sheet.notice.crosstable": "No round has been closed yet: the crosstable appears when round 1 is closed.",
	"sheet.cards.none":        "No player is registered yet.",
	// Legends.
	"sheet.legend.tiebreaks": "Tie-breaks in order (FIDE C.07):",
	"sheet.legend.grid":      "A row's cells: the points against the player in that place; + and − are forfeits, “bye” a bye asked for in place of the game, with its points.",
	"sheet.legend.rounds":    "A round's cell: the opponent's number, w or b for the colour, and the points; + and − are forfeits, a cell without opponent a bye or an absence with its points.",
	// Tie-break column headings (the acronyms stay as C.07 writes them).
	"sheet.tb.buchholz":         "Buchholz",
	"sheet.tb.buchholz-cut1":    "Buchholz C1",
	"sheet.tb.buchholz-cut2":    "Buchholz C2",
	"sheet.tb.median-buchholz":  "Median",
	"sheet.tb.sonneborn-berger": "SB",
	"sheet.tb.direct-encounter": "DE",
	"sheet.tb.wins":             "Wins",
	"sheet.tb.games-won":        "Won",
	"sheet.tb.games-with-black": "Black",
	"sheet.tb.wins-with-black":  "Black wins",
	"sheet.tb.progressive":      "Progr.",
	"sheet.tb.aro":              "ARO",
	"sheet.tb.aro-cut1":         "ARO C1",
}

// Keys lists every text key the sheets print, sorted: what a catalog
// handed in Event.Texts should cover.
func Keys() []string { return slices.Sorted(maps.Keys(english)) }

// English is the built-in English text of key, "" for a key the sheets
// do not have.
func English(key string) string { return english[key] }

// tbKey is the text key of a tie-break's column heading.
func tbKey(tb tiebreak.TieBreak) string { return "sheet.tb." + tb.String() }

// lang is the page's language tag: the event's, "en" when unset.
func (ev *Event) lang() string {
	if ev.Lang == "" {
		return "en"
	}
	return ev.Lang
}

// text is key's text in the event's language, {name} (and a number's
// {name|form|...}) filled from args (name, value pairs) by message.FillIn:
// Texts' entry, else the English default. A key without a default is a
// bug the tests catch; it prints as the key.
func (ev *Event) text(key string, args ...any) string {
	s := ev.Texts[key]
	if strings.TrimSpace(s) == "" {
		s = english[key]
	}
	if s == "" {
		s = key
	}
	filled := make(map[string]string, len(args)/2)
	for i := 0; i+1 < len(args); i += 2 {
		filled[fmt.Sprint(args[i])] = fmt.Sprint(args[i+1])
	}
	return message.FillIn(ev.lang(), s, filled)
}
