package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// The director's pages (director*.go): an event is created on /director;
// the answer is the director's secret link /d/{dtoken} (no account: whoever
// has the link runs the event), and the public address /e/{id} of its
// read-only sheets. Every change is a same-origin JSON POST to
// /api/d/{dtoken}/{op}: the secret in the path is the request's CSRF token
// (a page of another site cannot know it), a JSON body cannot be sent by a
// cross-site form without a preflight the server never grants, and a
// request a browser marks cross-site (Sec-Fetch-Site, Origin) is refused
// all the same.
func (s *Server) directorRoutes() {
	if s.dir == nil {
		return
	}
	m := s.mux
	m.HandleFunc("GET /director", s.page("director-new.html"))           // the create form
	m.HandleFunc("GET /d/{dtoken}", s.page("director.html"))             // the director's page (its script reads the token)
	m.HandleFunc("GET /d/{dtoken}/card", s.keepCard)                     // the printable "keep this" card: the link and its QR code
	m.HandleFunc("POST /api/events", s.createEvent)                      // Event -> links
	m.HandleFunc("POST /api/events/trf", s.importEvent)                  // a TRF16 file (text/plain; ?variant=) -> links
	m.HandleFunc("GET /api/d/{dtoken}", s.directorView)                  // the event as the director sees it
	m.HandleFunc("POST /api/d/{dtoken}/import", s.directorImport)        // CSV of players (text/csv)
	m.HandleFunc("POST /api/d/{dtoken}/{op}", s.directorOp)              // one operation -> the view
	m.HandleFunc("GET /e/{id}", s.eventSheet("pairings"))                // public: the last published round
	m.HandleFunc("GET /e/{id}/round/{n}", s.eventSheet("pairings"))      // public: a round's pairing sheet
	m.HandleFunc("GET /e/{id}/round/{n}/print", s.eventSheet("print"))   // public: a round's pairings and result slips
	m.HandleFunc("GET /e/{id}/standings", s.eventSheet("standings"))     // public: standings with tie-breaks
	m.HandleFunc("GET /e/{id}/standings/{n}", s.eventSheet("standings")) // public: standings after round n
	m.HandleFunc("GET /e/{id}/crosstable", s.eventSheet("crosstable"))
	m.HandleFunc("GET /e/{id}/cards", s.eventSheet("cards"))
	m.HandleFunc("GET /e/{id}/trf", s.keptByEvent("trf", s.eventTRF, false)) // TRF16 of the event
	m.HandleFunc("GET /e/{id}/pdn", s.keptByEvent("pdn", s.eventPDN, true))  // PDN of its online games
	s.ratingRoutes()
}

// The director's own message codes (the store's are director.Codes()).
const (
	codeCrossSite = "http.cross-site"
	codeBadOp     = "http.bad-op"
)

func init() {
	codeText[codeCrossSite] = "Refused: the request comes from another site."
	codeText[codeBadOp] = "Unknown operation {op}."
}

// sameOrigin refuses a request a browser says comes from another site.
// An Origin is this site's when its host is the request's own Host (the
// name the browser used: localhost, 127.0.0.1, a DNS name, the name a proxy
// forwards), the --public-url's, or the listener's address. The scheme is
// not compared with the Host's: behind a proxy that ends TLS the request
// comes in as http while the page is https. The request still needs the
// director's secret in its path, which a page of another site cannot know.
func (s *Server) sameOrigin(w http.ResponseWriter, r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		writeCode(w, http.StatusForbidden, codeCrossSite, nil)
		return false
	}
	if o := r.Header.Get("Origin"); o != "" && !s.ownOrigin(r, o) {
		writeCode(w, http.StatusForbidden, codeCrossSite, nil)
		return false
	}
	return true
}

