package sparring

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

// FaultKind is a way the sparring engine misbehaves on purpose.
type FaultKind string

// Faults. Each happens at the engine's own K-th move request of a game
// (1-based; a request repeated after an illegal move counts again).
const (
	CrashAt   FaultKind = "crash"   // exit with status 3
	HangAt    FaultKind = "hang"    // stop reading and answering, ping included
	IllegalAt FaultKind = "illegal" // send a legal-looking but illegal move
	GarbageAt FaultKind = "garbage" // send junk instead of a move
	SlowAt    FaultKind = "slow"    // think past the time limit, then move
)

// Fault is one planned misbehaviour.
type Fault struct {
	Kind FaultKind
	At   int
}

// ErrCrash and ErrHang are returned by the servers when a crash or hang
// fault fires; the command exits with status 3 or sleeps forever.
var (
	ErrCrash = errors.New("sparring: planned crash")
	ErrHang  = errors.New("sparring: planned hang")
)

// ParseFaults reads "crash-at=K", "hang-at=K", "illegal-at=K",
// "garbage-at=K" or "slow-at=K"; several may be joined with commas.
func ParseFaults(s string) ([]Fault, error) {
	var out []Fault
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, k, ok := strings.Cut(item, "=")
		kind, ok2 := strings.CutSuffix(name, "-at")
		n, err := strconv.Atoi(k)
		if !ok || !ok2 || err != nil || n < 1 {
			return nil, fmt.Errorf("sparring: fault %q: want crash-at=K, hang-at=K, illegal-at=K, garbage-at=K or slow-at=K with K >= 1", item)
		}
		switch f := FaultKind(kind); f {
		case CrashAt, HangAt, IllegalAt, GarbageAt, SlowAt:
			out = append(out, Fault{Kind: f, At: n})
		default:
			return nil, fmt.Errorf("sparring: unknown fault %q", name)
		}
	}
	return out, nil
}

func (f Fault) String() string { return fmt.Sprintf("%s-at=%d", f.Kind, f.At) }

// faultAt returns the fault planned for request k, if any.
func faultAt(fs []Fault, k int) (FaultKind, bool) {
	for _, f := range fs {
		if f.At == k {
			return f.Kind, true
		}
	}
	return "", false
}

// wire is what a protocol front end does for answer, the one place where
// the planned faults fire.
type wire interface {
	// move sends m as the engine's move in p (depth is the depth its
	// search finished, thought the time taken).
	move(p rules.Position, m rules.Move, depth int, thought time.Duration) error
	// noMove says the engine has no legal move in p.
	noMove(p rules.Position) error
	// garbage sends junk instead of a move.
	garbage() error
	// hang stops the front end reading (ErrHang then ends the server).
	hang()
	// slow waits well past the time limit, or until the protocol cuts the
	// wait short (Hub "stop", the connection's end in DXP).
	slow()
	// interrupted reports whether the search must end now with the best
	// move it has (Hub: a stop came; a ping meanwhile is answered).
	interrupted() bool
}

// answer answers the engine's next move request in p: the planned fault of
// this request, or a move.
func (e *engine) answer(p rules.Position, w wire) error {
	if !p.HasMoves() {
		return w.noMove(p)
	}
	e.requests++
	start := time.Now()
	fault, _ := faultAt(e.cfg.Faults, e.requests)
	switch fault {
	case CrashAt:
		return ErrCrash
	case HangAt:
		w.hang()
		return ErrHang
	case GarbageAt:
		return w.garbage()
	case IllegalAt:
		if m, ok := IllegalMove(p); ok {
			return w.move(p, m, 0, 0)
		}
	case SlowAt:
		w.slow()
	}
	m, depth := choose(p, e.cfg.Level, e.rngFor(p), w.interrupted)
	return w.move(p, m, depth, time.Since(start))
}
