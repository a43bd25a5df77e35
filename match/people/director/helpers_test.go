package director

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
)

// testPair is a small pairer for the tests (not the Dutch system): the
// players present by score, then number; each takes the first one below
// not met yet; the lowest without a bye has it in an odd field; colours
// alternate from the last one.
func testPair(ps []tally.Player, opt swiss.Options) (swiss.Round, error) {
	var in []tally.Player
	for _, p := range ps {
		if !p.Absent {
			in = append(in, p)
		}
	}
	sc := opt.Scoring
	if sc == (tally.Scoring{}) {
		sc = tally.DefaultScoring
	}
	sort.SliceStable(in, func(i, j int) bool {
		a, b := in[i].Score(sc), in[j].Score(sc)
		if a != b {
			return a > b
		}
		return in[i].Number < in[j].Number
	})
	var rd swiss.Round
	if len(in)%2 == 1 {
		for i := len(in) - 1; i >= 0; i-- {
			had := false
			for _, e := range in[i].History {
				had = had || e.Result == tally.PairingBye
			}
			if !had {
				rd.Bye = in[i].Number
				in = append(in[:i:i], in[i+1:]...)
				break
			}
		}
		if rd.Bye == 0 {
			return rd, swiss.ErrNoPairing
		}
	}
	met := func(a, b tally.Player) bool {
		for _, e := range a.History {
			if e.Opponent == b.Number {
				return true
			}
		}
		return false
	}
	last := func(p tally.Player) tally.Color {
		for i := len(p.History) - 1; i >= 0; i-- {
			if c := p.History[i].Color; c != tally.NoColor {
				return c
			}
		}
		return tally.NoColor
	}
	// Backtracking: the first unpaired player takes the first one below
	// not met yet that leaves the rest pairable.
	used := make([]bool, len(in))
	var pairs [][2]int
	var solve func() bool
	solve = func() bool {
		i := 0
		for i < len(in) && used[i] {
			i++
		}
		if i == len(in) {
			return true
		}
		used[i] = true
		for k := i + 1; k < len(in); k++ {
			if used[k] || met(in[i], in[k]) {
				continue
			}
			used[k] = true
			pairs = append(pairs, [2]int{i, k})
			if solve() {
				return true
			}
			pairs = pairs[:len(pairs)-1]
			used[k] = false
		}
		used[i] = false
		return false
	}
	if !solve() {
		return rd, swiss.ErrNoPairing
	}
	for _, pr := range pairs {
		a, b := in[pr[0]], in[pr[1]]
		if last(a) == tally.White || last(b) == tally.Black {
			a, b = b, a
		}
		rd.Boards = append(rd.Boards, swiss.Board{White: a.Number, Black: b.Number})
	}
	return rd, nil
}

// clock is a test clock that moves a second per reading.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { c.t = c.t.Add(time.Second); return c.t }

func newStore(t testing.TB, pair swiss.Pairer) *Store {
	t.Helper()
	c := &clock{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
	s, err := Open(Config{Path: filepath.Join(t.TempDir(), "events.db"), Pair: pair, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newEvent creates an event with n players rated 2000, 1990, ...
func newEvent(t *testing.T, s *Store, sys System, rounds, n int) (string, string) {
	t.Helper()
	ctx := context.Background()
	ev, tok, err := s.Create(ctx, Event{Name: "Test open", Site: "Oslo", Variant: "international", System: sys, Rounds: rounds})
	if err != nil {
		t.Fatal(err)
	}
	var ps []Player
	for i := 0; i < n; i++ {
		ps = append(ps, Player{Name: fmt.Sprintf("Player %c", 'A'+i), Club: "DC", Federation: "nor", Rating: 2000 - 10*i})
	}
	if _, err := s.AddPlayers(ctx, ev.ID, ps); err != nil {
		t.Fatal(err)
	}
	return ev.ID, tok
}

// code is the refusal code of err ("" for nil, "other" for a non-*Error).
func code(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return "other: " + err.Error()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, s *Store, id string) *Snapshot {
	t.Helper()
	sn, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return sn
}

// playRound publishes round n and records 1-0 on every board, then closes it.
func playRound(t *testing.T, s *Store, id string, n int) {
	t.Helper()
	ctx := context.Background()
	must(t, s.Publish(ctx, id, n))
	sn := get(t, s, id)
	for _, b := range sn.Rounds[n-1].Boards {
		if b.Done() {
			continue
		}
		if _, err := s.Record(ctx, id, n, b.Board, [2]tally.Result{tally.Win, tally.Loss}, "director"); err != nil {
			t.Fatal(err)
		}
	}
	must(t, s.CloseRound(ctx, id, n))
}
