package tournament

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

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
	// Swiss is the engine's line of a Swiss event's standings (nil for
	// the other formats): Rank is then its rank there.
	Swiss *reports.SwissRow
	// SwissTieBreaks name the values of Swiss.TieBreaks (C.07's acronyms).
	SwissTieBreaks []string
	// Scoring is the federation's scale the console prints the points on,
	// as the report and the live view do (FMJD events: 2 a win); Points
	// stay on the 0..1 scale. The zero Scoring prints them as they are.
	Scoring reports.Scoring
}

// FedPoints are Points on the federation's scale (Scoring).
func (s Standing) FedPoints() float64 {
	if s.Scoring.Win == 0 {
		return s.Points
	}
	return s.Scoring.Points(s.Points)
}

// perGame is what one game is worth on the printed scale.
func (s Standing) perGame() float64 {
	if s.Scoring.Win == 0 {
		return 1
	}
	return s.Scoring.Win
}

// scored sets the scale the standings are printed on.
func (st Standings) scored(sc reports.Scoring) Standings {
	for i := range st {
		st[i].Scoring = sc
	}
	return st
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

// standings are the live table: the engines' results so far, counted
// and ranked as the report counts and ranks them (reports.Scoreboard).
type standings struct {
	byName map[string]int // index in seeding order
	names  []string       // seeding order
	board  *reports.Scoreboard
}

func newStandings(names []string) *standings {
	s := &standings{byName: map[string]int{}, names: names, board: reports.NewScoreboard(len(names))}
	for i, n := range names {
		s.byName[n] = i
	}
	return s
}

func (s *standings) add(r Result) {
	wi, wok := s.byName[r.WhiteName]
	bi, bok := s.byName[r.BlackName]
	if !wok || !bok {
		return
	}
	o, _, err := rules.ParseResult(r.Result)
	if err != nil {
		o = rules.Ongoing // unreadable: counted as unfinished
	}
	s.board.Add(wi, bi, o)
}

// snapshot returns the standings ranked as the report ranks them (points,
// then Sonneborn-Berger, then wins; then seeding).
func (s *standings) snapshot() Standings {
	order, rank, sb := s.board.Rank()
	out := make(Standings, len(order))
	for k, i := range order {
		w := s.board.WDL(i)
		out[k] = Standing{Engine: s.names[i], Rank: rank[k], Games: w.Games(), Points: w.Points(), W: w.W, D: w.D, L: w.L,
			Unfinished: s.board.Unfinished[i], SonnebornBerger: sb[i]}
	}
	return out
}

// Write prints the standings as a table; a Swiss event's with its
// score, tie-breaks and byes first.
func (st Standings) Write(w io.Writer) {
	width := len("engine")
	for _, s := range st {
		width = max(width, len(s.Engine))
	}
	if len(st) > 0 && st[0].Swiss != nil {
		st.writeSwiss(w, width)
		return
	}
	// Sonneborn-Berger breaks ties among three or more; between two
	// engines it only repeats the points.
	sb := len(st) > 2
	fmt.Fprintf(w, "  # %-*s %6s %7s %6s %5s %5s %5s", width, "engine", "games", "points", "score", "W", "D", "L")
	if sb {
		fmt.Fprintf(w, " %6s", "SB")
	}
	fmt.Fprintln(w)
	for _, s := range st {
		digits := 1
		if s.perGame() != 1 {
			digits = 0 // 2 a win, 1 a draw: whole numbers
		}
		fmt.Fprintf(w, "%3d %-*s %6d %7.*f %5.1f%% %5d %5d %5d", s.Rank, width, s.Engine, s.Games, digits, s.FedPoints(), 100*s.Score(), s.W, s.D, s.L)
		if sb {
			fmt.Fprintf(w, " %6.2f", s.SonnebornBerger) // as the report prints it
		}
		fmt.Fprintln(w)
	}
	if len(st) > 0 && st[0].perGame() != 1 {
		fmt.Fprintf(w, "  points as the federation counts them (%s), as in the report\n", st[0].Scoring.Name)
	}
}

// Console is the runner's display (normally on stderr). On a terminal
// (live) it keeps a block at the bottom: the standings so far and a
// progress bar with ETA, redrawn in place; text written to the Console
// (the log) goes above the block. Off a terminal (a pipe, a file, CI) it
// writes a plain line every few games with the score so far, no colour
// or cursor codes. A Console is safe for concurrent use.
type Console struct {
	mu    sync.Mutex
	w     io.Writer
	live  bool
	block int // lines of the live block on screen (0: none)

	total, done int // games of this run: to play, played
	// earlier are the event's games finished by earlier runs: the plain
	// line counts the event's games, as its standings do (a resumed run's
	// "games 4/196: A 11/16" read as 4 games worth 16 points).
	earlier   int
	printed   int // done when the last plain line was written
	t0, drawn time.Time
	st        Standings
}

// NewConsole makes the display on w; live is for a terminal.
func NewConsole(w io.Writer, live bool) *Console { return &Console{w: w, live: live} }

// Live reports whether the console redraws in place (a terminal).
func (c *Console) Live() bool { return c.live }

// Write writes p (whole lines of log) above the live block.
func (c *Console) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.block == 0 {
		return c.w.Write(p)
	}
	c.clear()
	n, err := c.w.Write(p)
	c.draw()
	return n, err
}

