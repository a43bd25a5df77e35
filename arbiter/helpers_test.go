package arbiter

import (
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

// fakeClock is a time source the test moves by hand.
type fakeClock struct{ now time.Time }

func newFakeClock() *fakeClock               { return &fakeClock{now: time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)} }
func (f *fakeClock) Now() time.Time          { return f.now }
func (f *fakeClock) advance(d time.Duration) { f.now = f.now.Add(d) }

// setup makes a referee for variant name from fen ("" = start position).
func setup(t *testing.T, name, fen string, cfg Config) (*Referee, *fakeClock) {
	t.Helper()
	v := rules.MustLookup(name)
	cfg.Variant = v
	if fen != "" {
		p, err := rules.ParseFEN(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Start = &p
	}
	fc := newFakeClock()
	if cfg.Clock == nil {
		cfg.Clock = fc
	}
	r, err := NewReferee(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r, fc
}

// move parses text in the referee's position.
func move(t *testing.T, r *Referee, text string) rules.Move {
	t.Helper()
	m, err := r.Position().ParseMove(text)
	if err != nil {
		t.Fatalf("move %s in %s: %v", text, r.Position().FEN(), err)
	}
	return m
}

// play submits moves that must be accepted.
func play(t *testing.T, r *Referee, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if v := r.Submit(move(t, r, s)); v != Accepted {
			t.Fatalf("move %s: verdict %v, result %v", s, v, r.Result())
		}
	}
}

// safeQuiet lists the quiet king moves of the side to move after which the
// opponent has no capture.
func safeQuiet(p rules.Position) []rules.Move {
	var out []rules.Move
	for _, m := range p.LegalMoves() {
		if m.IsCapture() || !p.Kings().Has(m.From) {
			continue
		}
		q := p.Play(m)
		safe := q.HasMoves()
		for _, o := range q.LegalMoves() {
			if o.IsCapture() {
				safe = false
				break
			}
		}
		if safe {
			out = append(out, m)
		}
	}
	return out
}

// walk plays up to n plies of quiet king moves for both sides, preferring
// positions seen least often (so automatic threefold repetition does not
// end the game first), never capturing, never letting the opponent capture
// and never leaving the opponent without such a move. It fails when no
// such move exists, stops when the game ends, and returns the number of
// plies played.
func walk(t *testing.T, r *Referee, n int) int {
	t.Helper()
	for i := 0; i < n; i++ {
		if r.Done() {
			return i
		}
		p := r.Position()
		var best rules.Move
		bestCount := -1
		for _, m := range safeQuiet(p) {
			if len(safeQuiet(p.Play(m))) == 0 {
				continue
			}
			if c := r.draws.rep.countAfter(p, m); bestCount < 0 || c < bestCount {
				best, bestCount = m, c
			}
		}
		if bestCount < 0 {
			t.Fatalf("ply %d: no safe quiet king move in %s", i, p.FEN())
		}
		if v := r.Submit(best); v == Retry || v == AwaitDecision {
			t.Fatalf("ply %d: %v", i, v)
		}
	}
	return n
}

// shuffle plays n plies in which each side moves a king back and forth
// (the first safe quiet king move, then its reverse, and so on). For
// variants whose repetitions do not end the game by themselves.
func shuffle(t *testing.T, r *Referee, n int) int {
	t.Helper()
	var last [2]rules.Move
	for i := 0; i < n; i++ {
		if r.Done() {
			return i
		}
		p := r.Position()
		side := p.Turn()
		m, ok := rules.Move{}, false
		if prev := last[side]; prev.From != 0 {
			m, ok = p.Find(prev.To, prev.From, rules.Set{})
		}
		if !ok {
			safe := safeQuiet(p)
			if len(safe) == 0 {
				t.Fatalf("ply %d: no safe quiet king move in %s", i, p.FEN())
			}
			m = safe[0]
		}
		last[side] = m
		if v := r.Submit(m); v == Retry || v == AwaitDecision {
			t.Fatalf("ply %d: %v", i, v)
		}
	}
	return n
}
