package rating

import (
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// table812 is FIDE B.02 table 8.1.2 as the 2024 text prints it ("D (Rtg
// Dif) | PD H | PD L"), typed again from the text rather than derived from
// expectedTable, so that a typo in either shows.
const table812 = `0-3 .50 .50|4-10 .51 .49|11-17 .52 .48|18-25 .53 .47|26-32 .54 .46|33-39 .55 .45|40-46 .56 .44|
47-53 .57 .43|54-61 .58 .42|62-68 .59 .41|69-76 .60 .40|77-83 .61 .39|84-91 .62 .38|92-98 .63 .37|99-106 .64 .36|
107-113 .65 .35|114-121 .66 .34|122-129 .67 .33|130-137 .68 .32|138-145 .69 .31|146-153 .70 .30|154-162 .71 .29|
163-170 .72 .28|171-179 .73 .27|180-188 .74 .26|189-197 .75 .25|198-206 .76 .24|207-215 .77 .23|216-225 .78 .22|
226-235 .79 .21|236-245 .80 .20|246-256 .81 .19|257-267 .82 .18|268-278 .83 .17|279-290 .84 .16|291-302 .85 .15|
303-315 .86 .14|316-328 .87 .13|329-344 .88 .12|345-357 .89 .11|358-374 .90 .10|375-391 .91 .09|392-411 .92 .08|
412-432 .93 .07|433-456 .94 .06|457-484 .95 .05|485-517 .96 .04|518-559 .97 .03|560-619 .98 .02|620-735 .99 .01`

// table811 is the upper half of table 8.1.1 (p → dp, p from 1.0 down to
// .50), typed from the 2024 text.
const table811 = `1.0 800|.99 677|.98 589|.97 538|.96 501|.95 470|.94 444|.93 422|.92 401|.91 383|.90 366|.89 351|
.88 336|.87 322|.86 309|.85 296|.84 284|.83 273|.82 262|.81 251|.80 240|.79 230|.78 220|.77 211|.76 202|.75 193|
.74 184|.73 175|.72 166|.71 158|.70 149|.69 141|.68 133|.67 125|.66 117|.65 110|.64 102|.63 95|.62 87|.61 80|
.60 72|.59 65|.58 57|.57 50|.56 43|.55 36|.54 29|.53 21|.52 14|.51 7|.50 0`

func rows(t *testing.T, table string) [][]string {
	var out [][]string
	for _, r := range strings.Split(strings.ReplaceAll(table, "\n", ""), "|") {
		out = append(out, strings.Fields(r))
	}
	return out
}

func hundredths(t *testing.T, s string) int {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return int(math.Round(f * 100))
}

// TestTable812 checks both ends of every row of table 8.1.2 for the higher
// and the lower rated player, rated 2700 (no 400 cap, art. 8.3.1 as
// amended) so that rows past 400 are reached, and "> 735" → 1.0 / .00.
func TestTable812(t *testing.T) {
	if n := len(rows(t, table812)); n != 50 {
		t.Fatalf("%d rows, want 50", n)
	}
	for _, r := range rows(t, table812) {
		lo, hi, _ := strings.Cut(r[0], "-")
		h, l := hundredths(t, r[1]), hundredths(t, r[2])
		for _, ds := range []string{lo, hi} {
			d, _ := strconv.Atoi(ds)
			if got := Expected(2700+d, 2700); got != h {
				t.Errorf("D=%d: PD H .%02d, text %s", d, got, r[1])
			}
			if got := Expected(2700, 2700+d); got != l {
				t.Errorf("D=%d: PD L .%02d, text %s", d, got, r[2])
			}
		}
	}
	if Expected(3436, 2700) != 100 || Expected(2700, 3436) != 0 {
		t.Errorf("D=736: %d %d, want 1.0 and .00", Expected(3436, 2700), Expected(2700, 3436))
	}
}

// TestTable811 checks every entry of table 8.1.1, and its mirror half.
func TestTable811(t *testing.T) {
	n := 0
	for _, r := range rows(t, table811) {
		p := hundredths(t, r[0])
		dp, _ := strconv.Atoi(r[1])
		if got := DP(float64(p) / 100); got != dp {
			t.Errorf("p=%s: dp %d, text %d", r[0], got, dp)
		}
		if got := DP(float64(100-p) / 100); got != -dp {
			t.Errorf("p=.%02d: dp %d, want %d", 100-p, got, -dp)
		}
		n++
	}
	if n != 51 {
		t.Errorf("%d rows, want 51", n)
	}
}

// TestRule400From2650: art. 8.3.1 as amended from 1 October 2025. A
// player rated 2700 who beats a player rated 2200 (D = 500): for the 2700
// player the actual difference is used, PD .96 (485-517), ΔR +.04, K 10:
// +0.4; for the 2200 player the difference counts as 400, PD .08 (392-411),
// ΔR −.08, K 20: −1.6. Between two players below 2650 the cap holds both
// ways.
func TestRule400From2650(t *testing.T) {
	if got := GameChange(2700, 10, Game{2200, 1}); math.Abs(got-0.4) > 1e-9 {
		t.Errorf("2700 beats 2200: %+.4f, want +0.4", got)
	}
	if got := GameChange(2200, 20, Game{2700, 0}); math.Abs(got+1.6) > 1e-9 {
		t.Errorf("2200 loses to 2700: %+.4f, want -1.6", got)
	}
	if Expected(2649, 2000) != 92 || Expected(2650, 2000) != 99 || Expected(2650, 1914) != 100 {
		t.Errorf("2649/2650 against 2000, 2650 against 1914: .%02d .%02d .%02d, want .92 .99 1.0",
			Expected(2649, 2000), Expected(2650, 2000), Expected(2650, 1914))
	}
}

// TestInitialByHand: art. 8.2 for an unrated player who scores 3 from 5
// against rated 1900, 2000, 2100, 1950 and 2050. Art. 8.2.2 adds two
// hypothetical 1800 opponents, drawn: Ra = (10000 + 3600) / 7 =
// 1942.857..., p = (3 + 1) / 7 = .571 → .57, dp = 50 (table 8.1.1),
// Ru = 1992.857... → 1993 (art. 8.2.3). With 5 wins against 2300 each,
// Ra = 2157.14, p = 6/7 = .857 → .86, dp 309: 2466 → the maximum 2200.
// A zero score is disregarded (8.2.1), 4 games are too few (7.1.4), and a
// result under 1400 gives no rating.
func TestInitialByHand(t *testing.T) {
	g := []Game{{1900, 1}, {2000, 1}, {2100, 0}, {1950, 0.5}, {2050, 0.5}}
	if ru, ok := Initial(g); !ok || ru != 1993 {
		t.Errorf("Initial = %d %v, want 1993", ru, ok)
	}
	w := []Game{{2300, 1}, {2300, 1}, {2300, 1}, {2300, 1}, {2300, 1}}
	if ru, ok := Initial(w); !ok || ru != 2200 {
		t.Errorf("five wins against 2300: %d %v, want 2200", ru, ok)
	}
	z := []Game{{1900, 0}, {2000, 0}, {2100, 0}, {1950, 0}, {2050, 0}}
	if _, ok := Initial(z); ok {
		t.Error("a zero score gave a rating")
	}
	if _, ok := Initial(g[:4]); ok {
		t.Error("4 games gave a rating")
	}
	low := []Game{{1400, 0}, {1400, 0}, {1400, 0}, {1400, 0}, {1400, 0.5}}
	if ru, ok := Initial(low); ok {
		t.Errorf("a rating under 1400 was given: %d", ru)
	}
}

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
// sum to zero (PD(a,b) + PD(b,a) = 1 in every row, 400-point rule too)
// while every player is below 2650, or every player is 2650 or above (no
// cap for anybody). Across 2650 with more than 400 between them the
// amended art. 8.3.1 makes the exchange unequal (TestRule400From2650).
func TestZeroSum(t *testing.T) {
	r := rand.New(rand.NewSource(25))
	for trial := 0; trial < 300; trial++ {
		n := 2 + r.Intn(14)
		ratings := make([]int, n)
		for i := range ratings {
			if trial%3 == 2 {
				ratings[i] = NoCapFrom + r.Intn(1000)
			} else {
				ratings[i] = 1400 + r.Intn(NoCapFrom-1400)
			}
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

// TestKFor: the cases of FIDE B.02 art. 8.3.3 ("K = 40 for a player new
// to the rating list until he has completed events with at least 30
// games; K = 20 as long as a player's rating remains under 2400; K = 10
// once a player's published rating has reached 2400 and remains at that
// level subsequently, even if the rating drops below 2400; K = 40 for all
// players until the end of the year of their 18th birthday, as long as
// their rating remains under 2300"), each with the case it names.
func TestKFor(t *testing.T) {
	for _, c := range []struct {
		name string
		p    Player
		k    int
		why  string
	}{
		{"new, 29 games", Player{Rating: 1800, Games: 29}, 40, KNew},
		{"30 games", Player{Rating: 1800, Games: 30}, 20, KRating},
		{"new but 2400", Player{Rating: 2400, Games: 5}, 10, K2400},
		{"junior under 2300", Player{Rating: 2299, Games: 80, Junior: true}, 40, KJunior},
		{"junior at 2300", Player{Rating: 2300, Games: 80, Junior: true}, 20, KRating},
		{"2399", Player{Rating: 2399, Games: 80}, 20, KRating},
		{"2400", Player{Rating: 2400, Games: 80}, 10, K2400},
		{"dropped below 2400", Player{Rating: 2350, Games: 80, Reached2400: true}, 10, K2400},
		{"junior who reached 2400", Player{Rating: 2250, Games: 80, Junior: true, Reached2400: true}, 10, K2400},
	} {
		if k, why := KFor(c.p); k != c.k || why != c.why {
			t.Errorf("%s: K %d (%s), want %d (%s)", c.name, k, why, c.k, c.why)
		}
	}
	// "Until the end of the year of their 18th birthday": born 2008, a
	// junior through 2026, not in 2027; an unknown year (0) never is.
	for _, c := range []struct {
		born, year int
		want       bool
	}{{2008, 2026, true}, {2008, 2027, false}, {2012, 2026, true}, {0, 2026, false}} {
		if got := Junior(c.born, c.year); got != c.want {
			t.Errorf("Junior(%d, %d) = %v", c.born, c.year, got)
		}
	}
}