// ownOrigin reports whether origin (an Origin header) names this site.
func (s *Server) ownOrigin(r *http.Request, origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" || u.Path != "" || u.User != nil {
		return false // "null" (a sandboxed frame, a file), or not an origin at all
	}
	if s.public != nil && strings.EqualFold(u.Host, s.public.Host) && u.Scheme == s.public.Scheme {
		return true
	}
	if r.Host != "" && strings.EqualFold(u.Host, r.Host) {
		return true
	}
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && u.Host == a.String() {
		return true
	}
	return false
}

// resolveEvent finds the event of the request's director token; 404 for
// an unknown one.
func (s *Server) resolveEvent(w http.ResponseWriter, r *http.Request) (string, string, bool) {
	token := r.PathValue("dtoken")
	if token == "" || len(token) > maxToken {
		writeCodeFor(w, r, http.StatusNotFound, codeNotFound, nil)
		return "", "", false
	}
	id, ok := s.dir.Resolve(r.Context(), token)
	if !ok {
		writeCodeFor(w, r, http.StatusNotFound, codeNotFound, nil)
		return "", "", false
	}
	noteGame(r, "event:"+id, "director")
	return id, token, true
}

// directorError answers an error of the store.
func (s *Server) directorError(w http.ResponseWriter, r *http.Request, err error) {
	var de *director.Error
	var ce *director.CSVError
	switch {
	case errors.As(err, &ce):
		msgs := make([]Message, 0, len(ce.Problems))
		for _, p := range ce.Problems {
			msgs = append(msgs, Message{Code: p.Code, Args: p.Args, Text: p.Error()})
		}
		first := msgs[0]
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": first, "problems": msgs})
	case errors.As(err, &de):
		writeError(w, statusOf(de.Kind), Message{Code: de.Code, Args: de.Args, Text: de.Error()})
	default:
		s.hallError(w, r, err)
	}
}

// createEvent is POST /api/events: the director's settings -> the links.
func (s *Server) createEvent(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(w, r) {
		return
	}
	if !s.creationAllowed(w, clientIP(r, s.trust)) {
		return
	}
	var ev director.Event
	if !s.readJSON(w, r, &ev) {
		return
	}
	ev.ID, ev.Created = "", time.Time{}
	created, token, err := s.dir.Create(context.WithoutCancel(r.Context()), ev)
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	noteGame(r, "event:"+created.ID, "creator")
	base := s.base(r)
	s.log.Info().Str("event", created.ID).Str("client", clientIP(r, s.trust)).Msg("event created")
	writeJSON(w, http.StatusCreated, map[string]string{"id": created.ID, "link": base + "/d/" + token, "public": base + "/e/" + created.ID})
}

// importEvent is POST /api/events/trf: an event from a TRF16 file (the
// body, text/plain, at most director.MaxTRF bytes), its rounds closed;
// ?variant= and ?time_control= say what a TRF does not.
func (s *Server) importEvent(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(w, r) {
		return
	}
	if !s.creationAllowed(w, clientIP(r, s.trust)) {
		return
	}
	data, ok := readBody(w, r, "text/plain", director.MaxTRF)
	if !ok {
		return
	}
	q := r.URL.Query()
	tev, err := director.ParseTRF(data)
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	created, token, err := s.dir.ImportTRF(context.WithoutCancel(r.Context()),
		director.Event{Variant: truncate(q.Get("variant"), 64), TimeControl: truncate(q.Get("time_control"), 128)}, tev)
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	noteGame(r, "event:"+created.ID, "creator")
	base := s.base(r)
	s.log.Info().Str("event", created.ID).Str("client", clientIP(r, s.trust)).Msg("event imported from TRF")
	writeJSON(w, http.StatusCreated, map[string]string{"id": created.ID, "link": base + "/d/" + token, "public": base + "/e/" + created.ID})
}

