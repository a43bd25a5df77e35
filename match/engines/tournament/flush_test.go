package tournament

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/match"
)

// A slow OnResult holds up no game: while the callback for the first result
// waits, the other game slot goes on finishing games and starting new ones
// (the callback used to run under the lock every game needs to hand in its
// result, so at most one more game could start). Every result is still
// reported once, in plan order.
func TestSlowCallbackHoldsUpNoGame(t *testing.T) {
	ev := testEvent(t, "concurrency: 2\n")
	st := openStore(t, t.TempDir())
	var started atomic.Int32
	play := func(ctx context.Context, cfg arbiter.Config, white, black match.Player, log zerolog.Logger) (*match.GameRecord, error) {
		started.Add(1)
		return match.PlayGame(ctx, cfg, white, black, log)
	}
	var seen []int
	onResult := func(r Result) {
		if len(seen) == 0 {
			// Not a timing: a deadline on a wait that the old code could
			// never end.
			want := started.Load() + 2
			if !poll.Until(time.Minute, time.Millisecond, func() bool { return started.Load() >= want }) {
				t.Errorf("while the first callback ran, %d games started, want 2 more: the callback holds up the games", started.Load()-want+2)
			}
		}
		seen = append(seen, r.Index)
	}
	sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(time.Millisecond), Play: play, OnResult: onResult})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != sum.Planned || sum.Finished != sum.Planned {
		t.Fatalf("%d results reported, %d finished, of %d planned", len(seen), sum.Finished, sum.Planned)
	}
	for i, id := range seen {
		if id != i {
			t.Fatalf("results reported in the order %v", seen)
		}
	}
}
