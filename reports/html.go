package reports

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// The echarts library (npm package echarts 5.6.0, dist/echarts.min.js,
// Apache License 2.0, see assets/LICENSE and assets/NOTICE) is compiled
// into the binary and inlined into every report, so the page works offline
// and as a single mailed file.
//
//go:embed assets/echarts.min.js
var echartsJS string

//go:embed assets/NOTICE
var echartsNotice string

//go:embed report.html.tmpl
var reportTemplate string

// libraryMark is the line of report.html.tmpl where the echarts library
// goes. The page is two templates, before and after it, and the library is
// written between them as it is: through html/template, its megabyte cost
// 4 ms of context checks for every report written.
const libraryMark = "{{/* The echarts library goes here, written by writeHTML as it is. */}}\n"

// pageTemplates are the page before and after the library, parsed at their
// first use, not when the program starts: most commands never write a
// report.
var pageTemplates = sync.OnceValue(func() [2]*template.Template {
	head, tail, ok := strings.Cut(reportTemplate, libraryMark)
	if !ok {
		panic("reports: report.html.tmpl has lost its library mark")
	}
	funcs := template.FuncMap{
		"pct":    func(x float64) string { return fmt.Sprintf("%.1f%%", x*100) },
		"points": fmtPoints,
		"elo":    fmtElo,
		"signed": fmtSigned,
		// An encounter's Elo and "± error" cells (eloText).
		"eloFig": func(e stats.Estimate, games int) string { fig, _ := eloText(e, games); return fig },
		"eloPM":  func(e stats.Estimate, games int) string { _, pm := eloText(e, games); return pm },
		"los": func(x float64) string {
			if math.IsNaN(x) {
				return "n/a"
			}
			return fmt.Sprintf("%.1f%%", x*100)
		},
		"inc": func(i int) int { return i + 1 },
		"num": func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) },
	}
	return [2]*template.Template{
		template.Must(template.New("report").Funcs(funcs).Parse(head)),
		template.Must(template.New("report, after the library").Funcs(funcs).Parse(tail)),
	}
})

// pageData feeds report.html.tmpl.
type pageData struct {
	Title       string
	Variant     string
	TimeControl string
	Summary     []summaryItem
	Stats       *Stats
	HasPairs    bool
	HasUnfin    bool
	// HasSB: the Sonneborn-Berger column, a tie-break among three engines
	// or more (between two it only repeats the points).
	HasSB   bool
	Cross   [][]crossCell
	SPRT    *sprtView
	Charts  []chartSpec
	Options template.JS
	Notice  string
	// Event details and participants.
	Details      []Setting
	Participants []EngineInfo
	Scoring      Scoring
	// Rows are the standings lines with their headline rating.
	Rows []engineRow
	// HeadlineKind names the headline figure: "Rating" (the joint fit) or
	// "Elo against the field" when the fit failed.
	HeadlineKind string
	// MatchLines is the cutechess-style summary of a two-engine event.
	MatchLines []string
	// GamesJSON feeds the games list, the viewer and the incident log;
	// RecordsJSON holds the records when they are embedded ("" when they
	// are in RecordsFile beside the page, or missing).
	GamesJSON   template.JS
	RecordsJSON template.JS
	HasGames    bool
	// Latency is the engines' latency, in standings order (empty when no
	// game's is known), and LatencyNote says when it is flagged.
	Latency     []latencyRow
	LatencyNote string
	// Unmeasured names the engines without a latency beside those with
	// one: their moves came without a search time (DXP); UnmeasuredWhy
	// says so.
	Unmeasured, UnmeasuredWhy string
}

// latencyRow is one engine's line of the latency table.
type latencyRow struct {
	Name                             string
	Moves, Games, HighGames, MaxGame int
	Total, Mean, Max                 string
	High                             bool
}

// engineRow is one standings line as the page prints it.
type engineRow struct {
	EngineStats
	FedPoints string
	Headline  string // the headline rating, signed
	Interval  string // its 95% interval, "[lo, hi]", open ends drawn as ∞
	Elo       string // Elo against the field with its interval
	PairElo   string // pair Elo with its interval ("" without pairs)
	RatingTxt string // the joint rating ± error
}

type summaryItem struct{ Label, Value string }

type crossCell struct {
	Self  bool
	Empty bool
	Text  string
	Title string
	Style template.CSS
}

type sprtView struct {
	stats.SPRTResult
	Model    string
	Form     string
	Position float64 // 0..100: where the LLR sits between the bounds
	Verdict  string
	Class    string
}

