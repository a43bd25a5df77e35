package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"sync"

	"github.com/draughts-arbiter/arbiter/internal/qr"
	"github.com/draughts-arbiter/arbiter/match/people/director"
)

// Players at the boards (board_report.go, boards_live.go): the pages a
// player opens from a printed QR code, with no account (the link's secret
// is the credential, as for a game's link), and the director's side of
// them.
//
//   - /r/{pass}: a board's result link, one per side: the player reports
//     the result (POST /api/r/{pass}); it is recorded when both sides
//     agree, a disagreement goes to the director's page.
//   - /c/{pass}: a player's check-in link, or the event's tablet page
//     where each player taps their name (POST /api/c/{pass}).
//   - /d/{dtoken}/round/{n}/links and /d/{dtoken}/checkin-links: the
//     director's printable sheets of those links with their QR codes.
//
// An unknown pass, a tampered one, and one that no longer fits its board
// all get the 404 of any unknown address, byte for byte. The POSTs are
// same-origin JSON under the server's body limit and per-client rate, as
// every other; secrets are in the path only, which the request log never
// writes (it writes the route's pattern).
func (s *Server) boardsRoutes() {
	if s.dir == nil {
		return
	}
	s.boards = newBoardsHub()
	m := s.mux
	m.HandleFunc("GET /r/{pass}", s.page("board-report.html"))                   // a board's result link
	m.HandleFunc("GET /api/r/{pass}", s.boardReport)                             // the board as the link's player sees it
	m.HandleFunc("POST /api/r/{pass}", s.reportResult)                           // {outcome} -> the board
	m.HandleFunc("GET /c/{pass}", s.page("checkin.html"))                        // a check-in link (a player's, or the tablet's)
	m.HandleFunc("GET /api/c/{pass}", s.checkInPage)                             // who checks in for which round
	m.HandleFunc("POST /api/c/{pass}", s.checkIn)                                // {player} (the tablet) -> the page
	m.HandleFunc("GET /d/{dtoken}/round/{n}/links", s.page("player-links.html")) // the director's pairing sheet with result links
	m.HandleFunc("GET /d/{dtoken}/checkin-links", s.page("player-links.html"))   // the director's sheet of check-in links
	m.HandleFunc("GET /api/d/{dtoken}/round/{n}/links", s.reportLinks)           // the result links with their QR codes
	m.HandleFunc("GET /api/d/{dtoken}/checkin-links", s.checkInLinks)            // the check-in links with their QR codes
	m.HandleFunc("GET /e/{id}/round/{n}/boards", s.page("boards-live.html"))     // public: the round's boards, live
	m.HandleFunc("GET /api/e/{id}/round/{n}/boards", s.liveBoards)               // public: the boards now
	m.HandleFunc("GET /api/e/{id}/round/{n}/boards/events", s.liveBoardsEvents)  // public: server-sent events
}

// passOf reads the request's pass; an unfit one answers the 404 of any
// unknown address.
func passOf(w http.ResponseWriter, r *http.Request) (string, bool) {
	p := r.PathValue("pass")
	if p == "" || len(p) > director.MaxPass {
		writeCode(w, http.StatusNotFound, codeNotFound, nil)
		return "", false
	}
	return p, true
}

// passError answers an error of a pass's operation: an unknown pass is
// the plain 404, anything else the store's refusal.
func (s *Server) passError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, director.ErrUnknownPass) {
		writeCode(w, http.StatusNotFound, codeNotFound, nil)
		return
	}
	s.directorError(w, r, err)
}

func (s *Server) boardReport(w http.ResponseWriter, r *http.Request) {
	pass, ok := passOf(w, r)
	if !ok {
		return
	}
	v, err := s.dir.BoardReportOf(r.Context(), pass)
	if err != nil {
		s.passError(w, r, err)
		return
	}
	noteGame(r, fmt.Sprintf("round %d board %d", v.Round, v.Board), "player")
	writeJSON(w, http.StatusOK, v)
}

// reportIn is the body of a player's report.
type reportIn struct {
	Outcome string `json:"outcome"` // 1-0, 0-1, ½-½ (ParseOutcome's forms)
}

