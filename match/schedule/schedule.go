// Package schedule plans the games of an event: who plays whom, with which
// colours and which opening, in a fixed order. It knows nothing about
// engines, clocks or storage; a runner asks Next until it says there is no
// more and plays what it is given.
//
// The plan is built from Berger tables (round-robin) or a gauntlet (the first
// player against every other). Every encounter is played as pairs of games:
// the same opening twice, with colours reversed, which cancels most of the
// advantage an opening gives one side.
//
// Imported by configs and both wings (the engines' runner, the director); it
// imports nothing of the games.
package schedule

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// Kind is the tournament format.
type Kind string

// Tournament formats.
const (
	RoundRobin Kind = "round-robin" // everyone meets everyone once per cycle (Berger tables)
	Gauntlet   Kind = "gauntlet"    // player 0 meets every other player once per cycle
	// Swiss is paired round by round from the results (match/schedule/swiss): New
	// cannot plan it; NewSwiss numbers its games.
	Swiss Kind = "swiss"
)

// Order is how openings are taken from the list.
type Order string

// Opening orders.
const (
	Sequential Order = "sequential" // in file order, wrapping around
	Random     Order = "random"     // a permutation fixed by the seed, wrapping around
)

// Config describes a plan. The zero value is not valid: Players must be at
// least 2.
type Config struct {
	Kind    Kind // "" means RoundRobin
	Players int  // number of players (engines)
	// Cycles is how many times the whole table is played (1 = single,
	// 2 = double round-robin). Even cycles reverse the colours of the odd
	// ones. 0 means 1.
	Cycles int
	// GamesPerEncounter is how many games two players play each time they
	// meet; it must be even (pairs of games with colours reversed). 0 means 2.
	GamesPerEncounter int
	// Openings is the number of openings available; 0 means one (the
	// variant's start position).
	Openings int
	Order    Order  // "" means Sequential
	Seed     uint64 // for Random order
	// Start is the index (0-based) of the first opening in the order
	// (cutechess -openings start=N).
	Start int
	// PerEncounter gives every encounter (every pair of games) an opening
	// of its own; by default every board of a round-robin round shares the
	// round's openings, and every opponent of a gauntlet cycle the cycle's.
	PerEncounter bool
	// NoSwap keeps the colours of a pair's second game (cutechess -noswap):
	// both games of the opening are played with the same colours.
	NoSwap bool
	// Rounds is a Swiss event's number of rounds (Kind Swiss only; Cycles
	// is not used).
	Rounds int
}

// Limits of one plan: the whole plan is built in memory.
const (
	MaxPlayers = 1000
	MaxGames   = 2_000_000
)

// Pairing is one planned game.
type Pairing struct {
	Index int // position in the plan, 0-based; unique and stable for a given Config
	Cycle int // 1-based
	Round int // 1-based over the whole event (cycle 2 continues the numbering)
	Board int // 1-based within the round
	White int // player index of the side given the white pieces
	Black int
	// Pair numbers the opening pairs over the whole event, 0-based; the two
	// games of a pair share the opening and swap colours.
	Pair int
	// PairGame is 0 for the first game of the pair and 1 for the reversed one.
	PairGame int
	Opening  int // opening index, 0-based (0 also when there is no opening list)
}

// Bye is a player who sits out a round (odd number of players).
type Bye struct {
	Round  int
	Player int
}

// Schedule is a fixed plan. Next hands the games out in order (round, board,
// pair, game); All and Len give the whole plan.
type Schedule struct {
	cfg     Config
	games   []Pairing
	byes    []Bye
	rounds  int
	next    int
	opening []int // opening slot -> opening index
}

