package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/internal/sqlitefile"
	"github.com/draughts-arbiter/arbiter/internal/strictjson"
	"github.com/draughts-arbiter/arbiter/match/people/online"
	"github.com/draughts-arbiter/arbiter/rules"
)

// maxToken bounds the token a path may carry; longer is unknown at once
// (no token the Hall issues is anywhere near it).
const maxToken = 128

// bodyWait is the time a client has to send a request body.
const bodyWait = 10 * time.Second

// readJSON reads the request body into v: JSON, at most MaxBody bytes,
// valid UTF-8, no unknown fields, exactly one value. On failure it has
// answered (415, 413 or 400) and returns false.
func (s *Server) readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	data, ok := readBody(w, r, "application/json", s.lim.MaxBody)
	if !ok {
		return false
	}
	if !utf8.Valid(data) {
		writeCode(w, http.StatusBadRequest, codeBadUTF8, nil)
		return false
	}
	if err := decodeStrict(data, v); err != nil {
		writeCode(w, http.StatusBadRequest, codeBadJSON, map[string]string{"detail": err.Error()})
		return false
	}
	return true
}

// decodeStrict decodes exactly one JSON value with no unknown fields and
// no key given twice (strictjson).
func decodeStrict(data []byte, v any) error { return strictjson.Decode(data, v) }

// resolve finds the game and role of the request's token; on failure it has
// answered 404 (the same for an unknown, a revoked and a tampered token).
func (s *Server) resolve(w http.ResponseWriter, r *http.Request) (string, online.Role, bool) {
	token := r.PathValue("token")
	if token == "" || len(token) > maxToken {
		writeCode(w, http.StatusNotFound, codeNotFound, nil)
		return "", 0, false
	}
	id, role, ok := s.hall.Resolve(token)
	if !ok {
		writeCode(w, http.StatusNotFound, codeNotFound, nil)
		return "", 0, false
	}
	noteGame(r, id, role.String())
	return id, role, true
}

// hallError answers an error of the Hall: a refusal or a bad setup with its
// own status and code, a vanished game 404, anything else 500 (logged).
func (s *Server) hallError(w http.ResponseWriter, r *http.Request, err error) {
	var ref *online.Refusal
	var se *online.SetupError
	switch {
	case errors.As(err, &ref):
		m := Message{Code: ref.Code, Args: ref.Args, Text: ref.Error()}
		if ref.Why != nil {
			m.Why = &Message{Code: ref.Why.Code, Args: ref.Why.Args, Text: ref.Why.Text, Cite: ref.Why.Cite}
		}
		writeError(w, statusOf(ref.Kind), m)
	case errors.As(err, &se):
		writeError(w, http.StatusBadRequest, setupMessage(se))
	case errors.Is(err, errOwnBudget):
		w.Header().Set("Retry-After", "60")
		writeCode(w, http.StatusTooManyRequests, codeTooManyRunning, map[string]string{"limit": strconv.Itoa(s.lim.GamesPerClient)})
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		writeCode(w, http.StatusServiceUnavailable, codeUnavailable, nil)
	default:
		s.log.Error().Err(err).Str("route", r.Method+" "+routeOf(r)).Msg("game store")
		if reason, ok := sqlitefile.CannotWrite(err); ok {
			// A full disk is not a bug: the client may try again.
			w.Header().Set("Retry-After", "10")
			writeCode(w, http.StatusServiceUnavailable, codeCannotSave, map[string]string{"reason": reason})
			return
		}
		writeCode(w, http.StatusInternalServerError, codeInternal, nil)
	}
}

// routeOf is the request's pattern for a log line (never its path).
func routeOf(r *http.Request) string {
	if r.Pattern != "" {
		return r.Pattern
	}
	return "(no route)"
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "streams": s.streams.open()})
}

