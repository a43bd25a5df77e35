package tournament

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"go.yaml.in/yaml/v3"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/reports"
	"github.com/draughts-arbiter/arbiter/reports/stats"
	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// fakePlayer is an in-process test double for an engine: it picks a move
// that depends only on the position (so a game is the same whatever the
// concurrency), optionally sleeping, resigning, crashing or failing to start.
type fakePlayer struct {
	name      string
	jitter    time.Duration // random sleep per move, to shuffle finishing order
	resign    bool          // resign at the first move
	crashAt   int           // 1-based own move at which to report a crash, once (0 = never)
	startFail error         // NewGame fails with this (not a fault)
	moves     int
	crashed   bool
	closed    atomic.Bool
}

func (f *fakePlayer) Name() string { return f.name }

func (f *fakePlayer) NewGame(ctx context.Context, v *rules.Variant, start rules.Position, tc arbiter.TimeControl) error {
	if f.closed.Load() {
		return errors.New("fake: NewGame on a closed player")
	}
	f.moves = 0
	return f.startFail
}

func (f *fakePlayer) Play(ctx context.Context, req match.Request) (match.Reply, error) {
	f.moves++
	if f.jitter > 0 {
		select {
		case <-time.After(time.Duration(rand.Int64N(int64(f.jitter)))):
		case <-ctx.Done():
			return match.Reply{}, ctx.Err()
		}
	}
	if f.resign {
		return match.Reply{Resign: true}, nil
	}
	if f.crashAt > 0 && f.moves == f.crashAt && !f.crashed {
		f.crashed = true
		return match.Reply{}, &match.Fault{Kind: match.Crash, Reason: "fake crash"}
	}
	ms := req.Position.LegalMoves()
	h := fnv.New64a()
	h.Write([]byte(req.Position.FEN()))
	h.Write([]byte(f.name))
	return match.Reply{Move: ms[h.Sum64()%uint64(len(ms))]}, nil
}

func (f *fakePlayer) Close() error { f.closed.Store(true); return nil }

