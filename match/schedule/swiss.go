package schedule

import (
	"fmt"
	"math/rand/v2"
)

// SwissPlan numbers the games of a Swiss event. The pairing of a round
// depends on the results of the rounds before (match/schedule/swiss pairs it), so
// the games cannot be listed ahead; but their places can: round r has
// Players/2 boards (an odd player out has the bye), each board an
// encounter of GamesPerEncounter games, and the game of round r, board b,
// pair p and game g has the same Index whatever the pairing. A resumed
// event finds its stored games at the same indices, and the openings of a
// round are fixed before it is paired.
type SwissPlan struct {
	cfg     Config
	boards  int   // per round
	pairs   int   // opening pairs per encounter
	opening []int // opening slot -> opening index
}

// MaxSwissRounds is the most rounds of a Swiss event of n players: every
// player meets another one at most once, so n-1 rounds (n, with a bye each
// round, for an odd n).
func MaxSwissRounds(n int) int {
	if n%2 == 1 {
		return n
	}
	return n - 1
}

// NewSwiss checks cfg (Kind Swiss) and numbers its games.
func NewSwiss(cfg Config) (*SwissPlan, error) {
	if cfg.GamesPerEncounter == 0 {
		cfg.GamesPerEncounter = 2
	}
	if cfg.Openings == 0 {
		cfg.Openings = 1
	}
	if cfg.Order == "" {
		cfg.Order = Sequential
	}
	switch {
	case cfg.Kind != Swiss:
		return nil, fmt.Errorf("schedule: NewSwiss of a %q event", cfg.Kind)
	case cfg.Players < 2:
		return nil, fmt.Errorf("schedule: %d players; an event needs at least 2", cfg.Players)
	case cfg.Players > MaxPlayers:
		return nil, fmt.Errorf("schedule: %d players; at most %d", cfg.Players, MaxPlayers)
	case cfg.Rounds < 1 || cfg.Rounds > MaxSwissRounds(cfg.Players):
		return nil, fmt.Errorf("schedule: %d rounds; a Swiss of %d players has 1 to %d (no two players meet twice)",
			cfg.Rounds, cfg.Players, MaxSwissRounds(cfg.Players))
	case cfg.GamesPerEncounter < 0 || cfg.GamesPerEncounter%2 != 0:
		return nil, fmt.Errorf("schedule: %d games per encounter; must be a positive even number (each opening is played twice with colours reversed)", cfg.GamesPerEncounter)
	case cfg.Openings < 0:
		return nil, fmt.Errorf("schedule: %d openings", cfg.Openings)
	case cfg.Start < 0 || cfg.Start >= cfg.Openings:
		return nil, fmt.Errorf("schedule: first opening %d of %d", cfg.Start+1, cfg.Openings)
	}
	s := &SwissPlan{cfg: cfg, boards: cfg.Players / 2, pairs: cfg.GamesPerEncounter / 2}
	if total := int64(cfg.Rounds) * int64(s.boards) * int64(cfg.GamesPerEncounter); total > MaxGames {
		return nil, fmt.Errorf("schedule: %d rounds x %d boards x %d games = %d games; at most %d", cfg.Rounds, s.boards, cfg.GamesPerEncounter, total, MaxGames)
	}
	// As in a round-robin: every board of a round shares the round's
	// openings, or (PerEncounter) each encounter has its own.
	slots := cfg.Rounds * s.pairs
	if cfg.PerEncounter {
		slots *= s.boards
	}
	var perm []int
	switch cfg.Order {
	case Sequential:
	case Random:
		perm = rand.New(rand.NewPCG(cfg.Seed, 0x5eed)).Perm(cfg.Openings)
	default:
		return nil, fmt.Errorf("schedule: unknown opening order %q (sequential or random)", cfg.Order)
	}
	s.opening = make([]int, slots)
	for i := range s.opening {
		o := (i + cfg.Start) % cfg.Openings
		if perm != nil {
			o = perm[o]
		}
		s.opening[i] = o
	}
	return s, nil
}

// Len is the number of games of the whole event.
func (s *SwissPlan) Len() int { return s.cfg.Rounds * s.boards * s.cfg.GamesPerEncounter }

// Rounds is the number of rounds.
func (s *SwissPlan) Rounds() int { return s.cfg.Rounds }

// Boards is the number of boards (encounters) of every round.
func (s *SwissPlan) Boards() int { return s.boards }

// GamesPerEncounter is the number of games of each board.
func (s *SwissPlan) GamesPerEncounter() int { return s.cfg.GamesPerEncounter }

// Encounter is the games of round (1-based) and board (1-based) between
// white, who has the white pieces in the first game of each pair, and
// black (player indices), in plan order.
func (s *SwissPlan) Encounter(round, board, white, black int) []Pairing {
	games := make([]Pairing, 0, s.cfg.GamesPerEncounter)
	for p := 0; p < s.pairs; p++ {
		pair := ((round-1)*s.boards+board-1)*s.pairs + p
		op := s.opening[(round-1)*s.pairs+p]
		if s.cfg.PerEncounter {
			op = s.opening[pair]
		}
		for g := 0; g < 2; g++ {
			w, b := white, black
			if g == 1 && !s.cfg.NoSwap {
				w, b = black, white
			}
			games = append(games, Pairing{Index: 2*pair + g, Cycle: 1, Round: round, Board: board,
				White: w, Black: b, Pair: pair, PairGame: g, Opening: op})
		}
	}
	return games
}
