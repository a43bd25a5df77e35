// Package tiebreak ranks the players of a Swiss or round-robin event by
// score and then by an ordered list of tie-breaks, each defined as in the
// FIDE Tie-Break Regulations (Handbook C.07). It reads the event state of
// match/schedule/swiss (players and the history of each round) and knows nothing of
// storage, engines or pages.
//
// The edition followed is the one in force, applied from 1 March 2026
// (Edition2026); the edition applied from 1 August 2024 to 28 February 2026
// (Edition2024) differs only in the score of the dummy opponent of an
// unplayed round (C.07 16.4, see unplayed.go) and can be chosen.
//
// Draughts uses the same ideas under other names: FMJD Swiss events are
// announced as "Swiss system on truncated Solkoff" (2-1-0 scoring), where
// Solkoff is the sum of the opponents' scores (C.07 8.1 Buchholz) and the
// truncated ("gekorte") Solkoff drops the lowest of them (Buchholz Cut-1,
// C.07 14.1). Both names are accepted in a tie-break order.
//
// Imported by configs, reports, reports/sheets and the director; it imports
// only the event vocabulary (rules/tally).
package tiebreak

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// TieBreak is one tie-break of C.07.
type TieBreak int

// The tie-breaks. The article of each is in its name's comment.
const (
	Buchholz          TieBreak = iota + 1 // BH, C.07 8.1 (Solkoff)
	BuchholzCut1                          // BH-C1, 8.1 with the Cut-1 modifier 14.1 (truncated Solkoff)
	BuchholzCut2                          // BH-C2, 8.1 with Cut-2, 14.2
	MedianBuchholz                        // BH-M1, 8.1 with Median-1, 14.3
	SonnebornBerger                       // SB, 9.1 (Neustadtl)
	DirectEncounter                       // DE, 6
	Wins                                  // WIN, 7.1: rounds with a win's points, played or not
	GamesWon                              // WON, 7.2: games won over the board
	GamesWithBlack                        // BPG, 7.3: games played over the board with Black
	WinsWithBlack                         // BWG, 7.4: games won over the board with Black
	ProgressiveScore                      // PS, 7.5: the sum of the running scores (cumulative)
	AverageRating                         // ARO, 10.1: average rating of the opponents
	AverageRatingCut1                     // ARO-C1, 10.1 with Cut-1, 14.1
)

// info is a tie-break's names: the canonical name (the first), the FIDE
// acronym, a heading for tables, and the accepted aliases.
type info struct {
	name, acronym, heading string
	aliases                []string
}

var infos = map[TieBreak]info{
	Buchholz:          {"buchholz", "BH", "Buchholz", []string{"bh", "solkoff"}},
	BuchholzCut1:      {"buchholz-cut1", "BH-C1", "Buchholz C1", []string{"bh-c1", "bh/c1", "truncated-solkoff", "solkoff-cut1", "gekorte-solkoff"}},
	BuchholzCut2:      {"buchholz-cut2", "BH-C2", "Buchholz C2", []string{"bh-c2", "bh/c2", "solkoff-cut2"}},
	MedianBuchholz:    {"median-buchholz", "BH-M1", "Median", []string{"bh-m1", "bh/m1", "buchholz-median", "median", "median-solkoff"}},
	SonnebornBerger:   {"sonneborn-berger", "SB", "SB", []string{"sb", "neustadtl"}},
	DirectEncounter:   {"direct-encounter", "DE", "DE", []string{"de"}},
	Wins:              {"wins", "WIN", "Wins", []string{"win", "number-of-wins"}},
	GamesWon:          {"games-won", "WON", "Won", []string{"won"}},
	GamesWithBlack:    {"games-with-black", "BPG", "Black", []string{"bpg", "black"}},
	WinsWithBlack:     {"wins-with-black", "BWG", "Black wins", []string{"bwg"}},
	ProgressiveScore:  {"progressive", "PS", "Progr.", []string{"ps", "progressive-score", "cumulative"}},
	AverageRating:     {"aro", "ARO", "ARO", []string{"average-rating", "average-rating-of-opponents"}},
	AverageRatingCut1: {"aro-cut1", "ARO-C1", "ARO C1", []string{"aro-c1", "aro/c1", "average-rating-cut1"}},
}