func testEvent(t testing.TB, extra string) *configs.Event {
	t.Helper()
	text := `
name: unit
variant: english
time_control: "60+1"
engines:
  - {name: a, command: fake}
  - {name: b, command: fake}
  - {name: c, command: fake}
  - {name: d, command: fake}
games_per_encounter: 2
openings: {file: openings/3move_english.json, group: standard, order: random, seed: 7}
adjudication: {max_moves: 60}
`
	// extra replaces top-level keys, as command-line overrides would.
	var over map[string]any
	if err := yaml.Unmarshal([]byte(extra), &over); err != nil {
		t.Fatal(err)
	}
	var opts configs.Options
	for k, v := range over {
		opts.Overrides = append(opts.Overrides, configs.Override{Key: k, Value: v, Source: "test"})
	}
	opts.Self = "/x"
	ev, err := configs.Parse([]byte(text), "unit.yaml", "", opts)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func openStore(t testing.TB, dir string) *store.Store {
	t.Helper()
	st, err := store.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// rows reads every game of a store.
func rows(t testing.TB, st *store.Store) []store.Game {
	t.Helper()
	var out []store.Game
	if err := st.Games(context.Background(), store.ReadOptions{Moves: true}, func(g store.Game) error {
		g.Started, g.Finished = time.Time{}, time.Time{}
		for i := range g.Moves {
			g.Moves[i].Time, g.Moves[i].Clock, g.Moves[i].Latency = 0, 0, 0
		}
		g.MoveTimes, g.MoveLatency = nil, nil
		if g.Plies != len(g.Moves) {
			t.Errorf("game %d: %d plies, %d moves", g.ID, g.Plies, len(g.Moves))
		}
		// The PDN carries the date and, with annotations (not in the events
		// compared), the clocks.
		out = append(out, g)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func fakes(jitter time.Duration) func(spec configs.EngineSpec, _ zerolog.Logger) match.Player {
	return func(spec configs.EngineSpec, _ zerolog.Logger) match.Player {
		return &fakePlayer{name: spec.Name, jitter: jitter}
	}
}

func TestDeterministicWhateverTheConcurrency(t *testing.T) {
	var got [][]Result
	var stored [][]store.Game
	for _, conc := range []int{1, 4} {
		ev := testEvent(t, fmt.Sprintf("concurrency: %d\nrounds: double\npdn: {annotations: none}\n", conc))
		st := openStore(t, t.TempDir())
		var res []Result
		sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(2 * time.Millisecond),
			OnResult: func(r Result) { res = append(res, r) }})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Planned != 24 || sum.Played != 24 || sum.Finished != 24 || sum.Resumed != 0 {
			t.Fatalf("concurrency %d: summary %+v", conc, sum)
		}
		for i, r := range res {
			if r.Index != i {
				t.Fatalf("concurrency %d: result %d reported at position %d", conc, r.Index, i)
			}
		}
		got = append(got, res)
		stored = append(stored, rows(t, st))
		var pts float64
		for _, s := range sum.Standings {
			pts += s.Points
		}
		if pts != 24 {
			t.Errorf("standings hold %v points for 24 games", pts)
		}
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Error("results differ between concurrency 1 and 4")
	}
	if !reflect.DeepEqual(stored[0], stored[1]) {
		t.Error("stored games differ between concurrency 1 and 4")
	}
	g := stored[0][0]
	if len(g.Moves) == 0 || g.PDN == "" || g.Opening == "" || !strings.Contains(g.PDN, `[Round "1.1"]`) || !strings.Contains(g.PDN, "[FEN ") {
		t.Errorf("first game row incomplete: %+v", g)
	}
}

func TestResumeAfterCancel(t *testing.T) {
	dir := t.TempDir()
	ev := testEvent(t, "concurrency: 3\ngames_per_encounter: 4\n")
	st := openStore(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	sum1, err := Run(ctx, Options{Event: ev, Store: st, NewPlayer: fakes(3 * time.Millisecond),
		OnResult: func(Result) {
			if n++; n == 7 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v, want context.Canceled", err)
	}
	ids, _ := st.FinishedIDs(context.Background())
	if len(ids) < 7 || len(ids) >= sum1.Planned {
		t.Fatalf("first run finished %d of %d", len(ids), sum1.Planned)
	}
	var seen []int
	sum2, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(0),
		OnResult: func(r Result) { seen = append(seen, r.Index) }})
	if err != nil {
		t.Fatal(err)
	}
	if sum2.Resumed != len(ids) || sum2.Resumed+sum2.Played != sum2.Planned || sum2.Finished != sum2.Planned {
		t.Errorf("second run: %+v (first left %d)", sum2, len(ids))
	}
	for i, id := range seen {
		if id != i {
			t.Fatalf("resumed run reports %v", seen)
		}
	}
	c, _ := st.Count(context.Background())
	if c[store.Finished] != sum2.Planned || c[store.Running] != 0 {
		t.Errorf("store counts %v, want %d finished", c, sum2.Planned)
	}
	// A third run has nothing to do.
	sum3, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(0)})
	if err != nil || sum3.Played != 0 || sum3.Resumed != sum3.Planned {
		t.Errorf("third run: %+v, %v", sum3, err)
	}
}

// A resumed run's plain progress line counts the event's games, as the
// standings beside it do: after 4 of 200 games and a Ctrl-C, the resumed
// run printed "games 4/196: nobook 11/16, scan 5/16", 4 games worth 16
// points (found with Scan; FMJD points, 8 games).
func TestResumedProgressLineCountsTheEvent(t *testing.T) {
	dir := t.TempDir()
	ev := testEvent(t, "concurrency: 1\ngames_per_encounter: 4\n")
	st := openStore(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	sum1, err := Run(ctx, Options{Event: ev, Store: st, NewPlayer: fakes(0),
		OnResult: func(Result) {
			if n++; n == 5 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v, want context.Canceled", err)
	}
	var b strings.Builder
	sum2, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(0), Console: NewConsole(&b, false), StandingsEvery: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum2.Resumed < 5 || sum2.Played == 0 {
		t.Fatalf("second run: %+v", sum2)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	last := lines[len(lines)-1]
	want := fmt.Sprintf("games %d/%d: ", sum1.Planned, sum1.Planned)
	if !strings.HasPrefix(last, want) {
		t.Errorf("the resumed run's last line %q, want it to begin %q (the event's games)\n%s", last, want, b.String())
	}
	for _, l := range lines {
		var done, total int
		if _, err := fmt.Sscanf(l, "games %d/%d:", &done, &total); err == nil && (total != sum1.Planned || done <= sum2.Resumed) {
			t.Errorf("line %q: want the event's games, more than the %d of the first run, of %d", l, sum2.Resumed, sum1.Planned)
		}
	}
}

func TestEngineThatCannotStartIsRecorded(t *testing.T) {
	ev := testEvent(t, "concurrency: 2\n")
	st := openStore(t, t.TempDir())
	var made atomic.Int32
	newPlayer := func(spec configs.EngineSpec, _ zerolog.Logger) match.Player {
		made.Add(1)
		f := &fakePlayer{name: spec.Name}
		if spec.Name == "c" {
			f.startFail = errors.New(`exec: "/no/such/engine": file does not exist`)
		}
		return f
	}
	sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: newPlayer})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Finished != sum.Planned {
		t.Fatalf("%d of %d games recorded", sum.Finished, sum.Planned)
	}
	withC := 0
	for _, g := range rows(t, st) {
		if g.White != 2 && g.Black != 2 {
			continue
		}
		withC++
		want := "1-0"
		if g.White == 2 {
			want = "0-1"
		}
		if g.Result != want || g.Termination != string(arbiter.EngineCrashed) || !strings.Contains(g.Reason, "could not be started") ||
			!strings.Contains(g.Reason, "/no/such/engine") || !strings.Contains(g.PDN, "could not be started") {
			t.Errorf("game %d: %s %s %q", g.ID, g.Result, g.Termination, g.Reason)
		}
	}
	if withC != 6 {
		t.Errorf("%d games of engine c recorded, want 6", withC)
	}
	for _, s := range sum.Standings {
		if s.Engine == "c" && (s.Points != 0 || s.L != 6) {
			t.Errorf("engine c standing %+v", s)
		}
	}
	if len(sum.NeverStarted) != 1 || !strings.HasPrefix(sum.NeverStarted[0], "c (") || !strings.Contains(sum.NeverStarted[0], "/no/such/engine") {
		t.Errorf("NeverStarted = %q, want engine c alone with its reason", sum.NeverStarted)
	}
}

// An engine that runs but fails its start (a crash at init: a fault, so the
// games are played as forfeits) is listed too; one that started once is not.
func TestEngineThatFailsItsStartIsListed(t *testing.T) {
	ev := testEvent(t, "concurrency: 1\n")
	st := openStore(t, t.TempDir())
	var bStarts atomic.Int32
	newPlayer := func(spec configs.EngineSpec, _ zerolog.Logger) match.Player {
		f := &fakePlayer{name: spec.Name}
		switch spec.Name {
		case "c":
			f.startFail = &match.Fault{Kind: match.Crash, Reason: "engine exited at init"}
		case "b":
			// b starts once, crashes in that game, and its replacements
			// all fail their start.
			if bStarts.Add(1) == 1 {
				f.crashAt = 1
			} else {
				f.startFail = &match.Fault{Kind: match.Crash, Reason: "engine exited at init"}
			}
		}
		return f
	}
	sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: newPlayer})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.NeverStarted) != 1 || !strings.HasPrefix(sum.NeverStarted[0], "c (") || !strings.Contains(sum.NeverStarted[0], "engine exited at init") {
		t.Errorf("NeverStarted = %q, want engine c alone", sum.NeverStarted)
	}
	if bStarts.Load() < 2 {
		t.Errorf("engine b was made %d times: its failing replacements were never tried", bStarts.Load())
	}
}

func TestCrashedEngineIsReplaced(t *testing.T) {
	ev := testEvent(t, "engines: [{name: a, command: x}, {name: b, command: x}]\ngames_per_encounter: 6\n")
	st := openStore(t, t.TempDir())
	var mu sync.Mutex
	made := map[string]int{}
	newPlayer := func(spec configs.EngineSpec, _ zerolog.Logger) match.Player {
		mu.Lock()
		made[spec.Name]++
		mu.Unlock()
		f := &fakePlayer{name: spec.Name}
		if spec.Name == "b" {
			f.crashAt = 2
		}
		return f
	}
	sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: newPlayer})
	if err != nil {
		t.Fatal(err)
	}
	// Every game b plays with a fresh process crashes once: b loses all 6,
	// a new b is made for each game, a is reused throughout.
	if made["a"] != 1 || made["b"] != 6 {
		t.Errorf("players made: %v; want a reused (1) and b replaced after each crash (6)", made)
	}
	for _, s := range sum.Standings {
		if s.Engine == "a" && s.W != 6 {
			t.Errorf("a: %+v", s)
		}
	}
	for _, g := range rows(t, st) {
		if g.Termination != string(arbiter.EngineCrashed) {
			t.Errorf("game %d ended %s", g.ID, g.Termination)
		}
	}
}