// variantsInfo is what the create form offers.
type variantsInfo struct {
	Variants []string `json:"variants"`
	// DefaultPolicies is each preset's illegal-move policy under
	// tournament rules when the creator leaves it to the variant.
	DefaultPolicies map[string]string `json:"default_policies"`
	Policies        []string          `json:"policies"`
	Draws           []string          `json:"draws"`
	TimeControls    []string          `json:"time_controls"`
	// ClockPresets are the named clocks of the create page's field
	// (players' syntax: minutes, then seconds per move).
	ClockPresets []online.ClockPreset `json:"clock_presets"`
	Modes        []string             `json:"modes"`
	Engines      []string             `json:"engines"`
	MaxRules     int                  `json:"max_rules"`
}

func (s *Server) variants(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, variantsInfo{
		Variants:        rules.Presets(),
		DefaultPolicies: defaultPolicies(),
		Policies:        []string{"wcdf", "opponent-decides", "strict"},
		Draws:           []string{"claim", "auto"},
		// PDN TimeControl syntax (arbiter.ParseTimeControl).
		TimeControls: []string{"", "300+3", "600", "900+10", "40/7200:3600+30", "1800 delay=5", "move=30"},
		ClockPresets: online.ClockPresets,
		Modes:        []string{"friendly", "tournament"},
		Engines:      s.engines,
		MaxRules:     8 << 10,
	})
}

// defaultPolicies is online.DefaultPolicy of every preset, by name.
func defaultPolicies() map[string]string {
	out := map[string]string{}
	for _, name := range rules.Presets() {
		if v, err := rules.Lookup(name); err == nil {
			out[name] = string(online.DefaultPolicy(v))
		}
	}
	return out
}

// clock answers GET /api/clock?text=5%2B3: how the create page's
// time-control field reads the text (players' minutes and seconds, a
// preset, or PDN seconds), in PDN and in words, before the game is made.
func (s *Server) clock(w http.ResponseWriter, r *http.Request) {
	text := r.URL.Query().Get("text")
	reading, err := online.ReadClock(text)
	if err != nil {
		writeError(w, http.StatusBadRequest, setupMessage(&online.SetupError{Field: "clock", Err: err}))
		return
	}
	writeJSON(w, http.StatusOK, reading)
}

// created is the answer to POST /api/games.
type created struct {
	ID    string            `json:"id"`
	Links map[string]string `json:"links"`
	// LocalOnly: the links open on this computer only (reached on
	// loopback, no --public-url) and one of them is for a human opponent,
	// who elsewhere could not open it; never in a game against an engine.
	LocalOnly bool `json:"local_only"`
}

func (s *Server) createGame(w http.ResponseWriter, r *http.Request) {
	client := clientIP(r, s.trust)
	if !s.creationAllowed(w, client) {
		return
	}
	var setup online.Setup
	if !s.readJSON(w, r, &setup) {
		return
	}
	// Not cancelled when the client goes: a game half created, or a move
	// half committed, would help no one.
	c, err := s.newGame(context.WithoutCancel(r.Context()), client, setup)
	if err != nil {
		s.hallError(w, r, err)
		return
	}
	noteGame(r, c.ID, "creator")
	base := s.base(r)
	links := make(map[string]string, len(c.Tokens))
	for role, tok := range c.Tokens {
		links[role.String()] = base + "/g/" + tok
	}
	s.log.Info().Str("game", c.ID).Str("client", client).Msg("game created")
	_, white := c.Tokens[online.RoleWhite]
	_, black := c.Tokens[online.RoleBlack]
	writeJSON(w, http.StatusCreated, created{ID: c.ID, Links: links, LocalOnly: white && black && s.linksLocal(r)})
}

// errOwnBudget is a client address with GamesPerClient games running.
var errOwnBudget = errors.New("too many running games from this address")

