package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/draughts-arbiter/arbiter/reports/stats"
	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/egdb"
)

// Stats is the statistical summary of an event. Every figure counts
// finished games only.
type Stats struct {
	Games      int `json:"games"`      // games listed, finished or not
	Finished   int `json:"finished"`   // games with a result
	Unfinished int `json:"unfinished"` // games without a score: "*" or "0-0"
	// Engines is the standings table: points, then Sonneborn-Berger, then
	// wins, then name.
	Engines []EngineStats `json:"engines"`
	// Crosstable holds the result of every encounter, in standings order.
	Crosstable Crosstable `json:"crosstable"`
	// Encounters lists every pair of engines that met, the engine earlier
	// in the standings first.
	Encounters []Encounter `json:"encounters"`
	// White counts results from White's point of view over all games.
	White stats.WDL `json:"white"`
	// Terminations counts results by how games ended, most frequent first.
	Terminations []TerminationStats `json:"terminations"`
	// SPRT is set when the event asked for one.
	SPRT *stats.SPRTResult `json:"sprt,omitempty"`
	// Scoring is the federation's scale of points (FederationPoints).
	Scoring Scoring `json:"scoring"`
	// Swiss are a Swiss event's standings (Event.Swiss), by encounters.
	Swiss *SwissStandings `json:"swiss,omitempty"`
	// RatingFailure, when not empty, says why the joint ratings could not
	// be fitted (every engine's Rating is then NaN, null in JSON).
	RatingFailure string `json:"rating_failure,omitempty"`
}

// EngineStats is one line of the standings.
type EngineStats struct {
	Rank   int       `json:"rank"` // 1-based; tied engines share a rank
	Name   string    `json:"name"`
	Points float64   `json:"points"`
	WDL    stats.WDL `json:"wdl"`
	// AsWhite and AsBlack split WDL by the colour played.
	AsWhite stats.WDL `json:"as_white"`
	AsBlack stats.WDL `json:"as_black"`
	// Score is points per game, 0..1; DrawRatio is draws per game.
	Score     float64 `json:"score"`
	DrawRatio float64 `json:"draw_ratio"`
	// SonnebornBerger is Σ (points against an opponent × the opponent's
	// points), the usual round-robin tie-break.
	SonnebornBerger float64 `json:"sonneborn_berger"`
	// Elo is the performance against the field, computed from WDL as if
	// every game were against one opponent (cutechess's method): fine for
	// a match, a rough guide in a round-robin.
	Elo stats.Estimate `json:"elo"`
	// LOS is cutechess's likelihood of superiority from wins and losses,
	// the one LOS of the reports (stats.Estimate's score-based LOS is not
	// written: see there why).
	LOS float64 `json:"los"`
	// FederationPoints are Points on the federation's scale (see Scoring):
	// twice Points for FMJD events.
	FederationPoints float64 `json:"federation_points"`
	// Rating is fitted to all games of the event at once (see Rating): the
	// consistent figure for comparing engines of a round-robin.
	Rating stats.Rating `json:"rating"`
	// Penta counts the engine's completed game pairs, and PentaElo is the
	// Elo estimated from them (fastchess's method); its figures are NaN
	// (null in JSON) without pairs.
	Penta    stats.Penta    `json:"penta"`
	PentaElo stats.Estimate `json:"penta_elo"`
	// Unfinished counts this engine's games without a score ("*", "0-0").
	Unfinished int `json:"unfinished"`
	// Latency is the latency of the engine's moves (Game.Latency) over its
	// games; nil when none is known.
	Latency *EngineLatency `json:"latency,omitempty"`
}

// Crosstable holds the results between every two engines.
type Crosstable struct {
	Engines []string `json:"engines"` // row and column order
	// Cells[i][j] is Engines[i]'s record against Engines[j]; the diagonal
	// is empty.
	Cells [][]stats.WDL `json:"cells"`
}

