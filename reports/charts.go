package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"regexp"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// palette gives every engine the same colour in every chart (Tableau 10).
var palette = opts.Colors{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

// Colours of results, used consistently across charts and tables.
const (
	colWin       = "#59a14f"
	colDraw      = "#bab0ac"
	colLoss      = "#e15759"
	colWinDark   = "#3b7a35"
	colDrawDark  = "#8a817c"
	colLossDark  = "#a8343d"
	colErrorBars = "#4e79a7"
)

// chartSpec is one chart of the page: a div id, a heading and the echarts
// option built with go-echarts.
type chartSpec struct {
	ID      string
	Title   string
	Note    string // one sentence under the heading
	Height  int    // pixels
	Option  template.JS
	chart   echartsChart
	Skipped bool // no data: the card says so instead of drawing an empty chart
}

// echartsChart is what every go-echarts chart offers; we only need its
// option JSON, not go-echarts's page rendering (which would load echarts
// from a CDN).
type echartsChart interface {
	Validate()
	JSONNotEscaped() template.HTML
}

// funcMarkers are the quotes go-echarts puts around JavaScript functions.
var funcMarkers = regexp.MustCompile(`(__f__")|("__f__)|(__f__)`)

// optionJS turns a go-echarts chart into an option literal that is safe
// inside a <script> element: go-echarts writes JSON without HTML escaping,
// so an engine called "</script>" would otherwise end the script early.
func optionJS(c echartsChart) (template.JS, error) {
	c.Validate()
	raw := funcMarkers.ReplaceAll([]byte(c.JSONNotEscaped()), nil)
	var buf bytes.Buffer
	json.HTMLEscape(&buf, bytes.TrimSpace(raw))
	if !json.Valid(buf.Bytes()) {
		return "", fmt.Errorf("chart option is not valid JSON")
	}
	return template.JS(buf.String()), nil
}

// baseOpts are the options every chart shares.
// defaultGrid leaves room for a one-line legend above the plot.
var defaultGrid = opts.Grid{Left: "3%", Right: "4%", Bottom: "30", Top: "56", ContainLabel: opts.Bool(true)}

// baseOpts are the options every chart shares, with its grid (go-echarts
// adds a second grid for a second WithGridOpts instead of replacing the
// first, and the axes stay on the first, so each chart passes its own).
func baseOpts(id string, grid opts.Grid) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{
			ChartID:    id,
			Width:      "100%",
			AssetsHost: "./", // never used (we inline echarts), but never a CDN either
		}),
		charts.WithColorsOpts(palette),
		charts.WithAnimation(false),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "2", Type: "scroll"}),
		charts.WithGridOpts(grid),
	}
}

// buildCharts makes every chart of the report.
func buildCharts(st *Stats, cd *chartData) ([]chartSpec, error) {
	specs := []chartSpec{
		standingsChart(st),
		progressChart(cd),
		colourChart(st),
		terminationChart(st),
		lengthChart(cd),
		timeByMoveChart(cd),
		timeSpreadChart(cd),
	}
	for i := range specs {
		if specs[i].Skipped {
			continue
		}
		js, err := optionJS(specs[i].chart)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", specs[i].ID, err)
		}
		specs[i].Option = js
	}
	return specs, nil
}

