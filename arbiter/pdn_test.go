package arbiter

import (
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/rules"
	"github.com/draughts-arbiter/arbiter/rules/pdn"
)

// TestRecordPDNRoundTrip builds the PDN of a refereed game with a warning,
// refused and accepted claims, the arbiter's decisions and the clocks,
// writes it, reads it back as `arbiter check` does, and finds every note.
func TestRecordPDNRoundTrip(t *testing.T) {
	tc, err := ParseTimeControl("300+5")
	if err != nil {
		t.Fatal(err)
	}
	r, fc := setup(t, "english", kingsFEN, Config{TimeControl: both(tc)})
	step := func(texts ...string) {
		for _, s := range texts {
			r.StartThinking()
			fc.advance(3 * time.Second)
			play(t, r, s)
		}
	}
	r.StartThinking()
	if v := r.Submit(rules.Move{From: 32, To: 23}); v != Retry { // a king moves one square
		t.Fatalf("illegal move: %v", v)
	}
	step(cycle...)
	if err := r.Pause("a player is unwell"); err != nil {
		t.Fatal(err)
	}
	if err := r.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := r.AddTime(rules.White, time.Minute, "disturbed by noise"); err != nil {
		t.Fatal(err)
	}
	r.Annotate("spectators asked to keep quiet")
	step(cycle[:3]...)
	if err := r.Claim(rules.Black, DrawThreefold); err == nil {
		t.Fatal("premature claim accepted")
	}
	r.StartThinking()
	if v, err := r.ClaimWithMove(rules.Black, DrawThreefold, move(t, r, "5-1")); err != nil || v != GameOver {
		t.Fatalf("claim: %v %v", v, err)
	}
	rec := r.Record()
	g := rec.PDN(PDNTags{Event: "Club night", White: "Ann", Black: "Bob", Date: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Clock: true})
	var b strings.Builder
	if err := pdn.Write(&b, g); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	back, err := pdn.NewReader(strings.NewReader(text), "game.pdn").Next()
	if err != nil {
		t.Fatalf("reading our PDN: %v\n%s", err, text)
	}
	rep := pdn.Check(back, nil)
	if rep.Status != pdn.OK {
		t.Fatalf("check: %s\n%s", rep, text)
	}
	for tag, want := range map[string]string{"Event": "Club night", "Site": "?", "Date": "2026.12.01", "White": "Ann", "Termination": string(DrawThreefold),
		"PlyCount": "8", "TimeControl": "300+5", "FEN": "W:WK32:BK1", "Result": "1/2-1/2"} {
		if got := back.Tag(tag); got != want {
			t.Errorf("tag %s = %q, want %q", tag, got, want)
		}
	}
	if len(back.Moves) != len(rec.Moves) {
		t.Fatalf("%d moves read, %d played", len(back.Moves), len(rec.Moves))
	}
	for i, m := range back.Moves {
		d, ok := ParseClock(m.Comment)
		if !ok || FormatClock(d) != FormatClock(rec.Moves[i].Clock) {
			t.Errorf("move %d: clock %v %v in %q, want %s", i, d, ok, m.Comment, FormatClock(rec.Moves[i].Clock))
		}
	}
	all := back.Comment
	for _, m := range back.Moves {
		all += " | " + m.Comment
	}
	for _, want := range []string{
		`warning: White played "32-23", illegal: a king moves one square at a time, and 32-23 is 2 squares (WCDF rules, 1.17).`,
		"arbiter's decision: pause: a player is unwell.",
		"arbiter's decision: add-time: 60 seconds to White's clock: disturbed by noise.",
		"arbiter's decision: annotation: spectators asked to keep quiet.",
		"[%claim black threefold refused] the position has occurred twice",
		"[%claim black threefold with 5-1 accepted] with 5-1 the position occurs for the third time",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("comments lack %q:\n%s", want, all)
		}
	}
	if !strings.HasPrefix(back.Comment, "warning: White played") {
		t.Errorf("the warning before the first move is not the game's comment: %q", back.Comment)
	}
	// The claims read back and audited: both judged as recorded.
	var claims []CommentClaim
	for _, m := range back.Moves {
		claims = append(claims, ParseClaims(m.Comment)...)
	}
	if len(claims) != 2 || claims[0].Verdict != VerdictRefused || claims[1].Verdict != VerdictAccepted || claims[1].Move != "5-1" || claims[1].Color != rules.Black {
		t.Errorf("claims read back: %+v", claims)
	}
	for _, f := range AuditClaims(back, rep.Replayed) {
		if f.Wrong {
			t.Errorf("audit: %s", f.Text)
		}
	}
	// Without Clock no clock comments.
	if g := rec.PDN(PDNTags{}); strings.Contains(g.Moves[0].Comment, "%clock") || g.Tag("Date") != "????.??.??" || g.Tag("White") != "?" {
		t.Errorf("untimed notes %q, date %q", g.Moves[0].Comment, g.Tag("Date"))
	}
}

