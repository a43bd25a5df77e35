package arbiter

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
)

func tc(t *testing.T, s string) TimeControl {
	t.Helper()
	c, err := ParseTimeControl(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func both(c TimeControl) [2]TimeControl { return [2]TimeControl{c, c} }

// think runs the side to move's clock for d and submits text.
func think(t *testing.T, r *Referee, fc *fakeClock, d time.Duration, text string) Verdict {
	t.Helper()
	r.StartThinking()
	fc.advance(d)
	return r.Submit(move(t, r, text))
}

func TestClockIncrement(t *testing.T) {
	r, fc := setup(t, "english", "", Config{TimeControl: both(tc(t, "10+2"))})
	if r.Remaining(rules.Black) != 10*time.Second {
		t.Fatalf("start: %v", r.Remaining(rules.Black))
	}
	if v := think(t, r, fc, 3*time.Second, "9-13"); v != Accepted {
		t.Fatal(v)
	}
	if got := r.Remaining(rules.Black); got != 9*time.Second {
		t.Errorf("black has %v, want 10-3+2 = 9s", got)
	}
	if got := r.Remaining(rules.White); got != 10*time.Second {
		t.Errorf("white has %v before moving", got)
	}
	m := r.Record().Moves[0]
	if m.Used != 3*time.Second || m.Clock != 9*time.Second || m.Text != "9-13" || m.Color != rules.Black {
		t.Errorf("record %+v", m)
	}
}

func TestClockPeriods(t *testing.T) {
	s := time.Second
	r, fc := setup(t, "english", "B:WK32:BK1", Config{TimeControl: both(tc(t, "2/10:5+1"))})
	// Black's moves; white answers instantly.
	steps := []struct {
		black, white string
		used         time.Duration
		remaining    time.Duration
		toGo         int
	}{
		{"1-5", "32-28", 4 * s, 6 * s, 1},
		{"5-1", "28-32", 4 * s, 7 * s, 0}, // period 1 done: 6-4+5
		{"1-5", "32-28", 2 * s, 6 * s, 0}, // period 2: 7-2+1
		{"5-1", "28-32", 1 * s, 6 * s, 0}, // 6-1+1
	}
	if r.MovesToGo(rules.Black) != 2 {
		t.Fatalf("moves to go at the start: %d", r.MovesToGo(rules.Black))
	}
	for i, st := range steps {
		if v := think(t, r, fc, st.used, st.black); v != Accepted {
			t.Fatalf("step %d: %v %v", i, v, r.Result())
		}
		if got := r.Remaining(rules.Black); got != st.remaining {
			t.Errorf("step %d: black has %v, want %v", i, got, st.remaining)
		}
		if got := r.MovesToGo(rules.Black); got != st.toGo {
			t.Errorf("step %d: moves to go %d, want %d", i, got, st.toGo)
		}
		if v := think(t, r, fc, 0, st.white); v != Accepted {
			t.Fatalf("step %d white: %v", i, v)
		}
	}
}

func TestClockRepeatingPeriod(t *testing.T) {
	s := time.Second
	r, fc := setup(t, "english", "B:WK32:BK1", Config{TimeControl: both(tc(t, "2/10"))})
	think(t, r, fc, 3*s, "1-5")
	think(t, r, fc, 0, "32-28")
	think(t, r, fc, 3*s, "5-1")
	if got, toGo := r.Remaining(rules.Black), r.MovesToGo(rules.Black); got != 14*s || toGo != 2 {
		t.Errorf("after the first period: %v, %d to go; want 10-6+10 = 14s and 2", got, toGo)
	}
}

func TestClockDelay(t *testing.T) {
	s := time.Second
	margin := 100 * time.Millisecond
	tests := []struct {
		name      string
		tc        string
		used      time.Duration
		remaining time.Duration // after the move, when not flagged
		flag      bool
	}{
		{"simple delay, part of the delay", "10 delay=2", 1 * s, 10 * s, false},
		{"simple delay, past the delay", "10 delay=2", 3 * s, 9 * s, false},
		{"simple delay, at the limit", "10 delay=2", 12*s + margin, 0, false},
		{"simple delay, past the limit", "10 delay=2", 12*s + margin + 1, 0, true},
		{"bronstein, part of the delay", "10 bronstein=2", 1 * s, 10 * s, false},
		{"bronstein, past the delay", "10 bronstein=2", 3 * s, 9 * s, false},
		{"bronstein, at the limit", "10 bronstein=2", 10*s + margin, 2 * s, false}, // the margin pays the overspend, the delay gives back 2s of the 10s taken
		{"bronstein, past the limit", "10 bronstein=2", 10*s + margin + 1, 0, true},
		{"fixed per move", "move=2", 1900 * time.Millisecond, 2 * s, false},
		{"fixed per move, at the limit", "move=2", 2*s + margin, 2 * s, false},
		{"fixed per move, past the limit", "move=2", 2*s + margin + 1, 0, true},
		{"sudden death, at the limit", "5", 5*s + margin, 0, false},
		{"sudden death, 1ns past", "5", 5*s + margin + 1, 0, true},
		{"increment, at the limit", "5+1", 5*s + margin, 1 * s, false},
		{"depth only is untimed", "depth=8", 10 * time.Hour, 0, false},
		{"nodes only is untimed", "nodes=1000", 10 * time.Hour, 0, false},
		{"no limit", "-", 10 * time.Hour, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, fc := setup(t, "english", "", Config{TimeControl: both(tc(t, tt.tc)), Margin: margin})
			r.StartThinking()
			start := fc.Now()
			fc.advance(tt.used)
			v := r.Submit(move(t, r, "9-13"))
			if tt.flag {
				res := r.Result()
				if v != GameOver || res.Termination != TimeForfeit || res.Outcome != rules.WhiteWins {
					t.Fatalf("verdict %v result %+v, want a time forfeit", v, res)
				}
				if len(r.Record().Moves) != 0 {
					t.Error("the move after the flag was recorded")
				}
				return
			}
			if v != Accepted {
				t.Fatalf("verdict %v result %v", v, r.Result())
			}
			if got := r.Remaining(rules.Black); got != tt.remaining {
				t.Errorf("remaining %v, want %v", got, tt.remaining)
			}
			if !tc(t, tt.tc).Timed() {
				if !r.Deadline().IsZero() {
					t.Errorf("untimed deadline %v", r.Deadline())
				}
				return
			}
			_ = start
		})
	}
}

func TestDeadline(t *testing.T) {
	margin := 50 * time.Millisecond
	r, fc := setup(t, "english", "", Config{TimeControl: [2]TimeControl{tc(t, "10 delay=2"), tc(t, "move=3")}, Margin: margin})
	r.StartThinking() // black: move=3
	if want := fc.Now().Add(3*time.Second + margin); !r.Deadline().Equal(want) {
		t.Errorf("black deadline %v, want %v", r.Deadline(), want)
	}
	fc.advance(time.Second)
	r.StartThinking() // a second call keeps the clock's start
	if r.Elapsed() != time.Second {
		t.Errorf("elapsed %v after a second StartThinking", r.Elapsed())
	}
	if r.Submit(move(t, r, "9-13")) != Accepted {
		t.Fatal(r.Result())
	}
	fc.advance(time.Second) // white's clock runs from black's move until StartThinking...
	r.StartThinking()       // ...which restarts it: time between turns is the arbiter's
	if want := fc.Now().Add(12*time.Second + margin); !r.Deadline().Equal(want) {
		t.Errorf("white deadline %v, want %v", r.Deadline(), want)
	}
}

func TestCheckTime(t *testing.T) {
	r, fc := setup(t, "english", "", Config{TimeControl: both(tc(t, "5")), Margin: time.Second})
	r.StartThinking()
	fc.advance(6 * time.Second)
	if r.CheckTime() || r.Done() {
		t.Fatal("flag fell at exactly the limit plus margin")
	}
	fc.advance(1)
	if !r.CheckTime() || r.Result().Termination != TimeForfeit || r.Result().Outcome != rules.WhiteWins {
		t.Fatalf("%+v", r.Result())
	}
	u, _ := setup(t, "english", "", Config{TimeControl: both(tc(t, "depth=3"))})
	if u.CheckTime() {
		t.Error("untimed game flagged")
	}
}

func TestClockWithoutStartThinking(t *testing.T) {
	// Without StartThinking the clock runs from the previous move.
	r, fc := setup(t, "english", "", Config{TimeControl: both(tc(t, "10"))})
	fc.advance(4 * time.Second)
	if r.Submit(move(t, r, "9-13")) != Accepted {
		t.Fatal(r.Result())
	}
	if r.Remaining(rules.Black) != 6*time.Second {
		t.Errorf("black has %v", r.Remaining(rules.Black))
	}
}

func TestTimeCheckedBeforeLegality(t *testing.T) {
	r, fc := setup(t, "english", "", Config{TimeControl: both(tc(t, "1")), Policy: PolicyStrict})
	r.StartThinking()
	fc.advance(2 * time.Second)
	if v := r.SubmitIllegal("xyz", "cannot parse"); v != GameOver || r.Result().Termination != TimeForfeit {
		t.Errorf("%v %+v", v, r.Result())
	}
}

func TestPolicyWCDF(t *testing.T) {
	s := time.Second
	r, fc := setup(t, "english", "", Config{TimeControl: both(tc(t, "60"))})
	r.StartThinking()
	fc.advance(2 * s)
	if v := r.Submit(rules.Move{From: 9, To: 18}); v != Retry {
		t.Fatalf("first illegal move: %v", v)
	}
	if r.Turn() != rules.Black || len(r.History()) != 1 || r.Warnings(rules.Black) != 1 {
		t.Fatal("the illegal move changed the game")
	}
	// The same side moves again on its own running clock.
	r.StartThinking()
	fc.advance(3 * s)
	if v := r.Submit(move(t, r, "9-13")); v != Accepted {
		t.Fatal(v)
	}
	if used := r.Record().Moves[0].Used; used != 5*s {
		t.Errorf("used %v, want 5s (the clock ran on through the warning)", used)
	}
	// White's first illegal move is its own first warning.
	if v := r.SubmitIllegal("hello", "not a move"); v != Retry || r.Warnings(rules.White) != 1 {
		t.Fatalf("white's first: %v", v)
	}
	play(t, r, "22-18")
	if v := r.SubmitIllegal("13-17", "occupied"); v != GameOver {
		t.Fatalf("black's second illegal move: %v", v)
	}
	res := r.Result()
	if res.Outcome != rules.WhiteWins || res.Termination != IllegalMove || !strings.Contains(res.Reason, "13-17") || !strings.Contains(res.Reason, "second") {
		t.Errorf("result %+v", res)
	}
	rec := r.Record()
	if len(rec.Warnings) != 2 || rec.Warnings[0].Text != "9-18" || rec.Warnings[0].Ply != 0 || rec.Warnings[1].Color != rules.White {
		t.Errorf("warnings %+v", rec.Warnings)
	}
}

func TestPolicyStrict(t *testing.T) {
	r, _ := setup(t, "english", "", Config{Policy: PolicyStrict})
	if v := r.Submit(rules.Move{From: 9, To: 18}); v != GameOver {
		t.Fatal(v)
	}
	if res := r.Result(); res.Outcome != rules.WhiteWins || res.Termination != IllegalMove {
		t.Errorf("%+v", res)
	}
	if r.Submit(rules.Move{From: 9, To: 13}) != GameOver {
		t.Error("a move after the end was not refused")
	}
}

func TestPolicyOpponentDecides(t *testing.T) {
	s := time.Second
	illegal := rules.Move{From: 9, To: 18}
	t.Run("correct", func(t *testing.T) {
		r, fc := setup(t, "english", "", Config{Policy: PolicyOpponentDecides, TimeControl: both(tc(t, "60"))})
		r.StartThinking()
		fc.advance(2 * s)
		if v := r.Submit(illegal); v != AwaitDecision || !r.Pending() {
			t.Fatal(v)
		}
		if !r.Deadline().IsZero() {
			t.Error("the clock runs while the opponent decides")
		}
		if v := r.Submit(move(t, r, "9-13")); v != AwaitDecision {
			t.Errorf("submit while pending: %v", v)
		}
		fc.advance(time.Hour) // deciding is on no one's clock
		v, err := r.Decide(true)
		if err != nil || v != Retry || r.Turn() != rules.Black || len(r.History()) != 1 {
			t.Fatalf("%v %v", v, err)
		}
		if r.Warnings(rules.Black) != 0 {
			t.Error("a corrected move counted as a WCDF warning")
		}
		fc.advance(s)
		if v := r.Submit(move(t, r, "9-13")); v != Accepted {
			t.Fatal(v)
		}
		rec := r.Record()
		if rec.Moves[0].Used != 3*s || len(rec.Warnings) != 1 || rec.Warnings[0].Decision != "corrected" {
			t.Errorf("used %v warnings %+v", rec.Moves[0].Used, rec.Warnings)
		}
		if _, err := r.Decide(true); !errors.Is(err, ErrNoDecision) {
			t.Errorf("decide without a pending move: %v", err)
		}
	})
	t.Run("let stand", func(t *testing.T) {
		r, fc := setup(t, "english", "", Config{Policy: PolicyOpponentDecides, TimeControl: both(tc(t, "60"))})
		r.StartThinking()
		fc.advance(2 * s)
		start := r.Position()
		r.Submit(illegal)
		v, err := r.Decide(false)
		if err != nil || v != Accepted {
			t.Fatalf("%v %v", v, err)
		}
		want := start.Play(illegal)
		if r.Position() != want || r.Turn() != rules.White {
			t.Fatalf("position %s, want %s", r.Position().FEN(), want.FEN())
		}
		rec := r.Record()
		if len(rec.Moves) != 1 || !rec.Moves[0].Illegal || rec.Moves[0].Text != "9-18" || rec.Moves[0].Used != 2*s || rec.Warnings[0].Decision != "stands" {
			t.Errorf("record %+v %+v", rec.Moves, rec.Warnings)
		}
		if r.Remaining(rules.Black) != 58*s {
			t.Errorf("black has %v", r.Remaining(rules.Black))
		}
		// The game goes on from the position the move produced.
		play(t, r, "22x15")
	})
	t.Run("nothing that could stand", func(t *testing.T) {
		r, _ := setup(t, "english", "", Config{Policy: PolicyOpponentDecides})
		if v := r.SubmitIllegal("???", "garbage"); v != Retry {
			t.Errorf("garbage: %v", v)
		}
		if v := r.Submit(rules.Move{From: 13, To: 17}); v != Retry { // no piece on 13
			t.Errorf("move of no piece: %v", v)
		}
		if len(r.Record().Warnings) != 2 || r.Done() {
			t.Errorf("%+v", r.Record())
		}
	})
}

func TestGeometric(t *testing.T) {
	v := rules.MustLookup("english")
	p, _ := rules.ParseFEN(v, "B:W30,K27:B20,22,K1")
	tests := []struct {
		m        rules.Move
		err      string
		promotes bool
	}{
		{rules.Move{From: 20, To: 32}, "", true}, // a man reaching its king row is crowned
		{rules.Move{From: 22, To: 31, Captured: rules.SetOf(27)}, "", true},
		{rules.Move{From: 1, To: 10}, "", false},
		{rules.Move{From: 27, To: 31}, "no black piece", false},
		{rules.Move{From: 20, To: 30}, "occupied", false},
		{rules.Move{From: 20, To: 20}, "does not move", false},
		{rules.Move{From: 20, To: 24, Captured: rules.SetOf(22)}, "without an opposing piece", false},
		{rules.Move{From: 0, To: 24}, "off the board", false},
		{rules.Move{From: 20, To: 33}, "off the board", false},
	}
	for _, tt := range tests {
		got, err := geometric(p, tt.m)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: error %v, want %q", tt.m, err, tt.err)
			}
			continue
		}
		if err != nil || got.Promotes != tt.promotes {
			t.Errorf("%v: %+v %v", tt.m, got, err)
		}
	}
}

