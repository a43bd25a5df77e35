package director

import (
	"context"
	"fmt"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// benchEvent is a 200-player Swiss with five rounds played (the tests'
// pairer: the store's cost, not the Dutch system's).
func benchEvent(b *testing.B) (*Store, string) {
	b.Helper()
	s := newStore(b, testPair)
	ctx := context.Background()
	ev, _, err := s.Create(ctx, Event{Name: "Bench", Rounds: 9})
	if err != nil {
		b.Fatal(err)
	}
	var ps []Player
	for i := 0; i < 200; i++ {
		ps = append(ps, Player{Name: fmt.Sprintf("P%03d", i), Rating: 2400 - i})
	}
	if _, err := s.AddPlayers(ctx, ev.ID, ps); err != nil {
		b.Fatal(err)
	}
	for n := 1; n <= 5; n++ {
		if err := s.PairRound(ctx, ev.ID, n, nil); err != nil {
			b.Fatal(err)
		}
		if err := s.Publish(ctx, ev.ID, n); err != nil {
			b.Fatal(err)
		}
		sn, _ := s.Get(ctx, ev.ID)
		for _, bd := range sn.Rounds[n-1].Boards {
			if _, err := s.Record(ctx, ev.ID, n, bd.Board, [2]tally.Result{tally.Draw, tally.Draw}, "director"); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.CloseRound(ctx, ev.ID, n); err != nil {
			b.Fatal(err)
		}
	}
	return s, ev.ID
}

// BenchmarkGet reads the whole event and its state (what every page does).
func BenchmarkGet(b *testing.B) {
	s, id := benchEvent(b)
	defer s.Close()
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sn, err := s.Get(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		if len(sn.State()) != 200 {
			b.Fatal("players lost")
		}
	}
}

// BenchmarkRecord records one result (a transaction that loads the event).
func BenchmarkRecord(b *testing.B) {
	s, id := benchEvent(b)
	defer s.Close()
	ctx := context.Background()
	if err := s.PairRound(ctx, id, 6, nil); err != nil {
		b.Fatal(err)
	}
	if err := s.Publish(ctx, id, 6); err != nil {
		b.Fatal(err)
	}
	res := [][2]tally.Result{{tally.Win, tally.Loss}, {tally.Loss, tally.Win}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Record(ctx, id, 6, 1+i%100, res[i%2], "director"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPairDutch pairs round 4 of a 100-player Swiss with the Dutch
// system (swiss.Pair) through the store, the transaction included.
func BenchmarkPairDutch(b *testing.B) {
	s := newStore(b, nil)
	ctx := context.Background()
	ev, _, err := s.Create(ctx, Event{Name: "Bench", Rounds: 9})
	if err != nil {
		b.Fatal(err)
	}
	var ps []Player
	for i := 0; i < 100; i++ {
		ps = append(ps, Player{Name: fmt.Sprintf("P%03d", i), Rating: 2400 - i})
	}
	if _, err := s.AddPlayers(ctx, ev.ID, ps); err != nil {
		b.Fatal(err)
	}
	res := [][2]tally.Result{{tally.Win, tally.Loss}, {tally.Draw, tally.Draw}, {tally.Loss, tally.Win}}
	for n := 1; n <= 3; n++ {
		if err := s.PairRound(ctx, ev.ID, n, nil); err != nil {
			b.Fatal(err)
		}
		if err := s.Publish(ctx, ev.ID, n); err != nil {
			b.Fatal(err)
		}
		sn, _ := s.Get(ctx, ev.ID)
		for i, bd := range sn.Rounds[n-1].Boards {
			if _, err := s.Record(ctx, ev.ID, n, bd.Board, res[(i+n)%3], "director"); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.CloseRound(ctx, ev.ID, n); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.PairRound(ctx, ev.ID, 4, nil); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := s.Undo(ctx, ev.ID, 4); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