func TestParseClaims(t *testing.T) {
	tests := []struct {
		text string
		want []CommentClaim
	}{
		{"[%clock 0:04:31] [%claim white 40-move with 32-28 refused auto] 79 of the 80 moves",
			[]CommentClaim{{Color: rules.White, HasColor: true, Kind: Draw40Move, Move: "32-28", Verdict: VerdictRefused, Auto: true, Command: true}}},
		{"[%claim black threefold accepted]", []CommentClaim{{Color: rules.Black, HasColor: true, Kind: DrawThreefold, Verdict: VerdictAccepted, Command: true}}},
		{"[%claim black 16-move accepted]", []CommentClaim{{Color: rules.Black, HasColor: true, Kind: Draw16Move, Verdict: VerdictAccepted, Command: true}}},
		{"claims draw by repetition", []CommentClaim{{Kind: DrawThreefold}}},
		{"White claims a draw by repetition (refused)", []CommentClaim{{Color: rules.White, HasColor: true, Kind: DrawThreefold, Verdict: VerdictRefused}}},
		{"Black claimed the 40-move rule, which the arbiter accepted", []CommentClaim{{Color: rules.Black, HasColor: true, Kind: Draw40Move, Verdict: VerdictAccepted}}},
		{"white claims the move rule", []CommentClaim{{Color: rules.White, HasColor: true, Kind: KindMoveRule}}},
		{"a fine move. Black claims 3-fold repetition; the arbiter refused", []CommentClaim{{Color: rules.Black, HasColor: true, Kind: DrawThreefold}}},
		{"white played 12. 32-28 and claims nothing", nil},
		{"draw by repetition", nil},
		{"", nil},
	}
	for _, tt := range tests {
		got := ParseClaims(tt.text)
		for i := range got {
			got[i].Text = ""
		}
		if len(got) != len(tt.want) {
			t.Errorf("ParseClaims(%q) = %+v, want %+v", tt.text, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("ParseClaims(%q)[%d] = %+v, want %+v", tt.text, i, got[i], tt.want[i])
			}
		}
	}
	for _, bad := range []string{"[%claim]", "[%claim green threefold]", "[%claim white fivefold]", "[%claim white threefold maybe]", "[%claim white threefold with]", "[%claim white threefold"} {
		got := ParseClaims(bad)
		if len(got) != 1 || got[0].Err == "" {
			t.Errorf("ParseClaims(%q) = %+v, want one claim with Err", bad, got)
		}
	}
	if got := ParseClaims("[%claimant x] [%clock 0:00:01]"); len(got) != 0 {
		t.Errorf("another command read as a claim: %+v", got)
	}
}

func TestParseClock(t *testing.T) {
	for _, tt := range []struct {
		text string
		want time.Duration
		ok   bool
	}{
		{"[%clock 0:04:31]", 4*time.Minute + 31*time.Second, true},
		{"x [%clock 1:00:00.5] y", time.Hour + 500*time.Millisecond, true},
		{"[%clock 0:61:00]", 0, false},
		{"[%clock soon]", 0, false},
	} {
		got, ok := ParseClock(tt.text)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseClock(%q) = %v %v, want %v %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
	if s := FormatClock(time.Hour + 4*time.Minute + 31*time.Second + 900*time.Millisecond); s != "1:04:31" {
		t.Errorf("FormatClock = %q", s)
	}
}

// FuzzParseClaims: the claim reader never panics, and what it reads is
// well formed (a known verdict; a command claim names a side unless it
// failed).
func FuzzParseClaims(f *testing.F) {
	for _, s := range []string{
		"[%claim black threefold with 5-1 accepted] with 5-1 the position occurs",
		"[%claim white 40-move refused auto]", "White claims a draw by repetition (refused)",
		"claims the 25-move rule.", "[%claim", "[%claim white", "12... claims 3-fold", "[%clock 0:04:31]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range ParseClaims(s) {
			if c.Verdict > VerdictRefused {
				t.Fatalf("verdict %d", c.Verdict)
			}
			if c.Command && c.Err == "" && (!c.HasColor || c.Kind == "") {
				t.Fatalf("command claim without side or rule: %+v", c)
			}
			if !c.Command && c.Kind == "" {
				t.Fatalf("plain claim without a rule: %+v", c)
			}
		}
		if d, ok := ParseClock(s); ok && d < 0 {
			t.Fatalf("negative clock %v", d)
		}
	})
}