// newGame creates a game for client: every way of creating one goes
// through here, so that all count against the address's budget of
// running games (Limits.GamesPerClient).
func (s *Server) newGame(ctx context.Context, client string, setup online.Setup) (online.Created, error) {
	done, ok := s.owned.reserve(client, s.hall.Live)
	if !ok {
		return online.Created{}, errOwnBudget
	}
	c, err := s.hall.Create(ctx, setup)
	done(c.ID)
	return c, err
}

func (s *Server) snapshot(w http.ResponseWriter, r *http.Request) {
	id, role, ok := s.resolve(w, r)
	if !ok {
		return
	}
	snap, err := s.hall.Snapshot(id, role)
	if err != nil {
		s.hallError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, snap)
}

// rematch starts (or finds) the rematch of a finished game for one of its
// players and answers with that player's link to it.
func (s *Server) rematch(w http.ResponseWriter, r *http.Request) {
	id, role, ok := s.resolve(w, r)
	if !ok {
		return
	}
	tok, err := s.hall.Rematch(context.WithoutCancel(r.Context()), id, role)
	if err != nil {
		s.hallError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"link": s.base(r) + "/g/" + tok})
}

func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	id, role, ok := s.resolve(w, r)
	if !ok {
		return
	}
	var in online.Intent
	if !s.readJSON(w, r, &in) {
		return
	}
	reply, err := s.hall.Act(context.WithoutCancel(r.Context()), id, role, in)
	if err != nil {
		s.hallError(w, r, err)
		return
	}
	if reply.Token != "" {
		// A reissued link (the arbiter's answer only): the whole link, so
		// the page need not know how links are built.
		writeJSON(w, http.StatusOK, replyWithLink{Reply: reply, Link: s.base(r) + "/g/" + reply.Token})
		return
	}
	writeJSON(w, http.StatusOK, reply)
}

// replyWithLink is a Reply that carries a new token, and its link.
type replyWithLink struct {
	online.Reply
	Link string `json:"link"`
}

func (s *Server) pdn(w http.ResponseWriter, r *http.Request) {
	id, _, ok := s.resolve(w, r)
	if !ok {
		return
	}
	text, err := s.hall.PDN(id)
	if err != nil {
		s.hallError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="game-%s.pdn"`, fileSafe(id)))
	h.Set("Content-Length", strconv.Itoa(len(text)))
	io.WriteString(w, text)
}

// fileSafe keeps the letters, digits, '-' and '_' of a game id for a file name.
func fileSafe(id string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return r
		}
		return -1
	}, id)
}

// page serves one HTML file of the client.
func (s *Server) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { s.serveFile(w, r, name) }
}

// emptyToken answers /g/, a link without its token: a browser asking for a
// page gets the game page, which says of a link that opens no game what
// to do (copy the whole link again), as for a wrong token; a program gets
// the JSON 404.
func (s *Server) emptyToken(w http.ResponseWriter, r *http.Request) {
	if !strings.Contains(r.Header.Get("Accept"), "text/html") {
		writeCode(w, http.StatusNotFound, codeNotFound, nil)
		return
	}
	s.serveFile(w, r, "game.html")
}

func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	s.serveFile(w, r, r.PathValue("path"))
}

// serveFile serves a file of the client's FS (never a directory listing).
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	if !fs.ValidPath(name) || name == "." {
		writeCode(w, http.StatusNotFound, codeNotFound, nil)
		return
	}
	f, err := s.assets.Open(name)
	if err != nil {
		writeCode(w, http.StatusNotFound, codeNotFound, nil)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	rs, seeks := f.(io.ReadSeeker)
	if err != nil || st.IsDir() || !seeks {
		writeCode(w, http.StatusNotFound, codeNotFound, nil)
		return
	}
	if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	http.ServeContent(w, r, name, st.ModTime(), rs)
}

// setupMessage is the error of a refused Setup: the field and why.
func setupMessage(se *online.SetupError) Message {
	detail := se.Error()
	if se.Err != nil {
		detail = se.Err.Error()
	}
	return serverMessage(codeBadSetup, map[string]string{"field": se.Field, "detail": detail})
}
