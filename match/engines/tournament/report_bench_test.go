package tournament

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/schedule"
	"github.com/draughts-arbiter/arbiter/reports"
	"github.com/draughts-arbiter/arbiter/rules"
)

// BenchmarkReport100kGamesWithMoves measures the report of a store of
// 100,000 finished English games of 80 legal plies each with scores and
// latencies, stored as the runner stores them: each game's replay record
// and latencies packed in its row, so that the report reads one row per
// game and never the moves table.
func BenchmarkReport100kGamesWithMoves(b *testing.B) {
	ctx := context.Background()
	text := `
name: big
variant: english
engines: [{name: a, command: x}, {name: b, command: y}]
games_per_encounter: 100000
openings: {file: openings/3move_english.json, group: standard}
`
	ev, err := configs.Parse([]byte(text), "big.yaml", "", configs.Options{Self: "/x"})
	if err != nil {
		b.Fatal(err)
	}
	v := rules.MustLookup("english")
	pos := rules.NewPosition(v)
	var moves []store.Move
	var plies []rules.Move
	var evals []reports.Move
	for ply := 0; ply < 80; ply++ {
		legal := pos.LegalMoves()
		if len(legal) == 0 {
			break
		}
		m := legal[(ply*7)%len(legal)]
		moves = append(moves, store.Move{Text: pos.MoveTextAmong(m, legal), Time: time.Millisecond, Score: 0.1, HasScore: true, Depth: 9,
			Latency: time.Duration(20+ply) * time.Microsecond})
		plies = append(plies, m)
		evals = append(evals, reports.Move{Score: 0.1, HasScore: true, Depth: 9})
		pos = pos.Play(m)
	}
	rec := storedRecord(reports.RecordOf(rules.NewPosition(v), "", plies, evals))
	dir := b.TempDir()
	st, err := store.OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	sched, err := schedule.New(ev.Schedule)
	if err != nil {
		b.Fatal(err)
	}
	plan := sched.All()
	if err := st.Init(ctx, EventRecord(ev, len(plan))); err != nil {
		b.Fatal(err)
	}
	pdnText := fmt.Sprintf("[Event \"big\"]\n[Result \"1-0\"]\n\n%01000d 1-0\n", 0)
	t0 := time.Now()
	for _, p := range plan {
		g := store.Game{ID: p.Index, Cycle: p.Cycle, Round: p.Round, Board: p.Board, Pair: p.Pair, PairGame: p.PairGame,
			White: p.White, Black: p.Black, Opening: ev.Openings[p.Opening].Name,
			Result: "1-0", Termination: "normal", FirstMover: "black", PDN: pdnText, Moves: moves, Record: rec, Started: t0, Finished: t0}
		if err := st.Finish(ctx, g); err != nil {
			b.Fatal(err)
		}
	}
	fill := time.Since(t0)
	// The CPU time of the process (all its threads) says more than the
	// wall clock on a shared machine; the same store made old (as a file
	// of schema version 4 reads after its migration: no packed record or
	// latencies) is reported in the same run, from the moves table.
	report := func(wall, cpu string) {
		t2, c2 := time.Now(), cpuTime(syscall.RUSAGE_SELF)
		if err := WriteReport(ctx, st, dir); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(t2).Seconds(), wall)
		b.ReportMetric((cpuTime(syscall.RUSAGE_SELF) - c2).Seconds(), cpu)
	}
	for b.Loop() {
		report("report-s", "report-cpu-s")
	}
	b.StopTimer()
	db, err := sql.Open("sqlite", st.Path())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE games SET record = '', move_latency = NULL`); err != nil {
		b.Fatal(err)
	}
	report("old-report-s", "old-report-cpu-s")
	b.ReportMetric(fill.Seconds(), "fill-s")
	for _, f := range []struct{ name, unit string }{{reports.HTMLFile, "MB-html"}, {reports.RecordsChunkFile(0), "MB-records-file"}, {reports.ResultsFile, "MB-json"}} {
		fi, err := os.Stat(filepath.Join(dir, f.name))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(fi.Size())/(1<<20), f.unit)
	}
}
