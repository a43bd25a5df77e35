package arbiter

import (
	"errors"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules"
)

// labels lists the move numbers of the occurrences ("start" for the start).
func labels(ps []MovePoint) []string {
	var out []string
	for _, p := range ps {
		if p.Ply < 0 {
			out = append(out, "start")
			continue
		}
		out = append(out, p.Label)
	}
	return out
}

func lastClaim(t *testing.T, r *Referee) ClaimRecord {
	t.Helper()
	cs := r.Record().Claims
	if len(cs) == 0 {
		t.Fatal("no claim recorded")
	}
	return cs[len(cs)-1]
}

func TestThreefoldEvidence(t *testing.T) {
	// English, black to move first: a man move (9-13) resets the count,
	// then the kings repeat.
	r, _ := setup(t, "english", "B:WK32:BK1,9", Config{})
	play(t, r, "1-5", "32-28", "5-1", "28-32") // the start position again
	play(t, r, "9-13")                         // irreversible: 3. 9-13
	play(t, r, "32-28", "1-5", "28-32", "5-1")
	play(t, r, "32-28", "1-5", "28-32")
	err := r.Claim(rules.Black, DrawThreefold)
	if !errors.Is(err, ErrClaimRefused) {
		t.Fatalf("claim on the second occurrence: %v", err)
	}
	c := lastClaim(t, r)
	ev := c.Evidence
	if got := strings.Join(labels(ev.Occurred), " "); got != "4... 6..." || ev.Since.String() != "3. 9-13" || ev.Valid || c.Accepted {
		t.Errorf("evidence %+v: occurrences %q, since %q", ev, got, ev.Since)
	}
	want := "the position has occurred twice, at moves 4... and 6..., since 3. 9-13 (the last man move or capture); a third time is needed"
	// The reason, as the player and the record read it, cites the rule.
	if c.Reason != want+" (WCDF rules, 1.32.1)" || ev.String() != want {
		t.Errorf("reason\n%q, want\n%q", c.Reason, want)
	}
	// With the move that repeats it a third time.
	v, err := r.ClaimWithMove(rules.Black, DrawThreefold, move(t, r, "5-1"))
	if err != nil || v != GameOver {
		t.Fatalf("claim with 5-1: %v %v", v, err)
	}
	ev = lastClaim(t, r).Evidence
	if got := strings.Join(labels(ev.Occurred), " "); got != "3. 5. 7." || !ev.Valid || ev.Move != "5-1" {
		t.Errorf("evidence %+v: %q", ev, got)
	}
	if s := ev.String(); !strings.HasPrefix(s, "with 5-1 the position occurs for the third time, at moves 3., 5. and 7. (the claimed move 5-1), since 3. 9-13") {
		t.Errorf("valid claim says %q", s)
	}
	if !strings.Contains(r.Result().Reason, "third time") {
		t.Errorf("result reason %q", r.Result().Reason)
	}
}

func TestThreefoldEvidenceAtStart(t *testing.T) {
	r, _ := setup(t, "english", kingsFEN, Config{})
	play(t, r, cycle...)
	play(t, r, cycle...)
	if err := r.Claim(rules.White, DrawThreefold); err != nil {
		t.Fatal(err)
	}
	ev := lastClaim(t, r).Evidence
	if got := strings.Join(labels(ev.Occurred), " "); got != "start 3. 5." || ev.Since.Ply != -1 {
		t.Errorf("occurrences %q since %+v", got, ev.Since)
	}
	if want := "the position occurs for the third time, at the start and at moves 3. and 5., since the start of the record"; ev.String() != want {
		t.Errorf("%q, want %q", ev.String(), want)
	}
}

