package rating

import (
	"math"
	"math/rand"
	"testing"
)

// TestExpectedPublished checks table 8.1.2 and the 400-point rule against
// the examples published at http://www.elo-calculator.chesselo.com/rule.html
// and http://www.chesselo.com/400_rule.html (rated 2200 against 1000 or
// 1600: 0.92; rated 1800 against 2400 or 2482: 0.08; a difference of 100:
// 0.64 for the stronger, 0.36 for the weaker; 0: 0.50), and against the
// rows of table 8.1.2 read at http://chess.sainfo.ru/ratingtext.html
// (0-3 .50, 4-10 .51, 92-98 .63, 99-106 .64, 198-206 .76, 345-357 .89).
func TestExpectedPublished(t *testing.T) {
	for _, c := range []struct{ own, opp, want int }{
		{2200, 1000, 92}, {2200, 1600, 92}, {1800, 2400, 8}, {1800, 2482, 8},
		{2100, 2000, 64}, {2000, 2100, 36}, {2000, 2000, 50},
		{2003, 2000, 50}, {2004, 2000, 51}, {2010, 2000, 51}, {2011, 2000, 52},
		{2092, 2000, 63}, {2098, 2000, 63}, {2099, 2000, 64}, {2106, 2000, 64}, {2107, 2000, 65},
		{2198, 2000, 76}, {2206, 2000, 76}, {2345, 2000, 89}, {2357, 2000, 89}, {2358, 2000, 90},
		{2400, 2000, 92}, {2000, 2400, 8},
	} {
		if got := Expected(c.own, c.opp); got != c.want {
			t.Errorf("Expected(%d, %d) = .%02d, want .%02d", c.own, c.opp, got, c.want)
		}
	}
}

// TestTablesMirror: tables 8.1.1 and 8.1.2 are "effectively mirror-images"
// (the regulations' own words): the dp of every p from .50 to .99 falls in
// the row of table 8.1.2 whose PD is p. A typo in either table fails here.
func TestTablesMirror(t *testing.T) {
	for h := 50; h <= 99; h++ {
		dp := DP(float64(h) / 100)
		if got := higherPD(dp); got != h {
			t.Errorf("p=.%02d: dp=%d, but table 8.1.2 gives PD .%02d for it", h, dp, got)
		}
		if DP(float64(100-h)/100) != -dp {
			t.Errorf("p=.%02d: lower half does not mirror", 100-h)
		}
	}
	if DP(1) != 800 || DP(0) != -800 {
		t.Errorf("DP(1), DP(0) = %d, %d; want 800, -800", DP(1), DP(0))
	}
}

// TestChangeByHand: a player rated 2000 with K = 20 wins against 2100
// (D = -100, PD .36, ΔR +.64), draws against 1950 (D = 50, PD .57,
// ΔR -.07) and loses against 2500 (D counts as -400, PD .08, ΔR -.08):
// ΣΔR = .49, the change 20 × .49 = +9.8, published +10 (art. 8.3.4).
// Performance: Ra = (2100+1950+2500)/3 = 2183.33 → 2183, p = 1.5/3 = .50,
// dp = 0: 2183.
func TestChangeByHand(t *testing.T) {
	games := []Game{{2100, 1}, {1950, 0.5}, {2500, 0}}
	per := []float64{12.8, -1.4, -1.6}
	for i, g := range games {
		if got := GameChange(2000, 20, g); math.Abs(got-per[i]) > 1e-9 {
			t.Errorf("game %d: %.4f, want %.1f", i+1, got, per[i])
		}
	}
	if got := Change(2000, 20, games); math.Abs(got-9.8) > 1e-9 {
		t.Errorf("Change = %.4f, want 9.8", got)
	}
	if got := Round(Change(2000, 20, games)); got != 10 {
		t.Errorf("Round = %d, want 10", got)
	}
	if rp, ok := Performance(games); !ok || rp != 2183 {
		t.Errorf("Performance = %d %v, want 2183", rp, ok)
	}
	if _, ok := Performance(nil); ok {
		t.Error("Performance(nil) ok")
	}
}

func TestRound(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want int
	}{{0.5, 1}, {-0.5, -1}, {0.49, 0}, {-2.5, -3}, {20 * 0.125, 3}, {10 * (0.64 - 0.59), 1}, {9.8, 10}} {
		if got := Round(c.in); got != c.want {
			t.Errorf("Round(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestFIDEK(t *testing.T) {
	for _, c := range []struct {
		p    Player
		want int
	}{
		{Player{Rating: 1800, Games: 5}, 40},
		{Player{Rating: 1800, Games: 30}, 20},
		{Player{Rating: 2299, Games: 100, Junior: true}, 40},
		{Player{Rating: 2300, Games: 100, Junior: true}, 20},
		{Player{Rating: 2399, Games: 100}, 20},
		{Player{Rating: 2400, Games: 100}, 10},
		{Player{Rating: 2350, Games: 100, Reached2400: true}, 10},
	} {
		if got := FIDEK(c.p); got != c.want {
			t.Errorf("FIDEK(%+v) = %d, want %d", c.p, got, c.want)
		}
	}
	if CapK(40, 20) != 35 || CapK(40, 17) != 40 || CapK(20, 36) != 19 {
		t.Errorf("CapK: %d %d %d", CapK(40, 20), CapK(40, 17), CapK(20, 36))
	}
	if HalfK(20) != 10 {
		t.Error("HalfK(20) != 10")
	}
}

// TestZeroSum: with equal K for everybody, the changes of any set of games
// sum to zero (PD(a,b) + PD(b,a) = 1 in every row, 400-point rule too).
func TestZeroSum(t *testing.T) {
	r := rand.New(rand.NewSource(25))
	for trial := 0; trial < 200; trial++ {
		n := 2 + r.Intn(14)
		ratings := make([]int, n)
		for i := range ratings {
			ratings[i] = 1000 + r.Intn(1800)
		}
		games := make([][]Game, n)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				s := float64(r.Intn(3)) / 2
				games[i] = append(games[i], Game{ratings[j], s})
				games[j] = append(games[j], Game{ratings[i], 1 - s})
			}
		}
		sum := 0.0
		for i := range ratings {
			sum += Change(ratings[i], 20, games[i])
		}
		if math.Abs(sum) > 1e-6 {
			t.Fatalf("trial %d: changes sum to %.9f, ratings %v", trial, sum, ratings)
		}
	}
}

func TestParseSystem(t *testing.T) {
	for _, s := range []string{"", "none", "fide", "fmjd"} {
		if _, err := ParseSystem(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	if _, err := ParseSystem("elo"); err == nil {
		t.Error("elo accepted")
	}
}