// Encounter summarizes the games between two engines, from A's side.
type Encounter struct {
	A     string      `json:"a"`
	B     string      `json:"b"`
	WDL   stats.WDL   `json:"wdl"`
	Penta stats.Penta `json:"penta"`
	// Elo is A's Elo advantage over B: from the pairs when there are any,
	// otherwise from the games.
	Elo stats.Estimate `json:"elo"`
	// LOS is A's likelihood of superiority, from wins and losses (see
	// EngineStats.LOS).
	LOS float64 `json:"los"`
}

// TerminationStats counts the results of games that ended one way.
type TerminationStats struct {
	Termination string    `json:"termination"`
	White       stats.WDL `json:"white"` // from White's point of view
}

// pairKey identifies the two games of one opening between two engines.
type pairKey struct {
	a, b string // a < b
	pair int
}

// pairer matches the two games of a pair as they arrive.
type pairer struct {
	open map[pairKey]pendingPair
}

type pendingPair struct {
	aWhite bool    // the first game seen had a as White
	points float64 // a's points in that game
	seen   int
}

// add records a finished game (a's points, whether a had White). When it
// completes a pair it returns a's pair points (0..2) and true.
func (p *pairer) add(k pairKey, aWhite bool, aPoints float64) (float64, bool, error) {
	if p.open == nil {
		p.open = make(map[pairKey]pendingPair)
	}
	pp, ok := p.open[k]
	if !ok {
		p.open[k] = pendingPair{aWhite: aWhite, points: aPoints, seen: 1}
		return 0, false, nil
	}
	if pp.seen >= 2 {
		return 0, false, fmt.Errorf("pair %d of %s vs %s has more than two finished games", k.pair, k.a, k.b)
	}
	if pp.aWhite == aWhite {
		return 0, false, fmt.Errorf("pair %d of %s vs %s: both games have %s as %s (colours must be reversed)",
			k.pair, k.a, k.b, k.a, colourName(aWhite))
	}
	pp.seen = 2
	p.open[k] = pp
	return pp.points + aPoints, true, nil
}

func colourName(white bool) string {
	if white {
		return "White"
	}
	return "Black"
}

// pentaIndex maps a pair score 0, .5, 1, 1.5, 2 to its Penta slot.
func pentaIndex(points float64) int { return int(points*2 + 0.5) }

