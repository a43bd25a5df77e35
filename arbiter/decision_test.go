package arbiter

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

func TestPauseChargesNothing(t *testing.T) {
	s := time.Second
	tests := []struct {
		name      string
		before    time.Duration // thinking before the pause
		paused    time.Duration // time spent paused
		after     time.Duration // thinking after the resume
		remaining time.Duration // black's clock after its move
		flag      bool
	}{
		{"short pause", 2 * s, 30 * s, 3 * s, 5*s + 2*s, false}, // 10-5+2
		{"pause longer than the clock", 1 * s, time.Hour, 1 * s, 10 * s, false},
		{"flag after the pause", 6 * s, time.Hour, 5 * s, 0, true}, // 11s used in all
		{"no pause at all", 4 * s, 0, 4 * s, 4 * s, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, fc := setup(t, "english", "", Config{TimeControl: both(tc(t, "10+2"))})
			r.StartThinking()
			fc.advance(tt.before)
			if tt.paused > 0 {
				if err := r.Pause("disturbance"); err != nil {
					t.Fatal(err)
				}
				if !r.Paused() || !r.Deadline().IsZero() {
					t.Fatalf("paused %v, deadline %v", r.Paused(), r.Deadline())
				}
				fc.advance(tt.paused)
				if r.CheckTime() {
					t.Fatalf("flag fell while paused: %v", r.Result())
				}
				if got := r.Elapsed(); got != tt.before {
					t.Errorf("elapsed while paused %v, want %v", got, tt.before)
				}
				if err := r.Resume(); err != nil {
					t.Fatal(err)
				}
			}
			if want := fc.now.Add(10*s - tt.before); !r.Deadline().Equal(want) {
				t.Errorf("deadline %v, want %v", r.Deadline(), want)
			}
			fc.advance(tt.after)
			v := r.Submit(move(t, r, "9-13"))
			if tt.flag {
				if v != GameOver || r.Result().Termination != TimeForfeit {
					t.Fatalf("verdict %v, result %v; want a time forfeit", v, r.Result())
				}
				return
			}
			if v != Accepted {
				t.Fatalf("verdict %v %v", v, r.Result())
			}
			if got := r.Remaining(rules.Black); got != tt.remaining {
				t.Errorf("black has %v, want %v", got, tt.remaining)
			}
			if got := r.Record().Moves[0].Used; got != tt.before+tt.after {
				t.Errorf("used %v, want %v", got, tt.before+tt.after)
			}
		})
	}
}

func TestPauseErrors(t *testing.T) {
	r, fc := setup(t, "english", "", Config{TimeControl: both(tc(t, "10"))})
	if err := r.Resume(); !errors.Is(err, ErrNotPaused) {
		t.Errorf("resume unpaused: %v", err)
	}
	if err := r.Pause("a"); err != nil {
		t.Fatal(err)
	}
	if err := r.Pause("b"); !errors.Is(err, ErrPaused) {
		t.Errorf("pause twice: %v", err)
	}
	if err := r.Resume(); err != nil {
		t.Fatal(err)
	}
	fc.advance(11 * time.Second)
	if err := r.Pause("late"); !errors.Is(err, ErrGameOver) || r.Result().Termination != TimeForfeit {
		t.Errorf("pause after the flag fell: %v, %v", err, r.Result())
	}
	d := r.Record().Decisions
	if len(d) != 2 || d[0].Kind != DecisionPause || d[0].Text != "a" || d[1].Kind != DecisionResume {
		t.Errorf("decisions %+v", d)
	}
}

func TestAddTime(t *testing.T) {
	s := time.Second
	tests := []struct {
		name    string
		tc      string
		color   rules.Color
		amount  time.Duration
		wantErr bool
		black   time.Duration // black's clock after AddTime (before moving)
	}{
		{"to the side to move", "10", rules.Black, 60 * s, false, 70 * s},
		{"to the other side", "10", rules.White, 60 * s, false, 10 * s},
		{"zero", "10", rules.Black, 0, true, 10 * s},
		{"negative", "10", rules.Black, -s, true, 10 * s},
		{"too much", "10", rules.Black, MaxAddTime + 1, true, 10 * s},
		{"untimed", "", rules.Black, s, true, 0},
		{"fixed per move", "move=5", rules.Black, s, true, 5 * s},
		{"no such side", "10", rules.Color(7), s, true, 10 * s},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{}
			if tt.tc != "" {
				cfg.TimeControl = both(tc(t, tt.tc))
			}
			r, fc := setup(t, "english", "", cfg)
			r.StartThinking()
			fc.advance(5 * s)
			err := r.AddTime(tt.color, tt.amount, "clock fault")
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, want error %v", err, tt.wantErr)
			}
			if got := r.Remaining(rules.Black); got != tt.black {
				t.Errorf("black has %v, want %v", got, tt.black)
			}
			d := r.Record().Decisions
			if tt.wantErr {
				if len(d) != 0 {
					t.Errorf("a refused add-time was recorded: %+v", d)
				}
				return
			}
			if len(d) != 1 || d[0].Kind != DecisionAddTime || d[0].Color != tt.color || d[0].Amount != tt.amount || d[0].Text != "clock fault" {
				t.Errorf("decisions %+v", d)
			}
			if tt.color == rules.Black {
				// The running move's deadline moved: 70 s from the turn's start.
				if want := fc.now.Add(65 * s); !r.Deadline().Equal(want) {
					t.Errorf("deadline %v, want %v", r.Deadline(), want)
				}
				fc.advance(20 * s)
				if r.CheckTime() {
					t.Errorf("flag fell with added time: %v", r.Result())
				}
			}
		})
	}
}

