package tournament

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

// recorder is an Observer that keeps what it is told.
type recorder struct {
	mu       sync.Mutex
	event    store.Event
	earlier  int
	started  map[int]bool
	moves    map[int][]string // texts by game, in the order told
	plies    map[int][]int
	ended    map[int]string // result
	problems []string
}

func newRecorder() *recorder {
	return &recorder{started: map[int]bool{}, moves: map[int][]string{}, plies: map[int][]int{}, ended: map[int]string{}}
}

func (r *recorder) EventStarted(ev store.Event, finished []store.Game) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.event, r.earlier = ev, len(finished)
}

func (r *recorder) GameStarted(g store.Game) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started[g.ID] {
		r.problems = append(r.problems, fmt.Sprintf("game %d started twice", g.ID))
	}
	r.started[g.ID] = true
}

func (r *recorder) GameMoved(id, ply int, m store.Move, clocks [2]time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.started[id] || r.ended[id] != "" {
		r.problems = append(r.problems, fmt.Sprintf("game %d: a move outside the game", id))
	}
	if clocks[0] <= 0 || clocks[1] <= 0 {
		r.problems = append(r.problems, fmt.Sprintf("game %d ply %d: clocks %v in a 60+1 game", id, ply, clocks))
	}
	r.moves[id] = append(r.moves[id], m.Text)
	r.plies[id] = append(r.plies[id], ply)
}

func (r *recorder) GameEnded(g store.Game) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.started[g.ID] {
		r.problems = append(r.problems, fmt.Sprintf("game %d ended without starting", g.ID))
	}
	if g.Moves != nil || g.PDN != "" {
		r.problems = append(r.problems, fmt.Sprintf("game %d ended with its moves or PDN", g.ID))
	}
	r.ended[g.ID] = g.Result
}

func (r *recorder) GameAbandoned(id int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.problems = append(r.problems, fmt.Sprintf("game %d abandoned in a run that was not interrupted", id))
}

// The Observer is told of every game, move by move in order, and of its
// end with the result stored; a resumed run tells it of the earlier games.
func TestObserverFollowsTheGames(t *testing.T) {
	ev := testEvent(t, "concurrency: 2")
	dir := t.TempDir()
	st := openStore(t, dir)
	rec := newRecorder()
	sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(0), Observer: rec})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rec.problems {
		t.Error(p)
	}
	if rec.event.Name != "unit" || rec.earlier != 0 {
		t.Errorf("EventStarted: %q with %d earlier games; want unit with 0", rec.event.Name, rec.earlier)
	}
	games := rows(t, st)
	if len(games) != sum.Planned || len(rec.ended) != len(games) {
		t.Fatalf("%d games stored, %d told ended; planned %d", len(games), len(rec.ended), sum.Planned)
	}
	for _, g := range games {
		var want []string
		var plies []int
		for i, m := range g.Moves {
			want = append(want, m.Text)
			plies = append(plies, i+1)
		}
		if !reflect.DeepEqual(rec.moves[g.ID], want) || !reflect.DeepEqual(rec.plies[g.ID], plies) {
			t.Errorf("game %d: told moves %v (plies %v); stored %v", g.ID, rec.moves[g.ID], rec.plies[g.ID], want)
		}
		if rec.ended[g.ID] != g.Result {
			t.Errorf("game %d: told result %q; stored %q", g.ID, rec.ended[g.ID], g.Result)
		}
	}
	// Nothing is left running with live moves once the event is over.
	if err := st.RunningGames(context.Background(), func(g store.Game, _ store.Live) error {
		t.Errorf("game %d still running", g.ID)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	again := newRecorder()
	if _, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(0), Observer: again}); err != nil {
		t.Fatal(err)
	}
	if again.earlier != len(games) || len(again.started) != 0 {
		t.Errorf("resumed run: told of %d earlier games and %d started; want %d and 0", again.earlier, len(again.started), len(games))
	}
}

