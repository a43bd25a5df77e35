package online

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// fakeTime is the hall's clock in tests, moved by hand.
type fakeTime struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeTime() *fakeTime { return &fakeTime{t: time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)} }
func (f *fakeTime) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}
func (f *fakeTime) advance(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
}

// testHall opens a hall on a new database in the test's directory.
func testHall(t *testing.T, cfg Config) (*Hall, *fakeTime) {
	t.Helper()
	ft := newFakeTime()
	if cfg.Path == "" {
		cfg.Path = filepath.Join(t.TempDir(), "games.db")
	}
	if cfg.Now == nil {
		cfg.Now = ft.Now
	}
	cfg.Log = zerolog.Nop()
	h, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h, ft
}

func create(t *testing.T, h *Hall, s Setup) Created {
	t.Helper()
	c, err := h.Create(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// act applies an intent that must be accepted.
func act(t *testing.T, h *Hall, id string, role Role, in Intent) Reply {
	t.Helper()
	rep, err := h.Act(context.Background(), id, role, in)
	if err != nil {
		t.Fatalf("%s %+v: %v", role, in, err)
	}
	return rep
}

// refused applies an intent that must be refused as kind.
func refused(t *testing.T, h *Hall, id string, role Role, in Intent, kind message.Kind) *Refusal {
	t.Helper()
	_, err := h.Act(context.Background(), id, role, in)
	var r *Refusal
	if !errors.As(err, &r) {
		t.Fatalf("%s %+v: want a refusal (%s), got %v", role, in, kind, err)
	}
	if r.Kind != kind {
		t.Fatalf("%s %+v: refusal %s %s, want %s", role, in, r.Kind, r.Error(), kind)
	}
	return r
}

func mv(s string) Intent { return Intent{Kind: "move", Move: s} }

// play plays moves alternately for whoever is to move.
func play(t *testing.T, h *Hall, id string, moves ...string) Reply {
	t.Helper()
	var rep Reply
	for _, m := range moves {
		h.mu.Lock()
		g := h.games[id]
		h.mu.Unlock()
		g.mu.Lock()
		role := Role(g.ref.Turn())
		g.mu.Unlock()
		rep = act(t, h, id, role, mv(m))
		if !hasType(rep.Events, EvMove) {
			t.Fatalf("move %s by %s: events %s", m, role, describe(rep.Events))
		}
	}
	return rep
}

func hasType(evs []Event, typ string) bool {
	for _, e := range evs {
		if e.Type == typ {
			return true
		}
	}
	return false
}

func hasCode(evs []Event, code string) *Event {
	for i := range evs {
		if evs[i].Msg.Code == code {
			return &evs[i]
		}
	}
	return nil
}

func describe(evs []Event) string {
	s := ""
	for _, e := range evs {
		s += "\n  " + e.Type + " " + e.Msg.Code + ": " + e.Msg.Text
	}
	return s
}

// checkPDN reads a game's PDN back and checks it as `arbiter check` does.
func checkPDN(t *testing.T, h *Hall, id string) string {
	t.Helper()
	text, err := h.PDN(id)
	if err != nil {
		t.Fatal(err)
	}
	g, err := pdn.NewReader(strings.NewReader(text), "game.pdn").Next()
	if err != nil {
		t.Fatalf("reading our own PDN: %v\n%s", err, text)
	}
	if rep := pdn.Check(g, nil); rep.Status != pdn.OK {
		t.Fatalf("arbiter check: %s\n%s", rep, text)
	}
	return text
}
