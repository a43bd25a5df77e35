package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/reports/sheets"
)

// sheetEvent is the event as reports/sheets prints it: the rounds in sn
// (the caller has left out those not public), players by pairing number.
func sheetEvent(sn *director.Snapshot) *sheets.Event {
	e := &sn.Event
	dates := e.Start
	if e.End != "" && e.End != e.Start {
		dates += " – " + e.End
	}
	system := "Swiss (Dutch)"
	if e.System == director.RoundRobin {
		system = "Round-robin"
	}
	order, _ := e.TieBreakOrder() // checked when the event was made
	out := &sheets.Event{Name: e.Name, Site: e.Site, Dates: strings.TrimSpace(dates), Variant: e.Variant, System: system,
		Rounds: e.Rounds, Scoring: e.Scoring, Halves: e.HalfPoints, TieBreaks: order, RoundRobin: e.System == director.RoundRobin}
	num := func(id int) int {
		if p := sn.Player(id); p != nil {
			return p.Number
		}
		return 0
	}
	rated := 0
	for _, p := range sn.Players {
		k, _ := sn.PlayerK(p)
		out.Players = append(out.Players, sheets.Player{Number: p.Number, Name: p.Name, Club: p.Club, Federation: p.Federation, FideID: p.FedID,
			Rating: p.Rating, Title: p.Title, Withdrawn: p.Withdrawn, K: k})
		if p.Rating > 0 {
			rated++
		}
	}
	// The rating columns appear once a rated game is possible: two rated
	// players (the figures are the director's page's, Snapshot.Ratings).
	out.Rated = rated >= 2
	for _, rd := range sn.Rounds {
		// A round counts on the sheets once closed, as in Standings and the
		// TRF: the director may still correct a result before.
		sr := sheets.Round{Open: rd.State != director.Closed}
		on := map[int]bool{}
		for _, b := range rd.Boards {
			on[b.White], on[b.Black] = true, true
			sr.Boards = append(sr.Boards, sheets.Board{White: num(b.White), Black: num(b.Black), Result: sheetResult(b), Label: e.ResultLabel(b),
				WhiteBye: director.RequestedBye(b.WhiteResult), BlackBye: director.RequestedBye(b.BlackResult)})
		}
		if rd.Bye != 0 {
			sr.Byes = append(sr.Byes, sheets.Bye{Player: num(rd.Bye), Kind: tally.PairingBye})
		}
		for pid, k := range rd.Absent {
			if !on[pid] {
				sr.Byes = append(sr.Byes, sheets.Bye{Player: num(pid), Kind: k})
			}
		}
		out.Played = append(out.Played, sr)
	}
	id := e.ID
	out.Links = []sheets.Link{
		{Label: "Pairings", Href: "/e/" + id},
		{Label: "Standings", Href: "/e/" + id + "/standings"},
		{Label: "Crosstable", Href: "/e/" + id + "/crosstable"},
		{Label: "Cards", Href: "/e/" + id + "/cards"},
		{Label: "TRF", Href: "/e/" + id + "/trf"},
	}
	// The PDN holds the games played online: without one it would be an
	// empty file, and there is no link to it.
	for _, rd := range sn.Rounds {
		if rd.State != director.Paired && slices.ContainsFunc(rd.Boards, func(b director.Board) bool { return b.Game != "" }) {
			out.Links = append(out.Links, sheets.Link{Label: "PDN", Href: "/e/" + id + "/pdn"})
			break
		}
	}
	// Every round's pairings, the standings after each closed round, and
	// the last round's print-out.
	for i, rd := range sn.Rounds {
		n := strconv.Itoa(i + 1)
		out.RoundLinks = append(out.RoundLinks, sheets.Link{Label: n, Href: "/e/" + id + "/round/" + n})
		if rd.State == director.Closed {
			out.AfterLinks = append(out.AfterLinks, sheets.Link{Label: n, Href: "/e/" + id + "/standings/" + n})
		}
	}
	if n := len(sn.Rounds); n > 0 {
		out.Links = append(out.Links, sheets.Link{Label: "Print the round", Href: fmt.Sprintf("/e/%s/round/%d/print", id, n)},
			sheets.Link{Label: "Live boards", Href: fmt.Sprintf("/e/%s/round/%d/boards", id, n)}) // boards_live.go
	}
	return out
}

// sheetResult is a board's result as the sheets print it. A side with a
// bye (a round-robin's absent player) has no game: the other side wins by
// forfeit, and the board's WhiteBye or BlackBye shows the bye itself.
func sheetResult(b director.Board) sheets.Result {
	if !b.Done() {
		return sheets.Pending
	}
	// A game played but not rated (W D L, from a TRF) shows as played.
	w, bl := director.Rated(b.WhiteResult), director.Rated(b.BlackResult)
	switch {
	case w == tally.Win && bl == tally.Loss:
		return sheets.WhiteWins
	case w == tally.Loss && bl == tally.Win:
		return sheets.BlackWins
	case w == tally.Draw:
		return sheets.Draw
	case w == tally.ForfeitWin:
		return sheets.WhiteForfeitWin
	case bl == tally.ForfeitWin:
		return sheets.BlackForfeitWin
	}
	return sheets.DoubleForfeit
}