// The feed writes a running game's moves, with what the engines said, to
// the store when it flushes, and only the games that moved.
func TestLiveFeedWritesTheMoves(t *testing.T) {
	ctx := context.Background()
	ev := testEvent(t, "")
	st := openStore(t, t.TempDir())
	if err := st.Init(ctx, EventRecord(ev, 12)); err != nil {
		t.Fatal(err)
	}
	f := &liveFeed{st: st, log: zerolog.Nop(), games: map[int]*liveGame{}}
	for id := range 2 {
		g := store.Game{ID: id, White: 0, Black: 1, Started: time.Now()}
		if err := st.Start(ctx, g); err != nil {
			t.Fatal(err)
		}
		f.started(g)
	}
	clocks := [2]time.Duration{59 * time.Second, 60 * time.Second}
	f.moved(1, match.Moved{Ply: 1, Move: arbiter.MoveRecord{Text: "11-15", Used: time.Second, Clock: clocks[0]},
		Info: `info depth=7 score=0.25 pv="11-15 23-19"`, Clocks: clocks})
	f.flush()
	f.moved(1, match.Moved{Ply: 2, Move: arbiter.MoveRecord{Text: "23-19"}, Info: "", Clocks: clocks})
	f.moved(3, match.Moved{Ply: 1, Move: arbiter.MoveRecord{Text: "9-13"}}) // not followed: ignored
	f.flush()
	got := map[int]store.Live{}
	if err := st.RunningGames(ctx, func(g store.Game, l store.Live) error { got[g.ID] = l; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got[0].Moves) != 0 {
		t.Errorf("game 0, which did not move, has live moves %+v", got[0].Moves)
	}
	want := []store.Move{{Text: "11-15", Time: time.Second, Clock: 59 * time.Second, Score: 0.25, HasScore: true, Depth: 7, PV: "11-15 23-19"}, {Text: "23-19"}}
	if l := got[1]; !reflect.DeepEqual(l.Moves, want) || l.Clocks != clocks {
		t.Errorf("game 1's live moves = %+v, clocks %v\nwant %+v, %v", l.Moves, l.Clocks, want, clocks)
	}
}

// A game that starts after another ended takes that game's room: it must
// start empty, with none of the earlier game's moves, clocks or info lines
// (the room is reused to spare the collector, see liveFeed.spare).
func TestLiveFeedNextGameStartsEmpty(t *testing.T) {
	ctx := context.Background()
	ev := testEvent(t, "")
	st := openStore(t, t.TempDir())
	if err := st.Init(ctx, EventRecord(ev, 12)); err != nil {
		t.Fatal(err)
	}
	f := &liveFeed{st: st, log: zerolog.Nop(), games: map[int]*liveGame{}}
	clocks := [2]time.Duration{59 * time.Second, 60 * time.Second}
	first := store.Game{ID: 0, White: 0, Black: 1, Started: time.Now()}
	if err := st.Start(ctx, first); err != nil {
		t.Fatal(err)
	}
	f.started(first)
	f.moved(0, match.Moved{Ply: 1, Move: arbiter.MoveRecord{Text: "11-15"}, Info: "info depth=3 score=1", Clocks: clocks})
	f.moved(0, match.Moved{Ply: 2, Move: arbiter.MoveRecord{Text: "23-19"}, Info: "info depth=4", Clocks: clocks})
	f.ended(first)
	for _, end := range []func(int){func(id int) { f.ended(store.Game{ID: id}) }, f.abandoned} {
		next := store.Game{ID: 1, White: 1, Black: 0, Started: time.Now()}
		if err := st.Start(ctx, next); err != nil {
			t.Fatal(err)
		}
		f.started(next)
		f.moved(1, match.Moved{Ply: 1, Move: arbiter.MoveRecord{Text: "9-13"}})
		f.flush()
		var got store.Live
		if err := st.RunningGames(ctx, func(g store.Game, l store.Live) error {
			if g.ID == 1 {
				got = l
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if want := []store.Move{{Text: "9-13"}}; !reflect.DeepEqual(got.Moves, want) || got.Clocks != ([2]time.Duration{}) {
			t.Errorf("the next game's live moves = %+v, clocks %v; want %+v and no clocks", got.Moves, got.Clocks, want)
		}
		end(1)
		if len(f.games) != 0 || len(f.spare) != 1 {
			t.Errorf("after the game: %d games followed, %d spare; want 0 and 1", len(f.games), len(f.spare))
		}
	}
}

// A game's running row is written by the feed's next flush, not as it
// starts (see liveFeed): an observer in another process then sees the game,
// without moves until it has some. A game that has ended by then keeps its
// finished row, and the late write is no fault worth a warning.
func TestLiveFeedWritesTheRunningRow(t *testing.T) {
	ctx := context.Background()
	ev := testEvent(t, "")
	st := openStore(t, t.TempDir())
	if err := st.Init(ctx, EventRecord(ev, 12)); err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	f := &liveFeed{st: st, log: zerolog.New(&logged), games: map[int]*liveGame{}}
	running := func() map[int]store.Game {
		got := map[int]store.Game{}
		if err := st.RunningGames(ctx, func(g store.Game, _ store.Live) error { got[g.ID] = g; return nil }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	started := time.Now().Truncate(time.Millisecond)
	long := store.Game{ID: 0, White: 0, Black: 1, Opening: "11-15", Started: started, FirstMover: "black"}
	short := store.Game{ID: 1, White: 1, Black: 0, Started: started, FirstMover: "black"}
	f.started(long)
	f.started(short)
	if got := running(); len(got) != 0 {
		t.Errorf("running rows before the flush: %v; want none (written by the flush)", got)
	}
	// The short game ends before the flush has written it.
	short.Result, short.Termination = "2-0", "normal"
	if err := st.Finish(ctx, short); err != nil {
		t.Fatal(err)
	}
	f.flush()
	got := running()
	if g, ok := got[0]; !ok || g.Opening != "11-15" || !g.Started.Equal(started) {
		t.Errorf("after the flush, running rows %+v; want game 0 with its opening and start", got)
	}
	if _, ok := got[1]; ok {
		t.Error("the game that had ended is written as running again")
	}
	if c, err := st.Count(ctx); err != nil || c[store.Finished] != 1 {
		t.Errorf("finished games %v (%v); want 1", c, err)
	}
	if strings.Contains(logged.String(), "warn") {
		t.Errorf("the late write of an ended game was logged: %s", logged.String())
	}
	// A later flush of the moved game writes its moves.
	f.moved(0, match.Moved{Ply: 1, Move: arbiter.MoveRecord{Text: "11-15"}})
	f.flush()
	var moves []store.Move
	if err := st.RunningGames(ctx, func(g store.Game, l store.Live) error { moves = l.Moves; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 || moves[0].Text != "11-15" {
		t.Errorf("after a move, the running game's live moves are %+v; want 11-15", moves)
	}
}
