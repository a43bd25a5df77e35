package schedule

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// drain collects a schedule through Next, the way a runner sees it.
func drain(t *testing.T, s *Schedule) []Pairing {
	t.Helper()
	var out []Pairing
	for {
		p, ok := s.Next()
		if !ok {
			break
		}
		out = append(out, p)
	}
	if _, ok := s.Next(); ok {
		t.Fatal("Next gave a game after saying the plan was exhausted")
	}
	return out
}

func TestBergerProperties(t *testing.T) {
	for n := 2; n <= 14; n++ {
		for cycles := 1; cycles <= 2; cycles++ {
			t.Run(fmt.Sprintf("n=%d/cycles=%d", n, cycles), func(t *testing.T) {
				s, err := New(Config{Players: n, Cycles: cycles, GamesPerEncounter: 2})
				if err != nil {
					t.Fatal(err)
				}
				games := drain(t, s)
				perCycle := n - 1
				if n%2 == 1 {
					perCycle = n
				}
				if s.Rounds() != perCycle*cycles {
					t.Errorf("rounds = %d, want %d", s.Rounds(), perCycle*cycles)
				}
				if want := n * (n - 1) / 2 * 2 * cycles; len(games) != want || s.Len() != want {
					t.Fatalf("games = %d (Len %d), want %d", len(games), s.Len(), want)
				}
				// Each pair meets exactly once per cycle (one encounter = one pair of games).
				type key struct{ cycle, a, b int }
				meet := map[key]int{}
				// Nobody plays twice in a round.
				busy := map[[2]int]int{} // (round, player) -> encounters
				// Colour of the first game of each encounter, per player per cycle.
				whites := map[[2]int]int{}
				firsts := map[[2]int]int{}
				for i, g := range games {
					if g.Index != i {
						t.Fatalf("game %d has Index %d", i, g.Index)
					}
					if g.White == g.Black || g.White < 0 || g.White >= n || g.Black < 0 || g.Black >= n {
						t.Fatalf("bad players in %+v", g)
					}
					if g.PairGame != 0 {
						continue
					}
					a, b := min(g.White, g.Black), max(g.White, g.Black)
					meet[key{g.Cycle, a, b}]++
					busy[[2]int{g.Round, g.White}]++
					busy[[2]int{g.Round, g.Black}]++
					whites[[2]int{g.Cycle, g.White}]++
					firsts[[2]int{g.Cycle, g.White}]++
					firsts[[2]int{g.Cycle, g.Black}]++
				}
				for c := 1; c <= cycles; c++ {
					for a := 0; a < n; a++ {
						for b := a + 1; b < n; b++ {
							if m := meet[key{c, a, b}]; m != 1 {
								t.Errorf("cycle %d: %d and %d meet %d times", c, a, b, m)
							}
						}
						w, tot := whites[[2]int{c, a}], firsts[[2]int{c, a}]
						if d := 2*w - tot; d < -1 || d > 1 {
							t.Errorf("cycle %d: player %d has white first %d times in %d encounters", c, a, w, tot)
						}
					}
				}
				for k, v := range busy {
					if v != 1 {
						t.Errorf("round %d: player %d plays %d encounters", k[0], k[1], v)
					}
				}
				// Over a double cycle the colours balance exactly.
				if cycles == 2 {
					for a := 0; a < n; a++ {
						if w1, w2 := whites[[2]int{1, a}], whites[[2]int{2, a}]; w1+w2 != n-1 {
							t.Errorf("player %d: white first %d+%d times over two cycles, want %d", a, w1, w2, n-1)
						}
					}
				}
				// Byes: one per round for odd n, every player exactly once per cycle.
				byes := s.Byes()
				if n%2 == 0 {
					if len(byes) != 0 {
						t.Errorf("even n has byes %v", byes)
					}
				} else {
					if len(byes) != s.Rounds() {
						t.Fatalf("%d byes for %d rounds", len(byes), s.Rounds())
					}
					seen := map[[2]int]int{}
					for _, by := range byes {
						cycle := (by.Round-1)/perCycle + 1
						seen[[2]int{cycle, by.Player}]++
						if busy[[2]int{by.Round, by.Player}] != 0 {
							t.Errorf("round %d: player %d has a bye and a game", by.Round, by.Player)
						}
					}
					for c := 1; c <= cycles; c++ {
						for a := 0; a < n; a++ {
							if seen[[2]int{c, a}] != 1 {
								t.Errorf("cycle %d: player %d has %d byes", c, a, seen[[2]int{c, a}])
							}
						}
					}
				}
			})
		}
	}
}