// directorView is the event as its director's page draws it.
type directorView struct {
	*director.Snapshot
	Standings []standing `json:"standings"`
	TieHeads  []tieHead  `json:"tie_heads"`
	// Counted says which rounds the standings count: while a round is
	// open, its results so far (provisional standings).
	Counted director.Count   `json:"counted"`
	Audit   []director.Audit `json:"audit"`
	// Links are the player links of the boards' online games: "round.board"
	// -> role -> URL.
	Links    map[string]map[string]string `json:"links"`
	Public   string                       `json:"public"`
	Outcomes []string                     `json:"outcomes"`
	// Labels are the outcomes as the event writes them (Event.ResultLabel):
	// code -> label; Results each board's result: "round.board" -> its
	// outcome code ("" for none) and label. The page has no table of its own.
	Labels   map[string]string      `json:"labels"`
	Results  map[string]boardResult `json:"results"`
	Variants []string               `json:"variants,omitempty"`
	// Removable are the players (entry ids) the director may remove now
	// (Snapshot.Removable); Card is the address of the "keep this" card.
	Removable []int  `json:"removable"`
	Card      string `json:"card"`
	// AtBoards is the players at the boards: their reports, the check-in
	// (board_report.go).
	AtBoards *atBoards `json:"at_boards"`
	// Checks are the warnings on the event's settings under the FMJD's
	// Swiss rules (Snapshot.Checks; [] for none).
	Checks []director.Check `json:"checks"`
	// Ratings are the rating changes so far (FIDE B.02, director/ratings.go).
	Ratings director.Ratings `json:"ratings"`
}

// standing is one line of the director's standings, with its score as
// the event writes it (Event.FormatScore: "2½" in halves, "5" in FMJD
// points), so that the page has no formatting of its own to keep alike.
type standing struct {
	director.Standing
	Points string `json:"points"`
	// Tie is each tie-break value as the event writes it (halved with the
	// points in a 1-½-0 event: Values are in scoring units).
	Tie []string `json:"tie"`
}

// tieHead names a tie-break column: name (the key of its translated
// heading, sheet.tb.<name>), the English heading and the C.07 acronym.
type tieHead struct {
	Name    string `json:"name"`
	Heading string `json:"heading"`
	Acronym string `json:"acronym"`
}

// boardResult is one board's result in the director's view.
type boardResult struct {
	Outcome string `json:"outcome,omitempty"`
	Label   string `json:"label"`
}

