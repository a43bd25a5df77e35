package tournament

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/draughts-arbiter/arbiter/reports"
	"github.com/draughts-arbiter/arbiter/reports/stats"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Standing is one engine's score so far.
type Standing struct {
	Engine     string
	Rank       int // 1-based, by reports.Rank: tied engines share a rank
	Games      int
	Points     float64
	W, D, L    int
	Unfinished int // games without a score ("*": not played; "0-0")
	// SonnebornBerger is Σ (points against an opponent × the opponent's
	// points), the first tie-break.
	SonnebornBerger float64
}

// Score is the fraction of the points won, 0..1 (0 without games), the
// scale of the report; Write prints it as a percentage.
func (s Standing) Score() float64 {
	if s.Games == 0 {
		return 0
	}
	return s.Points / float64(s.Games)
}

// Standings are the engines' scores, best first.
type Standings []Standing

type standings struct {
	byName map[string]int // index in order
	order  []string       // seeding order
	rows   []Standing
	cells  [][]stats.WDL // cells[i][j]: i's results against j
}

func newStandings(names []string) *standings {
	s := &standings{byName: map[string]int{}, order: names, rows: make([]Standing, len(names)), cells: make([][]stats.WDL, len(names))}
	for i, n := range names {
		s.byName[n] = i
		s.rows[i] = Standing{Engine: n}
		s.cells[i] = make([]stats.WDL, len(names))
	}
	return s
}

func (s *standings) add(r Result) {
	wi, wok := s.byName[r.WhiteName]
	bi, bok := s.byName[r.BlackName]
	if !wok || !bok {
		return
	}
	w, b := &s.rows[wi], &s.rows[bi]
	o, _, err := rules.ParseResult(r.Result)
	if err != nil || !o.Scored() {
		w.Unfinished++
		b.Unfinished++
		return
	}
	w.Games++
	b.Games++
	w.Points += o.Points(rules.White)
	b.Points += o.Points(rules.Black)
	switch o {
	case rules.WhiteWins:
		w.W++
		b.L++
		s.cells[wi][bi].W++
		s.cells[bi][wi].L++
	case rules.BlackWins:
		b.W++
		w.L++
		s.cells[bi][wi].W++
		s.cells[wi][bi].L++
	case rules.Draw:
		w.D++
		b.D++
		s.cells[wi][bi].D++
		s.cells[bi][wi].D++
	}
}

// snapshot returns the standings ranked as the report ranks them (points,
// then Sonneborn-Berger, then wins; then seeding).
func (s *standings) snapshot() Standings {
	points := make([]float64, len(s.rows))
	for i, r := range s.rows {
		points[i] = r.Points
	}
	sb := reports.SonnebornBerger(s.cells, points)
	keys := make([]reports.RankKey, len(s.rows))
	for i, r := range s.rows {
		keys[i] = reports.RankKey{Points: r.Points, SonnebornBerger: sb[i], Wins: r.W}
	}
	order, rank := reports.Rank(keys)
	out := make(Standings, len(order))
	for k, i := range order {
		out[k] = s.rows[i]
		out[k].SonnebornBerger, out[k].Rank = sb[i], rank[k]
	}
	return out
}

// Write prints the standings as a table.
func (st Standings) Write(w io.Writer) {
	width := len("engine")
	for _, s := range st {
		width = max(width, len(s.Engine))
	}
	fmt.Fprintf(w, "  # %-*s %6s %7s %6s %5s %5s %5s %6s\n", width, "engine", "games", "points", "score", "W", "D", "L", "SB")
	for _, s := range st {
		fmt.Fprintf(w, "%3d %-*s %6d %7.1f %5.1f%% %5d %5d %5d %6.2f\n", s.Rank, width, s.Engine, s.Games, s.Points, 100*s.Score(), s.W, s.D, s.L, s.SonnebornBerger)
	}
}

// progress is the console display: a bar with ETA, and the standings every
// few games. A nil *progress shows nothing.
type progress struct {
	w     io.Writer
	bar   *progressbar.ProgressBar
	every int
	n     int // results reported since the last table
}

func newProgress(w io.Writer, total, every, engines int) *progress {
	if w == nil {
		return nil
	}
	if every <= 0 {
		every = max(2, engines)
	}
	p := &progress{w: w, every: every}
	if total > 0 {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("games"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetWidth(30),
			progressbar.OptionFullWidth(),
		)
	}
	return p
}

// add counts a game finished in this run.
func (p *progress) add() {
	if p == nil || p.bar == nil {
		return
	}
	p.bar.Add(1)
}

// due is called for each result in plan order: it reports whether the
// table is to be printed after this one (every few results).
func (p *progress) due() bool {
	if p == nil {
		return false
	}
	p.n++
	if p.n >= p.every {
		p.n = 0
		return true
	}
	return false
}

// table prints the standings above the bar.
func (p *progress) table(st Standings) {
	if p == nil {
		return
	}
	var b strings.Builder
	st.Write(&b)
	p.print(b.String())
}

// print writes text above the bar.
func (p *progress) print(s string) {
	if p.bar != nil {
		p.bar.Clear()
		fmt.Fprint(p.w, "\r")
	}
	fmt.Fprint(p.w, s)
	if p.bar != nil && !p.bar.IsFinished() {
		p.bar.RenderBlank()
	}
}

func (p *progress) finish() {
	if p == nil || p.bar == nil {
		return
	}
	p.bar.Finish()
	fmt.Fprintln(p.w)
}

// WriteMatchSummary writes a two-engine event's score as cutechess and
// fastchess print it, which engine authors' scripts look for:
//
//	Score of A vs B: 12 - 8 - 10  [0.567] 30
//	Elo: 46.6 +/- 98.3, LOS: 81.9 %, DrawRatio: 33.3 %
//	Ptnml(0-2): [1, 2, 6, 4, 2]
//
// Wins - losses - draws are A's. The Elo, its 95% interval and the LOS come
// from the pentanomial counts (the pair is the sample, as in fastchess)
// once a pair is complete, from the games before; DrawRatio is the share
// of drawn games. A figure that does not exist (no game, a 100% score) is
// written NaN.
func WriteMatchSummary(w io.Writer, m *MatchTally) {
	n := m.WDL.Games()
	score := math.NaN()
	if n > 0 {
		score = m.WDL.Score()
	}
	fmt.Fprintf(w, "Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", m.A, m.B, m.WDL.W, m.WDL.L, m.WDL.D, score, n)
	e := stats.EloWDL(m.WDL)
	if m.Penta.Pairs() > 0 {
		e = stats.EloPenta(m.Penta)
	}
	draws := math.NaN()
	if n > 0 {
		draws = 100 * float64(m.WDL.D) / float64(n)
	}
	fmt.Fprintf(w, "Elo: %.1f +/- %.1f, LOS: %.1f %%, DrawRatio: %.1f %%\n", noNegZero(e.Elo), e.Error, 100*e.LOS, draws)
	p := m.Penta
	fmt.Fprintf(w, "Ptnml(0-2): [%d, %d, %d, %d, %d]\n", p[0], p[1], p[2], p[3], p[4])
}

// noNegZero keeps an even score from printing as "-0.0".
func noNegZero(x float64) float64 {
	if math.Abs(x) < 0.05 {
		return 0
	}
	return x
}