// eventSheet serves one public sheet of an event: "pairings" (the round in
// the path, or the last published one), "print" (the round's pairings and
// result slips), "standings" (after the round in the path, or the last
// closed one), "crosstable", "cards".
func (s *Server) eventSheet(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Language") // the sheet's language (sheetLang)
		id := r.PathValue("id")
		if id == "" || len(id) > 64 {
			writeCodeFor(w, r, http.StatusNotFound, codeNotFound, nil)
			return
		}
		lang, chosen := sheetLang(r)
		key := sheetKey{kind: kind, id: id, lang: lang, chosen: chosen}
		if v := r.PathValue("n"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				writeCodeFor(w, r, http.StatusNotFound, codeNotFound, nil)
				return
			}
			key.n = n
		}
		noteGame(r, "event:"+id, "public")
		s.sheets.get(key, s.dir.Generation(), func(w http.ResponseWriter) { s.drawSheet(w, r, kind) }).send(w)
	}
}

// drawSheet draws the sheet kind of the request's event (eventSheet keeps
// what it draws).
func (s *Server) drawSheet(w http.ResponseWriter, r *http.Request, kind string) {
	{
		sn, ok := s.publicEvent(w, r)
		if !ok {
			return
		}
		ev := sheetEvent(sn)
		lang, chosen := sheetLang(r)
		localizeSheet(ev, sn, lang, chosen)
		q := ""
		if chosen {
			q = "?lang=" + lang
		}
		ev.Current = []string{r.URL.Path + q, r.URL.Path + "?lang=" + lang}
		for _, l := range sheetLangs {
			ev.LangLinks = append(ev.LangLinks, sheets.Link{Label: langNames[l], Href: r.URL.Path + "?lang=" + l})
		}
		var buf bytes.Buffer
		var err error
		// n is the round in the path: a published round's pairings, or
		// the standings after a closed round.
		n, last := 0, len(sn.Rounds)
		if kind == "standings" {
			last = sn.Closed()
		}
		if v := r.PathValue("n"); v != "" {
			n, err = strconv.Atoi(v)
			if err != nil || n < 1 || n > last {
				writeCodeFor(w, r, http.StatusNotFound, codeNotFound, nil)
				return
			}
		}
		switch kind {
		case "pairings":
			if n == 0 {
				n = len(sn.Rounds)
				// The event's address is its last round's pairings.
				ev.Current = append(ev.Current, fmt.Sprintf("/e/%s/round/%d%s", sn.Event.ID, n, q))
			}
			if n == 0 {
				err = sheets.Notice(&buf, ev, "pairings")
			} else {
				err = sheets.Pairings(&buf, ev, n)
			}
		case "print":
			err = sheets.RoundPrint(&buf, ev, n)
		case "standings":
			// sheets ranks after round 1 at the earliest: before it is
			// closed, the page says when standings appear.
			if n == 0 {
				n = sn.Closed()
			}
			if n == 0 {
				err = sheets.Notice(&buf, ev, "standings")
			} else {
				err = sheets.Standings(&buf, ev, n)
			}
		case "crosstable":
			if sn.Closed() == 0 {
				err = sheets.Notice(&buf, ev, "crosstable")
			} else {
				err = sheets.Crosstable(&buf, ev)
			}
		case "cards":
			err = sheets.Cards(&buf, ev)
		}
		if err != nil {
			s.log.Error().Str("event", sn.Event.ID).Str("sheet", kind).Err(err).Msg("director: sheet")
			writeCode(w, http.StatusInternalServerError, codeInternal, nil)
			return
		}
		allowInlineStyle(w.Header(), buf.Bytes())
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(buf.Bytes())
	}
}

// allowInlineStyle lets the sheet's own <style> element through the
// content security policy by its hash (the sheets carry their print style
// sheet inline, so that a saved page prints alike); nothing else inline.
func allowInlineStyle(h http.Header, page []byte) {
	var hashes []string
	rest := page
	for {
		i := bytes.Index(rest, []byte("<style>"))
		if i < 0 {
			break
		}
		rest = rest[i+len("<style>"):]
		j := bytes.Index(rest, []byte("</style>"))
		if j < 0 {
			break
		}
		sum := sha256.Sum256(rest[:j])
		hashes = append(hashes, fmt.Sprintf("'sha256-%s'", base64.StdEncoding.EncodeToString(sum[:])))
		rest = rest[j:]
	}
	if len(hashes) == 0 {
		return
	}
	h.Set("Content-Security-Policy", strings.Replace(contentSecurityPolicy, "style-src 'self'", "style-src 'self' "+strings.Join(hashes, " "), 1))
}
