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

// TestEloProgressLeavesOpenBandsOut: while an engine has won every game,
// its Elo and interval have no upper end, and the chart draws no band
// (and no line) there instead of one at an invented value.
func TestEloProgressLeavesOpenBandsOut(t *testing.T) {
	ev := Event{Engines: []string{"a", "b"}}
	for i, r := range []string{"1-0", "1-0", "1-0", "1/2-1/2", "0-1", "1/2-1/2"} {
		ev.Games = append(ev.Games, Game{Round: i + 1, Board: 1, White: "a", Black: "b", Result: r, Plies: 30})
	}
	st, err := Compute(ev)
	if err != nil {
		t.Fatal(err)
	}
	cd, err := aggregate(ev, st)
	if err != nil {
		t.Fatal(err)
	}
	spec := eloProgressChart(cd)
	js, err := optionJS(spec.chart)
	if err != nil {
		t.Fatal(err)
	}
	var opt struct {
		Series []struct {
			Name  string  `json:"name"`
			Stack string  `json:"stack"`
			Data  [][]any `json:"data"`
			Area  any     `json:"areaStyle"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(js), &opt); err != nil {
		t.Fatal(err)
	}
	if len(opt.Series) != 6 {
		t.Fatalf("%d series, want a line, a base and a band per engine", len(opt.Series))
	}
	line, band := opt.Series[0], opt.Series[2] // a band's points are [Elo, games]
	if line.Name != "a" || band.Area == nil {
		t.Fatalf("series order: %+v", opt.Series[:3])
	}
	// After 1, 2 and 3 games a has 100%: nothing drawn.
	for k := range 3 {
		if line.Data[k][1] != "-" || band.Data[k][0] != "-" {
			t.Errorf("after %d games: line %v, band %v; want neither", k+1, line.Data[k][1], band.Data[k][0])
		}
	}
	// After 5 games (3-1-1) the interval still reaches past 100%; after 6
	// (3 wins, 2 draws, 1 loss) it is closed.
	if band.Data[4][0] != "-" {
		t.Errorf("after 5 games: band %v, want none", band.Data[4][0])
	}
	if w, ok := band.Data[5][0].(float64); !ok || w <= 0 {
		t.Errorf("after 6 games: band width %v, want a positive width", band.Data[5][0])
	}
}