func TestNormalEnd(t *testing.T) {
	const fen = "B:W14:B10" // black captures white's last piece
	r, _ := setup(t, "english", fen, Config{})
	if v := r.Submit(move(t, r, "10x17")); v != GameOver {
		t.Fatal(v)
	}
	if res := r.Result(); res.Outcome != rules.BlackWins || res.Termination != Normal || res.PDN(r.Record().Variant) != "0-1" {
		t.Errorf("%+v", res)
	}
	// In giveaway the side left without a move wins.
	r, _ = setup(t, "giveaway", fen, Config{})
	r.Submit(move(t, r, "10x17"))
	if res := r.Result(); res.Outcome != rules.WhiteWins || res.Termination != Normal || !strings.Contains(res.Reason, "losing") {
		t.Errorf("giveaway: %+v", res)
	}
	// A start position without a legal move is over at once.
	r, _ = setup(t, "international", "W:W:B1", Config{})
	if !r.Done() || r.Result().PDN(r.Record().Variant) != "0-2" {
		t.Errorf("%+v", r.Result())
	}
}

func TestForfeit(t *testing.T) {
	r, _ := setup(t, "international", "", Config{})
	r.Forfeit(rules.White, EngineCrashed, "exit status 2")
	r.Forfeit(rules.Black, Resignation, "too late")
	res := r.Result()
	if res.Outcome != rules.BlackWins || res.Termination != EngineCrashed || res.Reason != "exit status 2" || res.PDN(rules.MustLookup("international")) != "0-2" {
		t.Errorf("%+v", res)
	}
	if r.Record().Result != res {
		t.Error("record result differs")
	}
}

