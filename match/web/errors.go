package web

import (
	"encoding/json"
	"net/http"

	"github.com/draughts-arbiter/arbiter/internal/message"
)

// The server's own message codes (the Hall's and the referee's are in
// online.Codes and arbiter.Codes). Each has an English text here and an
// entry in the client's catalogs (assets/i18n/*.json).
const (
	codeBadJSON        = "http.bad-json"
	codeBadUTF8        = "http.bad-utf8"
	codeTooLarge       = "http.too-large"
	codeMediaType      = "http.media-type"
	codeNotFound       = "http.not-found"
	codeMethod         = "http.method-not-allowed"
	codeRateLimited    = "http.rate-limited"
	codeTooManyGames   = "http.too-many-games"
	codeTooManyRunning = "http.too-many-running"
	codeTooManyStreams = "http.too-many-streams"
	codeServerFull     = "http.server-full"
	codeBadSince       = "http.bad-since"
	codeBadSetup       = "setup.invalid"
	codeInternal       = "http.internal"
	codeUnavailable    = "http.unavailable"
	codeCannotSave     = "http.cannot-save"
)

var codeText = message.Catalog{
	codeBadJSON:        "The request is not valid JSON of the expected form: {detail}",
	codeBadUTF8:        "The request is not valid UTF-8.",
	codeTooLarge:       "The request is too large (at most {limit} bytes).",
	codeMediaType:      "The request must be JSON (Content-Type: application/json).",
	codeNotFound:       "Not found: this link is wrong, revoked or mistyped. Copy the whole link again from the message it came in, or ask whoever gave it to you for a new one.",
	codeMethod:         "Method not allowed here (allowed: {allow}).",
	codeRateLimited:    "Too many requests; try again in a moment.",
	codeTooManyGames:   "Too many games created from this address in a short time; try again in a minute.",
	codeTooManyRunning: "{limit} games created from this address are still being played; finish or resign one before starting another.",
	codeTooManyStreams: "Too many live connections from this address; close some of the pages open on its games or events, then reload this one.",
	codeServerFull:     "The server has too many live connections; try again later.",
	codeBadSince:       "The event number {since} is not a non-negative integer.",
	codeBadSetup:       "The setting {field} is not valid: {detail}",
	codeInternal:       "Internal error (a bug; the server's log has the details).",
	codeUnavailable:    "The server is shutting down or the game store is unavailable.",
	codeCannotSave:     "The server cannot save: {reason}. Nothing was changed; try again in a while.",
}

// Codes lists the server's own message codes, sorted, for the catalog test.
func Codes() []string { return codeText.Codes() }

// statusOf is the HTTP status that answers a domain refusal of kind k: the
// one place where the kinds of refusal (message.Kind) meet status codes. A
// refusal without a kind is bad input.
func statusOf(k message.Kind) int {
	if st, ok := kindStatus[k]; ok {
		return st
	}
	return http.StatusBadRequest
}

var kindStatus = map[message.Kind]int{
	message.Invalid:     http.StatusBadRequest,
	message.Forbidden:   http.StatusForbidden,
	message.NotFound:    http.StatusNotFound,
	message.Conflict:    http.StatusConflict,
	message.TooLarge:    http.StatusRequestEntityTooLarge,
	message.Failed:      http.StatusInternalServerError,
	message.Unavailable: http.StatusServiceUnavailable,
}

// Message is a coded message (message.Message): the client translates Code
// with Args; Text is the English form; Why explains Args["why"] with a code
// of its own (a friendly game's refused illegal move: the referee's
// explanation), for a translation.
type Message = message.Message

type errorBody struct {
	Error Message `json:"error"`
}

// serverMessage builds a server message with its English text (args fill {name}).
func serverMessage(code string, args map[string]string) Message {
	return Message{Code: code, Args: args, Text: codeText.Text(code, args)}
}

// writeError answers with status and the JSON error body.
func writeError(w http.ResponseWriter, status int, m Message) {
	writeJSON(w, status, errorBody{m})
}

func writeCode(w http.ResponseWriter, status int, code string, args map[string]string) {
	writeError(w, status, serverMessage(code, args))
}

// writeJSON encodes v as the response. Values are the server's own, so an
// encoding error is a bug; it is answered with 500 rather than half a body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{serverMessage(codeInternal, nil)})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Del("Content-Length")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