// New builds the plan for cfg.
func New(cfg Config) (*Schedule, error) {
	if cfg.Kind == "" {
		cfg.Kind = RoundRobin
	}
	if cfg.Cycles == 0 {
		cfg.Cycles = 1
	}
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
	case cfg.Players < 2:
		return nil, fmt.Errorf("schedule: %d players; an event needs at least 2", cfg.Players)
	case cfg.Cycles < 0:
		return nil, fmt.Errorf("schedule: %d cycles; must be at least 1", cfg.Cycles)
	case cfg.GamesPerEncounter < 0 || cfg.GamesPerEncounter%2 != 0:
		return nil, fmt.Errorf("schedule: %d games per encounter; must be a positive even number (each opening is played twice with colours reversed)", cfg.GamesPerEncounter)
	case cfg.Openings < 0:
		return nil, fmt.Errorf("schedule: %d openings", cfg.Openings)
	case cfg.Players > MaxPlayers:
		return nil, fmt.Errorf("schedule: %d players; at most %d", cfg.Players, MaxPlayers)
	}
	var table [][][2]int // round -> boards -> (white, black)
	var byes [][]int     // round -> players with a bye
	switch cfg.Kind {
	case RoundRobin:
		table, byes = berger(cfg.Players)
	case Gauntlet:
		table, byes = gauntlet(cfg.Players)
	case Swiss:
		return nil, errors.New("schedule: a Swiss event is paired round by round from its results, not planned ahead (NewSwiss numbers its games)")
	default:
		return nil, fmt.Errorf("schedule: unknown tournament type %q (round-robin, gauntlet or swiss)", cfg.Kind)
	}
	boards := 0
	for _, round := range table {
		boards += len(round)
	}
	// The plan is held in memory (and in the store): refuse one that
	// would exhaust it, with the numbers, instead of crashing.
	if total := int64(boards) * int64(cfg.Cycles) * int64(cfg.GamesPerEncounter); total > MaxGames {
		return nil, fmt.Errorf("schedule: %d encounters x %d cycles x %d games = %d games; at most %d", boards, cfg.Cycles, cfg.GamesPerEncounter, total, MaxGames)
	}
	s := &Schedule{cfg: cfg, rounds: len(table) * cfg.Cycles}
	pairs := cfg.GamesPerEncounter / 2
	// An opening slot is shared by every board of a round-robin round (each
	// round draws its own ballot, as in over-the-board events), and by every
	// opponent of a gauntlet cycle (so the opponents are compared on the same
	// openings).
	slotOf := func(cycle, round, p int) int { return round*pairs + p }
	slots := s.rounds * pairs
	if cfg.Kind == Gauntlet {
		slotOf = func(cycle, round, p int) int { return cycle*pairs + p }
		slots = cfg.Cycles * pairs
	}
	if cfg.PerEncounter {
		slots = boards * cfg.Cycles * pairs // one per pair; slotOf is not used
	}
	if cfg.Start < 0 || cfg.Start >= cfg.Openings {
		return nil, fmt.Errorf("schedule: first opening %d of %d", cfg.Start+1, cfg.Openings)
	}
	s.opening = make([]int, slots)
	var perm []int
	switch cfg.Order {
	case Sequential:
	case Random:
		perm = rand.New(rand.NewPCG(cfg.Seed, 0x5eed)).Perm(cfg.Openings)
	default:
		return nil, fmt.Errorf("schedule: unknown opening order %q (sequential or random)", cfg.Order)
	}
	for i := range s.opening {
		o := (i + cfg.Start) % cfg.Openings
		if perm != nil {
			o = perm[o]
		}
		s.opening[i] = o
	}
	s.games = make([]Pairing, 0, s.rounds*len(table[0])*cfg.GamesPerEncounter)
	pair := 0
	for c := 0; c < cfg.Cycles; c++ {
		for r, boards := range table {
			round := c*len(table) + r
			for b, wb := range boards {
				w, bl := wb[0], wb[1]
				if c%2 == 1 {
					w, bl = bl, w
				}
				for p := 0; p < pairs; p++ {
					op := s.opening[slotOf(c, round, p)]
					if cfg.PerEncounter {
						op = s.opening[pair]
					}
					for g := 0; g < 2; g++ {
						white, black := w, bl
						if g == 1 && !cfg.NoSwap {
							white, black = bl, w
						}
						s.games = append(s.games, Pairing{
							Index: len(s.games), Cycle: c + 1, Round: round + 1, Board: b + 1,
							White: white, Black: black, Pair: pair, PairGame: g, Opening: op,
						})
					}
					pair++
				}
			}
			for _, p := range byes[r] {
				s.byes = append(s.byes, Bye{Round: round + 1, Player: p})
			}
		}
	}
	return s, nil
}

// Next returns the next planned game, or false when the plan is exhausted.
func (s *Schedule) Next() (Pairing, bool) {
	if s.next >= len(s.games) {
		return Pairing{}, false
	}
	p := s.games[s.next]
	s.next++
	return p, true
}

// Len is the number of games in the plan.
func (s *Schedule) Len() int { return len(s.games) }

// Rounds is the number of rounds in the plan.
func (s *Schedule) Rounds() int { return s.rounds }

// All returns a copy of the whole plan in order.
func (s *Schedule) All() []Pairing { return append([]Pairing(nil), s.games...) }

// Byes lists the byes of the plan by round (empty for an even round-robin).
func (s *Schedule) Byes() []Bye { return append([]Bye(nil), s.byes...) }

// berger returns the Berger tables for n players: n-1 rounds for even n, n
// rounds for odd n (a phantom player makes the count even; whoever meets it
// has a bye). In each round, board 1 is the game of the last (fixed) player;
// the colours alternate so that over the cycle every player has white either
// n/2 or n/2-1 times.
func berger(n int) (rounds [][][2]int, byes [][]int) {
	m := n
	if m%2 == 1 {
		m++ // player m-1 is the phantom
	}
	fixed := m - 1
	ring := m - 1 // players 0..m-2 rotate
	for r := 0; r < m-1; r++ {
		var boards [][2]int
		var bye []int
		add := func(w, b int) {
			switch {
			case w >= n:
				bye = append(bye, b)
			case b >= n:
				bye = append(bye, w)
			default:
				boards = append(boards, [2]int{w, b})
			}
		}
		// The fixed player meets player r; alternate its colour by round.
		if r%2 == 0 {
			add(r, fixed)
		} else {
			add(fixed, r)
		}
		for k := 1; k < m/2; k++ {
			a := (r + k) % ring
			b := (r - k + ring) % ring
			// Alternating by k keeps the ring players' colours balanced as
			// the pairs rotate.
			if k%2 == 1 {
				add(b, a)
			} else {
				add(a, b)
			}
		}
		rounds = append(rounds, boards)
		byes = append(byes, bye)
	}
	return rounds, byes
}

// gauntlet pits player 0 against each other player, one round per opponent,
// alternating who has white in the first game of each encounter.
func gauntlet(n int) (rounds [][][2]int, byes [][]int) {
	for o := 1; o < n; o++ {
		if o%2 == 1 {
			rounds = append(rounds, [][2]int{{0, o}})
		} else {
			rounds = append(rounds, [][2]int{{o, 0}})
		}
		byes = append(byes, nil)
	}
	return rounds, byes
}
