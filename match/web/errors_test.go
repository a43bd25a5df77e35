package web

import (
	"net/http"
	"testing"

	"github.com/draughts-arbiter/arbiter/internal/message"
)

// TestStatusOf: every kind of domain refusal has its status, the ones the
// server answered before the kinds replaced the domain's status codes.
func TestStatusOf(t *testing.T) {
	want := map[message.Kind]int{
		message.Invalid:     http.StatusBadRequest,
		message.Forbidden:   http.StatusForbidden,
		message.NotFound:    http.StatusNotFound,
		message.Conflict:    http.StatusConflict,
		message.TooLarge:    http.StatusRequestEntityTooLarge,
		message.Failed:      http.StatusInternalServerError,
		message.Unavailable: http.StatusServiceUnavailable,
		0:                   http.StatusBadRequest,
	}
	for k, st := range want {
		if got := statusOf(k); got != st {
			t.Errorf("statusOf(%s) = %d, want %d", k, got, st)
		}
	}
}
