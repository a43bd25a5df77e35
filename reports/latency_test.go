package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestMoveBudget(t *testing.T) {
	for _, tt := range []struct {
		tc   string
		want time.Duration
	}{
		{"300+2", 300*time.Second/40 + 2*time.Second},
		{"40/7200", 180 * time.Second},
		{"40/7200:3600+60", 180 * time.Second},
		{"move=2", 2 * time.Second},
		{"60 delay=5", 1500*time.Millisecond + 5*time.Second},
		{"depth=8", 0},
		{"", 0},
		{"none", 0},
		{"not a time control", 0},
	} {
		if got := moveBudget(tt.tc); got != tt.want {
			t.Errorf("moveBudget(%q) = %v, want %v", tt.tc, got, tt.want)
		}
	}
}

func TestSideLatency(t *testing.T) {
	us := time.Microsecond
	budget := 10 * time.Millisecond // flagged: one move ≥ 1 ms, or a mean ≥ 200 µs
	for _, tt := range []struct {
		name         string
		g            Game
		white, black Latency
		wok, bok     bool
	}{
		{"unknown", Game{}, Latency{}, Latency{}, false, false},
		{"no moves", Game{Latency: []time.Duration{}}, Latency{}, Latency{}, true, true},
		{"white first", Game{Latency: []time.Duration{100 * us, 200 * us, 300 * us, 1500 * us}},
			Latency{Moves: 2, TotalUS: 400, MaxUS: 300, MeanUS: 200, High: true},
			Latency{Moves: 2, TotalUS: 1700, MaxUS: 1500, MeanUS: 850, High: true}, true, true},
		{"black first", Game{FirstMover: "black", Latency: []time.Duration{100 * us, 50 * us, 300 * us}},
			Latency{Moves: 1, TotalUS: 50, MaxUS: 50, MeanUS: 50},
			Latency{Moves: 2, TotalUS: 400, MaxUS: 300, MeanUS: 200, High: true}, true, true},
		{"truncated to µs", Game{Latency: []time.Duration{1999 * time.Nanosecond, 0}},
			Latency{Moves: 1, TotalUS: 1, MaxUS: 1, MeanUS: 1}, Latency{Moves: 1}, true, true},
		// A DXP engine (black) reports no search time: its round trips are
		// its thinking, not latency; white's moves count.
		{"one side unknown", Game{Latency: []time.Duration{100 * us, -1, 300 * us, -1}},
			Latency{Moves: 2, TotalUS: 400, MaxUS: 300, MeanUS: 200, High: true}, Latency{unknown: 2}, true, false},
		{"some moves unknown", Game{Latency: []time.Duration{-1, 10 * us, 30 * us}},
			Latency{Moves: 1, TotalUS: 30, MaxUS: 30, MeanUS: 30, unknown: 1}, Latency{Moves: 1, TotalUS: 10, MaxUS: 10, MeanUS: 10}, true, true},
	} {
		w, b, wok, bok := sideLatency(&tt.g, budget)
		if w != tt.white || b != tt.black || wok != tt.wok || bok != tt.bok {
			t.Errorf("%s: white %+v %v, black %+v %v; want %+v %v, %+v %v", tt.name, w, wok, b, bok, tt.white, tt.wok, tt.black, tt.bok)
		}
	}
	// Without a clock nothing is high.
	g := Game{Latency: []time.Duration{time.Hour}}
	if w, _, _, _ := sideLatency(&g, 0); w.High {
		t.Error("latency flagged under a time control without a clock")
	}
}

// latencyEvent: a time forfeit by a side the machine held back (game 1),
// one by a side it did not (game 2), a game of unknown latency (game 3).
func latencyEvent() Event {
	ms := time.Millisecond
	return Event{Engines: []string{"a", "b"}, Variant: "english", TimeControl: "10+0.1", Games: []Game{
		{Round: 1, Board: 1, White: "a", Black: "b", Result: "1-0", Termination: "time forfeit", Plies: 4,
			Latency: []time.Duration{ms, 300 * ms, 2 * ms, ms}},
		{Round: 1, Board: 2, White: "b", Black: "a", Result: "1-0", Termination: "time forfeit", Plies: 2,
			Latency: []time.Duration{ms, 2 * ms}},
		{Round: 2, Board: 1, White: "a", Black: "b", Result: "1/2-1/2", Termination: "draw by agreement", Plies: 2},
	}}
}