func TestSPRTStopsTheMatch(t *testing.T) {
	ev := testEvent(t, "engines: [{name: a, command: x}, {name: b, command: x}]\ngames_per_encounter: 400\nconcurrency: 2\nsprt: {elo0: 0, elo1: 10}\n")
	dir := t.TempDir()
	st := openStore(t, dir)
	newPlayer := func(spec configs.EngineSpec, _ zerolog.Logger) match.Player {
		return &fakePlayer{name: spec.Name, resign: spec.Name == "b"}
	}
	sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: newPlayer})
	if err != nil {
		t.Fatal(err)
	}
	if sum.SPRT == nil || sum.SPRT.Decision != stats.AcceptH1 || !strings.Contains(sum.Stopped, "H1") {
		t.Fatalf("SPRT did not stop the match: %+v", sum)
	}
	if sum.Finished >= sum.Planned || sum.Finished != sum.SPRT.Games {
		t.Errorf("finished %d of %d, SPRT saw %d", sum.Finished, sum.Planned, sum.SPRT.Games)
	}
	sev, _ := st.Event(context.Background())
	if sev.Stopped != sum.Stopped {
		t.Errorf("store says stopped %q", sev.Stopped)
	}
	c, _ := st.Count(context.Background())
	if c[store.Running] != 0 {
		t.Errorf("%d games left running after the stop", c[store.Running])
	}
	// Running again plays nothing more.
	sum2, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: newPlayer})
	if err != nil || sum2.Played != 0 || sum2.Stopped == "" {
		t.Errorf("rerun after the stop: %+v, %v", sum2, err)
	}
	// The report carries the SPRT.
	if err := WriteReport(context.Background(), st, dir); err != nil {
		t.Fatal(err)
	}
	res, err := reports.ReadResults(filepath.Join(dir, reports.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Games) != c[store.Finished] {
		t.Errorf("results.json has %d games, store %d", len(res.Games), c[store.Finished])
	}
}

