package tournament

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/draughts-arbiter/arbiter/match/store"
	"github.com/draughts-arbiter/arbiter/reports"
	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// ReportEvent reads the finished games of a store as the reports package's
// Event, in plan order.
func ReportEvent(ctx context.Context, st *store.Store) (reports.Event, error) {
	sev, err := st.Event(ctx)
	if err != nil {
		return reports.Event{}, err
	}
	ev := reports.Event{Name: sev.Name, Variant: sev.Variant, TimeControl: sev.TimeControl}
	names := make(map[int]string, len(sev.Engines))
	for _, e := range sev.Engines {
		ev.Engines = append(ev.Engines, e.Name)
		names[e.ID] = e.Name
	}
	if sev.SPRT != "" {
		var c stats.SPRTConfig
		if err := json.Unmarshal([]byte(sev.SPRT), &c); err != nil {
			return ev, fmt.Errorf("tournament: %s: SPRT settings %q: %w", st.Path(), sev.SPRT, err)
		}
		ev.SPRT = &c
	}
	err = st.Games(ctx, store.ReadOptions{}, func(g store.Game) error {
		w, ok1 := names[g.White]
		b, ok2 := names[g.Black]
		if !ok1 || !ok2 {
			return fmt.Errorf("tournament: %s: game %d refers to an unknown engine", st.Path(), g.ID+1)
		}
		ev.Games = append(ev.Games, reports.Game{
			Round: g.Round, Board: g.Board, Pair: g.Pair + 1, White: w, Black: b,
			Result: g.Result, Termination: g.Termination, Plies: len(g.MoveTimes), Opening: g.Opening,
			MoveTimes: g.MoveTimes, FirstMover: g.FirstMover, PDN: g.PDN, Started: g.Started, Finished: g.Finished,
			Worker: g.Worker,
		})
		return nil
	})
	return ev, err
}

// WriteReport writes report.html, results.json and games.pdn into dir from
// the store's games.
func WriteReport(ctx context.Context, st *store.Store, dir string) error {
	ev, err := ReportEvent(ctx, st)
	if err != nil {
		return err
	}
	if err := reports.WriteAll(dir, ev); err != nil {
		return err
	}
	return nil
}

// ReportPath is where WriteReport puts the HTML report.
func ReportPath(dir string) string { return filepath.Join(dir, reports.HTMLFile) }