// byName maps every accepted name (lower case) to its tie-break.
var byName = func() map[string]TieBreak {
	m := map[string]TieBreak{}
	for tb, in := range infos {
		m[in.name] = tb
		m[strings.ToLower(in.acronym)] = tb
		for _, a := range in.aliases {
			m[a] = tb
		}
	}
	return m
}()

// String is the canonical name, the one Parse reads and configurations use.
func (tb TieBreak) String() string {
	if in, ok := infos[tb]; ok {
		return in.name
	}
	return fmt.Sprintf("tiebreak(%d)", int(tb))
}

// Acronym is the C.07 acronym (BH-C1, SB, ...).
func (tb TieBreak) Acronym() string { return infos[tb].acronym }

// Heading is a short column heading for standings.
func (tb TieBreak) Heading() string { return infos[tb].heading }

// Power is how many score units are multiplied in a value: 1 for the
// Buchholz family and the progressive score (sums of scores), 2 for
// Sonneborn-Berger (a score times a score), 0 for counts, ratings and the
// direct encounter's place. A printer that shows scores in halves (English
// 1-½-0 from 2-1-0 units) divides a value by 2^Power.
func (tb TieBreak) Power() int {
	switch tb {
	case Buchholz, BuchholzCut1, BuchholzCut2, MedianBuchholz, ProgressiveScore:
		return 1
	case SonnebornBerger:
		return 2
	case DirectEncounter:
		// The place among the tied players; the scores between them are
		// not shown.
		return 0
	}
	return 0
}

// Order is a tie-break order: applied one after the other to players
// equal in score.
type Order []TieBreak

// String is the order as Parse reads it.
func (o Order) String() string {
	names := make([]string, len(o))
	for i, tb := range o {
		names[i] = tb.String()
	}
	return strings.Join(names, ",")
}

// Names lists the canonical names, for help texts and errors.
func Names() []string {
	var names []string
	for _, in := range infos {
		names = append(names, in.name)
	}
	slices.Sort(names)
	return names
}

// MaxOrder bounds the length of an order (a configuration is not a place
// for hundreds of entries); C.07 lists fewer than 30 tie-breaks in all.
const MaxOrder = 16

// Parse reads a tie-break order from a configuration string: names
// separated by commas ("buchholz-cut1,sonneborn-berger,wins"), case and
// blanks around names ignored, the C.07 acronyms (BH-C1, SB, WIN) and the
// draughts names (solkoff, truncated-solkoff) accepted. The empty string is
// the empty order (ties stay shared). A name that is not known, empty or
// repeated is an error naming it and its position.
func Parse(s string) (Order, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > MaxOrder {
		return nil, fmt.Errorf("tiebreak: %d tie-breaks in %q; at most %d", len(parts), s, MaxOrder)
	}
	var o Order
	for i, p := range parts {
		name := strings.ToLower(strings.TrimSpace(p))
		if name == "" {
			return nil, fmt.Errorf("tiebreak: entry %d of %q is empty", i+1, s)
		}
		tb, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("tiebreak: unknown tie-break %q (entry %d of %q); known: %s",
				strings.TrimSpace(p), i+1, s, strings.Join(Names(), ", "))
		}
		if slices.Contains(o, tb) {
			return nil, fmt.Errorf("tiebreak: %q (entry %d of %q) repeats %s", strings.TrimSpace(p), i+1, s, tb)
		}
		o = append(o, tb)
	}
	return o, nil
}

// Format writes a value of tb (as Rank computes it, in scoring units) the
// way the event prints scores: halved when the units are half points
// (2^Power: a Sonneborn-Berger in halves prints quarters as decimals), a ½
// sign for a half, counts and ratings as integers, other fractions to two
// decimals.
func (tb TieBreak) Format(v float64, halves bool) string {
	if halves {
		v /= math.Pow(2, float64(tb.Power()))
	}
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	if f := v - math.Floor(v); f == 0.5 && v > 0 {
		if v < 1 {
			return "½"
		}
		return strconv.FormatFloat(math.Floor(v), 'f', 0, 64) + "½"
	}
	return strings.TrimRight(strconv.FormatFloat(v, 'f', 2, 64), "0")
}
