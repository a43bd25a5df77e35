package swiss

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// g is a played game: opponent, colour ('W'/'B'), result.
func g(opp int, col byte, res tally.Result) tally.Entry {
	c := tally.White
	if col == 'B' {
		c = tally.Black
	}
	return tally.Entry{Opponent: opp, Color: c, Result: res}
}

// twoRounds is eight players after two rounds: 1-4 won both, 5-8 lost
// both. 1 and 2 are due White (W then B), 3 and 4 Black; 5 and 6 Black, 7
// and 8 White. Every Index of a score group is equal, so 1.8 ranks by TPN.
func twoRounds() []tally.Player {
	W, L := tally.Win, tally.Loss
	h := map[int][]tally.Entry{
		1: {g(5, 'W', W), g(6, 'B', W)},
		2: {g(6, 'W', W), g(5, 'B', W)},
		3: {g(7, 'B', W), g(8, 'W', W)},
		4: {g(8, 'B', W), g(7, 'W', W)},
		5: {g(1, 'B', L), g(2, 'W', L)},
		6: {g(2, 'B', L), g(1, 'W', L)},
		7: {g(3, 'W', L), g(4, 'B', L)},
		8: {g(4, 'W', L), g(3, 'B', L)},
	}
	ps := newField(8)
	for i := range ps {
		ps[i].History = h[i+1]
	}
	return ps
}