func TestDowntimeNotCharged(t *testing.T) {
	s := time.Second
	r, fc := setup(t, "english", "", Config{TimeControl: both(tc(t, "10"))})
	r.StartThinking()
	fc.advance(3 * s)
	fc.advance(time.Hour) // the server was down
	if err := r.Downtime(time.Hour, "server stopped"); err != nil {
		t.Fatal(err)
	}
	if r.CheckTime() {
		t.Fatalf("down time charged: %v", r.Result())
	}
	fc.advance(2 * s)
	if v := r.Submit(move(t, r, "9-13")); v != Accepted {
		t.Fatal(v, r.Result())
	}
	if got := r.Remaining(rules.Black); got != 5*s {
		t.Errorf("black has %v, want 5s", got)
	}
	d := r.Record().Decisions
	if len(d) != 1 || d[0].Kind != DecisionServerDown || d[0].Amount != time.Hour || d[0].Ply != 0 {
		t.Errorf("decisions %+v", d)
	}
	if err := r.Downtime(-s, ""); err == nil {
		t.Error("negative down time accepted")
	}
}

func TestAnnotateAndAdjudicateDecisions(t *testing.T) {
	r, _ := setup(t, "english", "", Config{})
	play(t, r, "9-13")
	r.Annotate("black looked at the scoresheet")
	if err := r.Adjudicate(rules.WhiteWins, "black left the hall"); err != nil {
		t.Fatal(err)
	}
	r.Annotate("after the game")
	d := r.Record().Decisions
	want := []Decision{
		{Ply: 1, Kind: DecisionAnnotation, Text: "black looked at the scoresheet"},
		{Ply: 1, Kind: DecisionResult, Text: "1-0: black left the hall"},
		{Ply: 1, Kind: DecisionAnnotation, Text: "after the game"},
	}
	if len(d) != len(want) {
		t.Fatalf("decisions %+v", d)
	}
	for i := range want {
		if d[i] != want[i] {
			t.Errorf("decision %d: %+v, want %+v", i, d[i], want[i])
		}
	}
	// The record is a copy.
	d[0].Text = "changed"
	if r.Record().Decisions[0].Text == "changed" {
		t.Error("Record shares Decisions with the referee")
	}
}

func TestRecordFromAndPly(t *testing.T) {
	r, _ := setup(t, "english", "", Config{})
	play(t, r, "9-13", "22-18", "10-14")
	r.Annotate("a")
	if r.Ply() != 3 {
		t.Errorf("Ply %d", r.Ply())
	}
	tests := []struct{ moves, decisions, wantMoves, wantDecisions int }{
		{0, 0, 3, 1}, {2, 0, 1, 1}, {3, 1, 0, 0}, {9, 9, 0, 0}, {-1, -1, 3, 1},
	}
	for _, tt := range tests {
		rec := r.RecordFrom(tt.moves, 0, 0, tt.decisions)
		if len(rec.Moves) != tt.wantMoves || len(rec.Decisions) != tt.wantDecisions {
			t.Errorf("RecordFrom(%d, %d): %d moves, %d decisions", tt.moves, tt.decisions, len(rec.Moves), len(rec.Decisions))
		}
	}
	if rec := r.RecordFrom(2, 0, 0, 0); rec.Moves[0].Text != "10-14" {
		t.Errorf("tail starts with %s", rec.Moves[0].Text)
	}
	// MoveAt is the first move of RecordFrom's tail, and nothing outside
	// the record.
	for i := -1; i <= 4; i++ {
		m, ok := r.MoveAt(i)
		tail := r.RecordFrom(i, 0, 0, 0).Moves
		if want := i >= 0 && i < 3; ok != want || ok && !reflect.DeepEqual(m, tail[0]) {
			t.Errorf("MoveAt(%d) = %+v, %v; want the record's move %d: %v", i, m, ok, i, want)
		}
	}
}