// fmtElo prints an Elo figure with sign, or "n/a" when undefined.
func fmtElo(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

func standingsChart(st *Stats) chartSpec {
	spec := chartSpec{ID: "chart-standings", Title: "Elo performance",
		Note: "Elo against the field with its 95% interval (whiskers). Open-ended intervals are drawn to the edge.", Height: 380}
	var names []string
	var boxes []opts.BoxPlotData
	var dots []opts.ScatterData
	// Undefined ends (0% or 100% scores) are drawn at a cap a little beyond
	// the largest finite figure.
	limit := 100.0
	for _, e := range st.Engines {
		for _, v := range []float64{e.Elo.Elo, e.Elo.Lower, e.Elo.Upper} {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				limit = math.Max(limit, math.Abs(v)*1.1)
			}
		}
	}
	clamp := func(v, fallback float64) float64 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fallback
		}
		return math.Round(v*10) / 10
	}
	for _, e := range st.Engines {
		if e.WDL.Games() == 0 {
			continue
		}
		fallback := limit
		if e.Score < 0.5 {
			fallback = -limit
		}
		elo := clamp(e.Elo.Elo, fallback)
		lo := clamp(e.Elo.Lower, -limit)
		hi := clamp(e.Elo.Upper, limit)
		label := fmt.Sprintf("%s: %s ± %s (95%%: %s … %s), %s/%d, LOS %.1f%%", e.Name, fmtElo(e.Elo.Elo),
			fmtElo(e.Elo.Error), fmtElo(e.Elo.Lower), fmtElo(e.Elo.Upper), fmtPoints(e.Points), e.WDL.Games(), e.LOS*100)
		names = append(names, e.Name)
		boxes = append(boxes, opts.BoxPlotData{Name: label, Value: []float64{lo, lo + (elo-lo)*0.999, elo, elo + (hi-elo)*0.001, hi}})
		dots = append(dots, opts.ScatterData{Name: label, Value: elo, SymbolSize: 12})
	}
	if len(names) == 0 {
		spec.Skipped = true
		return spec
	}
	box := charts.NewBoxPlot()
	box.SetGlobalOptions(baseOpts(spec.ID, defaultGrid)...)
	box.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: "{b}"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", AxisLabel: &opts.AxisLabel{Interval: "0", Rotate: rotation(len(names))}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "Elo", Scale: opts.Bool(true)}),
	)
	box.SetXAxis(names).AddSeries("95% interval", boxes,
		charts.WithItemStyleOpts(opts.ItemStyle{Color: "rgba(0,0,0,0)", BorderColor: colErrorBars, BorderWidth: 2}),
		charts.WithBarChartOpts(opts.BarChart{BarWidth: "18%"}))
	sc := charts.NewScatter()
	sc.AddSeries("Elo", dots, charts.WithItemStyleOpts(opts.ItemStyle{Color: colLoss}),
		charts.WithMarkLineNameYAxisItemOpts(opts.MarkLineNameYAxisItem{Name: "0", YAxis: 0}),
		charts.WithMarkLineStyleOpts(opts.MarkLineStyle{Symbol: []string{"none", "none"},
			LineStyle: &opts.LineStyle{Color: "#999", Type: "dashed"}}))
	box.Overlap(sc)
	spec.chart = box
	return spec
}

// engineColour pins an engine's colour to its standings position, so that
// skipping an engine without data does not recolour the others.
func engineColour(i int) charts.SeriesOpts {
	c := palette[i%len(palette)]
	return func(s *charts.SingleSeries) {
		charts.WithItemStyleOpts(opts.ItemStyle{Color: c})(s)
		charts.WithLineStyleOpts(opts.LineStyle{Color: c})(s)
	}
}

// rotation tilts axis labels when there are many categories.
func rotation(n int) float64 {
	if n > 6 {
		return 30
	}
	return 0
}

func progressChart(cd *chartData) chartSpec {
	spec := chartSpec{ID: "chart-progress", Title: "Score over the event",
		Note: "Cumulative points of each engine against the number of games finished.", Height: 380}
	if len(cd.progressX) == 0 {
		spec.Skipped = true
		return spec
	}
	line := charts.NewLine()
	line.SetGlobalOptions(baseOpts(spec.ID, defaultGrid)...)
	line.SetGlobalOptions(
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "games", NameLocation: "middle", NameGap: 28, Min: 0, Max: cd.progressX[len(cd.progressX)-1]}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "points"}),
		charts.WithDataZoomOpts(opts.DataZoom{Type: "inside", XAxisIndex: []int{0}}),
	)
	for e, name := range cd.engines {
		data := make([]opts.LineData, len(cd.progressX))
		for k, x := range cd.progressX {
			data[k] = opts.LineData{Value: []float64{float64(x), cd.progress[e][k]}}
		}
		line.AddSeries(name, data, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}),
			engineColour(e))
	}
	spec.chart = line
	return spec
}

