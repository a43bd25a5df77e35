package reports

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

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

var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":    func(x float64) string { return fmt.Sprintf("%.1f%%", x*100) },
	"points": fmtPoints,
	"elo":    fmtElo,
	"signed": func(x float64) string {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "n/a"
		}
		return fmt.Sprintf("%+.1f", x)
	},
	"los": func(x float64) string {
		if math.IsNaN(x) {
			return "n/a"
		}
		return fmt.Sprintf("%.1f%%", x*100)
	},
	"inc": func(i int) int { return i + 1 },
	"num": func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) },
}).Parse(reportTemplate))

// pageData feeds report.html.tmpl.
type pageData struct {
	Title       string
	Variant     string
	TimeControl string
	Summary     []summaryItem
	Stats       *Stats
	HasPairs    bool
	HasUnfin    bool
	Cross       [][]crossCell
	SPRT        *sprtView
	Charts      []chartSpec
	Options     template.JS
	EchartsJS   template.JS
	Notice      string
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

// writeHTML renders the report page.
func writeHTML(w io.Writer, ev Event, st *Stats) error {
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
		Options:   template.JS(opt.String()),
		EchartsJS: template.JS(echartsJS),
		Notice:    strings.TrimSpace(echartsNotice),
		HasUnfin:  st.Unfinished > 0,
	}
	for _, e := range st.Engines {
		if e.Penta.Pairs() > 0 {
			d.HasPairs = true
		}
	}
	d.Summary = []summaryItem{
		{"Games", fmt.Sprintf("%d", st.Finished)},
		{"Engines", fmt.Sprintf("%d", len(st.Engines))},
		{"White score", fmt.Sprintf("%.1f%%", st.White.Score()*100)},
		{"Draws", fmt.Sprintf("%.1f%%", st.White.DrawRatio()*100)},
		{"Average length", fmt.Sprintf("%.0f plies", cd.avgPlies)},
	}
	if st.Unfinished > 0 {
		d.Summary = append(d.Summary, summaryItem{"Unfinished", fmt.Sprintf("%d", st.Unfinished)})
	}
	d.Cross = crossCells(st)
	if st.SPRT != nil {
		d.SPRT = newSPRTView(*st.SPRT)
	}
	if err := pageTemplate.Execute(w, d); err != nil {
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
			c.Text = fmtPoints(r.Points()) + "/" + fmt.Sprint(r.Games())
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