func (s *Server) view(ctx context.Context, r *http.Request, id, token string) (*directorView, error) {
	sn, err := s.dir.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	live, counted, err := sn.LiveStandings()
	if err != nil {
		return nil, err
	}
	st := make([]standing, len(live))
	for i, l := range live {
		st[i] = standing{Standing: l, Points: sn.Event.FormatScore(l.Score)}
	}
	order, err := sn.Event.TieBreakOrder()
	if err != nil {
		return nil, err
	}
	heads := make([]tieHead, len(order))
	for k, tb := range order {
		heads[k] = tieHead{Name: tb.String(), Heading: tb.Heading(), Acronym: tb.Acronym()}
		for i := range st {
			if k < len(st[i].Values) {
				st[i].Tie = append(st[i].Tie, sn.Event.FormatTieBreak(tb, st[i].Values[k], st[i].Shown[k]))
			}
		}
	}
	audit, err := s.dir.AuditLog(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(audit) > 500 {
		audit = audit[len(audit)-500:]
	}
	sealed, err := s.dir.AllLinks(ctx, id)
	if err != nil {
		return nil, err
	}
	links := map[string]map[string]string{}
	for n, bs := range sealed {
		for b, blob := range bs {
			l, err := director.OpenLinks(token, blob)
			if err != nil {
				s.log.Warn().Str("event", id).Int("round", n).Int("board", b).Err(err).Msg("game links do not open")
				continue
			}
			links[fmt.Sprintf("%d.%d", n, b)] = l
		}
	}
	// The labels in the page's language (api.js sends it): a Russian
	// page's menu offered "2-0 by forfeit".
	lang, _ := sheetLang(r)
	tx := sheetTexts()[lang]
	text := func(k string) string { return tx[k] }
	results := map[string]boardResult{}
	for _, rd := range sn.Rounds {
		for _, b := range rd.Boards {
			if b.Done() {
				results[fmt.Sprintf("%d.%d", rd.N, b.Board)] = boardResult{Outcome: b.Outcome(), Label: sn.Event.ResultLabelIn(b, text)}
			}
		}
	}
	ab, err := s.playersAtBoards(ctx, r, sn, token)
	if err != nil {
		return nil, err
	}
	return &directorView{AtBoards: ab, Snapshot: sn, Standings: st, TieHeads: heads, Counted: counted, Audit: audit, Links: links, Public: s.base(r) + "/e/" + id,
		Outcomes: director.Outcomes(), Labels: sn.Event.OutcomeLabelsIn(text), Results: results,
		Removable: sn.Removable(), Card: "/d/" + token + "/card", Ratings: sn.Ratings(), Checks: sn.Checks()}, nil
}

func (s *Server) directorView(w http.ResponseWriter, r *http.Request) {
	id, token, ok := s.resolveEvent(w, r)
	if !ok {
		return
	}
	v, err := s.view(r.Context(), r, id, token)
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// directorImport is POST /api/d/{dtoken}/import: a CSV of players
// (text/csv, at most director.MaxCSV bytes), all or nothing.
func (s *Server) directorImport(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(w, r) {
		return
	}
	id, token, ok := s.resolveEvent(w, r)
	if !ok {
		return
	}
	data, ok := readBody(w, r, "text/csv", director.MaxCSV)
	if !ok {
		return
	}
	// ?confirm=1: the director has seen the look-alikes and enters them.
	ps, lines, err := director.ParsePlayerLines(data)
	if err == nil {
		_, err = s.dir.AddPlayersWith(context.WithoutCancel(r.Context()), id, ps,
			director.AddOptions{Lines: lines, Confirm: r.URL.Query().Get("confirm") == "1"})
	}
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	s.answerView(w, r, id, token)
}

func (s *Server) answerView(w http.ResponseWriter, r *http.Request, id, token string) {
	v, err := s.view(r.Context(), r, id, token)
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// dirOp is the body of a director's operation; each uses the fields it
// names.
type dirOp struct {
	Players []director.Player `json:"players,omitempty"` // add-players
	Player  int               `json:"player,omitempty"`  // withdraw, reinstate, bye, exchange
	Other   int               `json:"other,omitempty"`   // exchange
	Round   int               `json:"round,omitempty"`
	Board   int               `json:"board,omitempty"`
	Kind    string            `json:"kind,omitempty"`    // bye: H, Z, F or "" to cancel
	Result  string            `json:"result,omitempty"`  // result: 1-0, 0-1, ½-½, +-, -+, --
	Pairing *director.Pairing `json:"pairing,omitempty"` // pair (by hand), fix
	Details *director.Details `json:"details,omitempty"` // edit-event: every detail, changed or not
	Edit    *director.Player  `json:"edit,omitempty"`    // edit-player: every field, changed or not
	Confirm bool              `json:"confirm,omitempty"` // add-players, edit-player: enter a look-alike
	Order   []int             `json:"order,omitempty"`   // seeding: player ids by starting number; empty: by the ranking
	// forbidden: the whole list of groups kept apart; empty: none.
	Forbidden []director.Group `json:"forbidden,omitempty"`
}

// directorOp is POST /api/d/{dtoken}/{op}; the answer is the new view.
func (s *Server) directorOp(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(w, r) {
		return
	}
	id, token, ok := s.resolveEvent(w, r)
	if !ok {
		return
	}
	var in dirOp
	if !s.readJSON(w, r, &in) {
		return
	}
	ctx := context.WithoutCancel(r.Context())
	var err error
	switch op := r.PathValue("op"); op {
	case "add-players":
		_, err = s.dir.AddPlayersWith(ctx, id, in.Players, director.AddOptions{Confirm: in.Confirm})
	case "edit-player":
		if in.Edit == nil {
			in.Edit = &director.Player{} // refused: the name is empty
		}
		err = s.dir.EditPlayer(ctx, id, in.Player, *in.Edit, in.Confirm)
	case "remove-player":
		err = s.dir.RemovePlayer(ctx, id, in.Player)
	case "seeding":
		err = s.dir.SetSeeding(ctx, id, in.Order)
	case "forbidden":
		err = s.dir.SetForbidden(ctx, id, in.Forbidden)
	case "withdraw":
		err = s.dir.Withdraw(ctx, id, in.Player)
	case "reinstate":
		err = s.dir.Reinstate(ctx, id, in.Player)
	case "edit-event":
		if in.Details == nil {
			in.Details = &director.Details{} // refused: the name is empty
		}
		err = s.dir.EditDetails(ctx, id, *in.Details)
	case "bye":
		var k tally.Result
		if len(in.Kind) > 1 {
			k = '?'
		} else if in.Kind != "" {
			k = tally.Result(in.Kind[0])
		}
		err = s.dir.RequestBye(ctx, id, in.Player, in.Round, k)
	case "pair":
		err = s.dir.PairRound(ctx, id, in.Round, in.Pairing)
	case "fix":
		if in.Pairing == nil {
			in.Pairing = &director.Pairing{}
		}
		err = s.dir.Fix(ctx, id, in.Round, *in.Pairing)
	case "swap":
		err = s.dir.SwapColors(ctx, id, in.Round, in.Board)
	case "exchange":
		err = s.dir.Exchange(ctx, id, in.Round, in.Player, in.Other)
	case "publish":
		err = s.dir.Publish(ctx, id, in.Round)
	case "result":
		res, ok := director.ParseOutcome(in.Result)
		if !ok {
			err = &director.Error{Code: "director.bad-result", Args: map[string]string{"result": truncate(in.Result, 16)}, Kind: message.Invalid}
			break
		}
		_, err = s.dir.Record(ctx, id, in.Round, in.Board, res, "director")
	case "close":
		err = s.dir.CloseRound(ctx, id, in.Round)
	case "undo":
		err = s.dir.Undo(ctx, id, in.Round)
	case "game":
		err = s.boardGame(ctx, r, id, token, in.Round, in.Board)
	default:
		var handled bool
		if handled, err = s.boardsOp(ctx, op, id, in); handled {
			break
		}
		writeCode(w, http.StatusNotFound, codeBadOp, map[string]string{"op": truncate(op, 32)})
		return
	}
	if err != nil {
		s.directorError(w, r, err)
		return
	}
	s.boards.changed(id)
	s.answerView(w, r, id, token)
}

// boardGame creates the online game of a board of a published round: the
// event's variant and time control, the players' names; its links are
// sealed with the director's token, and its result is followed.
func (s *Server) boardGame(ctx context.Context, r *http.Request, id, token string, n, board int) error {
	// One at a time, from reading the board to linking its game: two
	// simultaneous requests for a board would both find it without a game
	// and create one each, the loser's left running, linked to nothing.
	s.boardMu.Lock()
	defer s.boardMu.Unlock()
	sn, err := s.dir.Get(ctx, id)
	if err != nil {
		return err
	}
	if n < 1 || n > len(sn.Rounds) {
		return &director.Error{Code: "director.unknown-round", Args: map[string]string{"round": strconv.Itoa(n)}, Kind: message.NotFound}
	}
	rd := sn.Rounds[n-1]
	if rd.State != director.Published {
		return &director.Error{Code: "director.not-published", Args: map[string]string{"round": strconv.Itoa(n)}, Kind: message.Conflict}
	}
	if board < 1 || board > len(rd.Boards) {
		return &director.Error{Code: "director.unknown-board", Args: map[string]string{"round": strconv.Itoa(n), "board": strconv.Itoa(board)}, Kind: message.NotFound}
	}
	b := rd.Boards[board-1]
	if b.Game != "" {
		return &director.Error{Code: "director.has-game", Args: map[string]string{"round": strconv.Itoa(n), "board": strconv.Itoa(board)}, Kind: message.Conflict}
	}
	if boardGameHook != nil {
		boardGameHook()
	}
	// The game counts against the director's address like any other.
	name := func(pid int) string {
		if p := sn.Player(pid); p != nil {
			return clipRunes(p.Name, 64)
		}
		return ""
	}
	c, err := s.newGame(ctx, clientIP(r, s.trust), online.Setup{Variant: sn.Event.Variant, TimeControl: sn.Event.TimeControl, White: name(b.White), Black: name(b.Black)})
	if err != nil {
		return err
	}
	linked := false
	defer func() {
		if !linked {
			// Nobody has its links: it must not run, nor count.
			if err := s.hall.Discard(context.WithoutCancel(ctx), c.ID); err != nil {
				s.log.Warn().Str("event", id).Str("game", c.ID).Err(err).Msg("director: an unlinked game was not discarded")
			}
		}
	}()
	base := s.base(r)
	links := map[string]string{}
	for role, tok := range c.Tokens {
		links[role.String()] = base + "/g/" + tok
	}
	sealed, err := director.SealLinks(token, links)
	if err != nil {
		return err
	}
	if err := s.dir.SetGame(ctx, id, n, board, c.ID, sealed); err != nil {
		return err
	}
	linked = true
	s.follow(director.GameBoard{Event: id, Round: n, Board: board, Game: c.ID})
	return nil
}

// boardGameHook, when set (by a test), runs between finding a board
// without a game and creating its game: the race test widens the window
// there to show that no second game is created.
var boardGameHook func()

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// resultOf reads a finished game's PDN result as the board's TRF codes.
func resultOf(pdn string) ([2]tally.Result, bool) {
	switch pdn {
	case "1-0", "2-0":
		return [2]tally.Result{tally.Win, tally.Loss}, true
	case "0-1", "0-2":
		return [2]tally.Result{tally.Loss, tally.Win}, true
	case "1/2-1/2", "1-1":
		return [2]tally.Result{tally.Draw, tally.Draw}, true
	}
	return [2]tally.Result{}, false
}

// followGames follows every board's game still open (after a restart).
func (s *Server) followGames() {
	games, err := s.dir.Games(s.bg)
	if err != nil {
		s.log.Error().Err(err).Msg("director: reading the boards' games")
		return
	}
	for _, g := range games {
		if !g.Done {
			s.follow(g)
		}
	}
}

// follow watches a board's game (as a follower, no viewer: it does not keep
// the game from adjournment) and records its result when it ends. The
// events it missed come first (Hall.Watch), so a game that ended while
// the server was down is recorded on the next start.
func (s *Server) follow(g director.GameBoard) {
	s.followers.Add(1)
	go func() {
		defer s.followers.Done()
		var since int64
		for {
			missed, live, err := s.hall.Follow(s.bg, g.Game, since)
			if err != nil {
				if s.bg.Err() == nil {
					s.log.Warn().Str("event", g.Event).Str("game", g.Game).Err(err).Msg("director: the board's game cannot be followed")
				}
				return
			}
			for i := range missed {
				since = missed[i].V
				if s.gameOver(g, &missed[i]) {
					return
				}
			}
			for e := range live {
				since = e.V
				if s.gameOver(g, e) {
					return
				}
			}
			if s.bg.Err() != nil {
				return
			}
		}
	}()
}

// gameOver records the board's result if e ends the game.
func (s *Server) gameOver(g director.GameBoard, e *online.Event) bool {
	if e.State.Status != "over" {
		return false
	}
	res, ok := resultOf(e.State.Result)
	if !ok {
		s.log.Warn().Str("event", g.Event).Str("game", g.Game).Str("result", e.State.Result).Msg("director: a game result that is no board result")
		return true
	}
	defer s.boards.changed(g.Event)
	if _, err := s.dir.Record(s.bg, g.Event, g.Round, g.Board, res, "online"); err != nil {
		s.log.Warn().Str("event", g.Event).Int("round", g.Round).Int("board", g.Board).Err(err).Msg("director: the game's result was not recorded")
	} else {
		s.log.Info().Str("event", g.Event).Int("round", g.Round).Int("board", g.Board).Str("result", e.State.Result).Msg("director: result from the online game")
	}
	return true
}

// keptByEvent keeps a public export of an event in the sheet cache, as
// the sheets are kept (issue 24: a large event's export is dear): drawn
// again only when the event changes and, for games, when a game has moved.
func (s *Server) keptByEvent(kind string, draw http.HandlerFunc, games bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if id == "" || len(id) > 64 {
			writeCodeFor(w, r, http.StatusNotFound, codeNotFound, nil)
			return
		}
		gen := s.dir.Generation()
		if games {
			// Both counters only grow; the hall's low half cannot wrap
			// within any event's life (2^32 stored moves).
			gen = gen<<32 | s.hall.Changes()&(1<<32-1)
		}
		s.sheets.get(sheetKey{kind: kind, id: id}, gen, func(w http.ResponseWriter) { draw(w, r) }).send(w)
	}
}

// eventTRF is GET /e/{id}/trf.
func (s *Server) eventTRF(w http.ResponseWriter, r *http.Request) {
	sn, ok := s.publicEvent(w, r)
	if !ok {
		return
	}
	var b strings.Builder
	if err := sn.WriteTRF(&b); err != nil {
		s.directorError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="event-%s.trf"`, fileSafe(sn.Event.ID)))
	io.WriteString(w, b.String())
}

// eventPDN is GET /e/{id}/pdn: the games played online, in round and
// board order, with the event's name and the round.board in their tags.
func (s *Server) eventPDN(w http.ResponseWriter, r *http.Request) {
	sn, ok := s.publicEvent(w, r)
	if !ok {
		return
	}
	var b strings.Builder
	for _, rd := range sn.Rounds {
		if rd.State == director.Paired {
			continue
		}
		for _, bd := range rd.Boards {
			if bd.Game == "" {
				continue
			}
			text, err := s.hall.PDN(bd.Game)
			if err != nil {
				s.log.Warn().Str("game", bd.Game).Err(err).Msg("director: PDN of a board's game")
				continue
			}
			text = strings.Replace(text, `[Event "Online game"]`, `[Event "`+pdnTag(sn.Event.Name)+`"]`, 1)
			text = strings.Replace(text, `[Round "-"]`, fmt.Sprintf(`[Round "%d.%d"]`, rd.N, bd.Board), 1)
			if sn.Event.Site != "" {
				text = strings.Replace(text, `[Site "?"]`, `[Site "`+pdnTag(sn.Event.Site)+`"]`, 1)
			}
			b.WriteString(text)
			if !strings.HasSuffix(text, "\n\n") {
				b.WriteString("\n")
			}
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="event-%s.pdn"`, fileSafe(sn.Event.ID)))
	io.WriteString(w, b.String())
}

// pdnTag escapes a PDN tag value.
func pdnTag(s string) string { return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) }

// publicEvent reads the event of a public page; the rounds not published
// yet are left out.
func (s *Server) publicEvent(w http.ResponseWriter, r *http.Request) (*director.Snapshot, bool) {
	id := r.PathValue("id")
	if id == "" || len(id) > 64 {
		writeCodeFor(w, r, http.StatusNotFound, codeNotFound, nil)
		return nil, false
	}
	sn, err := s.dir.Get(r.Context(), id)
	if err != nil {
		var de *director.Error
		if errors.As(err, &de) && de.Kind == message.NotFound {
			writeCodeFor(w, r, http.StatusNotFound, codeNotFound, nil)
			return nil, false
		}
		s.directorError(w, r, err)
		return nil, false
	}
	for i, rd := range sn.Rounds {
		if rd.State == director.Paired {
			sn.Rounds = sn.Rounds[:i]
			break
		}
	}
	noteGame(r, "event:"+id, "public")
	return sn, true
}
