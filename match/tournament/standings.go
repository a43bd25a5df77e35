package tournament

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Standing is one engine's score so far.
type Standing struct {
	Engine     string
	Games      int
	Points     float64
	W, D, L    int
	Unfinished int // games without a score ("*": not played; "0-0")
}

// Score is the percentage of points won.
func (s Standing) Score() float64 {
	if s.Games == 0 {
		return 0
	}
	return 100 * s.Points / float64(s.Games)
}

// Standings are the engines' scores, best first.
type Standings []Standing

type standings struct {
	byName map[string]*Standing
	order  []string
}

func newStandings(names []string) *standings {
	s := &standings{byName: map[string]*Standing{}, order: names}
	for _, n := range names {
		s.byName[n] = &Standing{Engine: n}
	}
	return s
}

func (s *standings) add(r Result) {
	w, b := s.byName[r.WhiteName], s.byName[r.BlackName]
	if w == nil || b == nil {
		return
	}
	o, _, err := rules.ParseResult(r.Result)
	if err != nil || !o.Scored() {
		w.Unfinished++
		b.Unfinished++
		return
	}
	w.Games++
	b.Games++
	switch o {
	case rules.WhiteWins:
		w.W++
		b.L++
		w.Points++
	case rules.BlackWins:
		b.W++
		w.L++
		b.Points++
	case rules.Draw:
		w.D++
		b.D++
		w.Points += 0.5
		b.Points += 0.5
	}
}

// snapshot returns the standings sorted by points (then by seeding).
func (s *standings) snapshot() Standings {
	out := make(Standings, 0, len(s.order))
	for _, n := range s.order {
		out = append(out, *s.byName[n])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Points > out[j].Points })
	return out
}

// Write prints the standings as a table.
func (st Standings) Write(w io.Writer) {
	width := len("engine")
	for _, s := range st {
		width = max(width, len(s.Engine))
	}
	fmt.Fprintf(w, "  # %-*s %6s %7s %6s %5s %5s %5s\n", width, "engine", "games", "points", "score", "W", "D", "L")
	for i, s := range st {
		fmt.Fprintf(w, "%3d %-*s %6d %7.1f %5.1f%% %5d %5d %5d\n", i+1, width, s.Engine, s.Games, s.Points, s.Score(), s.W, s.D, s.L)
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
