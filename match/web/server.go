package web

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	stdlog "log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/draughts-arbiter/arbiter/rules/egdb"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// Limits bound what one client, and all of them together, may take. The
// zero value of a field means its default (DefaultLimits); a negative rate
// turns that limiter off (benchmarks and tests that play many moves from
// one address).
type Limits struct {
	MaxBody int64 // bytes of a request body (413 beyond)

	RequestRate  float64 // requests per second per client address (token bucket)
	RequestBurst int     // the bucket's size

	GameRate  float64 // games created per second per client address (POST /api/games)
	GameBurst int
	// GamesPerClient bounds the running games created from one client
	// address, every way a game is created (POST /api/games, the
	// director's game operation) counted together; finished and adjourned
	// games do not count. 0: a quarter of the Hall's MaxGames, so that one
	// address cannot lock everyone else out.
	GamesPerClient int

	StreamsPerClient int // concurrent event streams per client address (429 beyond)
	Streams          int // concurrent event streams in total (503 beyond)

	MaxCatchUp int           // missed events a stream replays; more and the client is told to reload
	Heartbeat  time.Duration // an event stream's beat (beatLine): proxies keep an idle stream, a page knows a silent one dead
	WriteWait  time.Duration // deadline of one write to a client (a stalled reader is dropped)
	Clients    int           // client addresses tracked by the limiters at once
}

// DefaultLimits are the limits of `arbiter serve`: generous for people
// playing, tight for a script.
var DefaultLimits = Limits{
	MaxBody:          64 << 10,
	RequestRate:      20,
	RequestBurst:     100,
	GameRate:         1.0 / 60,
	GameBurst:        20,
	StreamsPerClient: 32,
	Streams:          20000,
	MaxCatchUp:       5000,
	Heartbeat:        15 * time.Second,
	WriteWait:        10 * time.Second,
	Clients:          100_000,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.MaxBody > 0 {
		d.MaxBody = l.MaxBody
	}
	if l.RequestRate != 0 {
		d.RequestRate = l.RequestRate
	}
	if l.RequestBurst > 0 {
		d.RequestBurst = l.RequestBurst
	}
	if l.GameRate != 0 {
		d.GameRate = l.GameRate
	}
	if l.GameBurst > 0 {
		d.GameBurst = l.GameBurst
	}
	if l.GamesPerClient > 0 {
		d.GamesPerClient = l.GamesPerClient
	}
	if l.StreamsPerClient > 0 {
		d.StreamsPerClient = l.StreamsPerClient
	}
	if l.Streams > 0 {
		d.Streams = l.Streams
	}
	if l.MaxCatchUp > 0 {
		d.MaxCatchUp = l.MaxCatchUp
	}
	if l.Heartbeat > 0 {
		d.Heartbeat = l.Heartbeat
	}
	if l.WriteWait > 0 {
		d.WriteWait = l.WriteWait
	}
	if l.Clients > 0 {
		d.Clients = l.Clients
	}
	return d
}

// Config is what a Server needs.
type Config struct {
	Hall *online.Hall // the games (required unless Live is set)
	// Live, when set, is an engine event served read-only at /live (at /
	// too without a Hall): see live_handlers.go.
	Live *Live
	Log  zerolog.Logger // one line per request: route pattern, status, game id and role, never a token
	// PublicURL is the address people reach the server at
	// ("https://draughts.example.org"); links are built from it. Empty:
	// from the address of the listener the request came in on (right on
	// loopback; never from the Host header, which the client chooses).
	PublicURL string
	// TrustProxy takes the client's address from the last X-Forwarded-For
	// entry (set it only behind a proxy that writes that header).
	TrustProxy bool
	Limits     Limits
	// Engines are the names of the engines shown on the create page (the
	// Hall has their commands); nil: the Hall's (Hall.Engines).
	Engines []string
	// Assets is the web client; nil means the embedded one (Assets).
	Assets fs.FS
	// Director holds the events run by a director (director*.go); nil: no
	// director's pages.
	Director *director.Store
	// EGDB is a directory of endgame databases (`arbiter egdb build
	// --dir`): an arbiter's link can ask for the value of its game's
	// position (egdb.go). Empty: none.
	EGDB string
}

// Server is the HTTP face of a Hall: routes.go lists every route. Its
// handlers decode and validate a request, call the Hall, and encode the
// answer; the referee's judgement and every secret comparison stay in the
// Hall. Every response, errors included, carries the security headers
// (securityHeaders), and every error is JSON {"error":{"code","args","text"}}.
type Server struct {
	hall      *online.Hall
	live      *Live
	log       zerolog.Logger
	public    *url.URL // nil: from the listener
	trust     bool
	lim       Limits
	engines   []string
	assets    fs.FS
	mux       *http.ServeMux
	handler   http.Handler
	requests  *buckets
	creations *buckets
	owned     *ownedGames
	boardMu   sync.Mutex // one board game created at a time: at most one per board
	streams   *streamCounter
	encoded   *encodeCache
	sheets    *sheetCache // the public sheets drawn (sheetcache.go)

	stopOnce sync.Once
	stop     chan struct{} // closed on shutdown: event streams end

	// unforwarded is set once a request came without an X-Forwarded-For
	// address while trust is set (checkForwarded warns of it once).
	unforwarded atomic.Bool
	// crowded is set once a client address reached a per-address limit
	// (warnCrowded says so once).
	crowded atomic.Bool

	dir       *director.Store
	bg        context.Context // ends on Stop: the followers of the boards' games
	bgCancel  context.CancelFunc
	followers sync.WaitGroup
	boards    *boardsHub // wakes the live boards streams (board_report.go)
	egdb      *endgames  // nil: no endgame databases (egdb.go)
}

