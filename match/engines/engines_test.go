package engines

import (
	"sync"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/match"
)

// barrierPlayer's Close returns only once every player of its barrier is
// closing: closed one after the other, the first would never return.
type barrierPlayer struct {
	match.Player
	b *barrier
}

type barrier struct {
	mu   sync.Mutex
	n    int
	all  chan struct{}
	want int
}

func (p barrierPlayer) Close() error {
	p.b.mu.Lock()
	p.b.n++
	if p.b.n == p.b.want {
		close(p.b.all)
	}
	p.b.mu.Unlock()
	<-p.b.all
	return nil
}

// TestCloseAllClosesAtOnce: an event's engines are closed together, so
// that engines that each take their quit grace end the event once, not
// one after the other.
func TestCloseAllClosesAtOnce(t *testing.T) {
	const n = 5
	b := &barrier{all: make(chan struct{}), want: n}
	players := make([]match.Player, n)
	for i := range players {
		players[i] = barrierPlayer{b: b}
	}
	done := make(chan struct{})
	go func() {
		CloseAll(players)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		b.mu.Lock()
		closing := b.n
		b.mu.Unlock()
		t.Fatalf("CloseAll has not returned: %d of %d players were closing", closing, n)
	}
	CloseAll(nil) // nothing to close
}
