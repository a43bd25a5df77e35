package reports

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/draughts-arbiter/arbiter/reports/stats"
)

// TestMarkInterval checks the drawing rules of an Elo interval: a closed
// end is drawn where it is, an open end (no finite value) reaches the
// chart's edge and is marked open, and an undefined point estimate is not
// drawn as a dot at an invented value.
func TestMarkInterval(t *testing.T) {
	nan := math.NaN()
	const limit = 300
	tests := []struct {
		name           string
		e              stats.Estimate
		score          float64
		lo, hi, point  float64
		openLo, openHi bool
		pointOpen      bool
	}{
		{"closed", stats.Estimate{Elo: 35.04, Lower: -20.01, Upper: 90.06}, 0.55, -20, 90.1, 35, false, false, false},
		{"open above (near 100%)", stats.Estimate{Elo: 250, Lower: 120, Upper: nan}, 0.95, 120, limit, 250, false, true, false},
		{"open below (near 0%)", stats.Estimate{Elo: -250, Lower: nan, Upper: -120}, 0.05, -limit, -120, -250, true, false, false},
		{"100% score", stats.Estimate{Elo: nan, Lower: 80, Upper: nan}, 1, 80, limit, limit, false, true, true},
		{"0% score", stats.Estimate{Elo: nan, Lower: nan, Upper: -80}, 0, -limit, -80, -limit, true, false, true},
		{"beyond the axis", stats.Estimate{Elo: 10, Lower: -400, Upper: 450}, 0.5, -limit, limit, 10, true, true, false},
		{"infinite ends", stats.Estimate{Elo: 0, Lower: math.Inf(-1), Upper: math.Inf(1)}, 0.5, -limit, limit, 0, true, true, false},
	}
	for _, tc := range tests {
		m := markInterval(tc.e, tc.score, limit)
		if m.Lo != tc.lo || m.Hi != tc.hi || m.Point != tc.point || m.OpenLo != tc.openLo || m.OpenHi != tc.openHi || m.PointOpen != tc.pointOpen {
			t.Errorf("%s: got %+v; want lo %g (open %v) hi %g (open %v) point %g (open %v)", tc.name, m,
				tc.lo, tc.openLo, tc.hi, tc.openHi, tc.point, tc.pointOpen)
		}
		if !finite(tc.e.Lower) != (m.LoShown == "−∞") || !finite(tc.e.Upper) != (m.HiShown == "+∞") {
			t.Errorf("%s: ends printed %q and %q", tc.name, m.LoShown, m.HiShown)
		}
	}
	if got := axisLimit([]stats.Estimate{{Elo: 10, Lower: -30, Upper: 50}}); got != 100 {
		t.Errorf("axis limit for small figures %g, want the 100 minimum", got)
	}
	if got := axisLimit([]stats.Estimate{{Elo: 200, Lower: 120, Upper: 310}, {Elo: nan, Lower: 50, Upper: nan}}); got != 350 {
		t.Errorf("axis limit %g, want 350 (310 × 1.1 rounded up to 50; undefined values ignored)", got)
	}
}

// TestEloChartDrawsOpenEndsAsArrows checks the chart option itself: the
// open end of a 100%-score engine is an arrow at the axis maximum, its
// closed end a flat cap, and it has no dot.
func TestEloChartDrawsOpenEndsAsArrows(t *testing.T) {
	ev := Event{Engines: []string{"a", "b", "c"}}
	add := func(w, b, r string, n int) {
		for range n {
			ev.Games = append(ev.Games, Game{Round: 1, Board: 1, White: w, Black: b, Result: r, Plies: 30})
		}
	}
	add("a", "b", "1-0", 4)     // a scores 100% against b ...
	add("a", "c", "1-0", 3)     // ... and 3½ of 4 against c:
	add("a", "c", "1/2-1/2", 1) // the interval's upper end is beyond a 100% score
	add("b", "c", "1/2-1/2", 3)
	add("b", "c", "1-0", 1)
	st, err := Compute(ev)
	if err != nil {
		t.Fatal(err)
	}
	spec := standingsChart(st)
	js, err := optionJS(spec.chart)
	if err != nil {
		t.Fatal(err)
	}
	var opt struct {
		YAxis  struct{ Min, Max float64 } `json:"yAxis"`
		Series []struct {
			Type string `json:"type"`
			Name string `json:"name"`
			Data []struct {
				Value  []float64 `json:"value"`
				Symbol string    `json:"symbol"`
			} `json:"data"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(js), &opt); err != nil {
		t.Fatal(err)
	}
	if opt.YAxis.Max <= 0 || opt.YAxis.Min != -opt.YAxis.Max {
		t.Fatalf("axis [%g, %g], want a fixed symmetric range", opt.YAxis.Min, opt.YAxis.Max)
	}
	var a *struct {
		Type string `json:"type"`
		Name string `json:"name"`
		Data []struct {
			Value  []float64 `json:"value"`
			Symbol string    `json:"symbol"`
		} `json:"data"`
	}
	dots := 0
	for i := range opt.Series {
		s := &opt.Series[i]
		if s.Type == "line" && s.Name == "a" {
			a = s
		}
		if s.Type == "scatter" {
			dots = len(s.Data)
		}
	}
	if a == nil || len(a.Data) != 2 {
		t.Fatalf("no interval for engine a in %s", js)
	}
	lo, hi := a.Data[0], a.Data[1]
	if hi.Symbol != "triangle" || hi.Value[1] != opt.YAxis.Max {
		t.Errorf("a's open upper end: symbol %q at %g, want an arrow at the edge %g", hi.Symbol, hi.Value[1], opt.YAxis.Max)
	}
	if lo.Symbol != "rect" || lo.Value[1] >= opt.YAxis.Max || lo.Value[1] <= opt.YAxis.Min {
		t.Errorf("a's closed lower end: symbol %q at %g, want a cap inside the axis", lo.Symbol, lo.Value[1])
	}
	if dots != 3 {
		t.Errorf("%d dots, want one per engine", dots)
	}
}
