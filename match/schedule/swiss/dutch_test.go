package swiss

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// newField is n players numbered 1..n with descending ratings.
func newField(n int) []tally.Player {
	ps := make([]tally.Player, n)
	for i := range ps {
		ps[i] = tally.Player{Number: i + 1, Rating: 2600 - 5*i}
	}
	return ps
}

// play records the round r's results in the history, drawn at random
// (the higher-rated wins more often).
func play(ps []tally.Player, r Round, rng *rand.Rand) {
	byNum := map[int]*tally.Player{}
	for i := range ps {
		byNum[ps[i].Number] = &ps[i]
	}
	seen := map[int]bool{}
	for _, b := range r.Boards {
		w, bl := byNum[b.White], byNum[b.Black]
		seen[b.White], seen[b.Black] = true, true
		x := rng.IntN(10)
		switch {
		case x < 4:
			w.History = append(w.History, tally.Entry{Opponent: b.Black, Color: tally.White, Result: tally.Win})
			bl.History = append(bl.History, tally.Entry{Opponent: b.White, Color: tally.Black, Result: tally.Loss})
		case x < 7:
			w.History = append(w.History, tally.Entry{Opponent: b.Black, Color: tally.White, Result: tally.Draw})
			bl.History = append(bl.History, tally.Entry{Opponent: b.White, Color: tally.Black, Result: tally.Draw})
		case x < 9:
			w.History = append(w.History, tally.Entry{Opponent: b.Black, Color: tally.White, Result: tally.Loss})
			bl.History = append(bl.History, tally.Entry{Opponent: b.White, Color: tally.Black, Result: tally.Win})
		default: // a forfeit now and then
			w.History = append(w.History, tally.Entry{Opponent: b.Black, Color: tally.White, Result: tally.ForfeitWin})
			bl.History = append(bl.History, tally.Entry{Opponent: b.White, Color: tally.Black, Result: tally.ForfeitLoss})
		}
	}
	if r.Bye != 0 {
		seen[r.Bye] = true
		byNum[r.Bye].History = append(byNum[r.Bye].History, tally.Entry{Result: tally.PairingBye})
	}
	for i := range ps {
		if !seen[ps[i].Number] {
			res := tally.ZeroBye
			if rng.IntN(2) == 0 {
				res = tally.HalfBye
			}
			ps[i].History = append(ps[i].History, tally.Entry{Result: res})
		}
	}
}

// checkRound asserts the absolute criteria and the colour bounds on a round.
func checkRound(t *testing.T, ps []tally.Player, r Round, opt Options) {
	t.Helper()
	byNum := map[int]*tally.Player{}
	present := 0
	for i := range ps {
		byNum[ps[i].Number] = &ps[i]
		if !ps[i].Absent {
			present++
		}
	}
	seen := map[int]bool{}
	mark := func(n int) {
		p := byNum[n]
		if p == nil {
			t.Fatalf("unknown player %d", n)
		}
		if p.Absent {
			t.Fatalf("absent player %d paired", n)
		}
		if seen[n] {
			t.Fatalf("player %d paired twice", n)
		}
		seen[n] = true
	}
	for _, b := range r.Boards {
		mark(b.White)
		mark(b.Black)
		for _, e := range byNum[b.White].History {
			if e.Opponent == b.Black && e.Played() {
				t.Fatalf("rematch %d-%d", b.White, b.Black)
			}
		}
	}
	if r.Bye != 0 {
		mark(r.Bye)
		for _, e := range byNum[r.Bye].History {
			if e.Result == tally.PairingBye || (!e.Played() && opt.Scoring.Points(e.Result) >= opt.Scoring.Win) {
				t.Fatalf("player %d gets a second bye or a bye after a full point unplayed", r.Bye)
			}
		}
	}
	if len(seen) != present {
		t.Fatalf("%d of %d present players paired", len(seen), present)
	}
	if (present%2 == 1) != (r.Bye != 0) {
		t.Fatalf("bye %d with %d players", r.Bye, present)
	}
	last := opt.Rounds > 0 && len(ps[0].History) >= opt.Rounds-1
	for _, b := range r.Boards {
		for _, pc := range []struct {
			n int
			c tally.Color
		}{{b.White, tally.White}, {b.Black, tally.Black}} {
			var cols []tally.Color
			for _, e := range byNum[pc.n].History {
				if e.Played() {
					cols = append(cols, e.Color)
				}
			}
			cols = append(cols, pc.c)
			diff := 0
			for _, c := range cols {
				if c == tally.White {
					diff++
				} else {
					diff--
				}
			}
			l := len(cols)
			three := l >= 3 && cols[l-1] == cols[l-2] && cols[l-2] == cols[l-3]
			if !last && (diff > 2 || diff < -2 || three) {
				t.Fatalf("round %d: player %d colours %v break C.3", len(ps[0].History)+1, pc.n, cols)
			}
		}
	}
}

