package reports

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"regexp"
	"slices"
	"strconv"

	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/draughts-arbiter/arbiter/reports/stats"
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
		eloProgressChart(cd),
		colourChart(st),
		terminationChart(st),
		lengthChart(cd),
		timeByMoveChart(cd),
		timeSpreadChart(cd),
		openingChart(cd),
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

// fmtElo prints an Elo figure to a tenth, or "n/a" when undefined.
func fmtElo(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	return strconv.FormatFloat(EloShown(x), 'f', 1, 64)
}

// EloShown is an Elo figure as the report and the console print it, to a
// tenth: one that rounds to zero is zero, never -0.0 (an even match's Elo
// is computed as -0).
func EloShown(x float64) float64 {
	if math.Abs(x) < 0.05 {
		return 0
	}
	return x
}

func standingsChart(st *Stats) chartSpec {
	spec := chartSpec{ID: "chart-standings", Title: "Elo against the field",
		Note: "Each engine's Elo against its field (dot) with its 95% interval (bar). An end that does not exist (a 0% or 100% score) is drawn as an arrow to the chart's edge: the interval is open there.", Height: 380}
	var names, labels []string
	var marks []intervalMark
	var ests []stats.Estimate
	for _, e := range st.Engines {
		if e.WDL.Games() > 0 {
			ests = append(ests, e.Elo)
		}
	}
	limit := axisLimit(ests)
	for _, e := range st.Engines {
		if e.WDL.Games() == 0 {
			continue
		}
		m := markInterval(e.Elo, e.Score, limit)
		names = append(names, e.Name)
		marks = append(marks, m)
		labels = append(labels, eloLabel(e, m, st.Scoring))
	}
	if len(names) == 0 {
		spec.Skipped = true
		return spec
	}
	spec.chart = rawChart{eloIntervalOption(names, marks, labels, limit)}
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

// timeUnit chooses the unit of the time charts from the largest time
// shown: milliseconds when it is under a second (fast games would show
// "0.000 s" otherwise), seconds above. scale converts seconds into it.
func timeUnit(maxSeconds float64) (unit string, scale float64) {
	if maxSeconds < 1 {
		return "ms", 1000
	}
	return "s", 1
}

// maxTime is the largest time the time charts show (the 95th percentile
// of the engine that thinks longest).
func (cd *chartData) maxTime() float64 {
	m := 0.0
	for e := range cd.timeQuant {
		m = math.Max(m, cd.timeQuant[e][4])
	}
	return m
}

// roundSig rounds to 4 significant digits (times in ms or s alike).
func roundSig(x float64) float64 {
	if x == 0 || !finite(x) {
		return x
	}
	p := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

func timeByMoveChart(cd *chartData) chartSpec {
	unit, scale := timeUnit(cd.maxTime())
	spec := chartSpec{ID: "chart-time-move", Title: "Time per move",
		Note: fmt.Sprintf("Average thinking time (%s) by move number, up to move %d.", unitName(unit), maxMoveNumber), Height: 360}
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
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: unit}),
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
				data[m] = opts.LineData{Value: roundSig(cd.timeSum[e][m] / float64(cd.timeCount[e][m]) * scale)}
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
	unit, scale := timeUnit(cd.maxTime())
	spec := chartSpec{ID: "chart-time-spread", Title: "Thinking time per engine",
		Note: fmt.Sprintf("Distribution of the time per move (%s): box = quartiles, line = median, whiskers = 5th and 95th percentiles.", unitName(unit)), Height: 340}
	var names []string
	var boxes []opts.BoxPlotData
	for e, name := range cd.engines {
		if cd.timeMoves[e] == 0 {
			continue
		}
		q := cd.timeQuant[e]
		names = append(names, name)
		boxes = append(boxes, opts.BoxPlotData{
			Name:  fmt.Sprintf("%s: median %s, mean %s over %d moves", name, fmtSeconds(q[2]), fmtSeconds(cd.timeMean[e]), cd.timeMoves[e]),
			Value: []float64{roundSig(q[0] * scale), roundSig(q[1] * scale), roundSig(q[2] * scale), roundSig(q[3] * scale), roundSig(q[4] * scale)},
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
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: unit}),
	)
	box.SetXAxis(names).AddSeries("time per move", boxes,
		charts.WithItemStyleOpts(opts.ItemStyle{Color: "#dbe7f3", BorderColor: colErrorBars, BorderWidth: 1.5}))
	spec.chart = box
	return spec
}

// unitName spells a time unit out for the notes.
func unitName(unit string) string {
	if unit == "ms" {
		return "milliseconds"
	}
	return "seconds"
}

// fmtPoints prints points with a ½ sign: 7½, 12, ½.
func fmtPoints(p float64) string { return tally.FormatUnits(int(math.Floor(2*p)), true) }

