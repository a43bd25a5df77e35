package tournament

import (
	"context"
	"reflect"
	"testing"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match"
)

// A rerun of an event the SPRT stopped plays nothing and shows what the
// first run showed: the same standings, count and SPRT result (it printed
// a table of zeros).
func TestRerunOfSPRTStoppedEventShowsItsStandings(t *testing.T) {
	ev := testEvent(t, "engines: [{name: a, command: x}, {name: b, command: x}]\ngames_per_encounter: 400\nconcurrency: 2\nsprt: {elo0: 0, elo1: 10}\n")
	st := openStore(t, t.TempDir())
	newPlayer := func(spec configs.EngineSpec, _ zerolog.Logger) match.Player {
		return &fakePlayer{name: spec.Name, resign: spec.Name == "b"}
	}
	sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: newPlayer})
	if err != nil || sum.Stopped == "" || sum.SPRT == nil {
		t.Fatalf("first run: %+v, %v", sum, err)
	}
	var reported int
	sum2, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: newPlayer,
		OnResult: func(Result) { reported++ }})
	if err != nil {
		t.Fatal(err)
	}
	if sum2.Played != 0 || sum2.Stopped != sum.Stopped {
		t.Errorf("rerun played %d, stopped %q", sum2.Played, sum2.Stopped)
	}
	if sum2.Finished != sum.Finished || reported != sum.Finished {
		t.Errorf("rerun: finished %d, reported %d; the first run finished %d", sum2.Finished, reported, sum.Finished)
	}
	if !reflect.DeepEqual(sum2.Standings, sum.Standings) || sum.Standings[0].Games == 0 {
		t.Errorf("rerun standings %+v, want %+v", sum2.Standings, sum.Standings)
	}
	if sum2.SPRT == nil || *sum2.SPRT != *sum.SPRT {
		t.Errorf("rerun SPRT %+v, want %+v", sum2.SPRT, sum.SPRT)
	}
}