// Compute checks the games of an event and computes its statistics.
// Errors name the offending game (1-based position, round, board, players).
func Compute(ev Event) (*Stats, error) {
	names, index, err := engineIndex(ev)
	if err != nil {
		return nil, err
	}
	n := len(names)
	sc := ScoringFor(ev.Variant)
	st := &Stats{Games: len(ev.Games), Scoring: sc, Encounters: []Encounter{}, Terminations: []TerminationStats{}} // [] when empty, not null
	es := make([]EngineStats, n)
	latencies := engineLatencies(ev, index, n)
	for i := range es {
		es[i].Name = names[i]
		es[i].Latency = latencies[i]
	}
	board := NewScoreboard(n)
	cells := board.Cells
	pentas := make([][]stats.Penta, n)
	for i := range pentas {
		pentas[i] = make([]stats.Penta, n)
	}
	terms := map[string]*TerminationStats{}
	var pr pairer
	for gi := range ev.Games {
		g := &ev.Games[gi]
		o, err := parseResult(g.Result)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.describe(gi), err)
		}
		wi, bi := index[g.White], index[g.Black]
		board.Add(wi, bi, o)
		if !o.Scored() {
			st.Unfinished++
			continue
		}
		if _, err := whiteMovesFirst(g.FirstMover); err != nil {
			return nil, fmt.Errorf("%s: %w", g.describe(gi), err)
		}
		if g.Plies < 0 {
			return nil, fmt.Errorf("%s: negative ply count %d", g.describe(gi), g.Plies)
		}
		for ply, d := range g.MoveTimes {
			if d < 0 {
				return nil, fmt.Errorf("%s: negative thinking time %v at ply %d", g.describe(gi), d, ply+1)
			}
		}
		st.Finished++
		wr := wdlOf(o)
		st.White = st.White.Add(wr)
		es[wi].AsWhite = es[wi].AsWhite.Add(wr)
		es[bi].AsBlack = es[bi].AsBlack.Add(wr.Flip())
		tn := strings.TrimSpace(g.Termination)
		switch {
		case tn == "":
			tn = "unspecified"
		case strings.HasPrefix(g.Reason, egdb.Reason):
			tn = egdb.Termination // counted apart from adjudication by the engines' scores
		}
		t := terms[tn]
		if t == nil {
			t = &TerminationStats{Termination: tn}
			terms[tn] = t
		}
		t.White = t.White.Add(wr)
		if g.Pair > 0 {
			// Pairs are keyed and scored from the engine with the lower index.
			a, b, aWhite, aPoints := wi, bi, true, o.Points(rules.White)
			if a > b {
				a, b, aWhite, aPoints = bi, wi, false, 1-o.Points(rules.White)
			}
			pts, done, err := pr.add(pairKey{names[a], names[b], g.Pair}, aWhite, aPoints)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", g.describe(gi), err)
			}
			if done {
				pentas[a][b][pentaIndex(pts)]++
				pentas[b][a][pentaIndex(2-pts)]++
			}
		}
	}
	for i := range es {
		e := &es[i]
		e.WDL = e.AsWhite.Add(e.AsBlack)
		e.Points = e.WDL.Points()
		e.Score = e.WDL.Score()
		e.DrawRatio = e.WDL.DrawRatio()
		e.Elo = stats.EloWDL(e.WDL)
		e.LOS = stats.LOSWinLoss(e.WDL)
		e.FederationPoints = sc.Points(e.Points)
		for j := range n {
			e.Penta = e.Penta.Add(pentas[i][j])
		}
		e.PentaElo = stats.EloPenta(e.Penta)
	}
	order, rank, sbs := board.Rank()
	for i, sb := range sbs {
		es[i].SonnebornBerger = sb
		es[i].Unfinished = board.Unfinished[i]
	}
	ratings, err := stats.JointRatings(cells)
	if err != nil {
		st.RatingFailure = err.Error()
	}
	for i, r := range ratings {
		es[i].Rating = r
	}
	st.Engines = make([]EngineStats, n)
	st.Crosstable = Crosstable{Engines: make([]string, n), Cells: make([][]stats.WDL, n)}
	for r, i := range order {
		e := es[i]
		e.Rank = rank[r]
		st.Engines[r] = e
		st.Crosstable.Engines[r] = e.Name
		row := make([]stats.WDL, n)
		for c, j := range order {
			row[c] = cells[i][j]
		}
		st.Crosstable.Cells[r] = row
	}
	for r, i := range order {
		for c := r + 1; c < n; c++ {
			j := order[c]
			w := cells[i][j]
			p := pentas[i][j]
			if w.Games() == 0 {
				continue
			}
			enc := Encounter{A: names[i], B: names[j], WDL: w, Penta: p, LOS: stats.LOSWinLoss(w)}
			if p.Pairs() > 0 {
				enc.Elo = stats.EloPenta(p)
			} else {
				enc.Elo = stats.EloWDL(w)
			}
			st.Encounters = append(st.Encounters, enc)
		}
	}
	for _, t := range terms {
		st.Terminations = append(st.Terminations, *t)
	}
	slices.SortFunc(st.Terminations, func(a, b TerminationStats) int {
		if c := cmp.Compare(b.White.Games(), a.White.Games()); c != 0 {
			return c
		}
		return strings.Compare(a.Termination, b.Termination)
	})
	if ev.SPRT != nil {
		if n != 2 {
			return nil, fmt.Errorf("sprt needs exactly two engines, the event has %d", n)
		}
		// The test is stated for the first engine of the event against the
		// second, whatever the standings say.
		r, err := ev.SPRT.Evaluate(pentas[0][1], cells[0][1])
		if err != nil {
			return nil, err
		}
		st.SPRT = &r
	}
	if st.Swiss, err = swissStandings(ev, names, sc); err != nil {
		return nil, err
	}
	return st, nil
}

