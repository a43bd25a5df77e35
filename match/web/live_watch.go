package web

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/match/engines/store"
)

// WatchStore fills h from the store of an event that another process runs
// (`arbiter serve --watch DIR`), reading it every `every` until ctx is
// done: the event once it is there, the running games with the moves the
// runner writes of them (store.SetLive, every tournament.LiveEvery), and
// the games as they finish. It reads only; a read that fails is logged and
// tried again at the next poll.
func WatchStore(ctx context.Context, st *store.Store, h *Live, every time.Duration, log zerolog.Logger) error {
	w := &watcher{st: st, h: h, known: map[int]int{}}
	t := time.NewTicker(every)
	defer t.Stop()
	var failing string
	for {
		err := w.poll(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		switch {
		case err != nil && err.Error() != failing:
			failing = err.Error()
			log.Warn().Err(err).Str("db", st.Path()).Msg("reading the watched event")
		case err == nil && failing != "":
			failing = ""
			log.Info().Str("db", st.Path()).Msg("reading the watched event again")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// watcher is the state of WatchStore between polls.
type watcher struct {
	st      *store.Store
	h       *Live
	started bool
	hash    string
	known   map[int]int // running game -> plies told
	// low is the lowest game ID that may have finished since the last
	// poll: the runner starts games in plan order, so a game that finished
	// since was running then (known) or started after the highest ID seen.
	low      int
	finished int // finished games told
}

func (w *watcher) poll(ctx context.Context) error {
	ev, err := w.st.Event(ctx)
	if errors.Is(err, store.ErrNoEvent) {
		return nil // not started yet
	}
	if err != nil {
		return err
	}
	if !w.started || ev.ConfigHash != w.hash {
		var all []store.Game
		if err := w.st.Games(ctx, store.ReadOptions{NoPDN: true, NoTimes: true, NoRecord: true}, func(g store.Game) error {
			all = append(all, g)
			return nil
		}); err != nil {
			return err
		}
		w.h.EventStarted(ev, all)
		w.started, w.hash, w.known, w.finished = true, ev.ConfigHash, map[int]int{}, len(all)
		w.low = 0
		for _, g := range all {
			w.low = max(w.low, g.ID+1)
		}
	}
	w.h.SetStopped(ev.Stopped)

	// The games that finished since the last poll, before the running
	// ones: a game that ended in between is then not taken for abandoned.
	counts, err := w.st.Count(ctx)
	if err != nil {
		return err
	}
	if counts[store.Finished] != w.finished {
		from := w.low
		if err := w.readFinished(ctx, from); err != nil {
			return err
		}
		if counts[store.Finished] != w.finished && from > 0 {
			// Not in plan order after all (a store written otherwise):
			// read them all.
			if err := w.readFinished(ctx, 0); err != nil {
				return err
			}
		}
	}
	running := map[int]bool{}
	high := w.low
	err = w.st.RunningGames(ctx, func(g store.Game, l store.Live) error {
		running[g.ID] = true
		high = max(high, g.ID+1)
		told, ok := w.known[g.ID]
		if !ok || told > len(l.Moves) {
			// New, or started again from its opening.
			w.h.GameStarted(g)
			told = 0
		}
		// The clocks are known after the last move only; the page shows
		// no other.
		for i := told; i < len(l.Moves); i++ {
			w.h.GameMoved(g.ID, i+1, l.Moves[i], l.Clocks)
		}
		w.known[g.ID] = len(l.Moves)
		return nil
	})
	if err != nil {
		return err
	}
	low := high
	for id := range w.known {
		if !running[id] {
			// Not running and not finished: abandoned (a finished one was
			// told above, and GameAbandoned ignores it).
			w.h.GameAbandoned(id)
			delete(w.known, id)
			continue
		}
		low = min(low, id)
	}
	w.low = low
	return nil
}

// readFinished tells h of the finished games from ID from on that it has
// not been told of.
func (w *watcher) readFinished(ctx context.Context, from int) error {
	err := w.st.Games(ctx, store.ReadOptions{NoPDN: true, NoTimes: true, NoRecord: true, From: from}, func(g store.Game) error {
		w.h.GameEnded(g) // ignored when told already
		delete(w.known, g.ID)
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the finished games: %w", err)
	}
	w.finished = w.h.finishedCount()
	return nil
}

// finishedCount is the number of finished games told.
func (h *Live) finishedCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.done)
}