// writeHTML renders the report page. Records too large to embed go to
// sidecar (the contents of the files RecordsChunkFile(0), (1), ...) when it
// is not nil, and are left out otherwise.
func writeHTML(w io.Writer, ev Event, st *Stats, sidecar func([][]byte) error) error {
	cd, err := aggregate(ev, st)
	if err != nil {
		return err
	}
	specs, err := buildCharts(st, cd)
	if err != nil {
		return err
	}
	// All chart options go into one object literal keyed by div id.
	var opt bytes.Buffer
	opt.WriteString("{")
	first := true
	for _, s := range specs {
		if s.Skipped {
			continue
		}
		if !first {
			opt.WriteString(",\n")
		}
		first = false
		fmt.Fprintf(&opt, "%q:%s", s.ID, s.Option)
	}
	opt.WriteString("}")

	title := ev.Name
	if strings.TrimSpace(title) == "" {
		title = "Event report"
	}
	d := pageData{
		Title: title, Variant: ev.Variant, TimeControl: ev.TimeControl,
		Stats: st, Charts: specs,
		Options:  template.JS(opt.String()),
		Notice:   strings.TrimSpace(echartsNotice),
		HasUnfin: st.Unfinished > 0,
		HasSB:    len(st.Engines) > 2,
	}
	for _, e := range st.Engines {
		if e.Penta.Pairs() > 0 {
			d.HasPairs = true
		}
	}
	d.Summary = []summaryItem{
		{"Games", fmt.Sprintf("%d", st.Finished)},
		{"Points per game", fmtPoints(st.Scoring.PerGame())},
		{"Engines", fmt.Sprintf("%d", len(st.Engines))},
		{"White score", fmt.Sprintf("%.1f%%", st.White.Score()*100)},
		{"Draws", fmt.Sprintf("%.1f%%", st.White.DrawRatio()*100)},
		{"Average length", fmt.Sprintf("%.0f plies", cd.avgPlies)},
	}
	if st.Unfinished > 0 {
		d.Summary = append(d.Summary, summaryItem{"Unfinished", fmt.Sprintf("%d", st.Unfinished)})
	}
	if w := workersLine(ev); w != "" {
		d.Summary = append(d.Summary, summaryItem{"Workers", w})
	}
	d.Cross = crossCells(st)
	d.Scoring = st.Scoring
	d.Details = detailsOf(ev, st.Scoring)
	names, _, _ := engineIndex(ev)
	d.Participants = participants(ev, names)
	d.Rows, d.HeadlineKind = engineRows(st)
	d.MatchLines = matchLines(st, names)
	var unmeasured []string
	for _, e := range st.Engines {
		l := e.Latency
		if l == nil {
			// An engine that played nothing has no moves to measure.
			if e.WDL.Games()+e.Unfinished > 0 {
				unmeasured = append(unmeasured, e.Name)
			}
			continue
		}
		d.Latency = append(d.Latency, latencyRow{Name: e.Name, Moves: l.Moves, Games: l.Games, HighGames: l.HighGames, MaxGame: l.MaxGame,
			Total: fmtMicros(l.TotalUS), Mean: fmtMicros(l.MeanUS), Max: fmtMicros(l.MaxUS), High: l.High})
	}
	if len(d.Latency) > 0 {
		d.LatencyNote = latencyNote(ev.TimeControl)
		d.Unmeasured = strings.Join(unmeasured, ", ")
		d.UnmeasuredWhy = "Their moves came without a search time (a DXP engine reports none, or whole seconds), so their thinking and the machine's share of the clock cannot be told apart."
		if len(unmeasured) == 1 {
			d.UnmeasuredWhy = "Its moves came without a search time (a DXP engine reports none, or whole seconds), so its thinking and the machine's share of the clock cannot be told apart."
		}
	}
	gv, records, err := buildGamesView(ev, names)
	if err != nil {
		return err
	}
	// The records' JSON is made only for where it goes: its size is at
	// least the records' and their quotes'.
	size := 2
	for _, r := range records {
		size += len(r) + 3
	}
	var recs []byte
	embed := size <= maxEmbeddedRecords
	if embed {
		if recs, err = recordsJSON(records); err != nil {
			return fmt.Errorf("render report.html: records: %w", err)
		}
		embed = len(recs) <= maxEmbeddedRecords
	}
	switch {
	case embed:
		d.RecordsJSON = template.JS(recs)
	case sidecar != nil:
		var files [][]byte
		for n := 0; n*recordsPerFile < len(records); n++ {
			part, err := recordsJSON(records[n*recordsPerFile : min(len(records), (n+1)*recordsPerFile)])
			if err != nil {
				return fmt.Errorf("render report.html: records: %w", err)
			}
			head := fmt.Sprintf("(window.arbiterRecords = window.arbiterRecords || {})[%d] = ", n)
			files = append(files, append(append([]byte(head), part...), ";\n"...))
		}
		if err := sidecar(files); err != nil {
			return err
		}
		gv.Sidecar, gv.Chunk = true, recordsPerFile
	default:
		for _, g := range gv.Games {
			g[8] = 0 // not embedded, no sidecar: no replay
		}
	}
	gj, err := json.Marshal(gv)
	if err != nil {
		return fmt.Errorf("render report.html: games: %w", err)
	}
	d.GamesJSON = template.JS(gj)
	d.HasGames = len(gv.Games) > 0
	if st.SPRT != nil {
		d.SPRT = newSPRTView(*st.SPRT)
	}
	page := pageTemplates()
	if err := page[0].Execute(w, d); err != nil {
		return fmt.Errorf("render report.html: %w", err)
	}
	// Three writes, not one of a concatenation: that would copy the
	// megabyte of the library into a new string first.
	for _, part := range []string{"<script>\n", echartsJS, "\n</script>\n"} {
		if _, err := io.WriteString(w, part); err != nil {
			return fmt.Errorf("render report.html: %w", err)
		}
	}
	if err := page[1].Execute(w, d); err != nil {
		return fmt.Errorf("render report.html: %w", err)
	}
	return nil
}