func TestMoveRuleEvidence(t *testing.T) {
	r, _ := setup(t, "english", "W:WK32:BK1,K19", Config{})
	play(t, r, cycle...)
	play(t, r, "32-28", "19-24", "28x19") // 3... 28x19 breaks the count
	shuffle(t, r, 9)
	err := r.Claim(rules.Black, Draw40Move)
	if !errors.Is(err, ErrClaimRefused) {
		t.Fatal(err)
	}
	w := lastClaim(t, r).Evidence.Window
	if w == nil || w.Counted != 9 || w.Needed != 80 || w.Moves != 40 || w.First.String() != "5. "+r.Record().Moves[7].Text ||
		w.Broken.String() != "4... 28x19" || w.BrokenWhy != "was a capture" {
		t.Fatalf("window %+v", w)
	}
	want := "9 of the 80 moves (40 each) needed have been played with no uncrowned man advanced and no capture, counted from " + w.First.String() + " (4... 28x19 was a capture)"
	if got := lastClaim(t, r).Reason; got != want+" (WCDF rules, 1.32.2)" {
		t.Errorf("reason\n%q, want\n%q", got, want)
	}

	// A claimed move that breaks the count says so.
	r, _ = setup(t, "english", "B:W30,K32:B5,K1", Config{})
	shuffle(t, r, 4)
	_, err = r.ClaimWithMove(rules.Black, Draw40Move, move(t, r, "5-9"))
	if !errors.Is(err, ErrClaimRefused) {
		t.Fatal(err)
	}
	ev := lastClaim(t, r).Evidence
	if ev.Window.Counted != 0 || ev.Window.Broken.Text != "5-9" || !strings.Contains(ev.String(), "the claimed move 5-9 advanced an uncrowned man, which restarts the count") {
		t.Errorf("%+v: %s", ev.Window, ev)
	}
}

func TestEvidenceProblems(t *testing.T) {
	r, _ := setup(t, "english", kingsFEN, Config{})
	if err := r.Claim(rules.White, Draw25Move); err == nil || !strings.Contains(err.Error(), "not a draw rule of variant english") {
		t.Errorf("25-move claim in english: %v", err)
	}
	if p := lastClaim(t, r).Evidence.Problem; !strings.Contains(p, "not a draw rule") {
		t.Errorf("problem %q", p)
	}
}

func TestEndgameEvidence(t *testing.T) {
	// International 2 kings against a king: the 5-move rule, counted from the start.
	r, _ := setup(t, "international", "W:WK47,K48:BK3", Config{})
	walk(t, r, 4)
	err := r.Claim(rules.White, Draw5Move)
	if !errors.Is(err, ErrClaimRefused) {
		t.Fatal(err)
	}
	w := lastClaim(t, r).Evidence.Window
	if w == nil || w.Counted != 4 || w.Needed != 10 || w.Broken.Ply != -1 {
		t.Fatalf("window %+v", w)
	}
	if s := lastClaim(t, r).Reason; !strings.HasPrefix(s, "4 of the 10 moves (5 each) needed have been played in this endgame, counted from 1. ") {
		t.Errorf("reason %q", s)
	}
	walk(t, r, 10)
	if res := r.Result(); res.Termination != Draw5Move || !strings.Contains(res.Reason, "each player has made 5 moves in this endgame: 10 of the 10") {
		t.Errorf("result %+v", res)
	}
}

func TestMoveLabel(t *testing.T) {
	eng := rules.MustLookup("english")
	start := rules.NewPosition(eng) // black first
	other := start.WithTurn(rules.White)
	for _, tt := range []struct {
		p    rules.Position
		ply  int
		want string
	}{
		{start, 0, "1."}, {start, 1, "1..."}, {start, 2, "2."}, {start, 23, "12..."},
		{other, 0, "1..."}, {other, 1, "2."}, {other, 2, "2..."},
	} {
		if got := MoveLabel(tt.p, tt.ply); got != tt.want {
			t.Errorf("MoveLabel(%s, %d) = %q, want %q", tt.p.Turn(), tt.ply, got, tt.want)
		}
	}
}