// TestAuditClaimsPastAutomaticDraw: an international record that goes on
// after the third occurrence (drawn by the rules at once) says so.
func TestAuditClaimsPastAutomaticDraw(t *testing.T) {
	const text = `[GameType "20"]
[FEN "W:WK47:BK4"]

1. 47-42 4-9 2. 42-47 9-4 3. 47-42 {white claims a draw by repetition, refused}
4-9 4. 42-47 9-4 5. 47-42 4-9 *
`
	g, err := pdn.NewReader(strings.NewReader(text), "").Next()
	if err != nil {
		t.Fatal(err)
	}
	rep := pdn.Check(g, nil)
	if rep.Status != pdn.OK {
		t.Fatal(rep)
	}
	var lines []string
	wrong := 0
	for _, f := range AuditClaims(g, rep.Replayed) {
		lines = append(lines, f.Text)
		if f.Wrong {
			wrong++
		}
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{
		"threefold repetition first due after 4... 9-4 (declared by the arbiter in international, yet the record goes on): the position occurs for the third time",
		"White's claim of threefold repetition after 3. 47-42 (recorded refused): invalid, and rightly refused: the position has occurred twice, at moves 1. and 3.",
		"the 5-move rule first due after 5... 4-9 (declared by the arbiter in international)",
		"never held: the 25-move rule, the 16-move rule",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("audit lacks %q:\n%s", want, all)
		}
	}
	if wrong != 0 {
		t.Errorf("%d wrong findings:\n%s", wrong, all)
	}
}

// TestRecordPDNBraces: a warning whose text holds braces (what an engine
// sent) goes into a ; comment, and the notes after it still read back.
func TestRecordPDNBraces(t *testing.T) {
	r, _ := setup(t, "english", kingsFEN, Config{Policy: PolicyOpponentDecides})
	play(t, r, "32-28")
	if v := r.SubmitIllegal("{bad}", "not a move"); v != Retry {
		t.Fatalf("verdict %v", v)
	}
	if err := r.Claim(rules.White, DrawThreefold); err == nil {
		t.Fatal("claim accepted")
	}
	play(t, r, "1-5")
	var b strings.Builder
	if err := pdn.Write(&b, r.Record().PDN(PDNTags{})); err != nil {
		t.Fatal(err)
	}
	g, err := pdn.NewReader(strings.NewReader(b.String()), "").Next()
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	c := g.Moves[0].Comment
	if !strings.Contains(c, `warning: Black played "{bad}", illegal: {bad} is not a move: not a move; corrected at the opponent's choice.`) {
		t.Errorf("comment %q\n%s", c, b.String())
	}
	if cl := ParseClaims(c); len(cl) != 1 || cl[0].Verdict != VerdictRefused || cl[0].Color != rules.White {
		t.Errorf("claims %+v in %q", cl, c)
	}
	if rep := pdn.Check(g, nil); rep.Status != pdn.OK {
		t.Error(rep)
	}
}

// TestAuditClaimsStopsAtSetup: after a set-up in the move text (PDN 3.0's
// /FEN "..."/) the board changed by no move, so repetitions and move counts
// cannot run on across it: the audit judges the moves before it and says
// the rest is not judged. Before, the referee was handed moves that are
// illegal from where it stood, and judged claims on a game it had stopped.
func TestAuditClaimsStopsAtSetup(t *testing.T) {
	const text = `[GameType "20"]
[FEN "W:WK47:BK4"]

1. 47-42 4-9 2. 42-47 9-4 /FEN "W:WK46:BK1"/ 3. 46-41 {white claims a draw by repetition} 1-6 *
`
	g, err := pdn.NewReader(strings.NewReader(text), "").Next()
	if err != nil {
		t.Fatal(err)
	}
	rep := pdn.Check(g, nil)
	if rep.Status != pdn.OK {
		t.Fatal(rep)
	}
	var lines []string
	for _, f := range AuditClaims(g, rep.Replayed) {
		lines = append(lines, f.Text)
	}
	all := strings.Join(lines, "\n")
	want := "claims and draws after 2... 9-4 are not judged: the board was set up before 3. 46-41 (a /FEN/ set-up), and the draw rules count moves"
	if !strings.Contains(all, want) || strings.Contains(all, "White's claim") {
		t.Errorf("findings:\n%s\nwant %q and no judged claim after it", all, want)
	}
}