// clear removes the live block: to the start of its first line, then
// everything below.
func (c *Console) clear() {
	if c.block == 0 {
		return
	}
	io.WriteString(c.w, "\r")
	if c.block > 1 {
		fmt.Fprintf(c.w, "\x1b[%dA", c.block-1)
	}
	io.WriteString(c.w, "\x1b[J")
	c.block = 0
}

// draw writes the live block (the cursor stays at the end of the bar).
func (c *Console) draw() {
	var b strings.Builder
	if c.st != nil {
		c.st.Write(&b)
	}
	if c.total > 0 {
		b.WriteString(c.bar())
	}
	text := strings.TrimSuffix(b.String(), "\n")
	if text == "" {
		return
	}
	io.WriteString(c.w, text)
	c.block = strings.Count(text, "\n") + 1
	c.drawn = time.Now()
}

// bar is "games [=======>      ] 12/40  30% 0:41 left".
func (c *Console) bar() string {
	const width = 30
	frac := float64(c.done) / float64(c.total)
	fill := int(frac * width)
	bar := strings.Repeat("=", fill)
	if fill < width {
		bar += ">" + strings.Repeat(" ", width-fill-1)
	}
	eta := "--:--"
	if c.done > 0 {
		left := time.Duration(float64(time.Since(c.t0)) / float64(c.done) * float64(c.total-c.done))
		eta = fmt.Sprintf("%d:%02d", int(left.Minutes()), int(left.Seconds())%60)
	}
	return fmt.Sprintf("games [%s] %d/%d %3.0f%% %s left", bar, c.done, c.total, 100*frac, eta)
}

// plain is the line off a terminal: "games 12/40: A 7.5/10, B 4.5/10".
func plain(done, total int, st Standings) string {
	var parts []string
	for i, s := range st {
		if i == 4 && len(st) > 5 {
			parts = append(parts, fmt.Sprintf("... (%d more)", len(st)-4))
			break
		}
		if s.Swiss != nil {
			// A Swiss: the score of its complete rounds.
			parts = append(parts, fmt.Sprintf("%s %g", s.Engine, s.Swiss.Points))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %g/%g", s.Engine, s.FedPoints(), float64(s.Games)*s.perGame()))
	}
	head := fmt.Sprintf("games %d", done)
	if total > 0 {
		head += fmt.Sprintf("/%d", total)
	}
	return head + ": " + strings.Join(parts, ", ") + "\n"
}

// progress is the runner's use of the Console: a game of this run
// finished (add), a table is due every few results (due, table), the run
// is over (finish). A nil *progress shows nothing.
type progress struct {
	c     *Console
	every int
	n     int // results reported since the last table
}

func newProgress(c *Console, earlier, total, every, engines int) *progress {
	if c == nil {
		return nil
	}
	if every <= 0 {
		every = max(2, engines)
	}
	c.mu.Lock()
	c.earlier, c.total, c.done, c.printed, c.t0 = earlier, total, 0, 0, time.Now()
	c.mu.Unlock()
	return &progress{c: c, every: every}
}

// add counts a game finished in this run (live: the bar moves, at most
// ten times a second).
func (p *progress) add() {
	if p == nil {
		return
	}
	c := p.c
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done++
	if c.live && (c.done == c.total || time.Since(c.drawn) >= 100*time.Millisecond) {
		c.clear()
		c.draw()
	}
}

// due is called for each result in plan order: it reports whether the
// table is to be shown after this one (every few results).
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

// table shows the standings: redrawn in place on a terminal, a plain line
// otherwise; final: they are the event's, every result in.
func (p *progress) table(st Standings, final bool) {
	if p == nil {
		return
	}
	c := p.c
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st = st
	if !c.live {
		if c.total == 0 && c.done == 0 {
			// A resumed event with nothing left to play: a line would read
			// "games 0: ..."; the summary after it says "0 in this run".
			return
		}
		// About forty lines for the whole run at most (the demo's 960
		// games would otherwise print 240), and the last one. Results
		// count in plan order: once every game is played, the ones still
		// to count make no line of their own, only the final table does.
		if step := max(1, c.total/40); final || c.done < c.total && c.done >= c.printed+step {
			io.WriteString(c.w, plain(c.earlier+c.done, c.earlier+c.total, st))
			c.printed = c.done
		}
		return
	}
	c.clear()
	c.draw()
}

// finish leaves the last block on screen and ends its line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	c := p.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live && c.block > 0 {
		c.clear()
		c.draw()
		io.WriteString(c.w, "\n")
		c.block = 0
	}
}

