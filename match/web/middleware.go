package web

import (
	"context"
	"net/http"
	"runtime/debug"
	"strings"
	"time"
)

// The security headers of every response (WEB.md). The client has no
// inline script or style: everything comes from /assets.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

func securityHeaders(h http.Header, path string) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	if strings.HasPrefix(path, "/api/") || strings.HasPrefix(path, "/g/") || strings.HasPrefix(path, "/d/") ||
		strings.HasPrefix(path, "/r/") || strings.HasPrefix(path, "/c/") || path == "/healthz" {
		h.Set("Cache-Control", "no-store")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
}

// reqInfo is what the request log says about a request beyond its route:
// filled by the handlers as they learn it.
type reqInfo struct {
	game string
	role string // a role's name, or "creator"
	has  bool   // game and role are known
}

type infoKey struct{}

// noteGame records the game and role a request acts on, for the log.
func noteGame(r *http.Request, id, role string) {
	if in, ok := r.Context().Value(infoKey{}).(*reqInfo); ok {
		in.game, in.role, in.has = id, role, true
	}
}

// statusWriter remembers the status; Unwrap lets http.ResponseController
// reach the connection (flush, deadlines).
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// headerRecorder captures what the mux's own 404/405/redirect handlers
// would answer, so that the server can answer it in JSON.
type headerRecorder struct {
	h      http.Header
	status int
}

func (r *headerRecorder) Header() http.Header { return r.h }
func (r *headerRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}
func (r *headerRecorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return len(p), nil
}

// middleware wraps the routes: security headers, the request log, panic
// recovery, JSON for the mux's own errors, and the per-client rate limit.
// The log names the route's pattern ("POST /api/g/{token}/act"), never the
// path, which holds a token; nor the Referer or any other header.
func (s *Server) middleware(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		securityHeaders(w.Header(), r.URL.Path)
		sw := &statusWriter{ResponseWriter: w}
		info := &reqInfo{}
		r = r.WithContext(context.WithValue(r.Context(), infoKey{}, info))
		client := clientIP(r, s.trust)
		_, pattern := mux.Handler(r)
		if s.trust && pattern != "GET /healthz" { // a monitor may ask /healthz past the proxy
			s.checkForwarded(r)
		}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error().Str("route", pattern).Interface("panic", v).Bytes("stack", debug.Stack()).Msg("handler panic (a bug)")
				if sw.status == 0 {
					writeCode(sw, http.StatusInternalServerError, codeInternal, nil)
				}
			}
			s.logRequest(r, sw, info, pattern, client, start)
		}()
		if pattern == "" {
			s.noRoute(sw, r, mux)
			return
		}
		if pattern != "GET /healthz" && !s.requests.allow(client) {
			s.warnCrowded(client, "requests")
			sw.Header().Set("Retry-After", "1")
			writeCodeFor(sw, r, http.StatusTooManyRequests, codeRateLimited, nil)
			return
		}
		mux.ServeHTTP(sw, r)
	})
}

// noRoute answers a request no route matches as the mux would (404, 405
// with Allow, a redirect to the clean path), in JSON.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request, mux *http.ServeMux) {
	h, _ := mux.Handler(r)
	rec := &headerRecorder{h: make(http.Header)}
	h.ServeHTTP(rec, r)
	switch {
	case rec.status == http.StatusMethodNotAllowed:
		allow := rec.h.Get("Allow")
		w.Header().Set("Allow", allow)
		writeCode(w, http.StatusMethodNotAllowed, codeMethod, map[string]string{"allow": allow})
	case rec.status >= 300 && rec.status < 400 && rec.h.Get("Location") != "":
		w.Header().Set("Location", rec.h.Get("Location"))
		w.WriteHeader(rec.status)
	default:
		writeCodeFor(w, r, http.StatusNotFound, codeNotFound, nil)
	}
}

func (s *Server) logRequest(r *http.Request, w *statusWriter, info *reqInfo, pattern, client string, start time.Time) {
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	lv := s.log.Debug()
	switch {
	case status >= 500:
		lv = s.log.Warn()
	case status >= 400:
		lv = s.log.Info()
	}
	if !lv.Enabled() {
		return
	}
	if pattern == "" {
		pattern = r.Method + " (no route)"
	}
	lv = lv.Str("route", pattern).Int("status", status).Str("client", client).
		Dur("took", time.Since(start)).Int64("bytes", w.bytes)
	if info.has {
		lv = lv.Str("game", info.game).Str("role", info.role)
	}
	lv.Msg("request")
}