// wdlOf is an outcome from White's point of view.
func wdlOf(o rules.Outcome) stats.WDL {
	switch o {
	case rules.WhiteWins:
		return stats.WDL{W: 1}
	case rules.BlackWins:
		return stats.WDL{L: 1}
	case rules.Draw:
		return stats.WDL{D: 1}
	}
	return stats.WDL{}
}

// engineIndex returns the engine names in seeding order and their index.
// Without an explicit list, engines are taken from the games.
func engineIndex(ev Event) ([]string, map[string]int, error) {
	index := make(map[string]int, len(ev.Engines))
	var names []string
	for _, e := range ev.Engines {
		if strings.TrimSpace(e) == "" {
			return nil, nil, fmt.Errorf("event lists an engine with an empty name")
		}
		if _, dup := index[e]; dup {
			return nil, nil, fmt.Errorf("event lists engine %q twice", e)
		}
		index[e] = len(names)
		names = append(names, e)
	}
	fixed := len(names) > 0
	for gi := range ev.Games {
		g := &ev.Games[gi]
		if g.White == "" || g.Black == "" {
			return nil, nil, fmt.Errorf("%s: missing engine name", g.describe(gi))
		}
		if g.White == g.Black {
			return nil, nil, fmt.Errorf("%s: an engine cannot play itself", g.describe(gi))
		}
		for _, e := range []string{g.White, g.Black} {
			if _, ok := index[e]; ok {
				continue
			}
			if fixed {
				return nil, nil, fmt.Errorf("%s: engine %q is not in the event's engine list", g.describe(gi), e)
			}
			index[e] = len(names)
			names = append(names, e)
		}
	}
	return names, index, nil
}

// Tally accumulates a two-engine match game by game, so that a runner can
// evaluate an SPRT after every game without recomputing from scratch. Counts
// are from engine A's point of view. A Tally is not safe for concurrent use.
type Tally struct {
	a, b  string
	wdl   stats.WDL
	penta stats.Penta
	pr    pairer
}

// NewTally starts an empty tally of a against b.
func NewTally(a, b string) *Tally { return &Tally{a: a, b: b} }

// Add records one game. Unfinished games are ignored; games between other
// engines are an error.
func (t *Tally) Add(g Game) error {
	o, err := parseResult(g.Result)
	if err != nil {
		return fmt.Errorf("round %d board %d: %w", g.Round, g.Board, err)
	}
	var aWhite bool
	switch {
	case g.White == t.a && g.Black == t.b:
		aWhite = true
	case g.White == t.b && g.Black == t.a:
	default:
		return fmt.Errorf("round %d board %d: game %s-%s is not part of %s vs %s", g.Round, g.Board, g.White, g.Black, t.a, t.b)
	}
	if !o.Scored() {
		return nil
	}
	r := wdlOf(o)
	aPoints := o.Points(rules.White)
	if !aWhite {
		r, aPoints = r.Flip(), 1-aPoints
	}
	if g.Pair > 0 {
		pts, done, err := t.pr.add(pairKey{t.a, t.b, g.Pair}, aWhite, aPoints)
		if err != nil {
			return fmt.Errorf("round %d board %d: %w", g.Round, g.Board, err)
		}
		if done {
			t.penta[pentaIndex(pts)]++
		}
	}
	t.wdl = t.wdl.Add(r)
	return nil
}

// WDL returns A's game record so far.
func (t *Tally) WDL() stats.WDL { return t.wdl }

// Penta returns A's completed pairs so far.
func (t *Tally) Penta() stats.Penta { return t.penta }

// SPRT evaluates the test on the counts so far.
func (t *Tally) SPRT(c stats.SPRTConfig) (stats.SPRTResult, error) { return c.Evaluate(t.penta, t.wdl) }