func TestRecordAndHistory(t *testing.T) {
	r, _ := setup(t, "english", "", Config{})
	play(t, r, "11-15", "22-18", "15x22")
	rec := r.Record()
	if len(rec.Moves) != 3 || rec.Moves[2].Text != "15x22" || rec.Start != rules.NewPosition(rec.Variant) {
		t.Fatalf("%+v", rec)
	}
	rec.Moves[0].Text = "changed"
	if r.Record().Moves[0].Text != "11-15" {
		t.Error("Record shares its slices")
	}
	if r.LastIrreversible() != 3 {
		t.Errorf("last irreversible %d, want 3", r.LastIrreversible())
	}
	h, ms := r.History(), r.Moves()
	if len(h) != 4 || len(ms) != 3 || h[3] != r.Position() || h[2].Play(ms[2]) != h[3] {
		t.Errorf("history %d moves %d", len(h), len(ms))
	}
}

// A finished game's record shares its moves, as no move comes after the
// result; it must still be safe to extend: an append by the caller copies
// (the slice is clipped), so neither the referee nor another record of it
// sees the caller's move.
func TestFinishedRecordShared(t *testing.T) {
	r, _ := setup(t, "english", "", Config{})
	play(t, r, "11-15", "22-18")
	if err := r.Adjudicate(rules.Draw, "agreed"); err != nil {
		t.Fatal(err)
	}
	rec := r.Record()
	if len(rec.Moves) != 2 || cap(rec.Moves) != len(rec.Moves) {
		t.Fatalf("finished record: %d moves, cap %d; want 2 and a clipped slice", len(rec.Moves), cap(rec.Moves))
	}
	extended := append(rec.Moves, MoveRecord{Text: "15x22"})
	if again := r.Record(); len(again.Moves) != 2 || &extended[0] == &again.Moves[0] {
		t.Errorf("an append to a finished record reached the referee: %+v", again.Moves)
	}
}