// Shared is l for n devices behind each client address: a club's or a
// school's network reaches a server on the internet from one public
// address, and every player in the room opens a page, a stream and moves
// through it. The per-address limits (requests, games created, running
// games when set, live streams) are n times l's; the totals stay. n < 2:
// l as it is.
func (l Limits) Shared(n int) Limits {
	if n < 2 {
		return l
	}
	l = l.withDefaults()
	l.RequestRate *= float64(n)
	l.RequestBurst *= n
	l.GameRate *= float64(n)
	l.GameBurst *= n
	l.GamesPerClient *= n // 0 (a quarter of the Hall's games) stays 0
	l.StreamsPerClient *= n
	return l
}

// New builds a server over cfg.Hall.
func New(cfg Config) (*Server, error) {
	if cfg.Hall == nil && cfg.Live == nil {
		return nil, errors.New("web: no Hall and no live event")
	}
	s := &Server{
		hall:    cfg.Hall,
		live:    cfg.Live,
		log:     cfg.Log,
		trust:   cfg.TrustProxy,
		lim:     cfg.Limits.withDefaults(),
		engines: append([]string(nil), cfg.Engines...),
		assets:  cfg.Assets,
		stop:    make(chan struct{}),
		dir:     cfg.Director,
	}
	if cfg.EGDB != "" {
		s.egdb = &endgames{dir: cfg.EGDB, dbs: map[string]*egdb.DB{}}
	}
	if cfg.Engines == nil && cfg.Hall != nil {
		s.engines = cfg.Hall.Engines()
	}
	if s.engines == nil {
		s.engines = []string{}
	}
	s.bg, s.bgCancel = context.WithCancel(context.Background())
	if cfg.PublicURL != "" {
		u, err := ParsePublicURL(cfg.PublicURL)
		if err != nil {
			return nil, err
		}
		s.public = u
	}
	if s.assets == nil {
		sub, err := fs.Sub(Assets, "assets")
		if err != nil {
			return nil, fmt.Errorf("web: embedded assets: %w", err)
		}
		s.assets = sub
	}
	s.requests = newBuckets(s.lim.RequestRate, s.lim.RequestBurst, s.lim.Clients)
	s.creations = newBuckets(s.lim.GameRate, s.lim.GameBurst, s.lim.Clients)
	if s.lim.GamesPerClient <= 0 && s.hall != nil {
		s.lim.GamesPerClient = max(1, s.hall.MaxGames()/4)
	}
	s.owned = newOwnedGames(s.lim.GamesPerClient, s.lim.Clients)
	s.streams = newStreamCounter(s.lim.StreamsPerClient, s.lim.Streams)
	s.encoded = newEncodeCache()
	s.sheets = newSheetCache()
	s.mux = http.NewServeMux()
	s.routes()
	s.handler = s.middleware(s.mux)
	if s.dir != nil {
		s.followGames()
	}
	return s, nil
}

// ParsePublicURL checks a --public-url: absolute http(s) at the root of a
// host (the pages load /assets and /api from the root, so a path prefix
// would give links that half work), no query, fragment or user info.
func ParsePublicURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("public URL %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("public URL %q: want http://HOST[:PORT][/PATH] or https://...", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("public URL %q: no query, fragment or user info", raw)
	}
	if strings.Trim(u.Path, "/") != "" {
		return nil, fmt.Errorf("public URL %q: the server is at the root of a host; no path (%s)", raw, u.Path)
	}
	u.Path, u.RawPath = "", ""
	return u, nil
}

// Handler is the server's http.Handler (middleware and routes).
func (s *Server) Handler() http.Handler { return s.handler }

// HTTPServer is an http.Server for s with the timeouts a server facing the
// internet needs. There is no ReadTimeout or WriteTimeout: both would cut
// event streams (a read deadline cancels a running request's context);
// request bodies get a read deadline of their own (readBody) and every
// write to a stream one per write (WriteWait).
func (s *Server) HTTPServer() *http.Server {
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    16 << 10,
		// net/http's own complaints (a bad TLS handshake, a broken
		// connection) go to the same log; they carry no path.
		ErrorLog: stdlog.New(s.log.With().Str("from", "net/http").Logger(), "", 0),
	}
	hs.RegisterOnShutdown(s.Stop)
	return hs
}

// Stop ends every event stream (their handlers return); Shutdown of an
// http.Server from HTTPServer calls it, as it would wait forever for them.
func (s *Server) Stop() { s.stopOnce.Do(func() { close(s.stop); s.bgCancel() }) }

// Serve serves on ln until ctx is done, then shuts down: new connections
// are refused, streams end, requests in flight get up to grace to finish.
// The Hall is not closed (its owner does that, after Serve returns).
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	hs := s.HTTPServer()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		s.Stop()
		return fmt.Errorf("web: serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := hs.Shutdown(sctx)
	if err != nil {
		hs.Close()
	}
	<-errc // http.ErrServerClosed
	if err != nil {
		return fmt.Errorf("web: shutdown: %w", err)
	}
	return nil
}

// linksLocal reports whether the links base(r) makes open on this
// computer only: no --public-url, and the request came in on loopback.
func (s *Server) linksLocal(r *http.Request) bool {
	if s.public != nil {
		return false
	}
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	host, _, err := net.SplitHostPort(a.String())
	ip := net.ParseIP(host)
	return err == nil && ip != nil && ip.IsLoopback()
}

// base is the absolute URL links start with, without a trailing slash.
func (s *Server) base(r *http.Request) string {
	if s.public != nil {
		return s.public.String()
	}
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		return scheme + "://" + a.String()
	}
	return "http://localhost"
}