func TestPairsReverseColoursAndShareOpening(t *testing.T) {
	s, err := New(Config{Players: 5, Cycles: 2, GamesPerEncounter: 6, Openings: 7, Order: Random, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	games := drain(t, s)
	byPair := map[int][]Pairing{}
	for _, g := range games {
		byPair[g.Pair] = append(byPair[g.Pair], g)
	}
	for p, gs := range byPair {
		if len(gs) != 2 {
			t.Fatalf("pair %d has %d games", p, len(gs))
		}
		a, b := gs[0], gs[1]
		if a.PairGame != 0 || b.PairGame != 1 || a.White != b.Black || a.Black != b.White ||
			a.Opening != b.Opening || a.Round != b.Round || a.Board != b.Board || b.Index != a.Index+1 {
			t.Errorf("pair %d is not one opening with colours reversed: %+v %+v", p, a, b)
		}
	}
	// Each player has as many whites as blacks whatever the table.
	col := map[int]int{}
	for _, g := range games {
		col[g.White]++
		col[g.Black]--
	}
	for pl, d := range col {
		if d != 0 {
			t.Errorf("player %d: whites-blacks = %d", pl, d)
		}
	}
}

func TestOrderIsDeterministic(t *testing.T) {
	cfg := Config{Players: 4, Cycles: 1, GamesPerEncounter: 4, Openings: 10, Order: Random, Seed: 42}
	a, _ := New(cfg)
	b, _ := New(cfg)
	if !reflect.DeepEqual(a.All(), b.All()) {
		t.Fatal("same config, different plans")
	}
	cfg.Seed = 43
	c, _ := New(cfg)
	if reflect.DeepEqual(a.All(), c.All()) {
		t.Fatal("seed does not change the opening order")
	}
	// Sorted by (round, board, pair, game).
	prev := Pairing{Round: 0}
	for _, g := range a.All() {
		if g.Round < prev.Round || (g.Round == prev.Round && g.Board < prev.Board) {
			t.Fatalf("out of order: %+v after %+v", g, prev)
		}
		prev = g
	}
}

func TestOpeningsSequentialCoverAll(t *testing.T) {
	// 3 players: 3 rounds, 2 pairs per encounter => 6 round slots; 5 openings: 0..4 then 0.
	s, err := New(Config{Players: 3, GamesPerEncounter: 4, Openings: 5})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, g := range s.All() {
		if g.PairGame == 0 && g.Board == 1 {
			got = append(got, g.Opening)
		}
	}
	want := []int{0, 1, 2, 3, 4, 0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("openings by slot = %v, want %v", got, want)
	}
	// Random order is a permutation: the first 5 slots use each opening once.
	s, _ = New(Config{Players: 3, GamesPerEncounter: 4, Openings: 5, Order: Random, Seed: 9})
	seen := map[int]bool{}
	for _, g := range s.All() {
		if g.PairGame == 0 && (g.Round-1)*2+(g.Pair%2) < 5 {
			seen[g.Opening] = true
		}
	}
	if len(seen) != 5 {
		t.Errorf("random order repeats an opening before using all: %v", seen)
	}
}

func TestGauntlet(t *testing.T) {
	s, err := New(Config{Kind: Gauntlet, Players: 5, GamesPerEncounter: 4, Openings: 100})
	if err != nil {
		t.Fatal(err)
	}
	games := drain(t, s)
	if len(games) != 4*4 {
		t.Fatalf("%d games, want 16", len(games))
	}
	opp := map[int]int{}
	openings := map[int][]int{}
	for _, g := range games {
		if g.White != 0 && g.Black != 0 {
			t.Fatalf("gauntlet game without player 0: %+v", g)
		}
		o := g.White + g.Black
		opp[o]++
		if g.PairGame == 0 {
			openings[o] = append(openings[o], g.Opening)
		}
	}
	for o := 1; o < 5; o++ {
		if opp[o] != 4 {
			t.Errorf("opponent %d plays %d games", o, opp[o])
		}
		if !reflect.DeepEqual(openings[o], openings[1]) {
			t.Errorf("opponent %d gets openings %v, opponent 1 gets %v", o, openings[o], openings[1])
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Players: 1}, "at least 2"},
		{Config{Players: 4, GamesPerEncounter: 3}, "even"},
		{Config{Players: 4, Kind: "knockout"}, "unknown tournament type"},
		{Config{Players: 4, Order: "shuffled"}, "unknown opening order"},
		{Config{Players: 4, Cycles: -1}, "cycles"},
		// Plans that would not fit in memory are refused, not attempted.
		{Config{Players: 100_000}, "at most 1000"},
		{Config{Players: 2, Cycles: 10000, GamesPerEncounter: 1_000_000}, "10000000000 games; at most 2000000"},
		{Config{Players: 1000, Cycles: 10}, "games; at most"},
	} {
		_, err := New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want error containing %q", tc.cfg, err, tc.want)
		}
	}
	// The largest plan allowed is still built.
	if s, err := New(Config{Players: 2, GamesPerEncounter: MaxGames}); err != nil || len(s.All()) != MaxGames {
		t.Errorf("a plan of MaxGames: %v", err)
	}
}