// WriteMatchSummary writes a two-engine event's score as cutechess and
// fastchess print it, which engine authors' scripts look for:
//
//	Score of A vs B: 12 - 8 - 10  [0.567] 30
//	Elo: 46.6 +/- 98.3, LOS: 81.9 %, DrawRatio: 33.3 %
//	Ptnml(0-2): [1, 2, 6, 4, 2]
//	SPRT: llr 1.52 (51.6%), lbound -2.94, ubound 2.94
//
// The SPRT line, in cutechess's form (" - H1 was accepted" once it
// decides; the percentage is the LLR's share of the upper bound), comes
// with a match that has an SPRT, decided or not.
//
// Wins - losses - draws are A's. The Elo and its 95% interval come from
// the pentanomial counts (the pair is the sample, as in fastchess) once a
// pair is complete, from the games before; the LOS from wins and losses
// (cutechess's, the one LOS of report.html and results.json); DrawRatio is
// the share of drawn games. A figure that does not exist is written as Go
// prints it, which scripts read as a number (docs/engine-testing.md
// promises +Inf): NaN for no game, +Inf or -Inf for a 100% or 0% score,
// "+/- NaN" for an interval too few games give none of; a sentence under
// the Elo line (reports.EloWords, also in report.html) says which, and
// what gives a figure.
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
	words := reports.EloWords(m.A, e, m.WDL, m.Penta.Pairs())
	draws := math.NaN()
	if n > 0 {
		draws = 100 * float64(m.WDL.D) / float64(n)
	}
	if n > 0 && (score == 0 || score == 1) {
		// Every game won, or lost: the difference is infinite (computed, NaN).
		// Printed as Go prints it, +Inf, which scripts read as a number.
		e.Elo = math.Inf(2*int(score) - 1)
	}
	fmt.Fprintf(w, "Elo: %.1f +/- %.1f, LOS: %.1f %%, DrawRatio: %.1f %%\n", reports.EloShown(e.Elo), e.Error, 100*stats.LOSWinLoss(m.WDL), draws)
	if words != "" {
		fmt.Fprintln(w, words)
	}
	p := m.Penta
	fmt.Fprintf(w, "Ptnml(0-2): [%d, %d, %d, %d, %d]\n", p[0], p[1], p[2], p[3], p[4])
	if s := m.SPRT; s != nil && s.Failure == "" {
		fmt.Fprintf(w, "SPRT: llr %.3g (%.1f%%), lbound %.3g, ubound %.3g", s.LLR, 100*s.LLR/s.Upper, s.Lower, s.Upper)
		if s.Decision != stats.Continue {
			fmt.Fprintf(w, " - %s was accepted", s.Decision)
		}
		fmt.Fprintln(w)
	}
}

// writeSwiss prints a Swiss event's standings: rank, engine, score and
// tie-breaks (on the federation's scale), encounters won, drawn and lost,
// byes, then the games.
func (st Standings) writeSwiss(w io.Writer, width int) {
	fmt.Fprintf(w, "  # %-*s %6s", width, "engine", "score")
	for _, n := range st[0].SwissTieBreaks {
		fmt.Fprintf(w, " %6s", n)
	}
	fmt.Fprintf(w, " %4s %4s %4s %4s %6s %7s\n", "+", "=", "-", "bye", "games", "points")
	for _, s := range st {
		sw := s.Swiss
		if sw == nil {
			continue
		}
		fmt.Fprintf(w, "%3d %-*s %6g", s.Rank, width, s.Engine, sw.Points)
		for _, v := range sw.TieBreaks {
			fmt.Fprintf(w, " %6g", v)
		}
		fmt.Fprintf(w, " %4d %4d %4d %4d %6d %7.1f\n", sw.Won, sw.Drawn, sw.Lost, sw.Byes, s.Games, s.Points)
	}
}
