package tournament

import (
	"context"
	"sync"

	"github.com/draughts-arbiter/arbiter/match"
)

// pool keeps the idle players of one engine, so that an engine process
// serves game after game (Hub engines take "new-game"; DXP engines a new
// GAMEREQ). At most limit players exist at once.
type pool struct {
	newPlayer func() match.Player
	limit     int

	mu      sync.Mutex
	idle    []match.Player
	created int
	all     []match.Player // every player made, for Close
	free    chan struct{}  // a token per player that may still be made or is idle
}

func newPool(limit int, newPlayer func() match.Player) *pool {
	p := &pool{newPlayer: newPlayer, limit: limit, free: make(chan struct{}, limit)}
	for i := 0; i < limit; i++ {
		p.free <- struct{}{}
	}
	return p
}

// get returns an idle player, or a new one, waiting while limit are busy.
func (p *pool) get(ctx context.Context) (match.Player, error) {
	select {
	case <-p.free:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.idle); n > 0 {
		pl := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return pl, nil
	}
	pl := p.newPlayer()
	p.created++
	p.all = append(p.all, pl)
	return pl, nil
}

// put returns a player. A player that misbehaved (crash, stall) is closed
// and dropped, so the next game starts a fresh process.
func (p *pool) put(pl match.Player, broken bool) {
	if broken {
		// Outside the lock: closing waits up to the quit grace period, and
		// other games must not wait for it.
		pl.Close()
	}
	p.mu.Lock()
	if broken {
		for i, q := range p.all {
			if q == pl {
				p.all = append(p.all[:i], p.all[i+1:]...)
				break
			}
		}
	} else {
		p.idle = append(p.idle, pl)
	}
	p.mu.Unlock()
	p.free <- struct{}{}
}

// take empties the pool and returns every player it made, for closing.
func (p *pool) take() []match.Player {
	p.mu.Lock()
	defer p.mu.Unlock()
	all := p.all
	p.all, p.idle = nil, nil
	return all
}