func TestLastIrreversible(t *testing.T) {
	r, _ := setup(t, "english", "W:W30,K32:B5,K1", Config{})
	play(t, r, "32-28", "1-6", "30-26", "6-1", "28-32")
	if got := r.LastIrreversible(); got != 3 {
		t.Errorf("LastIrreversible %d, want 3 (after 30-26)", got)
	}
}

func TestCapturePathKept(t *testing.T) {
	// The man on 38 takes the four pieces around 28 clockwise or
	// anticlockwise: one move (same from, to and captured set), two paths.
	// The record keeps the path the player sent.
	const fen = "W:W38:B22,23,32,33,3"
	v := rules.MustLookup("international")
	p, err := rules.ParseFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	paths := p.LegalPaths()
	if len(paths) != 2 || !paths[0].Same(paths[1]) || slices.Equal(paths[0].Path, paths[1].Path) {
		t.Fatalf("want two paths of one move, got %v", paths)
	}
	for _, m := range paths {
		r, _ := setup(t, "international", fen, Config{})
		if v := r.Submit(m); v != Accepted {
			t.Fatalf("%v %v", v, r.Result())
		}
		if got := r.Record().Moves[0].Move; !slices.Equal(got.Path, m.Path) {
			t.Errorf("recorded path %v, sent %v", got.Path, m.Path)
		}
	}
	// Without a path, the generator's path is recorded.
	r, _ := setup(t, "international", fen, Config{})
	r.Submit(rules.Move{From: 38, To: 38, Captured: paths[0].Captured})
	if got := r.Record().Moves[0].Move; len(got.Path) != 4 {
		t.Errorf("recorded %v", got)
	}
}

