package reports

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// intervalMark is how one Elo estimate is drawn on a chart whose value axis
// runs from -Limit to +Limit: a segment from Lo to Hi with a flat cap at a
// closed end and an arrow at an open one (an end that does not exist: the
// interval of a 0% or 100% score is unbounded on that side), which reaches
// the chart's edge rather than stopping at an invented value. The point
// estimate is drawn at Point; when it does not exist itself (a 0% or 100%
// score) PointOpen is set and there is no dot, only the arrow.
type intervalMark struct {
	Lo, Hi           float64
	OpenLo, OpenHi   bool
	Point            float64
	PointOpen        bool
	LoShown, HiShown string // the ends as printed in the tooltip
}

// finite reports whether x is a real number.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// axisLimit is the half-range of the value axis: a little beyond the
// largest finite figure, at least 100 Elo, rounded up to a multiple of 50.
func axisLimit(es []stats.Estimate) float64 {
	m := 100.0
	for _, e := range es {
		for _, v := range []float64{e.Elo, e.Lower, e.Upper} {
			if finite(v) {
				m = math.Max(m, math.Abs(v)*1.1)
			}
		}
	}
	return math.Ceil(m/50) * 50
}

// markInterval applies the drawing rules to one estimate; score (0..1)
// says which side an undefined point estimate lies on.
func markInterval(e stats.Estimate, score, limit float64) intervalMark {
	m := intervalMark{Lo: e.Lower, Hi: e.Upper, Point: e.Elo, LoShown: fmtSigned(e.Lower), HiShown: fmtSigned(e.Upper)}
	if !finite(m.Lo) {
		m.Lo, m.OpenLo, m.LoShown = -limit, true, "−∞"
	}
	if !finite(m.Hi) {
		m.Hi, m.OpenHi, m.HiShown = limit, true, "+∞"
	}
	if !finite(m.Point) {
		m.PointOpen = true
		if score >= 0.5 {
			m.Point = limit
		} else {
			m.Point = -limit
		}
	}
	// A finite end beyond the axis (it cannot be with axisLimit, but a
	// caller may pass a smaller limit) is clipped and drawn open too: the
	// segment continues beyond the edge.
	if m.Lo < -limit {
		m.Lo, m.OpenLo = -limit, true
	}
	if m.Hi > limit {
		m.Hi, m.OpenHi = limit, true
	}
	m.Lo, m.Hi, m.Point = round1(m.Lo), round1(m.Hi), round1(m.Point)
	return m
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// rawChart is a chart whose echarts option is written by hand (go-echarts
// has no per-point symbols on a line).
type rawChart struct{ option any }

func (r rawChart) Validate() {}
func (r rawChart) JSONNotEscaped() template.HTML {
	b, err := json.Marshal(r.option)
	if err != nil {
		return template.HTML("{}")
	}
	return template.HTML(b)
}

// eloIntervalOption draws each engine's Elo against the field: a vertical
// segment per engine, capped where the interval ends, an arrow to the edge
// where it does not.
func eloIntervalOption(names []string, marks []intervalMark, labels []string, limit float64) any {
	type obj = map[string]any
	var series []any
	var dots []any
	for i, m := range marks {
		end := func(v float64, open bool, up bool) obj {
			p := obj{"value": []any{i, v}, "name": labels[i], "symbolSize": []int{16, 2}, "symbol": "rect"}
			if open {
				p["symbol"], p["symbolSize"] = "triangle", 12
				if !up {
					p["symbolRotate"] = 180
				}
			}
			return p
		}
		series = append(series, obj{
			"type": "line", "name": names[i], "z": 2, "showAllSymbol": true,
			"lineStyle": obj{"color": colErrorBars, "width": 2},
			"itemStyle": obj{"color": colErrorBars},
			"data":      []any{end(m.Lo, m.OpenLo, false), end(m.Hi, m.OpenHi, true)},
		})
		if !m.PointOpen {
			dots = append(dots, obj{"value": []any{i, m.Point}, "name": labels[i]})
		}
	}
	series = append(series, obj{
		"type": "scatter", "name": "Elo", "symbolSize": 12, "z": 3, "itemStyle": obj{"color": colLoss}, "data": dots,
		"markLine": obj{"silent": true, "symbol": []string{"none", "none"}, "lineStyle": obj{"color": "#999", "type": "dashed"},
			"data": []any{obj{"yAxis": 0}}, "label": obj{"show": false}},
	})
	rot := rotation(len(names))
	return obj{
		"animation": false,
		"grid":      obj{"left": "3%", "right": "4%", "bottom": "30", "top": "30", "containLabel": true},
		"tooltip":   obj{"show": true, "trigger": "item", "formatter": "{b}"},
		"xAxis":     obj{"type": "category", "data": names, "axisLabel": obj{"interval": 0, "rotate": rot}},
		"yAxis":     obj{"type": "value", "name": "Elo", "min": -limit, "max": limit},
		"series":    series,
	}
}

// eloLabel is the tooltip of one engine on the Elo chart.
func eloLabel(e EngineStats, m intervalMark, sc Scoring) string {
	return fmt.Sprintf("%s: %s, 95%% interval [%s, %s], %s/%s, LOS %.1f%%", e.Name, fmtSigned(e.Elo.Elo),
		m.LoShown, m.HiShown, sc.Format(e.Points), fmtPoints(sc.Points(float64(e.WDL.Games()))), e.LOS*100)
}
