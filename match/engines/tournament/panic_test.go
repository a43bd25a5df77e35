package tournament

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

// A panic while a game is played (a bug of ours) stops the event with an
// error instead of killing the process: the other games end as on an
// interrupt, the panicking game is not committed, and the next run plays
// it, so no game is lost or repeated.
func TestPanicInAGameStopsTheEvent(t *testing.T) {
	dir := t.TempDir()
	ev := testEvent(t, "concurrency: 2\n")
	st := openStore(t, dir)
	var calls atomic.Int32
	panicky := func(ctx context.Context, cfg arbiter.Config, white, black match.Player, log zerolog.Logger) (*match.GameRecord, error) {
		if calls.Add(1) == 4 {
			panic("boom in the referee")
		}
		return match.PlayGame(ctx, cfg, white, black, log)
	}
	_, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(0), Play: panicky})
	if err == nil || !strings.Contains(err.Error(), "panic: boom in the referee") || !strings.Contains(err.Error(), "internal error") {
		t.Fatalf("err = %v, want the panic as an error", err)
	}
	ids, err := st.FinishedIDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) >= 12 {
		t.Fatalf("%d games finished: the panicking game was committed", len(ids))
	}
	sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(0)})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Resumed != len(ids) || sum.Finished != sum.Planned || sum.Resumed+sum.Played != sum.Planned {
		t.Errorf("second run: %+v (the first left %d finished)", sum, len(ids))
	}
	c, _ := st.Count(context.Background())
	if c[store.Finished] != sum.Planned || c[store.Running] != 0 {
		t.Errorf("store counts %v, want %d finished", c, sum.Planned)
	}
}
