package reports

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/draughts-arbiter/arbiter/reports/stats"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Limits that keep the HTML small whatever the number of games: charts show
// aggregates, never one point per game.
const (
	maxProgressPoints = 400    // samples of the score-over-time lines
	maxLengthBins     = 40     // bars of the game-length histogram
	maxMoveNumber     = 150    // moves shown in the time-per-move chart
	timeSampleSize    = 20_000 // move times kept per engine for quantiles
)

// ordered returns the indices of the games sorted by round, then board;
// ties keep their input order, so the result is deterministic.
func ordered(games []Game) []int {
	idx := make([]int, len(games))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ga, gb := &games[a], &games[b]
		if c := cmp.Compare(ga.Round, gb.Round); c != 0 {
			return c
		}
		return cmp.Compare(ga.Board, gb.Board)
	})
	return idx
}

// chartData is what the charts need, aggregated in one pass over the games.
type chartData struct {
	engines []string // standings order

	// progress[e] is engine e's cumulative points after finished game
	// progressX[k] (1-based count of finished games, in event order).
	progressX []int
	progress  [][]float64
	// eloProgress[e] is engine e's Elo against its field, with its
	// interval, at the same points.
	eloProgress [][]stats.Estimate

	// Game-length histogram: bins of lengthBin plies starting at lengthMin.
	lengthMin, lengthBin int
	lengthCounts         []int

	// Time per move: sum and count of thinking time by engine and move
	// number (0-based), and a bounded sample per engine for quantiles.
	timeSum   [][]float64 // seconds
	timeCount [][]int
	timeQuant [][5]float64 // p5, q1, median, q3, p95 in seconds (over the sample)
	timeMean  []float64    // seconds, over all moves
	timeMoves []int        // moves timed per engine
	maxMove   int          // longest move number with data (1-based)

	avgPlies float64

	// openings are the results by opening, most played first.
	openings []openingStats
}

// openingStats are the results of the games from one opening.
type openingStats struct {
	Name  string
	White stats.WDL // from White's side
	// Pairs counts the completed pairs of the opening, and ColourPairs
	// those decided by colour: both games won by the same colour (each
	// engine won with it), so the opening, not the engines, decided.
	Pairs, ColourPairs int
}

// maxOpenings bounds the bars of the results-per-opening chart.
const maxOpenings = 40