// crossCells formats the crosstable: points/games, tinted by score.
func crossCells(st *Stats) [][]crossCell {
	ct := st.Crosstable
	rows := make([][]crossCell, len(ct.Engines))
	for i := range ct.Engines {
		rows[i] = make([]crossCell, len(ct.Engines))
		for j := range ct.Engines {
			c := &rows[i][j]
			if i == j {
				c.Self = true
				continue
			}
			r := ct.Cells[i][j]
			if r.Games() == 0 {
				c.Empty = true
				continue
			}
			c.Text = st.Scoring.Format(r.Points()) + "/" + fmtPoints(st.Scoring.Points(float64(r.Games())))
			c.Title = fmt.Sprintf("%s vs %s: +%d =%d -%d", ct.Engines[i], ct.Engines[j], r.W, r.D, r.L)
			// Tint from red (0%) through white (50%) to green (100%).
			s := r.Score()
			alpha := math.Abs(s-0.5) * 1.2
			col := "89,161,79"
			if s < 0.5 {
				col = "225,87,89"
			}
			c.Style = template.CSS(fmt.Sprintf("background-color: rgba(%s,%.2f)", col, alpha))
		}
	}
	return rows
}

func newSPRTView(r stats.SPRTResult) *sprtView {
	v := &sprtView{SPRTResult: r, Model: string(r.Config.Model), Form: "pentanomial"}
	if v.Model == "" {
		v.Model = string(stats.Normalized)
	}
	if r.Config.Trinomial {
		v.Form = "trinomial"
	}
	v.Position = math.Max(0, math.Min(100, (r.LLR-r.Lower)/(r.Upper-r.Lower)*100))
	switch {
	case r.Failure != "":
		v.Verdict, v.Class, v.Position = "LLR not computed", "bad", 50
	case r.Decision == stats.AcceptH1:
		v.Verdict, v.Class = "H1 accepted", "good"
	case r.Decision == stats.AcceptH0:
		v.Verdict, v.Class = "H0 accepted", "bad"
	default:
		v.Verdict, v.Class = "continue", "neutral"
	}
	return v
}

// fmtInterval prints a 95% interval; an end that does not exist (a 0% or
// 100% score) is open: −∞ or +∞.
func fmtInterval(lo, hi float64) string {
	l, h := "−∞", "+∞"
	if !math.IsNaN(lo) && !math.IsInf(lo, 0) {
		l = fmtSigned(lo)
	}
	if !math.IsNaN(hi) && !math.IsInf(hi, 0) {
		h = fmtSigned(hi)
	}
	return "[" + l + ", " + h + "]"
}

// fmtEstimate prints an estimate made from games (or their pairs) with its
// interval: "+35.2 [−10.1, +80.5]", an end that does not exist as ∞; where
// the figure or the whole interval does not exist, why: "+∞ (every game
// won)", "+0.0 (too few games)".
func fmtEstimate(e stats.Estimate, games int) string {
	fig, pm := eloText(e, games)
	switch {
	case games == 0:
		return fig
	case math.IsNaN(e.Elo), math.IsNaN(e.Lower) && math.IsNaN(e.Upper):
		return fig + " (" + pm + ")"
	}
	return fig + " " + fmtInterval(e.Lower, e.Upper)
}