func TestNewRefereeErrors(t *testing.T) {
	if _, err := NewReferee(Config{}); err == nil {
		t.Error("nil variant accepted")
	}
	v := rules.MustLookup("english")
	if _, err := NewReferee(Config{Variant: v, Policy: "lenient"}); err == nil || !strings.Contains(err.Error(), "lenient") {
		t.Errorf("bad policy: %v", err)
	}
	other := rules.NewPosition(rules.MustLookup("russian"))
	if _, err := NewReferee(Config{Variant: v, Start: &other}); err == nil {
		t.Error("start position of another variant accepted")
	}
	if _, err := NewReferee(Config{Variant: v, Margin: -1}); err == nil {
		t.Error("negative margin accepted")
	}
	bad := TimeControl{Periods: []Period{{Time: -time.Second}}}
	if _, err := NewReferee(Config{Variant: v, TimeControl: [2]TimeControl{{}, bad}}); !errors.Is(err, ErrTimeControl) || !strings.Contains(err.Error(), "black") {
		t.Errorf("bad hand-built time control: %v", err)
	}
	r, err := NewReferee(Config{Variant: v})
	if err != nil || r.cfg.Policy != PolicyWCDF {
		t.Errorf("default policy: %v %v", err, r.cfg.Policy)
	}
}

func TestResultPDN(t *testing.T) {
	wide, narrow := rules.MustLookup("international"), rules.MustLookup("english")
	tests := []struct {
		o            rules.Outcome
		wide, narrow string
	}{
		{rules.WhiteWins, "2-0", "1-0"},
		{rules.BlackWins, "0-2", "0-1"},
		{rules.Draw, "1-1", "1/2-1/2"},
		{rules.Ongoing, "*", "*"},
	}
	for _, tt := range tests {
		r := Result{Outcome: tt.o}
		if r.PDN(wide) != tt.wide || r.PDN(narrow) != tt.narrow {
			t.Errorf("%v: %s %s", tt.o, r.PDN(wide), r.PDN(narrow))
		}
	}
	if MoveRuleTermination(40) != Draw40Move || MoveRuleTermination(25) != Draw25Move || MoveRuleTermination(15) != "draw by 15-move rule" {
		t.Error("MoveRuleTermination")
	}
	if p, err := ParsePolicy("strict"); err != nil || p != PolicyStrict {
		t.Error("ParsePolicy strict")
	}
}