type eventSize struct{ n, rounds int }

// TestPairProperties plays generated events of 8 to 64 players (101 when
// not -short; BenchmarkPair plays 1,000) with random results, absences and forfeits, and checks every
// round: no rematch, no second bye, everyone present paired once, colour
// difference within 2 and no third same colour in a row before the last
// round (C.04.3 C.1-C.3).
func TestPairProperties(t *testing.T) {
	sizes := []eventSize{{8, 7}, {9, 7}, {13, 9}, {20, 11}, {31, 9}, {64, 9}}
	if !testing.Short() {
		sizes = append(sizes, eventSize{101, 7})
	}
	propertyRun(t, sizes)
}

func propertyRun(t *testing.T, sizes []eventSize) { propertyRunSeeds(t, sizes, 3) }

// propertyRunSeeds plays each size with seeds 1 to seeds (seed 3 accelerated).
func propertyRunSeeds(t *testing.T, sizes []eventSize, seeds uint64) {
	for _, sz := range sizes {
		for seed := uint64(1); seed <= seeds; seed++ {
			t.Run(fmt.Sprintf("n%d_seed%d", sz.n, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, uint64(sz.n)))
				ps := newField(sz.n)
				opt := Options{Rounds: sz.rounds, Scoring: tally.DefaultScoring, Baku: seed == 3}
				for r := 1; r <= sz.rounds; r++ {
					for i := range ps {
						ps[i].Absent = rng.IntN(40) == 0
					}
					round, err := Pair(ps, opt)
					if errors.Is(err, ErrNoPairing) {
						t.Logf("round %d: no pairing", r)
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					checkRound(t, ps, round, opt)
					play(ps, round, rng)
				}
			})
		}
	}
}

// TestPairBadInput: inconsistent or garbage histories give an error or a
// pairing, never a panic.
func TestPairBadInput(t *testing.T) {
	tests := []struct {
		name    string
		players []tally.Player
		wantErr bool
	}{
		{"unknown opponent", []tally.Player{{Number: 1, History: []tally.Entry{{Opponent: 9, Color: tally.White, Result: tally.Win}}}, {Number: 2, History: []tally.Entry{{Result: tally.ZeroBye}}}}, true},
		{"self as opponent", []tally.Player{{Number: 1, History: []tally.Entry{{Opponent: 1, Color: tally.White, Result: tally.Win}}}, {Number: 2, History: []tally.Entry{{Result: tally.ZeroBye}}}}, true},
		{"uneven histories", []tally.Player{{Number: 1, History: []tally.Entry{{Result: tally.ZeroBye}}}, {Number: 2}}, true},
		{"duplicate number", []tally.Player{{Number: 1}, {Number: 1}}, true},
		{"zero number", []tally.Player{{Number: 0}, {Number: 1}}, true},
		{"empty", nil, false},
		{"one player", []tally.Player{{Number: 1}}, false},
		{"rematch only", []tally.Player{
			{Number: 1, History: []tally.Entry{{Opponent: 2, Color: tally.White, Result: tally.Win}}},
			{Number: 2, History: []tally.Entry{{Opponent: 1, Color: tally.Black, Result: tally.Loss}}}}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Pair(tc.players, Options{Rounds: 3})
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
		})
	}
	// Random garbage: colours and results out of range, odd opponents.
	rng := rand.New(rand.NewPCG(5, 5))
	for iter := 0; iter < 300; iter++ {
		n := 1 + rng.IntN(12)
		rounds := rng.IntN(4)
		ps := newField(n)
		for i := range ps {
			for r := 0; r < rounds; r++ {
				ps[i].History = append(ps[i].History, tally.Entry{
					Opponent: rng.IntN(n + 1),
					Color:    tally.Color(rng.IntN(4)),
					Result:   tally.Result("10=WDL+-UFHZx"[rng.IntN(13)]),
				})
			}
			ps[i].Absent = rng.IntN(5) == 0
		}
		_, _ = Pair(ps, Options{Rounds: rng.IntN(6), Baku: rng.IntN(2) == 0})
	}
}