// engineRows builds the standings lines: the headline is the joint Rating,
// or Elo against the field when the joint fit could not be made.
func engineRows(st *Stats) ([]engineRow, string) {
	kind := "Rating"
	if st.RatingFailure != "" {
		kind = "Elo against the field"
	}
	rows := make([]engineRow, len(st.Engines))
	for i, e := range st.Engines {
		r := engineRow{EngineStats: e, FedPoints: st.Scoring.Format(e.Points), Elo: fmtEstimate(e.Elo, e.WDL.Games())}
		if e.Penta.Pairs() > 0 {
			r.PairElo = fmtEstimate(e.PentaElo, 2*e.Penta.Pairs())
		}
		r.RatingTxt = "n/a"
		if !math.IsNaN(e.Rating.Elo) {
			r.RatingTxt = fmtSigned(e.Rating.Elo) + " ± " + fmtElo(e.Rating.Error)
		}
		switch {
		case e.WDL.Games() == 0:
			r.Headline, r.Interval = "n/a", ""
		case kind == "Rating" && !math.IsNaN(e.Rating.Elo):
			r.Headline = fmtSigned(e.Rating.Elo)
			r.Interval = fmtInterval(e.Rating.Elo-e.Rating.Error, e.Rating.Elo+e.Rating.Error)
		default:
			r.Headline = fmtSigned(e.Elo.Elo)
			if math.IsNaN(e.Elo.Elo) {
				r.Headline = map[bool]string{true: "+∞", false: "−∞"}[e.Score > 0.5]
			}
			r.Interval = fmtInterval(e.Elo.Lower, e.Elo.Upper)
		}
		rows[i] = r
	}
	return rows, kind
}

// matchLines is cutechess's summary of a two-engine event, from the first
// engine's side (the engine under test in a match):
//
//	Score of A vs B: 12 - 8 - 10  [0.567] 30
//	Elo difference: 46.6 +/- 98.3, LOS: 81.9 %, DrawRatio: 33.3 %
//	Ptnml(0-2): [1, 2, 6, 4, 2]
//
// The Elo is from the pairs when there are any (as fastchess), the LOS
// from wins and losses (as cutechess).
func matchLines(st *Stats, seeding []string) []string {
	if len(seeding) != 2 || len(st.Encounters) != 1 {
		return nil
	}
	enc := st.Encounters[0]
	w, p := enc.WDL, enc.Penta
	if enc.A != seeding[0] {
		w, p = w.Flip(), p.Flip()
	}
	n := w.Games()
	if n == 0 {
		return nil
	}
	e := stats.EloWDL(w)
	if p.Pairs() > 0 {
		e = stats.EloPenta(p)
	}
	elo := fmtElo(e.Elo)
	if fig, _ := eloText(e, n); math.IsNaN(e.Elo) {
		elo = fig // ±∞: every game won or lost
	}
	lines := []string{
		fmt.Sprintf("Score of %s vs %s: %d - %d - %d  [%.3f] %d", seeding[0], seeding[1], w.W, w.L, w.D, w.Score(), n),
		fmt.Sprintf("Elo difference: %s +/- %s, LOS: %.1f %%, DrawRatio: %.1f %%", elo, fmtElo(e.Error),
			stats.LOSWinLoss(w)*100, w.DrawRatio()*100),
	}
	// The console's summary says the same sentence under its Elo line.
	if words := EloWords(seeding[0], e, w, p.Pairs()); words != "" {
		lines = append(lines, words)
	}
	if p.Pairs() > 0 {
		lines = append(lines, fmt.Sprintf("Ptnml(0-2): [%d, %d, %d, %d, %d]", p[0], p[1], p[2], p[3], p[4]))
	}
	return lines
}

// workersLine counts the games of each cluster worker ("" when no game
// names one): "box-1 480, box-2 480" (results.json names each game's).
func workersLine(ev Event) string {
	n := map[string]int{}
	for _, g := range ev.Games {
		if g.Worker != "" {
			n[g.Worker]++
		}
	}
	if len(n) == 0 {
		return ""
	}
	names := make([]string, 0, len(n))
	for w := range n {
		names = append(names, w)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, w := range names {
		parts[i] = fmt.Sprintf("%s %d", w, n[w])
	}
	return strings.Join(parts, ", ")
}