// aggregate builds chart data for the event; st gives the engine order.
func aggregate(ev Event, st *Stats) (*chartData, error) {
	n := len(st.Engines)
	cd := &chartData{engines: make([]string, n)}
	pos := make(map[string]int, n)
	for i, e := range st.Engines {
		cd.engines[i] = e.Name
		pos[e.Name] = i
	}
	order := ordered(ev.Games)

	// Score over time: sample every step-th finished game, and the last.
	step := max(1, (st.Finished+maxProgressPoints-1)/maxProgressPoints)
	cd.progress = make([][]float64, n)
	cd.eloProgress = make([][]stats.Estimate, n)
	points := make([]float64, n)
	wdl := make([]stats.WDL, n)

	minPlies, maxPlies := math.MaxInt, 0
	totalPlies := 0
	cd.timeSum = make([][]float64, n)
	cd.timeCount = make([][]int, n)
	samples := make([][]float64, n)
	seen := make([]int, n)
	totalTime := make([]float64, n)
	rng := rand.New(rand.NewPCG(1, 2)) // fixed seed: the report is reproducible

	byOpening := map[string]*openingStats{}
	type pairSeen struct {
		a, b string
		pair int
	}
	firstOfPair := map[pairSeen]rules.Outcome{}
	finished := 0
	for _, gi := range order {
		g := &ev.Games[gi]
		o, err := parseResult(g.Result)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.describe(gi), err)
		}
		if !o.Scored() {
			continue
		}
		finished++
		name := g.Opening
		if name == "" {
			name = "start position"
		}
		os := byOpening[name]
		if os == nil {
			os = &openingStats{Name: name}
			byOpening[name] = os
		}
		os.White = os.White.Add(wdlOf(o))
		if g.Pair > 0 {
			k := pairSeen{min(g.White, g.Black), max(g.White, g.Black), g.Pair}
			if first, ok := firstOfPair[k]; ok {
				os.Pairs++
				if first == o && o != rules.Draw {
					os.ColourPairs++
				}
				delete(firstOfPair, k)
			} else {
				firstOfPair[k] = o
			}
		}
		wi, bi := pos[g.White], pos[g.Black]
		points[wi] += o.Points(rules.White)
		points[bi] += 1 - o.Points(rules.White)
		wdl[wi] = wdl[wi].Add(wdlOf(o))
		wdl[bi] = wdl[bi].Add(wdlOf(o).Flip())
		if finished%step == 0 || finished == st.Finished {
			cd.progressX = append(cd.progressX, finished)
			for e := range n {
				cd.progress[e] = append(cd.progress[e], points[e])
				cd.eloProgress[e] = append(cd.eloProgress[e], stats.EloWDL(wdl[e]))
			}
		}
		if g.Plies >= 0 {
			minPlies, maxPlies = min(minPlies, g.Plies), max(maxPlies, g.Plies)
			totalPlies += g.Plies
		}
		whiteFirst, err := whiteMovesFirst(g.FirstMover)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.describe(gi), err)
		}
		for ply, d := range g.MoveTimes {
			e := bi
			if moverIsWhite(whiteFirst, ply) {
				e = wi
			}
			secs := d.Seconds()
			move := ply / 2
			if move < maxMoveNumber {
				if move >= len(cd.timeSum[e]) {
					cd.timeSum[e] = append(cd.timeSum[e], make([]float64, move+1-len(cd.timeSum[e]))...)
					cd.timeCount[e] = append(cd.timeCount[e], make([]int, move+1-len(cd.timeCount[e]))...)
				}
				cd.timeSum[e][move] += secs
				cd.timeCount[e][move]++
				cd.maxMove = max(cd.maxMove, move+1)
			}
			totalTime[e] += secs
			// Reservoir sampling keeps a uniform sample of bounded size.
			if seen[e] < timeSampleSize {
				samples[e] = append(samples[e], secs)
			} else if j := rng.IntN(seen[e] + 1); j < timeSampleSize {
				samples[e][j] = secs
			}
			seen[e]++
		}
	}
	if finished > 0 {
		cd.avgPlies = float64(totalPlies) / float64(finished)
		span := maxPlies - minPlies + 1
		cd.lengthBin = max(1, (span+maxLengthBins-1)/maxLengthBins)
		// Round bin edges to tidy numbers (multiples of the bin width).
		cd.lengthMin = minPlies - minPlies%cd.lengthBin
		cd.lengthCounts = make([]int, (maxPlies-cd.lengthMin)/cd.lengthBin+1)
		for _, gi := range order {
			g := &ev.Games[gi]
			if o, _ := parseResult(g.Result); !o.Scored() {
				continue
			}
			cd.lengthCounts[(g.Plies-cd.lengthMin)/cd.lengthBin]++
		}
	}
	for _, os := range byOpening {
		cd.openings = append(cd.openings, *os)
	}
	slices.SortFunc(cd.openings, func(a, b openingStats) int {
		if c := cmp.Compare(b.White.Games(), a.White.Games()); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	cd.timeQuant = make([][5]float64, n)
	cd.timeMean = make([]float64, n)
	cd.timeMoves = seen
	for e := range n {
		if seen[e] == 0 {
			continue
		}
		cd.timeMean[e] = totalTime[e] / float64(seen[e])
		s := samples[e]
		slices.Sort(s)
		cd.timeQuant[e] = [5]float64{quantile(s, 0.05), quantile(s, 0.25), quantile(s, 0.5), quantile(s, 0.75), quantile(s, 0.95)}
	}
	return cd, nil
}

// quantile interpolates linearly in a sorted sample.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 1 {
		return sorted[0]
	}
	x := q * float64(len(sorted)-1)
	i := int(x)
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	f := x - float64(i)
	return sorted[i]*(1-f) + sorted[i+1]*f
}

// totalTimes sums a game's thinking time per colour.
func totalTimes(g *Game) (white, black time.Duration) {
	whiteFirst, _ := whiteMovesFirst(g.FirstMover) // checked by Compute
	for ply, d := range g.MoveTimes {
		if moverIsWhite(whiteFirst, ply) {
			white += d
		} else {
			black += d
		}
	}
	return white, black
}