func TestOtherConfigRefused(t *testing.T) {
	dir := t.TempDir()
	st := openStore(t, dir)
	if _, err := Run(context.Background(), Options{Event: testEvent(t, ""), Store: st, NewPlayer: fakes(0)}); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Options{Event: testEvent(t, "time_control: 30+1\n"), Store: st, NewPlayer: fakes(0)})
	if !errors.Is(err, store.ErrConfigMismatch) {
		t.Fatalf("another config on the same store: %v", err)
	}
}

func TestReportFromStore(t *testing.T) {
	dir := t.TempDir()
	st := openStore(t, dir)
	ev := testEvent(t, "")
	if _, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(0)}); err != nil {
		t.Fatal(err)
	}
	rev, err := ReportEvent(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if rev.Name != "unit" || rev.Variant != "english" || len(rev.Engines) != 4 || len(rev.Games) != 12 {
		t.Fatalf("report event: %s %s %v %d games", rev.Name, rev.Variant, rev.Engines, len(rev.Games))
	}
	for _, g := range rev.Games {
		if g.FirstMover != "white" && g.FirstMover != "black" || len(g.MoveTimes) != g.Plies || g.PDN == "" || g.Pair < 1 {
			t.Errorf("report game %+v", g)
		}
	}
	if _, err := reports.Compute(rev); err != nil {
		t.Fatal(err)
	}
	setting := func(ev reports.Event, label string) string {
		for _, s := range ev.Settings {
			if s.Label == label {
				return s.Value
			}
		}
		return ""
	}
	if got := setting(rev, "Opening book"); got != "openings/3move_english.json (group standard, random, seed 7)" {
		t.Errorf("opening book %q", got)
	}
	// An event without a book plays from the start position, and its
	// report says so (it said "the variant's default book").
	dir = t.TempDir()
	st = openStore(t, dir)
	if _, err := Run(context.Background(), Options{Event: testEvent(t, "openings: {order: sequential}"), Store: st, NewPlayer: fakes(0)}); err != nil {
		t.Fatal(err)
	}
	if rev, err = ReportEvent(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	if got := setting(rev, "Opening book"); got != "none: every game starts from the variant's start position" || setting(rev, "Flag tolerance") == "" {
		t.Errorf("no book: opening book %q, flag tolerance %q", got, setting(rev, "Flag tolerance"))
	}
}

// TestEngineNameInPDN: an engine named with quotes and a backslash keeps
// its name in the database, is escaped in the PDN of its games (one escaping
// for every writer, pdn.QuoteTagValue) and reads back as the same name,
// from the stored PDN and from games.pdn alike.
func TestEngineNameInPDN(t *testing.T) {
	name := `A "B" \ C`
	dir := t.TempDir()
	st := openStore(t, dir)
	ev := testEvent(t, `engines: [{name: 'A "B" \ C', command: fake}, {name: b, command: fake}]`)
	if _, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(0)}); err != nil {
		t.Fatal(err)
	}
	sev, err := st.Event(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sev.Engines[0].Name != name {
		t.Errorf("database has engine %q, want %q", sev.Engines[0].Name, name)
	}
	games := rows(t, st)
	if len(games) != 2 {
		t.Fatalf("%d games", len(games))
	}
	for _, g := range games {
		if !strings.Contains(g.PDN, `"A \"B\" \\ C"]`) {
			t.Errorf("game %d PDN does not hold the escaped name:\n%s", g.ID, g.PDN)
		}
	}
	rev, err := ReportEvent(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := reports.WritePDN(&b, rev); err != nil {
		t.Fatal(err)
	}
	r := pdn.NewReader(strings.NewReader(b.String()), "games.pdn")
	seen := 0
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		if g.Tag("White") != name && g.Tag("Black") != name {
			t.Errorf("games.pdn game %d: White %q Black %q", g.Number, g.Tag("White"), g.Tag("Black"))
		}
		seen++
	}
	if seen != 2 {
		t.Errorf("games.pdn read back %d games:\n%s", seen, b.String())
	}
}