func openingChart(cd *chartData) chartSpec {
	ops := cd.openings
	shown := len(ops)
	note := "Results of the games from each opening, from White's side; the tooltip counts the pairs decided by colour (both games won by the same colour, whichever engine had it)."
	if shown > maxOpenings {
		shown = maxOpenings
		note += fmt.Sprintf(" The %d most played of %d openings.", maxOpenings, len(ops))
	}
	spec := chartSpec{ID: "chart-openings", Title: "Results per opening", Note: note, Height: 110 + 22*shown}
	if len(ops) < 2 {
		// One opening (the start position) says nothing per opening.
		spec.Skipped = true
		spec.Height = 200
		return spec
	}
	ops = ops[:shown]
	var names []string
	var w, d, l []opts.BarData
	// Sorted by White's score so that the openings favouring a side are at
	// the ends; reversed so the best for White is on top.
	sorted := slices.Clone(ops)
	slices.SortStableFunc(sorted, func(a, b openingStats) int { return cmp.Compare(a.White.Score(), b.White.Score()) })
	for _, o := range sorted {
		names = append(names, o.Name)
		tip := fmt.Sprintf("%s: White +%d =%d -%d (%.0f%%)", o.Name, o.White.W, o.White.D, o.White.L, o.White.Score()*100)
		if o.Pairs > 0 {
			tip += fmt.Sprintf(", %d of %d pairs decided by colour", o.ColourPairs, o.Pairs)
		}
		w = append(w, opts.BarData{Name: tip, Value: o.White.W})
		d = append(d, opts.BarData{Name: tip, Value: o.White.D})
		l = append(l, opts.BarData{Name: tip, Value: o.White.L})
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(baseOpts(spec.ID, defaultGrid)...)
	bar.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: "{b}"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "games", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", AxisLabel: &opts.AxisLabel{Interval: "0", Width: 140, Overflow: "truncate"}}),
	)
	bar.SetXAxis(names)
	bar.AddSeries("White won", w, charts.WithBarChartOpts(opts.BarChart{Stack: "all"}), charts.WithItemStyleOpts(opts.ItemStyle{Color: colWin}))
	bar.AddSeries("draw", d, charts.WithBarChartOpts(opts.BarChart{Stack: "all"}), charts.WithItemStyleOpts(opts.ItemStyle{Color: colDraw}))
	bar.AddSeries("Black won", l, charts.WithBarChartOpts(opts.BarChart{Stack: "all"}), charts.WithItemStyleOpts(opts.ItemStyle{Color: colLoss}))
	bar.XYReversal()
	spec.chart = bar
	return spec
}

// with is o with the keys of common added.
func with(common, o map[string]any) map[string]any {
	for k, v := range common {
		o[k] = v
	}
	return o
}

// eloProgressChart draws each engine's Elo against its field as the event
// went on, with its 95% interval as a band. Where the interval has no end
// (all games won or lost so far) the band is not drawn rather than drawn
// at an invented value; the line starts where the Elo exists.
func eloProgressChart(cd *chartData) chartSpec {
	spec := chartSpec{ID: "chart-elo-progress", Title: "Elo over the event",
		Note: "Each engine's Elo against its field after each number of games, with its 95% interval as a band (left out while an end of it does not exist).", Height: 380}
	if len(cd.progressX) < 2 {
		spec.Skipped = true
		return spec
	}
	type obj = map[string]any
	var series []any
	names := []string{}
	for e, name := range cd.engines {
		c := palette[e%len(palette)]
		line, lower, band := make([]any, len(cd.progressX)), make([]any, len(cd.progressX)), make([]any, len(cd.progressX))
		for k, x := range cd.progressX {
			est := cd.eloProgress[e][k]
			// The band's points are [Elo, games] (see stacked below).
			line[k], lower[k], band[k] = []any{x, "-"}, []any{"-", x}, []any{"-", x}
			if finite(est.Elo) {
				line[k] = []any{x, round1(est.Elo)}
			}
			if finite(est.Lower) && finite(est.Upper) {
				lower[k] = []any{round1(est.Lower), x}
				band[k] = []any{round1(est.Upper - est.Lower), x}
			}
		}
		names = append(names, name)
		stack := "band-" + strconv.Itoa(e)
		// echarts stacks a series' first dimension that is not a category:
		// with games on a value axis that was the games, and the band was
		// drawn from 0 to its width at twice the games. So the band's points
		// give the Elo first (encode maps them back), and "all" stacks the
		// width on the lower end whatever its sign (the default stacks a
		// positive value on positive ones only).
		stacked := obj{"stack": stack, "stackStrategy": "all", "encode": obj{"x": 1, "y": 0}}
		series = append(series,
			obj{"type": "line", "name": name, "data": line, "showSymbol": false, "lineStyle": obj{"color": c, "width": 2}, "itemStyle": obj{"color": c}, "z": 3},
			with(stacked, obj{"type": "line", "name": name, "data": lower, "showSymbol": false, "lineStyle": obj{"opacity": 0}, "silent": true, "tooltip": obj{"show": false}}),
			with(stacked, obj{"type": "line", "name": name, "data": band, "showSymbol": false, "lineStyle": obj{"opacity": 0},
				"areaStyle": obj{"color": c, "opacity": 0.15}, "silent": true, "tooltip": obj{"show": false}}),
		)
	}
	spec.chart = rawChart{obj{
		"animation": false,
		"color":     []string(palette),
		"legend":    obj{"show": true, "top": "2", "type": "scroll", "data": names},
		"grid":      obj{"left": "3%", "right": "4%", "bottom": "30", "top": "56", "containLabel": true},
		"tooltip":   obj{"show": true, "trigger": "axis"},
		"xAxis":     obj{"type": "value", "name": "games", "nameLocation": "middle", "nameGap": 28, "min": 0, "max": cd.progressX[len(cd.progressX)-1]},
		"yAxis":     obj{"type": "value", "name": "Elo", "scale": true},
		"dataZoom":  []any{obj{"type": "inside", "xAxisIndex": []int{0}}},
		"series":    series,
	}}
	return spec
}