// TestBurstein pairs hand-made rounds whose pairing by C.04.4.2 is worked
// out by hand, and the same rounds where the Dutch system still applies.
func TestBurstein(t *testing.T) {
	withAbsentee := func() []tally.Player {
		ps := append(twoRounds(), tally.Player{Number: 9, Rating: 1000,
			History: []tally.Entry{{Result: tally.ZeroBye}, {Result: tally.ZeroBye}}})
		return ps
	}
	tests := []struct {
		name    string
		players []tally.Player
		opt     Options
		want    Round
	}{{
		// 4 rounds: 2 seeding rounds (1.6.2), round 3 is Burstein: in
		// each group BSN 1 meets BSN 4 and 2 meets 3 (Art. 4), the
		// preferences all granted ([C8], 5.2.2).
		name:    "top against bottom",
		players: twoRounds(),
		opt:     Options{Rounds: 4, System: Burstein},
		want:    Round{Boards: []Board{{1, 4}, {2, 3}, {8, 5}, {7, 6}}},
	}, {
		// 6 rounds: 3 seeding rounds, round 3 is still Dutch (S1 against
		// S2: 1-3, 2-4).
		name:    "a seeding round is Dutch",
		players: twoRounds(),
		opt:     Options{Rounds: 6, System: Burstein},
		want:    Round{Boards: []Board{{1, 3}, {2, 4}, {7, 5}, {8, 6}}},
	}, {
		name:    "the Dutch system itself",
		players: twoRounds(),
		opt:     Options{Rounds: 4},
		want:    Round{Boards: []Board{{1, 3}, {2, 4}, {7, 5}, {8, 6}}},
	}, {
		// 3.1: the lowest score (5-9 have 0), then the most games
		// played (not 9, who played none), then the lowest ranking (8,
		// the last TPN of equal Indexes). 9's Index counts its own
		// score for the unplayed rounds (0), so 9 ranks last and meets
		// BSN 1, player 5; 9 has no preference, 5's is granted.
		name:    "the pairing-allocated bye",
		players: withAbsentee(),
		opt:     Options{Rounds: 4, System: Burstein},
		want:    Round{Boards: []Board{{1, 4}, {2, 3}, {9, 5}, {7, 6}}, Bye: 8},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Pair(tc.players, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestBursteinIndex checks the Index of 1.7.1 and the ranking of 1.8.
func TestBursteinIndex(t *testing.T) {
	D := tally.Draw
	// 1 beat 2 and drew 3; 2 lost to 1, then had the PAB; 3 had a zero
	// bye, then drew 1.
	ps := []tally.Player{
		{Number: 1, History: []tally.Entry{g(2, 'W', tally.Win), g(3, 'B', D)}},
		{Number: 2, History: []tally.Entry{g(1, 'B', tally.Loss), {Result: tally.PairingBye}}},
		{Number: 3, History: []tally.Entry{{Result: tally.ZeroBye}, g(1, 'W', D)}},
	}
	ev, err := newEvent(ps, Options{System: Burstein})
	if err != nil {
		t.Fatal(err)
	}
	// Scores in units (win 2, draw 1): 1 has 3, 2 has 2, 3 has 1.
	want := map[int]index{
		1: {bh: 2 + 1, sb: 2*2 + 1*1},
		2: {bh: 3 + 2, sb: 0*3 + 2*2}, // the PAB: its own score, times 2
		3: {bh: 1 + 3, sb: 0*1 + 1*3}, // the zero bye: its own score, times 0
	}
	b := &burstein{ev: ev, idx: map[*pstate]index{}}
	for n, w := range want {
		s := ev.byNumber[n]
		if got := ev.indexOf(s); got != w {
			t.Errorf("player %d: index %+v, want %+v", n, got, w)
		}
		b.idx[s] = ev.indexOf(s)
	}
	// 2 (Buchholz 5) above 3 (4) above 1 (3), whatever the scores.
	s1, s2, s3 := ev.byNumber[1], ev.byNumber[2], ev.byNumber[3]
	if !b.ranksAbove(s2, s3) || !b.ranksAbove(s3, s1) || b.ranksAbove(s1, s2) {
		t.Errorf("1.8 ranking wrong: 2>3 %v, 3>1 %v, 1>2 %v", b.ranksAbove(s2, s3), b.ranksAbove(s3, s1), b.ranksAbove(s1, s2))
	}
}

func TestSeedingRounds(t *testing.T) {
	for rounds, want := range map[int]int{0: 1, 1: 0, 2: 1, 5: 2, 7: 3, 8: 4, 9: 4, 13: 4} {
		if got := SeedingRounds(rounds); got != want {
			t.Errorf("SeedingRounds(%d) = %d, want %d", rounds, got, want)
		}
	}
	for _, c := range []struct {
		in   string
		want System
		ok   bool
	}{{"", Dutch, true}, {"dutch", Dutch, true}, {"burstein", Burstein, true}, {"lim", Dutch, false}} {
		got, ok := ParseSystem(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseSystem(%q) = %v, %v", c.in, got, ok)
		}
		if ok && c.in != "" && got.String() != c.in {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
}

// TestBursteinProperties plays generated events by the Burstein system
// and checks every round as TestPairProperties does (C.04.4.2 2.1 [C1]-
// [C3] and C.04.1: no rematch, no second PAB, everyone present paired
// once, no colour difference beyond 2 nor a third colour in a row), that
// Breaches finds nothing in it, and that the pairing is the same when
// paired again (a pure function of the state).
func TestBursteinProperties(t *testing.T) {
	sizes := []eventSize{{7, 5}, {8, 7}, {9, 7}, {13, 9}, {20, 11}, {31, 9}, {64, 9}}
	rounds := 0
	for _, sz := range sizes {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("n%d_seed%d", sz.n, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, uint64(sz.n)))
				ps := newField(sz.n)
				opt := Options{Rounds: sz.rounds, Scoring: tally.DefaultScoring, System: Burstein, Baku: seed == 3}
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
						t.Fatalf("round %d: %v", r, err)
					}
					checkRound(t, ps, round, opt)
					br, err := Breaches(ps, opt, round)
					if err != nil || len(br) > 0 {
						t.Fatalf("round %d: %v %v", r, br, err)
					}
					again, _ := Pair(ps, opt)
					if !reflect.DeepEqual(again, round) {
						t.Fatalf("round %d paired twice: %v then %v", r, round, again)
					}
					rounds++
					play(ps, round, rng)
				}
			})
		}
	}
	t.Logf("%d rounds checked", rounds)
}

// TestBursteinBreaches: a pairing made by hand for a Burstein round is
// checked by C.04.4.2's absolute criteria and the breach names them; in a
// seeding round the Dutch articles are named.
func TestBursteinBreaches(t *testing.T) {
	rd := Round{Boards: []Board{{1, 5}, {2, 3}, {6, 4}, {8, 7}}} // 1 and 5 met in round 1
	for _, c := range []struct {
		rounds int
		want   string
	}{{4, "1-5: they have played each other already (C.04.1 art. 2, C.04.4.2 [C1])"}, {6, "(C.04.1 art. 2, C.04.3 C.1)"}} {
		br, err := Breaches(twoRounds(), Options{Rounds: c.rounds, System: Burstein}, rd)
		if err != nil {
			t.Fatal(err)
		}
		if len(br) != 1 || !strings.Contains(br[0], c.want) {
			t.Errorf("%d rounds: %q, want one breach saying %q", c.rounds, br, c.want)
		}
	}
}