func (s *Server) reportResult(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(w, r) {
		return
	}
	pass, ok := passOf(w, r)
	if !ok {
		return
	}
	var in reportIn
	if !s.readJSON(w, r, &in) {
		return
	}
	v, err := s.dir.Report(context.WithoutCancel(r.Context()), pass, truncate(in.Outcome, 32))
	if err != nil {
		s.passError(w, r, err)
		return
	}
	if p, err := s.dir.ResolvePass(r.Context(), pass); err == nil {
		s.boards.changed(p.Event)
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) checkInPage(w http.ResponseWriter, r *http.Request) {
	pass, ok := passOf(w, r)
	if !ok {
		return
	}
	v, err := s.dir.CheckInOf(r.Context(), pass)
	if err != nil {
		s.passError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// checkInIn is the body of a check-in: the player tapped on the tablet
// (0 or the link's own player on a player's link).
type checkInIn struct {
	Player int `json:"player"`
}

func (s *Server) checkIn(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(w, r) {
		return
	}
	pass, ok := passOf(w, r)
	if !ok {
		return
	}
	var in checkInIn
	if !s.readJSON(w, r, &in) {
		return
	}
	v, err := s.dir.CheckIn(context.WithoutCancel(r.Context()), pass, in.Player)
	if err != nil {
		s.passError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// printedLink is a link as the director's sheets print it.
type printedLink struct {
	Link string `json:"link"`
	QR   string `json:"qr"` // an <svg> element (internal/qr)
}

// seatLinks is one side of a board on the pairing sheet with links.
type seatLinks struct {
	director.Seat
	printedLink
}

// reportLinksView is GET /api/d/{dtoken}/round/{n}/links.
type reportLinksView struct {
	Event  string           `json:"event"`
	Round  int              `json:"round"`
	Boards []boardLinksView `json:"boards"`
	// LocalOnly: the links open on this computer only (atBoards.LocalOnly).
	LocalOnly bool `json:"local_only"`
}

type boardLinksView struct {
	Board int       `json:"board"`
	White seatLinks `json:"white"`
	Black seatLinks `json:"black"`
}

// qrMM is the printed size of a link's QR code: about 3 cm, which a
// phone's camera reads from a table at arm's length.
const qrMM = 30

func printLink(link string) (printedLink, error) {
	svg, err := qr.SVG(link, qrMM)
	if err != nil {
		return printedLink{}, err
	}
	return printedLink{Link: link, QR: svg}, nil
}

func roundOf(w http.ResponseWriter, r *http.Request) (int, bool) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 || n > director.MaxRounds {
		writeCode(w, http.StatusNotFound, codeNotFound, nil)
		return 0, false
	}
	return n, true
}

func (s *Server) reportLinks(w http.ResponseWriter, r *http.Request) {
	id, token, ok := s.resolveEvent(w, r)
	if !ok {
		return
	}
	n, ok := roundOf(w, r)
	if !ok {
		return
	}
	ctx := context.WithoutCancel(r.Context())
	links, err := s.dir.ReportLinks(ctx, id, token, n)
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	sn, err := s.dir.Get(ctx, id)
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	base := s.base(r)
	out := reportLinksView{Event: sn.Event.Name, Round: n, Boards: make([]boardLinksView, 0, len(links)), LocalOnly: s.linksLocal(r)}
	rd := sn.Rounds[n-1]
	for _, l := range links {
		b := rd.Boards[l.Board-1]
		bv := boardLinksView{Board: l.Board}
		for _, side := range []struct {
			to     *seatLinks
			player int
			secret string
		}{{&bv.White, b.White, l.White}, {&bv.Black, b.Black, l.Black}} {
			if p := sn.Player(side.player); p != nil {
				side.to.Seat = director.Seat{Name: p.Name, Number: p.Number}
			}
			if side.to.printedLink, err = printLink(base + "/r/" + side.secret); err != nil {
				s.directorError(w, r, err)
				return
			}
		}
		out.Boards = append(out.Boards, bv)
	}
	writeJSON(w, http.StatusOK, out)
}

// checkInLinksView is GET /api/d/{dtoken}/checkin-links.
type checkInLinksView struct {
	Event   string            `json:"event"`
	Round   int               `json:"round"` // the next round to pair (0: none)
	Tablet  printedLink       `json:"tablet"`
	Players []playerLinksView `json:"players"`
	// LocalOnly: the links open on this computer only (atBoards.LocalOnly).
	LocalOnly bool `json:"local_only"`
}

type playerLinksView struct {
	ID int `json:"id"`
	director.Seat
	printedLink
}

func (s *Server) checkInLinks(w http.ResponseWriter, r *http.Request) {
	id, token, ok := s.resolveEvent(w, r)
	if !ok {
		return
	}
	ctx := context.WithoutCancel(r.Context())
	links, err := s.dir.CheckInLinks(ctx, id, token)
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	sn, err := s.dir.Get(ctx, id)
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	base := s.base(r)
	out := checkInLinksView{Event: sn.Event.Name, Players: []playerLinksView{}, LocalOnly: s.linksLocal(r)}
	if sn.Next() <= sn.Event.Rounds {
		out.Round = sn.Next()
	}
	if out.Tablet, err = printLink(base + "/c/" + links.Tablet); err != nil {
		s.directorError(w, r, err)
		return
	}
	for _, p := range sn.Players {
		secret, ok := links.Players[p.ID]
		if !ok {
			continue
		}
		pl, err := printLink(base + "/c/" + secret)
		if err != nil {
			s.directorError(w, r, err)
			return
		}
		out.Players = append(out.Players, playerLinksView{ID: p.ID, Seat: director.Seat{Name: p.Name, Number: p.Number}, printedLink: pl})
	}
	sort.Slice(out.Players, func(i, j int) bool { return out.Players[i].Number < out.Players[j].Number })
	writeJSON(w, http.StatusOK, out)
}

// atBoards is the director's view of the players at the boards: what the
// players reported on the open round's boards, the check-in of the next
// round, and the addresses of the sheets and the live boards page.
type atBoards struct {
	// Round is the published round open for reports (0: none), Claims
	// what the players said there: board -> claims.
	Round    int                     `json:"round"`
	Claims   map[int]director.Claims `json:"claims"`
	Arrivals *director.Arrivals      `json:"arrivals"`
	// Sheet prints the open round's result links, CheckIn the check-in
	// links, Live is the public live boards page of the last published round.
	Sheet   string `json:"sheet,omitempty"`
	CheckIn string `json:"checkin"`
	Live    string `json:"live,omitempty"`
	// LocalOnly: the links point at this computer only (the server was
	// reached on loopback, without --public-url), so the players' phones
	// cannot open them; the page says how to serve the club's network.
	LocalOnly bool `json:"local_only"`
}

// playersAtBoards is atBoards for event id (the director's view adds it).
func (s *Server) playersAtBoards(ctx context.Context, r *http.Request, sn *director.Snapshot, token string) (*atBoards, error) {
	id := sn.Event.ID
	out := &atBoards{Claims: map[int]director.Claims{}, CheckIn: "/d/" + token + "/checkin-links", LocalOnly: s.linksLocal(r)}
	for _, rd := range sn.Rounds {
		if rd.State == director.Paired {
			continue
		}
		out.Live = fmt.Sprintf("/e/%s/round/%d/boards", id, rd.N)
		if rd.State == director.Published {
			out.Round = rd.N
			out.Sheet = fmt.Sprintf("/d/%s/round/%d/links", token, rd.N)
		}
	}
	if out.Round > 0 {
		cl, err := s.dir.RoundClaims(ctx, id, out.Round)
		if err != nil {
			return nil, err
		}
		out.Claims = cl
	}
	arr, err := s.dir.Arrivals(ctx, id)
	if err != nil {
		return nil, err
	}
	out.Arrivals = arr
	return out, nil
}

// boardsOp runs the director's operations on the players at the boards
// (directorOp hands them here); handled is false for an op not of these.
func (s *Server) boardsOp(ctx context.Context, op, id string, in dirOp) (handled bool, err error) {
	switch op {
	case "check-in":
		return true, s.dir.SetPresent(ctx, id, in.Player, in.Kind != "out")
	case "absent-byes":
		_, err := s.dir.AbsentByes(ctx, id)
		return true, err
	}
	return false, nil
}

// boardsHub tells the live boards streams of an event that it changed (a
// result, a game made): each waiter holds a channel closed on the next
// change. Only events with a waiter have an entry.
type boardsHub struct {
	mu sync.Mutex
	ch map[string]chan struct{}
}

func newBoardsHub() *boardsHub { return &boardsHub{ch: map[string]chan struct{}{}} }

// changed wakes the event's waiters.
func (h *boardsHub) changed(event string) {
	if h == nil {
		return
	}
	h.mu.Lock()
	if c, ok := h.ch[event]; ok {
		close(c)
		delete(h.ch, event)
	}
	h.mu.Unlock()
}

// next is a channel closed at the event's next change.
func (h *boardsHub) next(event string) <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.ch[event]
	if !ok {
		c = make(chan struct{})
		h.ch[event] = c
	}
	return c
}
