package schedule

import (
	"strings"
	"testing"
)

// TestSwissPlanNumbering: every game of every round and board has its own
// index, the indices fill 0..Len-1, and they do not depend on who plays.
func TestSwissPlanNumbering(t *testing.T) {
	for _, tc := range []struct {
		name                       string
		players, rounds, perEnc    int
		perEncounter, noswap       bool
		openings                   int
		wantLen, wantBoards        int
		wantDistinctOpeningsRound1 int
	}{
		{name: "even", players: 8, rounds: 3, perEnc: 2, openings: 10, wantLen: 3 * 4 * 2, wantBoards: 4, wantDistinctOpeningsRound1: 1},
		{name: "odd", players: 7, rounds: 7, perEnc: 4, openings: 5, wantLen: 7 * 3 * 4, wantBoards: 3, wantDistinctOpeningsRound1: 2},
		{name: "per encounter", players: 64, rounds: 9, perEnc: 2, openings: 200, perEncounter: true, wantLen: 9 * 32 * 2, wantBoards: 32, wantDistinctOpeningsRound1: 32},
		{name: "noswap", players: 3, rounds: 2, perEnc: 2, noswap: true, wantLen: 2 * 1 * 2, wantBoards: 1, wantDistinctOpeningsRound1: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSwiss(Config{Kind: Swiss, Players: tc.players, Rounds: tc.rounds, GamesPerEncounter: tc.perEnc,
				Openings: tc.openings, PerEncounter: tc.perEncounter, NoSwap: tc.noswap, Order: Random, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if s.Len() != tc.wantLen || s.Boards() != tc.wantBoards || s.Rounds() != tc.rounds {
				t.Fatalf("Len %d Boards %d Rounds %d; want %d %d %d", s.Len(), s.Boards(), s.Rounds(), tc.wantLen, tc.wantBoards, tc.rounds)
			}
			seen := make([]bool, s.Len())
			for r := 1; r <= tc.rounds; r++ {
				ops := map[int]bool{}
				for b := 1; b <= s.Boards(); b++ {
					a, c := (b*7+r)%tc.players, (b*7+r+1)%tc.players
					games := s.Encounter(r, b, a, c)
					again := s.Encounter(r, b, c, a)
					if len(games) != tc.perEnc {
						t.Fatalf("round %d board %d: %d games", r, b, len(games))
					}
					for k, g := range games {
						if g.Index < 0 || g.Index >= s.Len() || seen[g.Index] {
							t.Fatalf("round %d board %d game %d: index %d out of range or used twice", r, b, k, g.Index)
						}
						seen[g.Index] = true
						if again[k].Index != g.Index || again[k].Opening != g.Opening {
							t.Errorf("the index or opening depends on the players: %+v and %+v", g, again[k])
						}
						if g.Round != r || g.Board != b || g.PairGame != k%2 || g.Pair != g.Index/2 {
							t.Errorf("game %+v: want round %d board %d pair game %d", g, r, b, k%2)
						}
						wantWhite := a
						if k%2 == 1 && !tc.noswap {
							wantWhite = c
						}
						if g.White != wantWhite || g.White == g.Black {
							t.Errorf("game %+v: white %d, want %d", g, g.White, wantWhite)
						}
						if k%2 == 1 && g.Opening != games[k-1].Opening {
							t.Errorf("the two games of a pair have openings %d and %d", games[k-1].Opening, g.Opening)
						}
						if r == 1 {
							ops[g.Opening] = true
						}
					}
				}
				if r == 1 && len(ops) != tc.wantDistinctOpeningsRound1 {
					t.Errorf("round 1 uses %d openings, want %d", len(ops), tc.wantDistinctOpeningsRound1)
				}
			}
			for i, ok := range seen {
				if !ok {
					t.Fatalf("index %d is no game's", i)
				}
			}
		})
	}
}

func TestSwissPlanErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Kind: Swiss, Players: 8, Rounds: 8}, "8 rounds; a Swiss of 8 players has 1 to 7"},
		{Config{Kind: Swiss, Players: 7, Rounds: 0}, "0 rounds; a Swiss of 7 players has 1 to 7"},
		{Config{Kind: Swiss, Players: 1, Rounds: 1}, "at least 2"},
		{Config{Kind: Swiss, Players: 4, Rounds: 2, GamesPerEncounter: 3}, "positive even number"},
		{Config{Kind: Swiss, Players: 4, Rounds: 2, Openings: 2, Start: 2}, "first opening 3 of 2"},
		{Config{Kind: RoundRobin, Players: 4, Rounds: 2}, "NewSwiss of a \"round-robin\" event"},
	} {
		if _, err := NewSwiss(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewSwiss(%+v) = %v; want an error with %q", tc.cfg, err, tc.want)
		}
	}
	if _, err := New(Config{Kind: Swiss, Players: 4, Rounds: 2}); err == nil || !strings.Contains(err.Error(), "round by round") {
		t.Errorf("New of a Swiss: %v; want the round-by-round error", err)
	}
	if MaxSwissRounds(64) != 63 || MaxSwissRounds(7) != 7 {
		t.Errorf("MaxSwissRounds(64) = %d, (7) = %d", MaxSwissRounds(64), MaxSwissRounds(7))
	}
}