func colourChart(st *Stats) chartSpec {
	spec := chartSpec{ID: "chart-colour", Title: "Results by colour",
		Note: fmt.Sprintf("Wins, draws and losses of each engine with White (left bar) and Black (right bar). Overall White scored %.1f%%.",
			st.White.Score()*100), Height: 360}
	var names []string
	var ww, wd, wl, bw, bd, bl []opts.BarData
	for _, e := range st.Engines {
		if e.WDL.Games() == 0 {
			continue
		}
		names = append(names, e.Name)
		ww = append(ww, opts.BarData{Value: e.AsWhite.W})
		wd = append(wd, opts.BarData{Value: e.AsWhite.D})
		wl = append(wl, opts.BarData{Value: e.AsWhite.L})
		bw = append(bw, opts.BarData{Value: e.AsBlack.W})
		bd = append(bd, opts.BarData{Value: e.AsBlack.D})
		bl = append(bl, opts.BarData{Value: e.AsBlack.L})
	}
	if len(names) == 0 {
		spec.Skipped = true
		return spec
	}
	bar := charts.NewBar()
	// Six legend entries wrap to two lines: the plot starts lower.
	bar.SetGlobalOptions(baseOpts(spec.ID, opts.Grid{Left: "3%", Right: "4%", Bottom: "10", Top: "84", ContainLabel: opts.Bool(true)})...)
	bar.SetGlobalOptions(
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "2", Type: "plain"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", AxisLabel: &opts.AxisLabel{Interval: "0", Rotate: rotation(len(names))}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "games"}),
	)
	bar.SetXAxis(names)
	add := func(name, stack, colour string, d []opts.BarData) {
		bar.AddSeries(name, d, charts.WithBarChartOpts(opts.BarChart{Stack: stack}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: colour}))
	}
	add("wins as White", "white", colWin, ww)
	add("draws as White", "white", colDraw, wd)
	add("losses as White", "white", colLoss, wl)
	add("wins as Black", "black", colWinDark, bw)
	add("draws as Black", "black", colDrawDark, bd)
	add("losses as Black", "black", colLossDark, bl)
	spec.chart = bar
	return spec
}

func terminationChart(st *Stats) chartSpec {
	spec := chartSpec{ID: "chart-termination", Title: "How games ended",
		Note: "Results by termination, from White's side.", Height: 120 + 34*len(st.Terminations)}
	if len(st.Terminations) == 0 {
		spec.Skipped = true
		spec.Height = 200
		return spec
	}
	var names []string
	var w, d, l []opts.BarData
	// Reverse so the most frequent termination is on top.
	for i := len(st.Terminations) - 1; i >= 0; i-- {
		t := st.Terminations[i]
		names = append(names, t.Termination)
		w = append(w, opts.BarData{Value: t.White.W})
		d = append(d, opts.BarData{Value: t.White.D})
		l = append(l, opts.BarData{Value: t.White.L})
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(baseOpts(spec.ID, defaultGrid)...)
	bar.SetGlobalOptions(
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "games", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category"}),
	)
	bar.SetXAxis(names)
	bar.AddSeries("White won", w, charts.WithBarChartOpts(opts.BarChart{Stack: "all"}), charts.WithItemStyleOpts(opts.ItemStyle{Color: colWin}))
	bar.AddSeries("draw", d, charts.WithBarChartOpts(opts.BarChart{Stack: "all"}), charts.WithItemStyleOpts(opts.ItemStyle{Color: colDraw}))
	bar.AddSeries("Black won", l, charts.WithBarChartOpts(opts.BarChart{Stack: "all"}), charts.WithItemStyleOpts(opts.ItemStyle{Color: colLoss}))
	bar.XYReversal()
	spec.chart = bar
	return spec
}

func lengthChart(cd *chartData) chartSpec {
	spec := chartSpec{ID: "chart-length", Title: "Game length",
		Note: fmt.Sprintf("Number of games by length in plies (half-moves); average %.1f plies.", cd.avgPlies), Height: 340}
	if len(cd.lengthCounts) == 0 {
		spec.Skipped = true
		return spec
	}
	labels := make([]string, len(cd.lengthCounts))
	data := make([]opts.BarData, len(cd.lengthCounts))
	for i, c := range cd.lengthCounts {
		lo := cd.lengthMin + i*cd.lengthBin
		if cd.lengthBin == 1 {
			labels[i] = strconv.Itoa(lo)
		} else {
			labels[i] = fmt.Sprintf("%d–%d", lo, lo+cd.lengthBin-1)
		}
		data[i] = opts.BarData{Value: c}
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(baseOpts(spec.ID, defaultGrid)...)
	bar.SetGlobalOptions(
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: "plies", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "games"}),
	)
	bar.SetXAxis(labels).AddSeries("games", data,
		charts.WithBarChartOpts(opts.BarChart{BarCategoryGap: "8%"}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: "#4e79a7"}))
	spec.chart = bar
	return spec
}

