package director

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss/trf"
)

// TRF is the event as a TRF16 file holds it (match/schedule/swiss/trf): the header,
// one line per player with every closed round, the ranks of the
// standings, the number of rounds (XXR), the colour drawn for the first
// player (XXC, when set), the event's point system (XXS) and the
// forbidden pairings (XXP, or 260 for some rounds).
func (sn *Snapshot) TRF() (*trf.Event, error) {
	e := &sn.Event
	typ := "Individual: Swiss-System Dutch"
	if e.Pairing == swiss.Burstein.String() {
		typ = "Individual: Swiss-System Burstein"
	}
	if e.System == RoundRobin {
		typ = "Individual: Round-Robin"
	}
	tenths := 10
	if e.HalfPoints {
		tenths = 5
	}
	ps := trf.PointSystemOf(e.Scoring, tenths)
	out := &trf.Event{
		Name: clip(e.Name, 100), City: clip(e.Site, 100), StartDate: strings.ReplaceAll(e.Start, "-", "/"),
		EndDate: strings.ReplaceAll(e.End, "-", "/"), NumPlayers: len(sn.Players), Type: typ,
		TimeControl: clip(e.TimeControl, 100), Rounds: e.Rounds, FirstColor: e.FirstColor, PointSystem: &ps,
	}
	if e.System == Swiss {
		out.Forbidden = sn.trfForbidden()
	}
	if e.Pairing == swiss.Burstein.String() {
		out.System = "FIDE_BURSTEIN" // 192, when written as TRF-2026
	}
	rank := map[int]int{}
	if st, err := sn.Standings(); err == nil {
		for _, s := range st {
			rank[s.Player.Number] = s.Rank
		}
	}
	state := sn.State()
	for pos, p := range state {
		pl := sn.ByNumber(p.Number)
		if pl == nil {
			return nil, fmt.Errorf("director: event %s: no player number %d", e.ID, p.Number)
		}
		if p.Rating > 0 {
			out.RatedPlayers++
		}
		t := trf.Player{Player: p, Name: clip(pl.Name, 33), Rank: rank[p.Number], Points: p.Score(e.Scoring) * tenths}
		if len(pl.Federation) == 3 {
			t.Federation = pl.Federation
		}
		t.Title = trfTitle(pl.Title)
		if len(pl.FedID) <= 11 && strings.IndexFunc(pl.FedID, func(r rune) bool { return r < '0' || r > '9' }) < 0 {
			t.FIDEID = pl.FedID
		}
		t.Absent = false
		// The byes asked for the next round go in its column (0000 - H,
		// F or Z), where bbpPairings and JaVaFo read them when pairing it;
		// only when every round paired is closed, as an open round has no
		// column. Requests for later rounds are not written: a pairing
		// program would read their column as a round played.
		if k, ok := sn.Requested[sn.Next()][pl.ID]; ok && sn.Closed() == len(sn.Rounds) && sn.Next() <= e.Rounds {
			t.History = append(slices.Clone(t.History), tally.Entry{Result: k})
		}
		t.Acceleration = sn.bakuTenths(len(state), pos, tenths)
		out.Players = append(out.Players, t)
	}
	return out, nil
}

// trfTitles are the codes TRF16 allows in a player's title field (columns
// 11-13: "GM, IM, WGM, FM, WIM, CM, WFM, WCM", FIDE Handbook C.04 Annex 2),
// by their place in the seeding (TitleRank).
var trfTitles = map[int]string{1: "GM", 2: "WGM", 3: "IM", 4: "WIM", 5: "FM", 6: "WFM", 7: "CM", 8: "WCM"}

// trfTitle is a player's title as TRF16 writes it: an FMJD title takes
// the code of the FIDE title in its place (GMI GM, GMIF WGM, MI IM, MIF
// WIM, MF FM, MFF WFM, CMF CM), as the seeding already ranks them; a title
// the table does not know is left out rather than written in a field
// that allows only those codes.
func trfTitle(title string) string { return trfTitles[TitleRank(title)] }

// WriteTRF writes the event as TRF16.
func (sn *Snapshot) WriteTRF(w io.Writer) error {
	ev, err := sn.TRF()
	if err != nil {
		return err
	}
	if err := trf.Write(w, ev); err != nil {
		return fmt.Errorf("director: TRF of event %s: %w", sn.Event.ID, err)
	}
	return nil
}

// clip cuts s to n runes.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// bakuTenths is the Baku acceleration (C.04.5.1) of the player at
// position pos of n in tenths of a point for each accelerated round, as
// the XXA record writes it (nil when the event is not accelerated or the
// player is in group B): the file then pairs the same in any program
// that reads XXA (bbpPairings, JaVaFo), not only in one that knows Baku.
func (sn *Snapshot) bakuTenths(n, pos, tenths int) []int {
	e := &sn.Event
	if !e.Baku || e.System != Swiss {
		return nil
	}
	opt := e.Options()
	var out []int
	for r := 1; r <= e.Rounds; r++ {
		v := swiss.BakuPoints(opt, n, pos, r)
		if v == 0 {
			break
		}
		out = append(out, v*tenths)
	}
	return out
}
