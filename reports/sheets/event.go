// Package sheets prints the paper of a Swiss or round-robin event, for
// people or engines alike: the pairing sheet of a round, the standings
// after a round with their tie-break columns, the crosstable and a
// player's card. Each is a whole HTML page from html/template, readable on
// a phone or a desktop and printable on A4 in black and white (a sheet a
// director pins on the wall). The input is a plain Event that the director
// server (or anything else) fills in; sheets knows nothing of storage.
//
// Imported by the HTTP front (match/web); it imports the event vocabulary
// (rules/tally), the tie-breaks and the rating rules (reports/rating),
// never match.
package sheets

import (
	"fmt"
	"slices"
	"sort"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

// Event is everything the sheets print.
type Event struct {
	Name, Site, Dates string
	Variant           string // as the rules name it ("international", "english"); printed only
	System            string // "Swiss (Dutch)", "Round-robin"; printed only
	Rounds            int    // rounds planned; 0 when unknown
	// Scoring is in integer units (zero value: tally.DefaultScoring, 2-1-0).
	Scoring tally.Scoring
	// Halves prints every score at half its units: English checkers'
	// 1-½-0 from 2-1-0 units. FMJD events print the integers.
	Halves  bool
	Players []Player
	// Rounds paired so far, in order; the last may still have results
	// pending.
	Played     []Round
	TieBreaks  tiebreak.Order
	RoundRobin bool             // pre-determined pairings (forfeits count as games, C.07)
	Edition    tiebreak.Edition // C.07 edition; zero value: the one in force
	// Links are shown above a sheet on screen (the server's navigation)
	// and never printed; RoundLinks (each round's pairings) and
	// AfterLinks (the standings after each closed round) under them, each
	// labelled by its round's number. The links whose Href is one of
	// Current are marked as the page shown (the event's address and its
	// last round's are one page).
	Links      []Link
	RoundLinks []Link
	AfterLinks []Link
	// LangLinks offer the sheet in the other languages, each labelled in
	// its own (on screen only): a reader whose browser says another
	// language has no other way to switch.
	LangLinks []Link
	Current   []string
	// Rated prints the rating change of each rated game (FIDE B.02 art.
	// 8.3, reports/rating, K: Player.K) on the cards,
	// and the change and performance of each player on the standings.
	Rated bool
	// Lang is the language tag of the page (<html lang>); "" is "en".
	Lang string
	// Texts are the sheets' fixed texts in Lang, by key (Keys lists them;
	// a {name} in one is filled in by the sheet). A key missing or empty
	// prints its English default, so nil prints English.
	Texts map[string]string
}

// Link is a navigation link of the screen layout.
type Link struct{ Label, Href string }

// Player is one entrant.
type Player struct {
	Number                         int // pairing number, 1-based
	Name, Club, Federation, FideID string
	Rating                         int    // 0: unrated
	Title                          string // printed before the name ("GMI")
	// K is the player's development coefficient (FIDE B.02 art. 8.3.3,
	// the director's Snapshot.PlayerK); 0 takes it from the rating alone
	// (rating.EventK).
	K int
	// Withdrawn is the first round the player no longer plays (0: still
	// in): the pairing sheets of that round on do not list them as absent,
	// the cards leave them out, and the standings and the crosstable
	// leave them out when they played no game and had no bye worth points.
	Withdrawn int
}

// Round is one paired round.
type Round struct {
	Date   string // printed only
	Boards []Board
	Byes   []Bye // players not on a board: byes, absences
	// Open marks a round not closed yet, whose results may still change
	// even when all are in: its pairing sheet prints them, but the
	// crosstable and the standings count the rounds before it only, and
	// the cards show it pending, outside their totals. The zero value is a
	// round that counts as soon as its results are in.
	Open bool
}

// Board is one game: pairing numbers of White and Black, and its result.
type Board struct {
	White, Black int
	Result       Result
	// Label is the result as the event writes it ("2-0", "½-½", "1-0 by
	// forfeit"), printed on the pairing sheet; "" prints the sheet's own
	// form of Result.
	Label string
	// WhiteBye and BlackBye mark a side that did not play a scheduled game
	// because it asked for a bye (a round-robin keeps the board on its
	// table; the opponent wins by forfeit): its kind, tally.HalfBye,
	// FullBye or ZeroBye; 0 for a side that played or forfeited. The
	// sheets show that side's round as the bye, not as a forfeit.
	WhiteBye, BlackBye tally.Result
}

// Result is a board's result.
type Result int8

// Results. Forfeits are unplayed games (C.07 16.2): the absent side loses.
const (
	Pending         Result = iota // not in yet
	WhiteWins                     // over the board
	Draw                          // over the board
	BlackWins                     // over the board
	WhiteForfeitWin               // Black did not appear
	BlackForfeitWin               // White did not appear
	DoubleForfeit                 // neither appeared
)

// Bye is a player off the boards in a round, with the TRF code of what the
// round gave: tally.PairingBye (the pairing-allocated bye), tally.FullBye,
// tally.HalfBye, tally.ZeroBye (a requested zero-point bye, an absence, a
// withdrawal). A player on no board and in no bye is absent (ZeroBye).
type Bye struct {
	Player int
	Kind   tally.Result
}

// limits keep a page bounded whatever the input says.
const (
	maxPlayers = 5000
	maxRounds  = 100
)

// check validates the event: numbers known and unique, each player at most
// once per round, byes of a known kind.
func (ev *Event) check() error {
	if len(ev.Players) > maxPlayers {
		return fmt.Errorf("sheets: %d players; at most %d", len(ev.Players), maxPlayers)
	}
	if len(ev.Played) > maxRounds {
		return fmt.Errorf("sheets: %d rounds; at most %d", len(ev.Played), maxRounds)
	}
	seen := map[int]bool{}
	for i, p := range ev.Players {
		if p.Number <= 0 {
			return fmt.Errorf("sheets: player %d (%q) has pairing number %d; numbers start at 1", i+1, p.Name, p.Number)
		}
		if seen[p.Number] {
			return fmt.Errorf("sheets: pairing number %d is given to two players", p.Number)
		}
		seen[p.Number] = true
	}
	for r, rd := range ev.Played {
		in := map[int]string{}
		place := func(n int, where string) error {
			if !seen[n] {
				return fmt.Errorf("sheets: round %d %s: player %d is not registered", r+1, where, n)
			}
			if prev, ok := in[n]; ok {
				return fmt.Errorf("sheets: round %d: player %d is on %s and %s", r+1, n, prev, where)
			}
			in[n] = where
			return nil
		}
		for b, bd := range rd.Boards {
			where := fmt.Sprintf("board %d", b+1)
			if err := place(bd.White, where); err != nil {
				return err
			}
			if err := place(bd.Black, where); err != nil {
				return err
			}
			if bd.Result < Pending || bd.Result > DoubleForfeit {
				return fmt.Errorf("sheets: round %d board %d: unknown result %d", r+1, b+1, bd.Result)
			}
			for _, k := range []tally.Result{bd.WhiteBye, bd.BlackBye} {
				switch k {
				case 0, tally.FullBye, tally.HalfBye, tally.ZeroBye:
				default:
					return fmt.Errorf("sheets: round %d board %d: a side's bye has kind %q; want F, H or Z", r+1, b+1, k)
				}
			}
		}
		for _, by := range rd.Byes {
			if err := place(by.Player, "a bye"); err != nil {
				return err
			}
			switch by.Kind {
			case tally.PairingBye, tally.FullBye, tally.HalfBye, tally.ZeroBye:
			default:
				return fmt.Errorf("sheets: round %d: bye of player %d has kind %q; want U, F, H or Z", r+1, by.Player, by.Kind)
			}
		}
	}
	return nil
}

func (ev *Event) scoring() tally.Scoring {
	if ev.Scoring == (tally.Scoring{}) {
		return tally.DefaultScoring
	}
	return ev.Scoring
}

// complete reports whether every board of round r (0-based) has a result.
func (ev *Event) complete(r int) bool {
	for _, b := range ev.Played[r].Boards {
		if b.Result == Pending {
			return false
		}
	}
	return true
}

// completed is the number of rounds from the first that are complete and
// not open: those the crosstable counts.
func (ev *Event) completed() int {
	n := 0
	for n < len(ev.Played) && ev.complete(n) && !ev.Played[n].Open {
		n++
	}
	return n
}

// entry is one round of one player: the swiss entry, and whether the
// result is still pending; scheduled is the opponent of the game a bye
// on a board replaced (a round-robin), 0 otherwise.
type entry struct {
	tally.Entry
	pending   bool
	scheduled int
}

// codes are White's and Black's TRF codes of a board's result (0 pending).
func (r Result) codes() (tally.Result, tally.Result) {
	switch r {
	case WhiteWins:
		return tally.Win, tally.Loss
	case Draw:
		return tally.Draw, tally.Draw
	case BlackWins:
		return tally.Loss, tally.Win
	case WhiteForfeitWin:
		return tally.ForfeitWin, tally.ForfeitLoss
	case BlackForfeitWin:
		return tally.ForfeitLoss, tally.ForfeitWin
	case DoubleForfeit:
		return tally.ForfeitLoss, tally.ForfeitLoss
	}
	return 0, 0
}

// entries gives every player's rounds 1..upTo (players in ev.Players
// order). A pending board gives a pending entry with the opponent and
// colour known.
func (ev *Event) entries(upTo int) [][]entry {
	idx := make(map[int]int, len(ev.Players))
	for i, p := range ev.Players {
		idx[p.Number] = i
	}
	out := make([][]entry, len(ev.Players))
	for i := range out {
		out[i] = make([]entry, upTo)
		for r := range upTo {
			out[i][r] = entry{Entry: tally.Entry{Result: tally.ZeroBye}} // absent unless placed
		}
	}
	for r := range upTo {
		rd := ev.Played[r]
		for _, b := range rd.Boards {
			w, bl := b.Result.codes()
			pending := b.Result == Pending
			out[idx[b.White]][r] = entry{Entry: tally.Entry{Opponent: b.Black, Color: tally.White, Result: w}, pending: pending}
			out[idx[b.Black]][r] = entry{Entry: tally.Entry{Opponent: b.White, Color: tally.Black, Result: bl}, pending: pending}
			// A side's bye is a bye, without opponent or colour, as the
			// tie-breaks read it; the opponent keeps the forfeit win.
			if b.WhiteBye != 0 {
				out[idx[b.White]][r] = entry{Entry: tally.Entry{Result: b.WhiteBye}, scheduled: b.Black}
			}
			if b.BlackBye != 0 {
				out[idx[b.Black]][r] = entry{Entry: tally.Entry{Result: b.BlackBye}, scheduled: b.White}
			}
		}
		for _, by := range rd.Byes {
			out[idx[by.Player]][r] = entry{Entry: tally.Entry{Result: by.Kind}}
		}
	}
	return out
}

// swissPlayers is the event state after round upTo (all complete), for
// the tie-breaks.
func (ev *Event) swissPlayers(upTo int) []tally.Player {
	es := ev.entries(upTo)
	out := make([]tally.Player, len(ev.Players))
	for i, p := range ev.Players {
		h := make([]tally.Entry, upTo)
		for r := range upTo {
			h[r] = es[i][r].Entry
		}
		out[i] = tally.Player{Number: p.Number, Rating: p.Rating, History: h}
	}
	return out
}

// IsCurrent reports whether href is the page shown (Current).
func (ev *Event) IsCurrent(href string) bool { return slices.Contains(ev.Current, href) }

// bySeed is the indexes of ev.Players in the order of their numbers.
func (ev *Event) bySeed() []int {
	out := make([]int, len(ev.Players))
	for i := range out {
		out[i] = i
	}
	sort.SliceStable(out, func(a, b int) bool { return ev.Players[out[a]].Number < ev.Players[out[b]].Number })
	return out
}

// listedPlayers is swissPlayers less the players who withdrew having
// played no game and had no bye worth points in the rounds counted (a
// player entered by mistake, a no-show): nobody's opponent, nothing to
// rank.
func (ev *Event) listedPlayers(upTo int) []tally.Player {
	all := ev.swissPlayers(upTo)
	out := all[:0:0]
	for i, sp := range all {
		if ev.Players[i].Withdrawn == 0 || took(sp.History) {
			out = append(out, sp)
		}
	}
	return out
}

// took reports whether a history has a game (or a forfeit) or a bye
// worth points.
func took(h []tally.Entry) bool {
	for _, e := range h {
		if e.Opponent != 0 || e.Result != tally.ZeroBye {
			return true
		}
	}
	return false
}
