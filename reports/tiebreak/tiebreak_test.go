package tiebreak

import (
	"slices"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// g is one round of a history: opponent, colour ('W', 'B' or ' ') and the
// TRF result code.
func g(opp int, col byte, res tally.Result) tally.Entry {
	c := tally.NoColor
	switch col {
	case 'W':
		c = tally.White
	case 'B':
		c = tally.Black
	}
	return tally.Entry{Opponent: opp, Color: c, Result: res}
}

// eventA is a 6-player Swiss of 3 rounds with every kind of unplayed
// round, scored 2-1-0 (all values below are in those units).
//
//	R1: 1-4 1-0, 2-5 draw, 3-6 0-1
//	R2: 6-1 0-1, 4-2 forfeit (4 absent: 4 '-', 2 '+'), 5 half-point bye, 3 PAB
//	R3: 1-2 draw, 3-5 1-0, 4 withdrawn (zero-point bye), 6 PAB
//
// Scores: P1 2+2+1=5, P2 1+2+1=4, P3 0+2+2=4, P4 0, P5 1+1+0=2, P6 2+0+2=4.
// Categories (C.07 16.2): P2 R2 forfeit win (16.2.2); P3 R2, P6 R3 PAB
// (16.2.1); P4 R2 forfeit loss (16.2.4, VUR), P4 R3 zero bye in the last
// round (16.2.5, VUR); P5 R2 half bye followed by a game (16.2.3, VUR).
// Adjusted scores (16.3): the 16.2.5 round of P4 counts as a draw, so P4
// has 1; everyone else their own score.
// Ratings: P3 is 1801 (so that averages end in .5), P6 unrated.
func eventA() []tally.Player {
	W, D, L := tally.Win, tally.Draw, tally.Loss
	return []tally.Player{
		{Number: 1, Rating: 2000, History: []tally.Entry{g(4, 'W', W), g(6, 'B', W), g(2, 'W', D)}},
		{Number: 2, Rating: 1900, History: []tally.Entry{g(5, 'W', D), g(4, 'B', tally.ForfeitWin), g(1, 'B', D)}},
		{Number: 3, Rating: 1801, History: []tally.Entry{g(6, 'W', L), g(0, ' ', tally.PairingBye), g(5, 'W', W)}},
		{Number: 4, Rating: 1700, History: []tally.Entry{g(1, 'B', L), g(2, 'W', tally.ForfeitLoss), g(0, ' ', tally.ZeroBye)}},
		{Number: 5, Rating: 1600, History: []tally.Entry{g(2, 'B', D), g(0, ' ', tally.HalfBye), g(3, 'B', L)}},
		{Number: 6, Rating: 0, History: []tally.Entry{g(3, 'B', W), g(1, 'W', L), g(0, ' ', tally.PairingBye)}},
	}
}

// eventB is a 5-player Swiss of 3 rounds where a requested bye is not the
// weakest Buchholz term, to show the cut taking it first (C.07 16.5).
//
//	R1: 1-5 1-0, 2-3 draw, 4 PAB
//	R2: 1 half-point bye, 3-4 1-0, 5-2 0-1
//	R3: 2-1 0-1, 4-5 draw, 3 PAB
//
// Scores: P1 2+1+2=5, P2 1+2+0=3, P3 1+2+2=5, P4 2+0+1=3, P5 0+0+1=1.
// No round is of category 16.2.5, so adjusted scores are the scores. The
// 16.4.2 cap is a draw times 3 rounds = 3.
func eventB() []tally.Player {
	W, D, L := tally.Win, tally.Draw, tally.Loss
	return []tally.Player{
		{Number: 1, History: []tally.Entry{g(5, 'W', W), g(0, ' ', tally.HalfBye), g(2, 'B', W)}},
		{Number: 2, History: []tally.Entry{g(3, 'W', D), g(5, 'B', W), g(1, 'W', L)}},
		{Number: 3, History: []tally.Entry{g(2, 'B', D), g(4, 'W', W), g(0, ' ', tally.PairingBye)}},
		{Number: 4, History: []tally.Entry{g(0, ' ', tally.PairingBye), g(3, 'B', L), g(5, 'W', D)}},
		{Number: 5, History: []tally.Entry{g(1, 'B', L), g(2, 'W', L), g(4, 'B', D)}},
	}
}

// eventDE is a 6-player Swiss of 3 rounds where players 1, 2 and 3 tie on
// 4 and not all of them met (C.07 6.3).
//
//	R1: 1-2 1-0, 3-5 1-0, 4-6 draw
//	R2: 3-1 0-1, 2-4 1-0, 5-6 draw
//	R3: 1-4 0-1, 2-5 1-0, 3-6 1-0
//
// Scores: P1 2+2+0=4, P2 0+2+2=4, P3 2+0+2=4, P4 1+0+2=3, P5 0+1+0=1, P6 1+1+0=2.
// Among 1, 2, 3: P1 beat both (4 points, no game missing); 2 and 3 never
// met (0 points, one game missing each, at most 2). P1's least (4) beats
// the others' most (2): P1 is placed first; 2 and 3 stay tied (their
// game was never played, 6.3 again on the two of them places nobody).
// Buchholz: P2 = P1 4 + P4 3 + P5 1 = 8; P3 = P5 1 + P1 4 + P6 2 = 7.
func eventDE() []tally.Player {
	W, D, L := tally.Win, tally.Draw, tally.Loss
	return []tally.Player{
		{Number: 1, History: []tally.Entry{g(2, 'W', W), g(3, 'B', W), g(4, 'W', L)}},
		{Number: 2, History: []tally.Entry{g(1, 'B', L), g(4, 'W', W), g(5, 'W', W)}},
		{Number: 3, History: []tally.Entry{g(5, 'W', W), g(1, 'W', L), g(6, 'W', W)}},
		{Number: 4, History: []tally.Entry{g(6, 'W', D), g(2, 'B', L), g(1, 'B', W)}},
		{Number: 5, History: []tally.Entry{g(3, 'B', L), g(6, 'W', D), g(2, 'B', L)}},
		{Number: 6, History: []tally.Entry{g(4, 'B', D), g(5, 'B', D), g(3, 'B', L)}},
	}
}

// eventCycle is a round-robin of 4 where 1 beat 2, 2 beat 3, 3 beat 1 and
// all three beat 4: 1, 2 and 3 have 4 points each, 2 among themselves
// (6.2: all met, equal), and the same Sonneborn-Berger (beat a 4 for 2×4
// = 8, lost to a 4, beat the 0): they share first place.
func eventCycle() []tally.Player {
	W, L := tally.Win, tally.Loss
	return []tally.Player{
		{Number: 1, History: []tally.Entry{g(2, 'W', W), g(3, 'B', L), g(4, 'W', W)}},
		{Number: 2, History: []tally.Entry{g(1, 'B', L), g(4, 'W', W), g(3, 'W', W)}},
		{Number: 3, History: []tally.Entry{g(4, 'B', W), g(1, 'W', W), g(2, 'B', L)}},
		{Number: 4, History: []tally.Entry{g(3, 'W', L), g(2, 'B', L), g(1, 'B', L)}},
	}
}

// eventDouble has players 1, 2 and 3 tied on 3 where 1 and 2 met twice
// (C.07 6.1.2: their games count as the average).
//
//	R1: 1-2 1-0, 3-4 draw
//	R2: 2-1 draw, 3-4 0-1
//	R3: 1-3 0-1, 2-4 0-1
//	R4: 2-3 1-0, 1-4 0-1
//
// Scores: P1 2+1+0+0 = 3, P2 0+1+0+2 = 3, P3 1+0+2+0 = 3, P4 1+2+2+2 = 7.
// Among 1, 2, 3: P1 avg(2, 1) = 1.5 + 0 = 1.5; P2 avg(0, 1) = 0.5 + 2 =
// 2.5; P3 2 + 0 = 2: the order is 2, 3, 1 (summing instead of averaging
// would tie 1 and 2 on 3 above 3).
func eventDouble() []tally.Player {
	W, D, L := tally.Win, tally.Draw, tally.Loss
	return []tally.Player{
		{Number: 1, History: []tally.Entry{g(2, 'W', W), g(2, 'B', D), g(3, 'W', L), g(4, 'B', L)}},
		{Number: 2, History: []tally.Entry{g(1, 'B', L), g(1, 'W', D), g(4, 'W', L), g(3, 'W', W)}},
		{Number: 3, History: []tally.Entry{g(4, 'W', D), g(4, 'W', L), g(1, 'B', W), g(2, 'B', L)}},
		{Number: 4, History: []tally.Entry{g(3, 'B', D), g(3, 'B', W), g(2, 'B', W), g(1, 'W', W)}},
	}
}

func TestValues(t *testing.T) {
	tests := []struct {
		name    string
		players []tally.Player
		tb      TieBreak
		opt     Options
		want    []float64 // by pairing number 1..n
	}{
		// Buchholz (8.1) of event A, 2026 edition. Terms: a game gives the
		// opponent's adjusted score; an unplayed round its dummy opponent,
		// the own score capped (16.4.1 forfeit: the scheduled opponent's
		// adjusted score; 16.4.2 other: draw×3 = 3).
		// P1: 1 (P4) + 4 (P6) + 4 (P2) = 9
		// P2: 2 (P5) + min(4, adj P4 1) = 1 + 5 (P1) = 8
		// P3: 4 (P6) + min(4, 3) = 3 + 2 (P5) = 9
		// P4: 5 (P1) + min(0, adj P2 4) = 0 + min(0, 3) = 0 → 5
		// P5: 4 (P2) + min(2, 3) = 2 + 4 (P3) = 10
		// P6: 4 (P3) + 5 (P1) + min(4, 3) = 3 → 12
		{"BH", eventA(), Buchholz, Options{}, []float64{9, 8, 9, 5, 10, 12}},
		// 2024 edition: the dummies are the own scores, uncapped:
		// P2 2+4+5=11, P3 4+4+2=10, P6 4+5+4=13; the others unchanged.
		{"BH 2024", eventA(), Buchholz, Options{Edition: Edition2024}, []float64{9, 11, 10, 5, 10, 13}},
		{"BH round-robin forfeits", eventA(), Buchholz, Options{Edition: Edition2024, RoundRobin: true},
			// A round-robin's forfeit is a game against the scheduled
			// opponent: P2 2 + adj P4 1 + 5 = 8; P4 5 + adj P2 4 + own 0 = 9.
			[]float64{9, 8, 10, 9, 10, 13}},
		// Cut-1 (14.1) drops the least significant term, a VUR first
		// (16.5). P1 {1,4,4} → 8; P2 {2,1,5} → 7; P3 {4,3,2} → 7;
		// P4 {5, 0v, 0v} → 5; P5 {4, 2v, 4} → 8; P6 {4,5,3} → 9.
		{"BH-C1", eventA(), BuchholzCut1, Options{}, []float64{8, 7, 7, 5, 8, 9}},
		// Cut-2: P1 4, P2 5, P3 4, P4 5, P5 {4,2v,4} → 4, P6 5.
		{"BH-C2", eventA(), BuchholzCut2, Options{}, []float64{4, 5, 4, 5, 4, 5}},
		// Median-1 (14.3): lowest (a VUR first) and highest dropped:
		// P1 4, P2 2, P3 3, P4 {5,0v,0v} → 0, P5 {4,2v,4} → 4, P6 4.
		{"BH-M1", eventA(), MedianBuchholz, Options{}, []float64{4, 2, 3, 0, 4, 4}},
		// Event B, P1: terms P5 1, half bye dummy min(5, 3) = 3 (VUR),
		// P2 3: BH 7. Cut-1 takes the VUR (3 ≥ the least, 1): 1+3 = 4,
		// not 6. P2: P3 5 + P5 1 + P1 5 = 11 → C1 10. P3: P2 3 + P4 3 +
		// PAB min(5,3) 3 = 9 → C1 6. P4: PAB min(3,3) 3 + P3 5 + P5 1 = 9
		// → C1 8. P5: P1 5 + P2 3 + P4 3 = 11 → C1 8.
		{"BH event B", eventB(), Buchholz, Options{}, []float64{7, 11, 9, 9, 11}},
		{"BH-C1 VUR first", eventB(), BuchholzCut1, Options{}, []float64{4, 10, 6, 8, 8}},
		// 2024: P1's dummy is 5: BH 9, C1 cuts the VUR (5) → 4 again;
		// P3's PAB dummy is 5: {3, 3, 5} → 8.
		{"BH-C1 VUR first 2024", eventB(), BuchholzCut1, Options{Edition: Edition2024}, []float64{4, 10, 8, 8, 8}},
		// Sonneborn-Berger (9.1): Σ opponent's (or dummy's) score × points.
		// P1: 1×2 + 4×2 + 4×1 = 14
		// P2: 2×1 + dummy 1×2 + 5×1 = 9
		// P3: 4×0 + dummy 3×2 + 2×2 = 10
		// P4: 5×0 + 0 + 0 = 0
		// P5: 4×1 + dummy 2×1 + 4×0 = 6
		// P6: 4×2 + 5×0 + dummy 3×2 = 14
		{"SB", eventA(), SonnebornBerger, Options{}, []float64{14, 9, 10, 0, 6, 14}},
		// Event B, P1: 1×2 + dummy 3×1 + 3×2 = 11.
		{"SB event B", eventB(), SonnebornBerger, Options{}, []float64{11, 5 + 2*1 + 0, 3*1 + 3*2 + 3*2, 3*2 + 0 + 1*1, 0 + 0 + 3*1}},
		// WIN (7.1): rounds with a win's points, played or not.
		// P1 2 (two games), P2 1 (forfeit win), P3 2 (PAB, game), P4 0,
		// P5 0, P6 2 (game, PAB).
		{"WIN", eventA(), Wins, Options{}, []float64{2, 1, 2, 0, 0, 2}},
		// With a PAB worth a draw, the PABs are not wins any more.
		{"WIN PAB = draw", eventA(), Wins, Options{Scoring: tally.Scoring{Win: 2, Draw: 1, ForfeitWin: 2, PairingBye: 1, FullBye: 2, HalfBye: 1}},
			[]float64{2, 1, 1, 0, 0, 1}},
		// WON (7.2): wins over the board only.
		{"WON", eventA(), GamesWon, Options{}, []float64{2, 0, 1, 0, 0, 1}},
		// BPG (7.3): games played over the board with Black; P2's
		// forfeit with Black is not one.
		{"BPG", eventA(), GamesWithBlack, Options{}, []float64{1, 1, 0, 1, 2, 1}},
		// BWG (7.4): P1 won with Black in R2, P6 in R1.
		{"BWG", eventA(), WinsWithBlack, Options{}, []float64{1, 0, 0, 0, 0, 1}},
		// PS (7.5): running scores summed. P1 2+4+5 = 11, P2 1+3+4 = 8,
		// P3 0+2+4 = 6, P4 0, P5 1+2+2 = 5, P6 2+2+4 = 8.
		{"PS", eventA(), ProgressiveScore, Options{}, []float64{11, 8, 6, 0, 5, 8}},
		// ARO (10.1), over-the-board opponents, unrated left out, half up:
		// P1 {1700, -, 1900} → 1800; P2 {1600, 2000} (forfeit out) → 1800;
		// P3 {-, 1600} → 1600; P4 {2000}; P5 {1900, 1801} → 1850.5 → 1851;
		// P6 {1801, 2000} → 1900.5 → 1901.
		{"ARO", eventA(), AverageRating, Options{}, []float64{1800, 1800, 1600, 2000, 1851, 1901}},
		// ARO-C1: the unrated opponent's game is the one cut (P1, P3);
		// otherwise the lowest rating: P2 2000, P4 none left → 0, P5 1900,
		// P6 2000.
		{"ARO-C1", eventA(), AverageRatingCut1, Options{}, []float64{1800, 2000, 1600, 0, 1900, 2000}},
		// DE (6.3) among 1, 2, 3 of eventDE: P1 placed (2 tiers: 2 and 1);
		// P4, P5, P6 are alone on their scores (one tier: 1).
		{"DE partial", eventDE(), DirectEncounter, Options{}, []float64{2, 1, 1, 1, 1, 1}},
		// DE in event A: 2, 3 and 6 tie on 4; only 3-6 was played (6 won):
		// 6's least, 2, does not beat 2's most (0 + 2 games × 2 = 4): no
		// one is placed.
		{"DE none placed", eventA(), DirectEncounter, Options{}, []float64{1, 1, 1, 1, 1, 1}},
		// DE (6.2) in the cycle: all met, 2 points each: equal.
		{"DE cycle", eventCycle(), DirectEncounter, Options{}, []float64{1, 1, 1, 1}},
		// After round 2 of event A (cap 16.4.2 = 2): adjusted = own
		// scores (P5's half bye is now 16.2.5, a draw: 2 either way).
		// P1 0+2 = 2; P2 2 + min(3, adj P4 0) = 2; P3 2 + min(2, 2) = 4;
		// P4 4 + min(0, 3) = 4; P5 3 + min(2, 2) = 5; P6 2 + 4 = 6.
		{"BH after round 2", eventA(), Buchholz, Options{Rounds: 2}, []float64{2, 2, 4, 4, 5, 6}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Values(tc.players, tc.tb, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range tc.players {
				if got[i] != tc.want[p.Number-1] {
					t.Errorf("%s of player %d = %v, want %v (all: %v)", tc.tb, p.Number, got[i], tc.want[p.Number-1], got)
				}
			}
		})
	}
}

func TestRank(t *testing.T) {
	tests := []struct {
		name    string
		players []tally.Player
		order   string
		opt     Options
		numbers []int // pairing numbers in standing order
		ranks   []int
	}{
		// Event A: 1 (5); 2, 3, 6 (4) by BH-C1 7, 7, 9 → 6 first, then
		// SB 3 (10) over 2 (9); 5 (2); 4 (0).
		{"A", eventA(), "buchholz-cut1,sonneborn-berger,wins", Options{},
			[]int{1, 6, 3, 2, 5, 4}, []int{1, 2, 3, 4, 5, 6}},
		// With no tie-break, the three on 4 share place 2, listed by number.
		{"A no tie-breaks", eventA(), "", Options{},
			[]int{1, 2, 3, 6, 5, 4}, []int{1, 2, 2, 2, 5, 6}},
		// WIN leaves 3 and 6 (2 each) above 2 (1), and 3 and 6 shared.
		{"A wins", eventA(), "wins", Options{},
			[]int{1, 3, 6, 2, 5, 4}, []int{1, 2, 2, 4, 5, 6}},
		// DE places 1 above 2 and 3, then Buchholz 2 (8) above 3 (7).
		{"DE then BH", eventDE(), "direct-encounter,buchholz", Options{},
			[]int{1, 2, 3, 4, 6, 5}, []int{1, 2, 3, 4, 5, 6}},
		{"DE alone", eventDE(), "de", Options{},
			[]int{1, 2, 3, 4, 6, 5}, []int{1, 2, 2, 4, 5, 6}},
		// Repeated games count as their average: 2, 3, 1 below 4.
		{"DE average", eventDouble(), "direct-encounter", Options{RoundRobin: true},
			[]int{4, 2, 3, 1}, []int{1, 2, 3, 4}},
		// The cycle stays tied through DE and SB: shared first place.
		{"cycle shared", eventCycle(), "direct-encounter,sonneborn-berger", Options{RoundRobin: true},
			[]int{1, 2, 3, 4}, []int{1, 1, 1, 4}},
		// After round 2 of event A: 1 (4), 2 (3), then 3, 5, 6 (2 each) by
		// BH 4, 5, 6 → 6, 5, 3; 4 (0).
		{"A after round 2", eventA(), "solkoff", Options{Rounds: 2},
			[]int{1, 2, 6, 5, 3, 4}, []int{1, 2, 3, 4, 5, 6}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			order, err := Parse(tc.order)
			if err != nil {
				t.Fatal(err)
			}
			st, err := Rank(tc.players, order, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(st) != len(tc.numbers) {
				t.Fatalf("%d standings, want %d", len(st), len(tc.numbers))
			}
			for i, s := range st {
				if s.Number != tc.numbers[i] || s.Rank != tc.ranks[i] {
					t.Errorf("line %d: player %d rank %d, want player %d rank %d", i+1, s.Number, s.Rank, tc.numbers[i], tc.ranks[i])
				}
				if len(s.Values) != len(order) {
					t.Errorf("line %d: %d values for %d tie-breaks", i+1, len(s.Values), len(order))
				}
			}
		})
	}
}

func TestRankScores(t *testing.T) {
	st, err := Rank(eventA(), Order{Buchholz}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]int{1: 5, 2: 4, 3: 4, 4: 0, 5: 2, 6: 4}
	for _, s := range st {
		if s.Score != want[s.Number] {
			t.Errorf("player %d score %d, want %d", s.Number, s.Score, want[s.Number])
		}
	}
}

// TestShown: the direct encounter is printed only for players level on
// the criteria before it (C.07 6 ranks a tied group); a player alone
// there shows a dash, not the 1 Values holds. The ranking is unchanged.
func TestShown(t *testing.T) {
	tests := []struct {
		name    string
		players []tally.Player
		order   Order
		want    string // per player by number: the DE shown, or "-"
	}{
		// eventDE: 1, 2 and 3 tie on 4 points; 4, 5 and 6 are alone.
		{"DE first", eventDE(), Order{DirectEncounter}, "2 1 1 - - -"},
		// eventCycle: 1, 2 and 3 level on points and Sonneborn-Berger;
		// 4 is last alone.
		{"after SB", eventCycle(), Order{SonnebornBerger, DirectEncounter, Wins}, "1 1 1 -"},
		// eventA after Sonneborn-Berger: 2 (9), 3 (10) and 6 (14) on 4
		// points are separated; so is everyone else.
		{"SB separates", eventA(), Order{SonnebornBerger, DirectEncounter}, "- - - - - -"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := Rank(tc.players, tc.order, Options{})
			if err != nil {
				t.Fatal(err)
			}
			k := slices.Index(tc.order, DirectEncounter)
			got := make([]string, len(st))
			for _, s := range st {
				got[s.Number-1] = "-"
				if s.Shown(tc.order, k) {
					got[s.Number-1] = DirectEncounter.Format(s.Values[k], false)
				}
				for j := range tc.order {
					if j != k && !s.Shown(tc.order, j) {
						t.Errorf("player %d: %s not shown", s.Number, tc.order[j])
					}
				}
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("DE shown %q, want %q", g, tc.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    Order
		wantErr string
	}{
		{"buchholz-cut1,sonneborn-berger,wins", Order{BuchholzCut1, SonnebornBerger, Wins}, ""},
		{" BH-C1 , SB ,WIN ", Order{BuchholzCut1, SonnebornBerger, Wins}, ""},
		{"truncated-solkoff,solkoff", Order{BuchholzCut1, Buchholz}, ""},
		{"gekorte-solkoff", Order{BuchholzCut1}, ""},
		{"median,de,ps,bpg,bwg,won,aro,aro-c1,bh-c2", Order{MedianBuchholz, DirectEncounter, ProgressiveScore, GamesWithBlack, WinsWithBlack, GamesWon, AverageRating, AverageRatingCut1, BuchholzCut2}, ""},
		{"", nil, ""},
		{"buchholz,sonnenborn", nil, `unknown tie-break "sonnenborn" (entry 2`},
		{"buchholz,,wins", nil, "entry 2 of"},
		{"buchholz,solkoff", nil, `"solkoff" (entry 2 of "buchholz,solkoff") repeats buchholz`},
		{strings.Repeat("wins,", 20), nil, "at most"},
	}
	for _, tc := range tests {
		got, err := Parse(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Parse(%q) error %v, want one containing %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got.String() != tc.want.String() {
			t.Errorf("Parse(%q) = %v, want %v", tc.in, got, tc.want)
		}
		// The canonical form reads back to the same order.
		again, err := Parse(got.String())
		if err != nil || again.String() != got.String() {
			t.Errorf("Parse(%q) = %v, %v", got.String(), again, err)
		}
	}
}

func TestRankErrors(t *testing.T) {
	bad := func(f func([]tally.Player) []tally.Player) []tally.Player { return f(eventA()) }
	tests := []struct {
		name    string
		players []tally.Player
		opt     Options
		want    string
	}{
		{"duplicate number", bad(func(p []tally.Player) []tally.Player { p[1].Number = 1; return p }), Options{}, "pairing number 1 is given to two players"},
		{"zero number", bad(func(p []tally.Player) []tally.Player { p[0].Number = 0; return p }), Options{}, "numbers start at 1"},
		{"unknown opponent", bad(func(p []tally.Player) []tally.Player { p[0].History[0].Opponent = 9; return p }), Options{}, "player 1 round 1: opponent 9 is not a player"},
		{"self", bad(func(p []tally.Player) []tally.Player { p[0].History[0].Opponent = 1; return p }), Options{}, "paired with itself"},
		{"short history", bad(func(p []tally.Player) []tally.Player { p[2].History = p[2].History[:2]; return p }), Options{}, "player 3 has 2 rounds"},
		{"rounds beyond", eventA(), Options{Rounds: 4}, "after round 4 asked; 3 rounds are recorded"},
	}
	for _, tc := range tests {
		_, err := Rank(tc.players, Order{Buchholz}, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := Rank(eventA(), Order{TieBreak(99)}, Options{}); err == nil {
		t.Error("an unknown tie-break in the order is accepted")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"buchholz-cut1,sonneborn-berger,wins", "BH, SB", "", ",", "solkoff,solkoff", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := Parse(s)
		if err != nil {
			return
		}
		if len(o) > MaxOrder {
			t.Fatalf("Parse(%q) gave %d tie-breaks", s, len(o))
		}
		again, err := Parse(o.String())
		if err != nil || again.String() != o.String() {
			t.Fatalf("round trip of %q: %v, %v", s, again, err)
		}
	})
}