func timeByMoveChart(cd *chartData) chartSpec {
	spec := chartSpec{ID: "chart-time-move", Title: "Time per move",
		Note: fmt.Sprintf("Average thinking time (seconds) by move number, up to move %d.", maxMoveNumber), Height: 360}
	if cd.maxMove == 0 {
		spec.Skipped = true
		return spec
	}
	xs := make([]string, cd.maxMove)
	for i := range xs {
		xs[i] = strconv.Itoa(i + 1)
	}
	line := charts.NewLine()
	line.SetGlobalOptions(baseOpts(spec.ID, defaultGrid)...)
	line.SetGlobalOptions(
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: "move", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "seconds"}),
		charts.WithDataZoomOpts(opts.DataZoom{Type: "inside", XAxisIndex: []int{0}}),
	)
	line.SetXAxis(xs)
	for e, name := range cd.engines {
		if cd.timeMoves[e] == 0 {
			continue
		}
		data := make([]opts.LineData, cd.maxMove)
		for m := range data {
			if m < len(cd.timeCount[e]) && cd.timeCount[e][m] > 0 {
				data[m] = opts.LineData{Value: round4(cd.timeSum[e][m] / float64(cd.timeCount[e][m]))}
			} else {
				data[m] = opts.LineData{Value: "-"} // echarts: no data here
			}
		}
		line.AddSeries(name, data, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), ConnectNulls: opts.Bool(true)}),
			engineColour(e))
	}
	spec.chart = line
	return spec
}

func timeSpreadChart(cd *chartData) chartSpec {
	spec := chartSpec{ID: "chart-time-spread", Title: "Thinking time per engine",
		Note: "Distribution of the time per move (seconds): box = quartiles, line = median, whiskers = 5th and 95th percentiles.", Height: 340}
	var names []string
	var boxes []opts.BoxPlotData
	for e, name := range cd.engines {
		if cd.timeMoves[e] == 0 {
			continue
		}
		q := cd.timeQuant[e]
		names = append(names, name)
		boxes = append(boxes, opts.BoxPlotData{
			Name:  fmt.Sprintf("%s: median %.3fs, mean %.3fs over %d moves", name, q[2], cd.timeMean[e], cd.timeMoves[e]),
			Value: []float64{round4(q[0]), round4(q[1]), round4(q[2]), round4(q[3]), round4(q[4])},
		})
	}
	if len(names) == 0 {
		spec.Skipped = true
		return spec
	}
	box := charts.NewBoxPlot()
	box.SetGlobalOptions(baseOpts(spec.ID, defaultGrid)...)
	box.SetGlobalOptions(
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: "{b}"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", AxisLabel: &opts.AxisLabel{Interval: "0", Rotate: rotation(len(names))}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "seconds"}),
	)
	box.SetXAxis(names).AddSeries("time per move", boxes,
		charts.WithItemStyleOpts(opts.ItemStyle{Color: "#dbe7f3", BorderColor: colErrorBars, BorderWidth: 1.5}))
	spec.chart = box
	return spec
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// fmtPoints prints points with a ½ sign: 7½, 12, ½.
func fmtPoints(p float64) string {
	whole := math.Floor(p)
	half := p-whole >= 0.5
	switch {
	case half && whole == 0:
		return "½"
	case half:
		return strconv.FormatFloat(whole, 'f', 0, 64) + "½"
	}
	return strconv.FormatFloat(whole, 'f', 0, 64)
}
