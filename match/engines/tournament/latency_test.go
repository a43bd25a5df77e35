package tournament

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/reports"
)

// sumLatency adds up moves' latencies as the report does: whole
// microseconds a move.
func sumLatency(moves []store.Move, firstWhite, white bool) reports.Latency {
	var l reports.Latency
	for i, m := range moves {
		if (i%2 == 0) != (firstWhite == white) {
			continue
		}
		us := int64(m.Latency / time.Microsecond)
		l.Moves++
		l.TotalUS += us
		l.MaxUS = max(l.MaxUS, us)
	}
	if l.Moves > 0 {
		l.MeanUS = l.TotalUS / int64(l.Moves)
	}
	return l
}

// gamesData is the games list report.html embeds.
type gamesData struct {
	Latency bool    `json:"latency"`
	Games   [][]int `json:"games"`
}

func readGamesData(t *testing.T, dir string) gamesData {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(dir, reports.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	const open = `<script type="application/json" id="games-data">`
	_, rest, ok := strings.Cut(string(page), open)
	body, _, ok2 := strings.Cut(rest, "</script>")
	if !ok || !ok2 {
		t.Fatal("report.html has no games data")
	}
	var gd gamesData
	if err := json.Unmarshal([]byte(body), &gd); err != nil {
		t.Fatalf("games data: %v", err)
	}
	return gd
}

// TestReportLatencyIsTheStoredMoves plays a real small event (two sparring
// engines as processes): results.json gives each game's latency per side
// and each engine's, equal to the sums of the latencies stored with the
// moves, and report.html lists them. The same store made old (its games
// without their packed record and latencies, as a file of schema version
// 4 holds them after the migration) reports the same from the moves table.
func TestReportLatencyIsTheStoredMoves(t *testing.T) {
	bin := arbiterBinary(t)
	dir := t.TempDir()
	text := `
name: latency
variant: english
time_control: "10+0.1"
engines:
  - {name: r1, command: self engine --level random --seed 1}
  - {name: r2, command: self engine --level random --seed 2}
games_per_encounter: 4
concurrency: 1
adjudication: {max_moves: 15}
`
	ev, err := configs.Parse([]byte(text), filepath.Join(dir, "latency.yaml"), dir, configs.Options{Self: bin})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	st := openStore(t, out)
	ctx := context.Background()
	if _, err := Run(ctx, Options{Event: ev, Store: st}); err != nil {
		t.Fatal(err)
	}
	// The stored games in the order of results.json: by round and board,
	// in plan order within them.
	var stored []store.Game
	if err := st.Games(ctx, store.ReadOptions{Moves: true}, func(g store.Game) error {
		stored = append(stored, g)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.SortStableFunc(stored, func(a, b store.Game) int {
		return cmp.Or(cmp.Compare(a.Round, b.Round), cmp.Compare(a.Board, b.Board))
	})
	check := func(t *testing.T) (records []string) {
		if err := WriteReport(ctx, st, out); err != nil {
			t.Fatal(err)
		}
		res, err := reports.ReadResults(filepath.Join(out, reports.ResultsFile))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Games) != 4 || len(stored) != 4 {
			t.Fatalf("results.json has %d games, want 4", len(res.Games))
		}
		gd := readGamesData(t, out)
		if !gd.Latency || len(gd.Games) != len(res.Games) {
			t.Fatalf("report.html: latency column %v, %d games", gd.Latency, len(gd.Games))
		}
		perEngine := map[string]reports.Latency{}
		measured := false
		for i, g := range res.Games {
			sg := stored[i]
			if sg.Round != g.Round || sg.Board != g.Board || len(sg.Moves) == 0 {
				t.Fatalf("game %d: results.json round %d.%d, stored %d.%d with %d moves", i+1, g.Round, g.Board, sg.Round, sg.Board, len(sg.Moves))
			}
			firstWhite := sg.FirstMover == "white"
			w, b := sumLatency(sg.Moves, firstWhite, true), sumLatency(sg.Moves, firstWhite, false)
			if g.WhiteLatency == nil || g.BlackLatency == nil {
				t.Fatalf("game %d.%d has no latency in results.json", g.Round, g.Board)
			}
			got := [2]reports.Latency{*g.WhiteLatency, *g.BlackLatency}
			got[0].High, got[1].High = false, false // the flags are tested in reports
			if got != [2]reports.Latency{w, b} {
				t.Errorf("game %d.%d latency: results.json %+v, the stored moves %+v", g.Round, g.Board, got, [2]reports.Latency{w, b})
			}
			measured = measured || w.TotalUS > 0 || b.TotalUS > 0
			if gd.Games[i][10] != int(max(w.MaxUS, b.MaxUS)) {
				t.Errorf("report.html game %d: latency %d µs, the stored moves' most %d", i+1, gd.Games[i][10], max(w.MaxUS, b.MaxUS))
			}
			for _, side := range []struct {
				name string
				l    reports.Latency
			}{{g.White, w}, {g.Black, b}} {
				e := perEngine[side.name]
				e.Moves += side.l.Moves
				e.TotalUS += side.l.TotalUS
				e.MaxUS = max(e.MaxUS, side.l.MaxUS)
				perEngine[side.name] = e
			}
		}
		if !measured {
			t.Error("no latency measured at all over four games of engine processes")
		}
		for _, e := range res.Stats.Engines {
			want := perEngine[e.Name]
			if e.Latency == nil || e.Latency.Moves != want.Moves || e.Latency.TotalUS != want.TotalUS || e.Latency.MaxUS != want.MaxUS ||
				e.Latency.MeanUS != want.TotalUS/int64(want.Moves) || e.Latency.Games != 4 {
				t.Errorf("engine %s latency %+v, the stored moves give %+v over 4 games", e.Name, e.Latency, want)
			}
		}
		page, _ := os.ReadFile(filepath.Join(out, reports.HTMLFile))
		for _, name := range []string{"r1", "r2"} {
			if !strings.Contains(string(page), `<td class="l name">`+name) || !strings.Contains(string(page), `id="latency-table"`) {
				t.Errorf("report.html has no latency row for %s", name)
			}
		}
		rev, err := ReportEvent(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range rev.Games {
			records = append(records, g.Record)
		}
		return records
	}
	var fresh, old []string
	t.Run("current", func(t *testing.T) { fresh = check(t) })
	// The same games as a file of schema version 4 has them.
	db, err := sql.Open("sqlite", st.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE games SET record = '', move_latency = NULL`); err != nil {
		t.Fatal(err)
	}
	t.Run("old", func(t *testing.T) { old = check(t) })
	// A record in a format this arbiter does not replay is made again.
	if _, err := db.Exec(`UPDATE games SET record = 'v999;abc'`); err != nil {
		t.Fatal(err)
	}
	var other []string
	t.Run("other format", func(t *testing.T) { other = check(t) })
	if !reflect.DeepEqual(fresh, other) {
		t.Errorf("records of another format were not made again: %q", other)
	}
	if len(fresh) != 4 || fresh[0] == "" || !reflect.DeepEqual(fresh, old) {
		t.Errorf("replay records kept by the runner %q\nand made from the moves table %q differ", fresh, old)
	}
}

// An engine such as Scan 3.1 writes its info line (with time=) when an
// iteration of its search completes and then searches on, unreported, until
// its time is up: the latency was the round trip less the line's time=, so
// that search was charged to the machine (Scan at 10+0.1: 88 ms a move on
// average, up to 1.9 s, every game flagged high on a quiet pipe). The script
// is the sparring engine searching a further 200 ms after its info line
// before its done line comes out: the stored latency must not hold it.
func TestLatencyLeavesOutSearchAfterTheInfoLine(t *testing.T) {
	bin := arbiterBinary(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "searches-on")
	text := "#!/bin/sh\n" + bin + ` engine --level 2 "$@" | while IFS= read -r line; do
  case "$line" in done*) sleep 0.2 ;; esac
  printf '%s\n' "$line"
done
`
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := `
name: tail
variant: english
time_control: "60+1"
engines:
  - {name: tail, command: ` + script + `}
  - {name: r2, command: self engine --level random --seed 2}
games_per_encounter: 2
concurrency: 1
adjudication: {max_moves: 6}
`
	ev, err := configs.Parse([]byte(conf), filepath.Join(dir, "tail.yaml"), dir, configs.Options{Self: bin})
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t, filepath.Join(dir, "out"))
	ctx := context.Background()
	if _, err := Run(ctx, Options{Event: ev, Store: st}); err != nil {
		t.Fatal(err)
	}
	moves := 0
	if err := st.Games(ctx, store.ReadOptions{Moves: true}, func(g store.Game) error {
		tailWhite := strings.Contains(g.PDN, `[White "tail"]`)
		for i, m := range g.Moves {
			if (i%2 == 0) != ((g.FirstMover == "white") == tailWhite) {
				continue
			}
			moves++
			// 200 ms of search after the line against the pipe's share:
			// a loaded machine may add tens of milliseconds, not 150.
			if m.Latency == store.UnknownLatency || m.Latency >= 150*time.Millisecond {
				t.Errorf("game %d.%d move %d (%s): latency %v, want the pipe's share only (the engine searched 200 ms after its info line)",
					g.Round, g.Board, i+1, m.Text, m.Latency)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if moves == 0 {
		t.Fatal("the engine that searches on played no move")
	}
}

// Two engines of one command that the event's options tell apart (Scan and
// Scan without its book, options: {book: "false"}) read the same in the
// report: name aside, the command, protocol, id and version were all the
// report and results.json said of them. They now give each engine's options.
func TestReportNamesTheEnginesOptions(t *testing.T) {
	bin := arbiterBinary(t)
	dir := t.TempDir()
	text := `
name: options
variant: english
time_control: "10+0.1"
engines:
  - {name: plain, command: self engine --level random}
  - {name: seeded, command: self engine --level random, options: {seed: 7}}
games_per_encounter: 2
concurrency: 1
adjudication: {max_moves: 4}
`
	ev, err := configs.Parse([]byte(text), filepath.Join(dir, "options.yaml"), dir, configs.Options{Self: bin})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	st := openStore(t, out)
	ctx := context.Background()
	if _, err := Run(ctx, Options{Event: ev, Store: st}); err != nil {
		t.Fatal(err)
	}
	if err := WriteReport(ctx, st, out); err != nil {
		t.Fatal(err)
	}
	res, err := reports.ReadResults(filepath.Join(out, reports.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	ps := res.Event.Participants
	if len(ps) != 2 || ps[0].Options != nil || !reflect.DeepEqual(ps[1].Options, map[string]string{"seed": "7"}) {
		t.Errorf("results.json participants %+v, want seeded's options {seed: 7} and none for plain", ps)
	}
	page, err := os.ReadFile(filepath.Join(out, reports.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(page), "options: seed=7") != 1 {
		t.Errorf("report.html does not name seeded's option once (options: seed=7)")
	}
}
