package tournament

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/reports"
)

// simplePair is a stand-in Swiss pairing for the runner's tests (the
// runner's concern is the round flow, not the Dutch rules): players by
// score, then number; the bye to the lowest without one; each player
// paired with the next one it has not met, backtracking when stuck;
// White to the one who had it less.
func simplePair(players []tally.Player, opt swiss.Options) (swiss.Round, error) {
	sc := tally.DefaultScoring
	order := make([]tally.Player, len(players))
	copy(order, players)
	slices.SortStableFunc(order, func(a, b tally.Player) int {
		if c := cmp.Compare(b.Score(sc), a.Score(sc)); c != 0 {
			return c
		}
		return cmp.Compare(a.Number, b.Number)
	})
	var out swiss.Round
	if len(order)%2 == 1 {
		for i := len(order) - 1; i >= 0; i-- {
			had := false
			for _, e := range order[i].History {
				had = had || e.Result == tally.PairingBye
			}
			if !had {
				out.Bye = order[i].Number
				order = slices.Delete(order, i, i+1)
				break
			}
		}
		if out.Bye == 0 {
			return out, swiss.ErrNoPairing
		}
	}
	met := func(a, b tally.Player) bool {
		for _, e := range a.History {
			if e.Opponent == b.Number {
				return true
			}
		}
		return false
	}
	whites := func(p tally.Player) int {
		n := 0
		for _, e := range p.History {
			if e.Color == tally.White {
				n++
			} else if e.Color == tally.Black {
				n--
			}
		}
		return n
	}
	used := make([]bool, len(order))
	var pairs [][2]int
	var solve func() bool
	solve = func() bool {
		i := slices.Index(used, false)
		if i < 0 {
			return true
		}
		used[i] = true
		for j := i + 1; j < len(order); j++ {
			if used[j] || met(order[i], order[j]) {
				continue
			}
			used[j] = true
			pairs = append(pairs, [2]int{i, j})
			if solve() {
				return true
			}
			pairs = pairs[:len(pairs)-1]
			used[j] = false
		}
		used[i] = false
		return false
	}
	if !solve() {
		return out, swiss.ErrNoPairing
	}
	for _, p := range pairs {
		a, b := order[p[0]], order[p[1]]
		if whites(b) < whites(a) {
			a, b = b, a
		}
		out.Boards = append(out.Boards, swiss.Board{White: a.Number, Black: b.Number})
	}
	return out, nil
}