func TestLatencyInResultsAndIncidents(t *testing.T) {
	ev := latencyEvent()
	res, err := BuildResults(ev)
	if err != nil {
		t.Fatal(err)
	}
	// 10+0.1: a move has 0.35 s, 35 ms of it lost on one move is high.
	g := res.Games
	if g[0].BlackLatency == nil || *g[0].BlackLatency != (Latency{Moves: 2, TotalUS: 301000, MaxUS: 300000, MeanUS: 150500, High: true}) ||
		*g[0].WhiteLatency != (Latency{Moves: 2, TotalUS: 3000, MaxUS: 2000, MeanUS: 1500}) {
		t.Errorf("game 1 latency: white %+v, black %+v", g[0].WhiteLatency, g[0].BlackLatency)
	}
	if g[2].WhiteLatency != nil || g[2].BlackLatency != nil {
		t.Errorf("game 3 (latency unknown): %+v %+v", g[2].WhiteLatency, g[2].BlackLatency)
	}
	var a, b *EngineLatency
	for _, e := range res.Stats.Engines {
		if e.Name == "a" {
			a = e.Latency
		} else {
			b = e.Latency
		}
	}
	if a == nil || b == nil {
		t.Fatalf("engine latencies %v %v", a, b)
	}
	if *b != (EngineLatency{Latency: Latency{Moves: 3, TotalUS: 302000, MaxUS: 300000, MeanUS: 100666, High: true}, Games: 2, HighGames: 1, MaxGame: 1}) {
		t.Errorf("engine b: %+v", *b)
	}
	if *a != (EngineLatency{Latency: Latency{Moves: 3, TotalUS: 5000, MaxUS: 2000, MeanUS: 1666}, Games: 2, MaxGame: 1}) {
		t.Errorf("engine a: %+v", *a)
	}
	// The JSON names.
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"black_latency":{"moves":2,"total_us":301000,"max_us":300000,"mean_us":150500,"high":true}`,
		`"latency": {`, `"high_games": 1`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("results.json lacks %s", want)
		}
	}
	var back Results
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || *back.Games[0].BlackLatency != *g[0].BlackLatency {
		t.Errorf("results.json read back: %v", err)
	}

	gv, _, err := buildGamesView(ev, ev.Engines)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, in := range gv.Incident {
		kinds = append(kinds, in.Kind)
		if in.Kind == "high latency" && (in.Game != 0 || in.Engine != 1 || !strings.Contains(in.Text, "300.0 ms at most")) {
			t.Errorf("high-latency incident %+v, want game 0, engine b, 300.0 ms", in)
		}
	}
	if strings.Join(kinds, ",") != "time forfeit,high latency,time forfeit" {
		t.Errorf("incidents %v: want the time forfeit of game 1 with its high latency, and game 2's alone", kinds)
	}
	if !gv.Latency || gv.Games[0][10] != 300000 || gv.Games[0][11] != 2 || gv.Games[1][11] != 0 || gv.Games[2][10] != -1 {
		t.Errorf("games list latency: %v; rows %v %v %v", gv.Latency, gv.Games[0], gv.Games[1], gv.Games[2])
	}
}

func TestLatencyInHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteHTML(&buf, latencyEvent()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{`id="latency-table"`, `<a href="#g1">game 1</a>`, "300.0 ms", "1 of 2", "A move has 350.0 ms on average"} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(page, `id="latency-unmeasured"`) {
		t.Error("a note of engines not measured where every engine was")
	}
	// An engine whose moves came without a search time (DXP) is named as
	// not measured; one that played no game is not named at all.
	ev := latencyEvent()
	ev.Engines = append(ev.Engines, "net", "idle")
	ev.Games = append(ev.Games, Game{Round: 2, Board: 2, White: "net", Black: "a", Result: "0-1", Termination: "normal", Plies: 3,
		Latency: []time.Duration{-1, time.Millisecond, -1}})
	buf.Reset()
	if err := WriteHTML(&buf, ev); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `<p class="note" id="latency-unmeasured">Not measured: net. Its moves came without a search time`) {
		t.Error("report.html does not name net as not measured, or names more")
	}

	// An event with no latency known has no latency section.
	ev = latencyEvent()
	for i := range ev.Games {
		ev.Games[i].Latency = nil
	}
	buf.Reset()
	if err := WriteHTML(&buf, ev); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `id="latency-table"`) {
		t.Error("a latency section without any latency known")
	}
}

func TestFmtMicros(t *testing.T) {
	for us, want := range map[int64]string{0: "0 µs", 999: "999 µs", 1000: "1.0 ms", 35_250: "35.2 ms", 2_500_000: "2.50 s"} {
		if got := fmtMicros(us); got != want {
			t.Errorf("fmtMicros(%d) = %q, want %q", us, got, want)
		}
	}
}
