package tournament

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/reports"
)

// laterFirst is a Local executor that holds the game at index hold until
// the game after it has finished: two slots then finish a game beyond the
// SPRT's decision before the deciding one, as a second slot or a cluster's
// worker may.
type laterFirst struct {
	*Local
	hold int
	next chan struct{} // closed when the game after hold has finished
}

func (e *laterFirst) Play(ctx context.Context, p schedule.Pairing) (store.Game, error) {
	if p.Index == e.hold {
		select {
		case <-e.next:
		case <-ctx.Done():
		}
	}
	g, err := e.Local.Play(ctx, p)
	if p.Index == e.hold+1 {
		close(e.next)
	}
	return g, err
}

// TestSPRTKeepsOnlyTheGamesItCounted: the store, results.json and the
// console count the same games when a game after the deciding one finished
// first (the console said 20 games, results.json 21).
func TestSPRTKeepsOnlyTheGamesItCounted(t *testing.T) {
	const cfg = "engines: [{name: a, command: x}, {name: b, command: x}]\ngames_per_encounter: 400\nconcurrency: 2\nsprt: {elo0: 0, elo1: 10}\n"
	newPlayer := func(spec configs.EngineSpec, _ zerolog.Logger) match.Player {
		return &fakePlayer{name: spec.Name, resign: spec.Name == "b"}
	}
	// Where the SPRT decides: a won game at a time, in plan order.
	first, err := Run(context.Background(), Options{Event: testEvent(t, cfg), Store: openStore(t, t.TempDir()), NewPlayer: newPlayer})
	if err != nil || first.SPRT == nil {
		t.Fatalf("a first run: %v, %+v", err, first)
	}
	decider := first.SPRT.Games - 1

	ev := testEvent(t, cfg)
	dir := t.TempDir()
	st := openStore(t, dir)
	local := NewLocal(ev, LocalOptions{Log: zerolog.Nop(), EngineLog: zerolog.Nop(), NewPlayer: newPlayer})
	defer local.Close()
	exec := &laterFirst{Local: local, hold: decider, next: make(chan struct{})}
	sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: newPlayer, Executor: exec})
	if err != nil {
		t.Fatal(err)
	}
	if sum.SPRT == nil || sum.SPRT.Games != decider+1 || sum.Finished != decider+1 {
		t.Fatalf("the SPRT decided after %+v games, %d finished; want %d", sum.SPRT, sum.Finished, decider+1)
	}
	c, err := st.Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c[store.Finished] != sum.Finished || c[store.Running] != 0 {
		t.Errorf("the store keeps %d finished games (%d running), the console and the SPRT count %d", c[store.Finished], c[store.Running], sum.Finished)
	}
	if sum.Played != sum.Finished {
		t.Errorf("played in this run: %d, finished: %d", sum.Played, sum.Finished)
	}
	if err := WriteReport(context.Background(), st, dir); err != nil {
		t.Fatal(err)
	}
	res, err := reports.ReadResults(filepath.Join(dir, reports.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Games) != sum.Finished {
		t.Errorf("results.json has %d games, the console %d", len(res.Games), sum.Finished)
	}
}
