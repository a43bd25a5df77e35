package cluster

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/configs"
	"github.com/draughts-arbiter/arbiter/match/engines/store"
	"github.com/draughts-arbiter/arbiter/match/schedule"
)

var (
	testPlan     = []schedule.Pairing{{Index: 0, Cycle: 1, Round: 1, Board: 1, White: 0, Black: 1}, {Index: 1, Cycle: 1, Round: 1, Board: 1, White: 1, Black: 0, PairGame: 1}}
	testOpenings = []configs.Opening{{Name: "a", FEN: "W:W21:B1"}}
)

func resultJSON(event, worker string, g store.Game) []byte {
	b, _ := json.Marshal(ResultMsg{Event: event, Worker: worker, Game: g})
	return b
}

// A result is taken only for the event's plan as planned.
func TestDecodeResult(t *testing.T) {
	good := store.Game{ID: 1, Cycle: 1, Round: 1, Board: 1, White: 1, Black: 0, PairGame: 1, OpeningFEN: "W:W21:B1", Result: "1-0"}
	for _, c := range []struct {
		name string
		data []byte
		want string // "" = taken
	}{
		{"good", resultJSON("ev", "w", good), ""},
		{"not JSON", []byte("{"), "unreadable"},
		{"another event", resultJSON("other", "w", good), `event "other"`},
		{"beyond the plan", resultJSON("ev", "w", store.Game{ID: 2}), "not in the plan"},
		{"negative", resultJSON("ev", "w", store.Game{ID: -1}), "not in the plan"},
		{"colours swapped", resultJSON("ev", "w", func() store.Game { g := good; g.White, g.Black = 0, 1; return g }()), "not the plan's"},
		{"another opening", resultJSON("ev", "w", func() store.Game { g := good; g.OpeningFEN = "W:W22:B1"; return g }()), "planned opening"},
		{"no worker", resultJSON("ev", "", good), "names no worker"},
	} {
		_, err := decodeResult(c.data, "ev", testPlan, testOpenings)
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
}

// Whatever a worker sends, the coordinator answers with an error or a
// game of its plan; it never panics.
func FuzzDecodeResult(f *testing.F) {
	f.Add(resultJSON("ev", "w", store.Game{ID: 1, Cycle: 1, Round: 1, Board: 1, White: 1, Black: 0, PairGame: 1, OpeningFEN: "W:W21:B1"}))
	f.Add([]byte(`{"event":"ev","worker":"w","game":{"ID":0,"Moves":[{"Text":"22-18","Time":1}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := decodeResult(data, "ev", testPlan, testOpenings)
		if err == nil && (r.Game.ID < 0 || r.Game.ID >= len(testPlan) || r.Worker == "") {
			t.Fatalf("taken: %+v", r)
		}
	})
}

// A worker plays an engine only with the event's build: the declared
// version when the event declares one, else the program's checksum.
func TestCheckBuild(t *testing.T) {
	self := configs.EngineSpec{Name: "e", Argv: []string{"/bin/sh"}}
	if s := checkBuild(EngineBuild{Name: "e", Checksum: "x"}, self); !strings.Contains(s, "not the event's build") {
		t.Errorf("another checksum: %q", s)
	}
	for _, c := range []struct {
		name string
		want EngineBuild
		have configs.EngineSpec
		why  string
	}{
		{"nothing to compare", EngineBuild{Name: "e"}, self, ""},
		{"same version", EngineBuild{Name: "e", Version: "2"}, configs.EngineSpec{Name: "e", Version: "2", Argv: []string{"/nonexistent"}}, ""},
		{"other version", EngineBuild{Name: "e", Version: "2"}, configs.EngineSpec{Name: "e", Version: "1"}, `declares "1"`},
		{"no version", EngineBuild{Name: "e", Version: "2"}, self, `declares ""`},
		{"unreadable program", EngineBuild{Name: "e", Checksum: "x"}, configs.EngineSpec{Name: "e", Argv: []string{"/nonexistent"}}, "cannot be read"},
		{"no program", EngineBuild{Name: "e", Checksum: "x"}, configs.EngineSpec{Name: "e"}, "cannot be read"},
	} {
		got := checkBuild(c.want, c.have)
		if (got == "") != (c.why == "") || !strings.Contains(got, c.why) {
			t.Errorf("%s: %q; want %q", c.name, got, c.why)
		}
	}
}

// The event decides an engine's clock and options; the worker's own
// options stay unless the event sets the same one.
func TestWithEvent(t *testing.T) {
	have := configs.EngineSpec{Name: "e", Argv: []string{"/mine"}, Options: []configs.Option{{Name: "Hash", Value: "16"}, {Name: "Threads", Value: "8"}}}
	ev := configs.EngineSpec{Name: "e", Argv: []string{"/theirs"}, Options: []configs.Option{{Name: "Hash", Value: "64"}, {Name: "Book", Value: "off"}}}
	got := withEvent(have, ev)
	if got.Argv[0] != "/mine" {
		t.Errorf("the command is %v; want the worker's", got.Argv)
	}
	want := []configs.Option{{Name: "Book", Value: "off"}, {Name: "Hash", Value: "64"}, {Name: "Threads", Value: "8"}}
	if len(got.Options) != 3 || got.Options[0] != want[0] || got.Options[1] != want[1] || got.Options[2] != want[2] {
		t.Errorf("options %v; want %v", got.Options, want)
	}
}

func TestTimeFactor(t *testing.T) {
	for _, c := range []struct{ ref, own, want float64 }{
		{100, 100, 1}, {200, 100, 2}, {100, 200, 0.5}, {1000, 1, 4}, {1, 1000, 0.25}, {0, 100, 1}, {100, 0, 1}, {100, 300, 0.33},
	} {
		if got := timeFactor(c.ref, c.own); got != c.want {
			t.Errorf("timeFactor(%v, %v) = %v; want %v", c.ref, c.own, got, c.want)
		}
	}
}

// Scaling multiplies the times and keeps the move counts and search
// limits; the factor goes into the PDN, which still reads.
func TestScaleTC(t *testing.T) {
	tc, err := arbiter.ParseTimeControl("40/7200:3600+60")
	if err != nil {
		t.Fatal(err)
	}
	tc.Depth = 9
	got := scaleTC(tc, 1.5)
	if len(got.Periods) != 2 || got.Periods[0].Moves != 40 || got.Periods[0].Time != 3*time.Hour || got.Periods[1].Time != 90*time.Minute ||
		got.Periods[1].Increment != 90*time.Second || got.Depth != 9 {
		t.Errorf("scaleTC(%v, 1.5) = %+v", tc, got)
	}
	if tc.Periods[0].Time != 2*time.Hour {
		t.Error("scaleTC changed its argument")
	}
	text, err := tagTimeScale("[Event \"x\"]\n[Result \"1-0\"]\n\n1. 11-15 1-0\n", 1.25, 200, 160)
	if err != nil || !strings.Contains(text, `[TimeScale "1.25 (worker 160, coordinator 200 perft nodes/s)"]`) || !strings.Contains(text, "11-15") {
		t.Errorf("tagTimeScale: %v\n%s", err, text)
	}
}

func TestRefusalDelay(t *testing.T) {
	for n, want := range map[uint64]time.Duration{0: 3 * time.Second, 1: 3 * time.Second, 2: 6 * time.Second, 3: 12 * time.Second,
		6: 96 * time.Second, 7: 2 * time.Minute, 100: 2 * time.Minute, ^uint64(0): 2 * time.Minute} {
		if got := refusalDelay(n); got != want {
			t.Errorf("refusalDelay(%d) = %v, want %v", n, got, want)
		}
	}
}

// fakeMsg is a delivery of a game: it counts what the worker says of it.
type fakeMsg struct {
	jetstream.Msg // nil: any other method panics
	acks, news    int
}

func (m *fakeMsg) Ack() error        { m.acks++; return nil }
func (m *fakeMsg) InProgress() error { m.news++; return nil }

// A second delivery of a game the worker holds joins it (its news and
// settlement go to the latest delivery); one of a game just acknowledged
// (sent before the server had the ack) is acknowledged again, not played;
// a game released or whose ack failed is a new game when it comes again.
func TestHold(t *testing.T) {
	for _, c := range []struct {
		name  string
		end   func(w *worker, h *held) // how the first hold ends
		again bool                     // the next delivery is played
		acks  int                      // the next delivery's acknowledgements
		news  int                      // the next delivery's news
	}{
		{"still playing", func(*worker, *held) {}, false, 0, 1},
		{"acknowledged", func(w *worker, h *held) { w.acked("e.1", h, true) }, false, 1, 0},
		{"ack failed", func(w *worker, h *held) { w.acked("e.1", h, false) }, true, 0, 0},
		{"given back", func(w *worker, h *held) { w.release("e.1", h) }, true, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := &worker{held: map[string]*held{}, ackWait: time.Minute, infoAt: time.Now(), log: zerolog.Nop()}
			first, next := &fakeMsg{}, &fakeMsg{}
			h, mine := w.hold("e.1", first)
			if !mine {
				t.Fatal("the first delivery is not the worker's to play")
			}
			c.end(w, h)
			h2, mine := w.hold("e.1", next)
			if mine != c.again {
				t.Fatalf("the next delivery is played: %v; want %v", mine, c.again)
			}
			if !mine {
				w.rejoin(context.Background(), h2, next, 2, zerolog.Nop())
				if got := w.latest(h); c.name == "still playing" && got != next {
					t.Errorf("the game's latest delivery is not the next one")
				}
			}
			if next.acks != c.acks || next.news != c.news {
				t.Errorf("the next delivery: %d acks, %d news; want %d, %d", next.acks, next.news, c.acks, c.news)
			}
			if w.release("e.1", h2); len(w.held) != 0 {
				t.Errorf("%d games still held after the release", len(w.held))
			}
		})
	}
}

// A claim is granted when the game is free, already the claimant's, or
// its holder gave no news for the claim's life (then the holder is named
// as gone); otherwise the holder is named with the time its claim has
// left. A release by another claimant leaves the claim alone.
func TestClaims(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, c := range []struct {
		name     string
		before   map[int]claim
		claimant string
		at       time.Duration // after t0
		granted  bool
		holder   string
		left     time.Duration
		gone     string
	}{
		{"free", nil, "b/2", 0, true, "", 0, ""},
		{"renewed by its holder", map[int]claim{1: {"a/1", "a", t0}}, "a/1", 10 * time.Second, true, "", 0, ""},
		{"held by a live worker", map[int]claim{1: {"a/1", "a", t0}}, "b/2", 3 * time.Second, false, "a", 7 * time.Second, ""},
		{"same name, another process", map[int]claim{1: {"a/1", "a", t0}}, "a/9", 0, false, "a", 10 * time.Second, ""},
		{"holder silent for the claim's life", map[int]claim{1: {"a/1", "a", t0}}, "b/2", 10 * time.Second, true, "", 0, "a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cs := claims{life: 10 * time.Second, m: map[int]claim{}}
			maps.Copy(cs.m, c.before)
			granted, holder, left, gone := cs.take(1, c.claimant, strings.Split(c.claimant, "/")[0], t0.Add(c.at))
			goneName := ""
			if gone != nil {
				goneName = gone.worker
			}
			if granted != c.granted || holder.worker != c.holder || left != c.left || goneName != c.gone {
				t.Errorf("take: granted %v, holder %q, left %v, gone %q; want %v, %q, %v, %q", granted, holder.worker, left, goneName, c.granted, c.holder, c.left, c.gone)
			}
			if granted && cs.m[1].claimant != c.claimant {
				t.Errorf("the game is claimed by %q after the grant", cs.m[1].claimant)
			}
			cs.release(1, "someone/else")
			if _, ok := cs.m[1]; !ok && (granted || c.before != nil) {
				t.Error("another claimant's release ended the claim")
			}
			cs.release(1, cs.m[1].claimant)
			if len(cs.m) != 0 {
				t.Errorf("the holder's release left %v", cs.m)
			}
		})
	}
}

// What the coordinator answers a worker whose game's claim may have passed
// to another while it was stalled: its renewal (answered only with a holder
// or a stored game, which stop its copy; silent otherwise) and its result
// (stored, or refused with the holder). Claimant a/1 is the first worker,
// b/2 the one that took the game over; a claim "lapsed" had no news for
// its life. A coordinator just restarted knows no claims: the first news
// claims the game, and the first result is kept.
func TestClaimDecisions(t *testing.T) {
	live, lapsed := time.Duration(0), time.Hour
	for _, c := range []struct {
		name     string
		claimed  string        // the game's claimant ("" = none)
		silent   time.Duration // since its last news
		finished bool
		result   bool   // a result, not a renewal
		from     string // its claimant
		holder   string // the answer names this holder
		answer   string // renewal: "" (silent), "held", "finished"; result: "store", "duplicate", "refused"
		after    string // the game's claimant afterwards
	}{
		{"renewal by the holder", "a/1", live, false, false, "a/1", "", "", "a/1"},
		{"renewal of a lapsed claim nobody took", "a/1", lapsed, false, false, "a/1", "", "", "a/1"},
		{"renewal after a takeover", "b/2", live, false, false, "a/1", "b", "held", "b/2"},
		{"renewal after a takeover whose taker went silent too", "b/2", lapsed, false, false, "a/1", "b", "held", "b/2"},
		{"renewal a restarted coordinator hears first", "", live, false, false, "a/1", "", "", "a/1"},
		{"renewal of a game stored from another copy", "", live, true, false, "a/1", "", "finished", ""},
		{"result from the holder", "a/1", live, false, true, "a/1", "", "store", "a/1"},
		{"result after a takeover", "b/2", live, false, true, "a/1", "b", "refused", "b/2"},
		{"result after a takeover whose taker went silent too", "b/2", lapsed, false, true, "a/1", "b", "refused", "b/2"},
		{"result a restarted coordinator gets first", "", live, false, true, "a/1", "", "store", ""},
		{"result from an older worker (no claimant)", "b/2", live, false, true, "", "", "store", "b/2"},
		{"result of a stored game", "", live, true, true, "a/1", "", "duplicate", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			co := &Coordinator{log: zerolog.Nop(), finished: map[int]bool{0: c.finished}, claims: claims{life: time.Minute, m: map[int]claim{}}}
			if c.claimed != "" {
				co.claims.m[0] = claim{claimant: c.claimed, worker: strings.Split(c.claimed, "/")[0], at: time.Now().Add(-c.silent)}
			}
			var holder, answer string
			if c.result {
				rep, take := co.resultLocked(ResultMsg{Worker: "a", Claimant: c.from, Game: store.Game{ID: 0}})
				holder, answer = rep.Holder, map[bool]string{true: "store", false: "refused"}[take]
				if rep.Duplicate {
					answer = "duplicate"
				}
			} else {
				rep := co.claimLocked(ClaimMsg{Game: 0, Worker: "a", Claimant: c.from, Renew: true}, true)
				if stopsGame(rep) {
					holder = rep.Holder
					answer = map[bool]string{true: "finished", false: "held"}[rep.Finished]
				}
			}
			if holder != c.holder || answer != c.answer {
				t.Errorf("answer %q, holder %q; want %q, %q", answer, holder, c.answer, c.holder)
			}
			if got := co.claims.m[0].claimant; got != c.after {
				t.Errorf("the game's claimant afterwards is %q; want %q", got, c.after)
			}
		})
	}
}
