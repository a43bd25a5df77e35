package arbiter

import (
	"errors"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// english kings on 32 and 1 shuffle 32-28 1-5 28-32 5-1: the start
// position recurs every four plies.
const kingsFEN = "W:WK32:BK1"

var cycle = []string{"32-28", "1-5", "28-32", "5-1"}

func TestThreefoldClaimBeforeMove(t *testing.T) {
	r, _ := setup(t, "english", kingsFEN, Config{})
	play(t, r, cycle...)
	play(t, r, cycle[:3]...)
	// The position on the board has occurred twice: a plain claim is wrong.
	before := r.Position()
	if err := r.Claim(rules.Black, DrawThreefold); !errors.Is(err, ErrClaimRefused) || !strings.Contains(err.Error(), "occurred twice, at moves 2... and 4..., since the start of the record; a third time is needed") {
		t.Fatalf("claim on the second occurrence: %v", err)
	}
	// Claims with a move: by the wrong side, of the wrong rule, with a move
	// that does not repeat, with an illegal move.
	refused := []struct {
		c    rules.Color
		kind Termination
		m    string
		want string
	}{
		{rules.White, DrawThreefold, "5-1", "only the side to move"},
		{rules.Black, Draw40Move, "5-1", "8 of the 80 moves (40 each) needed have been played with no uncrowned man advanced and no capture, the claimed move 5-1 included, counted from 1... 32-28"},
		{rules.Black, DrawThreefold, "5-9", "with 5-9 the position would occur once, at move 5. (the claimed move 5-9)"},
		{rules.Black, Draw25Move, "5-1", "not a draw rule of variant english"},
	}
	for _, tt := range refused {
		m := move(t, r, tt.m)
		v, err := r.ClaimWithMove(tt.c, tt.kind, m)
		if !errors.Is(err, ErrClaimRefused) || !strings.Contains(err.Error(), tt.want) || v != Accepted {
			t.Errorf("claim %s by %s with %s: %v %v, want refusal saying %q", tt.kind, tt.c, tt.m, v, err, tt.want)
		}
	}
	if _, err := r.ClaimWithMove(rules.Black, DrawThreefold, rules.Move{From: 5, To: 14}); !errors.Is(err, ErrClaimRefused) || !strings.Contains(err.Error(), "not a legal move") {
		t.Errorf("claim with an illegal move: %v", err)
	}
	if r.Done() || r.Position() != before || len(r.History()) != 8 {
		t.Fatalf("refused claims changed the game: done=%v %s, %d positions", r.Done(), r.Position().FEN(), len(r.History()))
	}
	if got := len(r.Record().Claims); got != 6 {
		t.Errorf("%d claims recorded, want 6 refused", got)
	}
	// The right claim: before playing 5-1, which makes the start position
	// occur for the third time.
	v, err := r.ClaimWithMove(rules.Black, DrawThreefold, move(t, r, "5-1"))
	if err != nil || v != GameOver {
		t.Fatalf("valid claim: %v %v", v, err)
	}
	res := r.Result()
	if res.Outcome != rules.Draw || res.Termination != DrawThreefold || res.PDN(r.Record().Variant) != "1/2-1/2" {
		t.Errorf("result %+v", res)
	}
	rec := r.Record()
	last := rec.Claims[len(rec.Claims)-1]
	if len(rec.Moves) != 8 || rec.Moves[7].Text != "5-1" || !last.Accepted || last.Move != "5-1" || last.Ply != 7 || last.Auto {
		t.Errorf("record: %d moves, last claim %+v", len(rec.Moves), last)
	}
}

func TestThreefoldClaimAfterMove(t *testing.T) {
	r, _ := setup(t, "english", kingsFEN, Config{})
	play(t, r, cycle...)
	play(t, r, cycle...) // third occurrence: WCDF does not end the game by itself
	if r.Done() {
		t.Fatalf("english ended by itself: %v", r.Result())
	}
	if err := r.Claim(rules.White, DrawThreefold); err != nil {
		t.Fatal(err)
	}
	if res := r.Result(); res.Outcome != rules.Draw || res.Termination != DrawThreefold || !strings.Contains(res.Reason, "third") {
		t.Errorf("result %+v", res)
	}
	if err := r.Claim(rules.White, DrawThreefold); !errors.Is(err, ErrGameOver) {
		t.Errorf("claim after the end: %v", err)
	}
}

func TestThreefoldAutoClaim(t *testing.T) {
	r, _ := setup(t, "english", kingsFEN, Config{AutoClaim: true})
	play(t, r, cycle...)
	play(t, r, cycle[:3]...)
	if v := r.Submit(move(t, r, "5-1")); v != GameOver {
		t.Fatalf("verdict %v", v)
	}
	rec := r.Record()
	if rec.Result.Termination != DrawThreefold || len(rec.Claims) != 1 || !rec.Claims[0].Auto || rec.Claims[0].Color != rules.Black || rec.Claims[0].Move != "5-1" {
		t.Errorf("result %+v claims %+v", rec.Result, rec.Claims)
	}
}

func TestThreefoldAutomatic(t *testing.T) {
	// International: the arbiter declares the draw on the third occurrence.
	r, _ := setup(t, "international", "W:WK47:BK4", Config{})
	play(t, r, "47-42", "4-9", "42-47", "9-4", "47-42", "4-9", "42-47")
	if r.Done() {
		t.Fatal("ended early")
	}
	if v := r.Submit(move(t, r, "9-4")); v != GameOver {
		t.Fatalf("verdict %v", v)
	}
	if res := r.Result(); res.Termination != DrawThreefold || res.PDN(r.Record().Variant) != "1-1" {
		t.Errorf("result %+v", res)
	}
}

func TestFortyMoveRule(t *testing.T) {
	// Men on 30 and 5 stand still while the kings move.
	const fen = "W:W30,K32:B5,K1"
	t.Run("kings only", func(t *testing.T) {
		r, _ := setup(t, "english", fen, Config{})
		shuffle(t, r, 79)
		if err := r.Claim(rules.Black, Draw40Move); !errors.Is(err, ErrClaimRefused) || !strings.Contains(err.Error(), "79 of the 80") {
			t.Fatalf("claim after 79 plies: %v", err)
		}
		if err := r.Claim(rules.Black, Draw25Move); !errors.Is(err, ErrClaimRefused) {
			t.Fatalf("claim of a rule english lacks: %v", err)
		}
		shuffle(t, r, 1)
		if r.Done() {
			t.Fatal("the 40-move rule is claimed in english, not automatic")
		}
		if err := r.Claim(rules.Black, Draw40Move); err != nil {
			t.Fatal(err)
		}
		if res := r.Result(); res.Termination != Draw40Move || res.Outcome != rules.Draw {
			t.Errorf("result %+v", res)
		}
	})
	t.Run("claim with the 80th move", func(t *testing.T) {
		r, _ := setup(t, "english", fen, Config{})
		shuffle(t, r, 79)
		p := r.Position()
		var m rules.Move
		for _, lm := range p.LegalMoves() {
			if p.Kings().Has(lm.From) && !lm.IsCapture() {
				m = lm
				break
			}
		}
		if v, err := r.ClaimWithMove(r.Turn(), Draw40Move, m); err != nil || v != GameOver {
			t.Fatalf("%v %v", v, err)
		}
		if n := len(r.Record().Moves); n != 80 {
			t.Errorf("%d moves recorded, want 80", n)
		}
	})
	t.Run("a man advance resets", func(t *testing.T) {
		r, _ := setup(t, "english", fen, Config{})
		shuffle(t, r, 60)
		play(t, r, "30-26")
		shuffle(t, r, 79)
		if err := r.Claim(rules.White, Draw40Move); !errors.Is(err, ErrClaimRefused) {
			t.Fatalf("claim 79 plies after the man move: %v", err)
		}
		shuffle(t, r, 1)
		if err := r.Claim(rules.White, Draw40Move); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a capture resets", func(t *testing.T) {
		r, _ := setup(t, "english", "W:WK32:BK1,K19", Config{})
		for range 10 {
			play(t, r, cycle...)
		}
		play(t, r, "32-28", "19-24") // offers the king on 24
		if err := r.Claim(rules.White, Draw40Move); !errors.Is(err, ErrClaimRefused) || !strings.Contains(err.Error(), "42 of the 80") {
			t.Fatalf("claim before the capture: %v", err)
		}
		play(t, r, "28x19")
		shuffle(t, r, 79)
		if err := r.Claim(rules.White, Draw40Move); !errors.Is(err, ErrClaimRefused) || !strings.Contains(err.Error(), "79 of the 80") {
			t.Fatalf("claim 79 plies after the capture: %v", err)
		}
		shuffle(t, r, 1)
		if err := r.Claim(rules.White, Draw40Move); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("auto claim", func(t *testing.T) {
		r, _ := setup(t, "english", "W:W30,K32,K24:B5,K1,K9", Config{AutoClaim: true})
		if n := walk(t, r, 200); n != 80 {
			t.Fatalf("game ended after %d plies, want 80", n)
		}
		rec := r.Record()
		if rec.Result.Termination != Draw40Move || len(rec.Claims) != 1 || !rec.Claims[0].Auto {
			t.Errorf("result %+v claims %+v", rec.Result, rec.Claims)
		}
	})
}

func TestFMJDAutomaticDraws(t *testing.T) {
	tests := []struct {
		name, variant, fen string
		plies              int
		want               Termination
	}{
		// Two kings each and men that never move: only the 25-move rule applies.
		{"25-move", "international", "W:W50,K47,K48:B1,K3,K4", 50, Draw25Move},
		{"16-move 3 kings", "international", "W:WK47,K48,K49:BK3", 32, Draw16Move},
		{"16-move 2 kings and a man", "international", "W:W45,K47,K48:BK3", 32, Draw16Move},
		{"16-move king and 2 men", "international", "W:W45,50,K47:BK3", 32, Draw16Move},
		{"16-move black strong side", "international", "B:WK47:BK3,K4,K2", 32, Draw16Move},
		{"5-move 2 kings", "international", "W:WK47,K48:BK3", 10, Draw5Move},
		{"5-move king and man", "international", "W:W45,K47:BK3", 10, Draw5Move},
		{"5-move king against king", "international", "W:WK47:BK3", 10, Draw5Move},
		{"canadian 5-move", "canadian", "W:WK67:BK3", 10, Draw5Move},
		{"russian 15-move", "russian", "W:W32,K28,K29:B1,K5,K6", 30, MoveRuleTermination(15)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := setup(t, tt.variant, tt.fen, Config{})
			if n := walk(t, r, tt.plies+20); n != tt.plies {
				t.Fatalf("game ended after %d plies (%v), want %d", n, r.Result(), tt.plies)
			}
			if res := r.Result(); res.Outcome != rules.Draw || res.Termination != tt.want {
				t.Errorf("result %+v, want %s", res, tt.want)
			}
		})
	}
}

func TestMaxMoves(t *testing.T) {
	r, _ := setup(t, "english", "", Config{MaxMoves: 2})
	play(t, r, "9-13", "22-18", "10-14")
	if r.Done() {
		t.Fatal("ended after 3 plies")
	}
	if v := r.Submit(move(t, r, "18x9")); v != GameOver {
		t.Fatalf("verdict %v", v)
	}
	if res := r.Result(); res.Outcome != rules.Draw || res.Termination != Adjudication {
		t.Errorf("result %+v", res)
	}
}

func TestAgreementAndAdjudication(t *testing.T) {
	r, _ := setup(t, "english", "", Config{})
	if err := r.Claim(rules.White, DrawAgreement); !errors.Is(err, ErrClaimRefused) {
		t.Errorf("agreement as a claim: %v", err)
	}
	if err := r.Agree(); err != nil || r.Result().Termination != DrawAgreement {
		t.Fatalf("%v %+v", err, r.Result())
	}
	if err := r.Agree(); !errors.Is(err, ErrGameOver) {
		t.Errorf("second agreement: %v", err)
	}
	r, _ = setup(t, "english", "", Config{})
	if err := r.Adjudicate(rules.Ongoing, "x"); err == nil {
		t.Error("adjudicated ongoing")
	}
	if err := r.Adjudicate(rules.WhiteWins, "engines agreed white wins"); err != nil || r.Result().PDN(nil) != "1-0" {
		t.Errorf("%v %+v", err, r.Result())
	}
}

// Tracker tests: each rule on its own.

func TestRepetitionTracker(t *testing.T) {
	v := rules.MustLookup("english")
	p0, _ := rules.ParseFEN(v, "W:W30,K32:B5,K1")
	tr := newRepetition(p0)
	seq := []string{"32-28", "1-6", "28-32", "6-1"}
	p := p0
	for range 2 {
		for _, s := range seq {
			m, err := p.ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			q := p.Play(m)
			if got, want := tr.countAfter(p, m), tr.count(q)+1; got != want {
				t.Fatalf("countAfter %d, want %d", got, want)
			}
			tr.update(p, m, q)
			p = q
		}
	}
	if tr.count(p0) != 3 {
		t.Fatalf("start position counted %d times, want 3", tr.count(p0))
	}
	m, _ := p.ParseMove("30-26")
	if tr.countAfter(p, m) != 1 {
		t.Error("a man move repeats nothing")
	}
	q := p.Play(m)
	tr.update(p, m, q)
	if tr.count(p0) != 0 || tr.count(q) != 1 || len(tr.seen) != 1 {
		t.Errorf("after a man move: %d positions remembered", len(tr.seen))
	}
}

func TestMoveRuleTracker(t *testing.T) {
	tests := []struct {
		name, variant, fen, move string
		kingsOnly                bool
		counts                   bool
	}{
		{"king move", "english", "W:W30,K32:B5,K1", "32-28", false, true},
		{"man advance", "english", "W:W30,K32:B5,K1", "30-26", false, false},
		{"king capture", "english", "W:WK32:B27,K1", "32x23", false, false},
		{"man capture", "english", "W:W32:B27,K1", "32x23", false, false},
		{"fmjd king move", "international", "W:W50,K47:BK3", "47-41", true, true},
		{"fmjd man move", "international", "W:W50,K47:BK3", "50-44", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := rules.MustLookup(tt.variant)
			p, err := rules.ParseFEN(v, tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.ParseMove(tt.move)
			if err != nil {
				t.Fatal(err)
			}
			tr := moveRule{v: v, n: 2, kingsOnly: tt.kingsOnly, plies: 3}
			if got := tr.dueAfter(p, m); got != tt.counts {
				t.Errorf("dueAfter = %v, want %v", got, tt.counts)
			}
			tr.update(p, m)
			want := 0
			if tt.counts {
				want = 4
			}
			if tr.plies != want || tr.due() != tt.counts {
				t.Errorf("plies %d due %v, want %d", tr.plies, tr.due(), want)
			}
		})
	}
	if (&moveRule{n: 0, plies: 100}).due() {
		t.Error("a variant without the rule drew")
	}
}

func TestEndgameTracker(t *testing.T) {
	v := rules.MustLookup("international")
	pos := func(fen string) rules.Position {
		p, err := rules.ParseFEN(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	limits := []struct {
		fen  string
		want int
	}{
		{"W:WK1,K2,K3:BK50", 16},
		{"W:WK1,K2,40:BK50", 16},
		{"W:WK1,30,40:BK50", 16},
		{"W:WK1,K2:BK50", 5},
		{"W:WK1,40:BK50", 5},
		{"W:WK1:BK50", 5},
		{"W:WK50:BK1,K2,K3", 16},
		{"W:WK1,K2,K3,K4:BK50", 0},
		{"W:W30,40,45:BK50", 0}, // no king on the strong side
		{"W:WK1,K2,K3:B45", 0},  // the lone piece is a man
		{"W:WK1,K2,K3:BK50,K49", 0},
		{"W:W31-50:B1-20", 0},
	}
	for _, l := range limits {
		if got := endgameLimit(materialOf(pos(l.fen))); got != l.want {
			t.Errorf("%s: limit %d, want %d", l.fen, got, l.want)
		}
	}
	tr := newEndgame(pos("W:WK1,30,40:BK50"))
	for range 20 {
		tr.update(pos("W:WK1,30,40:BK50")) // same material: the count runs
	}
	if tr.plies != 20 || tr.due() {
		t.Fatalf("plies %d", tr.plies)
	}
	tr.update(pos("W:WK1,K30,40:BK50")) // a promotion inside the same endgame: the count runs on
	if tr.plies != 21 || tr.limit != 16 {
		t.Fatalf("after promotion: plies %d limit %d", tr.plies, tr.limit)
	}
	tr.update(pos("W:WK1,K30:BK50")) // a capture: now the 5-move rule
	if tr.plies != 0 || tr.limit != 5 || tr.termination() != Draw5Move {
		t.Fatalf("after capture: plies %d limit %d", tr.plies, tr.limit)
	}
	for range 10 {
		tr.update(pos("W:WK1,K30:BK50"))
	}
	if !tr.due() {
		t.Error("not due after 5 moves each")
	}

	// A capture late in a 16-move endgame: the 16-move limit still comes first.
	late := newEndgame(pos("W:WK1,K2,K3:BK50"))
	for range 26 {
		late.update(pos("W:WK1,K2,K3:BK50"))
	}
	late.update(pos("W:WK1,K2:BK50")) // ply 27: the lone king takes one
	for ply := 28; ply <= 32; ply++ {
		if late.due() {
			t.Fatalf("due at ply %d", ply-1)
		}
		late.update(pos("W:WK1,K2:BK50"))
	}
	if !late.due() || late.termination() != Draw16Move || late.moves() != 16 {
		t.Errorf("after 16 moves each: due %v, %s", late.due(), late.termination())
	}
	// A capture early: the 5-move limit comes first.
	early := newEndgame(pos("W:WK1,K2,K3:BK50"))
	early.update(pos("W:WK1,K2:BK50"))
	for range 10 {
		early.update(pos("W:WK1,K2:BK50"))
	}
	if !early.due() || early.termination() != Draw5Move || early.moves() != 5 {
		t.Errorf("5 moves each after the capture: due %v, %s", early.due(), early.termination())
	}
	// Material outside both rules stops every count.
	early.update(pos("W:WK1,K2,K3,K4:BK50"))
	if early.due() || early.plies16 != -1 {
		t.Errorf("count still running: %+v", early)
	}
}

func TestMaxMovesTracker(t *testing.T) {
	tr := maxMoves{n: 3}
	for i := 1; i <= 6; i++ {
		tr.update()
		if tr.due() != (i == 6) {
			t.Errorf("ply %d: due %v", i, tr.due())
		}
	}
	if z := (maxMoves{}); z.due() {
		t.Error("zero tracker due")
	}
}

// The repetition tracker's counts equal a count over the positions since
// the last irreversible move, along games that mix man moves with long
// king walks (more distinct positions than it deletes one by one, then
// fewer again).
func TestRepetitionCountsMatchHistory(t *testing.T) {
	for _, fen := range []string{"W:WK32,K31,21,22:BK1,K2,11,12", "W:W30,31,32:B1,2,3", kingsFEN} {
		v := rules.MustLookup("english")
		p, err := rules.ParseFEN(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		rep := newRepetition(p)
		since := []rules.Position{p}
		for ply := 0; ply < 300; ply++ {
			legal := p.LegalMoves()
			if len(legal) == 0 {
				break
			}
			// Mostly king moves when there are some; a man move now and then.
			m := legal[(ply*7)%len(legal)]
			if ply%23 != 0 {
				for _, c := range legal {
					if _, k, _ := p.Piece(c.From); k == rules.King && !c.IsCapture() {
						m = c
						if ply%3 == 0 {
							break
						}
					}
				}
			}
			next := p.Play(m)
			if irreversible(p, m) {
				since = since[:0]
			}
			since = append(since, next)
			rep.update(p, m, next)
			p = next
			for _, q := range since {
				want := 0
				for _, r := range since {
					if r == q {
						want++
					}
				}
				if got := rep.count(q); got != want {
					t.Fatalf("%s ply %d: count = %d, want %d", fen, ply, got, want)
				}
			}
			if got := len(rep.seen); got > len(since) {
				t.Fatalf("%s ply %d: %d positions kept, %d since the last irreversible move", fen, ply, got, len(since))
			}
		}
	}
}