// swissEvent is a Swiss of n fake engines.
func swissEvent(t testing.TB, n, rounds int, extra string) *configs.Event {
	t.Helper()
	text := fmt.Sprintf("name: swiss\nvariant: english\ntime_control: \"60+1\"\ntournament: swiss\nrounds: %d\n"+
		"openings: {file: openings/3move_english.json, group: standard, order: random, seed: 5}\nadjudication: {max_moves: 40}\n", rounds)
	text += "engines:\n"
	for i := 0; i < n; i++ {
		text += fmt.Sprintf("  - {name: e%02d, command: fake}\n", i+1)
	}
	ev, err := configs.Parse([]byte(text+extra), "swiss.yaml", "", configs.Options{Self: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// checkSwissGames checks a finished Swiss's stored games: every game of
// the plan once, per round each engine on at most one board, one engine
// out (an odd field), nobody out twice, no two engines meeting twice.
func checkSwissGames(t *testing.T, st *store.Store, n, rounds, gpe int) [][2]int {
	t.Helper()
	games := rows(t, st)
	if want := rounds * (n / 2) * gpe; len(games) != want {
		t.Fatalf("%d games stored, want %d", len(games), want)
	}
	type enc struct{ round, board int }
	encounters := map[enc][2]int{}
	for i, g := range games {
		if g.ID != i {
			t.Fatalf("game %d has id %d: ids are not the plan's indices", i, g.ID)
		}
		k := enc{g.Round, g.Board}
		pair := [2]int{min(g.White, g.Black), max(g.White, g.Black)}
		if p, ok := encounters[k]; ok && p != pair {
			t.Fatalf("round %d board %d holds games of %v and %v", g.Round, g.Board, p, pair)
		}
		encounters[k] = pair
	}
	met := map[[2]int]int{}
	byes := make([]int, n)
	var order [][2]int // the encounters in round, board order
	for r := 1; r <= rounds; r++ {
		on := make([]int, n)
		for b := 1; b <= n/2; b++ {
			p, ok := encounters[enc{r, b}]
			if !ok {
				t.Fatalf("round %d has no board %d", r, b)
			}
			order = append(order, p)
			on[p[0]]++
			on[p[1]]++
			if met[p]++; met[p] > 1 {
				t.Errorf("round %d: engines %d and %d meet again", r, p[0], p[1])
			}
		}
		out := 0
		for e, c := range on {
			switch c {
			case 0:
				out++
				byes[e]++
			case 1:
			default:
				t.Errorf("round %d: engine %d on %d boards", r, e, c)
			}
		}
		if out != n%2 {
			t.Errorf("round %d: %d engines out, want %d", r, out, n%2)
		}
	}
	for e, b := range byes {
		if b > 1 {
			t.Errorf("engine %d had %d byes", e, b)
		}
	}
	return order
}

// TestSwissRunner plays a Swiss of 7 engines over 3 rounds and checks the
// round flow: each round paired from the results of those before, no
// repeat pairing, one bye a round, every game stored, the Swiss standings.
func TestSwissRunner(t *testing.T) {
	const n, rounds = 7, 3
	ev := swissEvent(t, n, rounds, "concurrency: 3\n")
	st := openStore(t, t.TempDir())
	var calls []int
	pair := func(ps []tally.Player, opt swiss.Options) (swiss.Round, error) {
		// Every player, with the same number of rounds behind it.
		if len(ps) != n || opt.Rounds != rounds {
			t.Errorf("paired %d players for %d rounds", len(ps), opt.Rounds)
		}
		for _, p := range ps {
			if len(p.History) != len(calls) {
				t.Errorf("pairing round %d: player %d has %d rounds of history", len(calls)+1, p.Number, len(p.History))
			}
		}
		calls = append(calls, len(ps[0].History))
		return simplePair(ps, opt)
	}
	var res []Result
	sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(time.Millisecond), Pair: pair,
		OnResult: func(r Result) { res = append(res, r) }})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(calls, []int{0, 1, 2}) {
		t.Errorf("pairings with histories of %v rounds; want one per round", calls)
	}
	if sum.Planned != 18 || sum.Played != 18 || sum.Finished != 18 {
		t.Errorf("summary: planned %d played %d finished %d; want 18", sum.Planned, sum.Played, sum.Finished)
	}
	for i, r := range res {
		if r.Index != i {
			t.Fatalf("result %d reported at %d", r.Index, i)
		}
	}
	checkSwissGames(t, st, n, rounds, 2)
	sw := sum.Swiss
	if sw == nil || sw.Complete != rounds || len(sw.Rows) != n || !slices.Equal(sw.TieBreaks, configs.DefaultTieBreaks) {
		t.Fatalf("Swiss standings %+v", sw)
	}
	points, byes := 0.0, 0
	for i, row := range sw.Rows {
		points += row.Points
		byes += row.Byes
		if len(row.Rounds) != rounds || row.Won+row.Drawn+row.Lost+row.Byes != rounds {
			t.Errorf("row %+v does not add up to %d rounds", row, rounds)
		}
		if sum.Standings[i].Engine != row.Name || sum.Standings[i].Swiss == nil {
			t.Errorf("standings line %d is %s, Swiss row %s", i+1, sum.Standings[i].Engine, row.Name)
		}
	}
	// 3 rounds of 3 encounters and a bye, each worth one point (English).
	if points != 12 || byes != 3 {
		t.Errorf("Swiss standings hold %v points and %d byes; want 12 and 3", points, byes)
	}
	var b strings.Builder
	sum.Standings.Write(&b)
	if !strings.Contains(b.String(), "BH-C1") || !strings.Contains(b.String(), "bye") {
		t.Errorf("console standings:\n%s", b.String())
	}
	// The report has the Swiss standings.
	rev, err := ReportEvent(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	stats, err := reports.Compute(rev)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Swiss == nil || stats.Swiss.Complete != rounds || stats.Swiss.Rows[0].Name != sw.Rows[0].Name {
		t.Errorf("the report's Swiss standings %+v; the runner's %+v", stats.Swiss, sw)
	}
}

// TestSwissResume interrupts a Swiss in its second round and resumes it:
// the rounds are rebuilt from the stored games, nothing stored is played
// again, and the event ends as an uninterrupted one does.
func TestSwissResume(t *testing.T) {
	const n, rounds = 8, 4
	whole := openStore(t, t.TempDir())
	if _, err := Run(context.Background(), Options{Event: swissEvent(t, n, rounds, "concurrency: 2\n"), Store: whole, NewPlayer: fakes(0), Pair: simplePair}); err != nil {
		t.Fatal(err)
	}
	want := checkSwissGames(t, whole, n, rounds, 2)

	ev := swissEvent(t, n, rounds, "concurrency: 2\n")
	st := openStore(t, t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	seen := 0
	_, err := Run(ctx, Options{Event: ev, Store: st, NewPlayer: fakes(time.Millisecond), Pair: simplePair,
		OnResult: func(Result) {
			if seen++; seen == 11 { // round 2 is games 9-16
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v, want context.Canceled", err)
	}
	ids, _ := st.FinishedIDs(context.Background())
	if len(ids) < 11 || len(ids) >= 16 {
		t.Fatalf("first run stored %d games; want some of round 2's", len(ids))
	}
	var mu sync.Mutex
	replayed := 0
	sum, err := Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(0), Pair: simplePair,
		OnResult: func(r Result) {
			mu.Lock()
			defer mu.Unlock()
			if !r.Resumed && slices.Contains(ids, r.Index) {
				replayed++
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if replayed > 0 || sum.Resumed != len(ids) || sum.Resumed+sum.Played != sum.Planned {
		t.Errorf("resumed run: %d stored games played again; resumed %d played %d of %d", replayed, sum.Resumed, sum.Played, sum.Planned)
	}
	if got := checkSwissGames(t, st, n, rounds, 2); !slices.Equal(got, want) {
		t.Errorf("the resumed event's pairings\n%v\ndiffer from an uninterrupted one's\n%v", got, want)
	}

	// A pairing that differs from the stored games' is refused.
	other := func(ps []tally.Player, opt swiss.Options) (swiss.Round, error) {
		r, err := simplePair(ps, opt)
		slices.Reverse(r.Boards)
		return r, err
	}
	_, err = Run(context.Background(), Options{Event: ev, Store: st, NewPlayer: fakes(0), Pair: other})
	if err == nil || !strings.Contains(err.Error(), "the pairing changed since it was played") {
		t.Errorf("another pairing over the stored games: %v", err)
	}
	// No pairing at all: the error names the round.
	none := func([]tally.Player, swiss.Options) (swiss.Round, error) { return swiss.Round{}, swiss.ErrNoPairing }
	_, err = Run(context.Background(), Options{Event: swissEvent(t, n, rounds, ""), Store: openStore(t, t.TempDir()), NewPlayer: fakes(0), Pair: none})
	if err == nil || !strings.Contains(err.Error(), "round 1 of 4: swiss: no pairing") {
		t.Errorf("no pairing: %v", err)
	}
	// A pairing that leaves a player out is refused.
	short := func(ps []tally.Player, opt swiss.Options) (swiss.Round, error) {
		r, err := simplePair(ps, opt)
		r.Boards[0].Black = r.Boards[0].White
		return r, err
	}
	_, err = Run(context.Background(), Options{Event: swissEvent(t, n, rounds, ""), Store: openStore(t, t.TempDir()), NewPlayer: fakes(0), Pair: short})
	if err == nil || !strings.Contains(err.Error(), "paired twice") {
		t.Errorf("a bad pairing: %v", err)
	}
}

// TestSwissDutch plays a Swiss of 25 fake engines over 7 rounds with the
// Dutch pairing (swiss.Pair, the default): the round flow and the pairing
// together (cmd/arbiter's test plays the 64 engines, 9 rounds).
func TestSwissDutch(t *testing.T) {
	const n, rounds = 25, 7
	st := openStore(t, t.TempDir())
	t0 := time.Now()
	sum, err := Run(context.Background(), Options{Event: swissEvent(t, n, rounds, "concurrency: 2\npdn: {annotations: none}\n"), Store: st, NewPlayer: fakes(0)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games in %s", sum.Played, time.Since(t0).Round(time.Millisecond))
	checkSwissGames(t, st, n, rounds, 2)
	if sum.Swiss == nil || sum.Swiss.Complete != rounds {
		t.Errorf("Swiss standings %+v", sum.Swiss)
	}
}
