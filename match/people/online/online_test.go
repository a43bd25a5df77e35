package online

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/message"
)

func TestCreateValidatesEveryField(t *testing.T) {
	h, _ := testHall(t, Config{Engines: map[string]EngineSpec{"spar": {Name: "spar"}}})
	long := strings.Repeat("x", 65)
	tests := []struct {
		setup Setup
		field string
	}{
		{Setup{Variant: "chess"}, "variant"},
		{Setup{Variant: "english", Rules: "preset: english"}, "rules"},
		{Setup{Rules: "board: [unclosed"}, "rules"},
		{Setup{Rules: "preset: english\nboard: 7x7x7"}, "rules"},
		{Setup{Rules: "preset: english\nno_such_rule: 1"}, "rules"},
		{Setup{Rules: strings.Repeat("#", MaxRules+1)}, "rules"},
		{Setup{TimeControl: "5 minutes"}, "time_control"},
		{Setup{TimeControl: "depth=3"}, "time_control"},
		{Setup{Policy: "lenient"}, "policy"},
		{Setup{Draws: "sometimes"}, "draws"},
		{Setup{FEN: "W:W99:B1"}, "fen"},
		{Setup{FEN: strings.Repeat("W", MaxFEN+1)}, "fen"},
		{Setup{FEN: "W:W:B1"}, "fen"}, // white to move has nothing
		{Setup{Opening: "3move:0"}, "opening"},
		{Setup{Opening: "3move:100000"}, "opening"},
		{Setup{Opening: "nobook:1"}, "opening"},
		{Setup{Opening: "../../etc/passwd:1"}, "opening"},
		{Setup{Opening: "1. 9-18"}, "opening"},
		{Setup{Opening: "3move:1", FEN: "B:W21:B1"}, "opening"},
		{Setup{Engine: "/bin/sh"}, "engine"},
		{Setup{Engine: "spar"}, "engine_side"},
		{Setup{Engine: "spar", EngineSide: "red"}, "engine_side"},
		{Setup{EngineSide: "white"}, "engine_side"},
		{Setup{White: long}, "white"},
		{Setup{Black: "a\x00b"}, "black"},
		{Setup{Black: "\xff"}, "black"},
	}
	for _, tt := range tests {
		_, err := h.Create(context.Background(), tt.setup)
		var se *SetupError
		if !errors.As(err, &se) || se.Field != tt.field {
			t.Errorf("%+v: error %v, want one naming %s", tt.setup, err, tt.field)
		}
	}
	good := []Setup{
		{},
		{Variant: "international", TimeControl: "40/7200:3600", Policy: "strict", Draws: "claim"},
		{Rules: "variant:\n  preset: english\n  draws:\n    move_rule: 25", Draws: "auto"},
		{Opening: "3move:17"},
		{Opening: "1. 11-15 23-19 2. 8-11"},
		{FEN: "B:W21,22:B1,2", Beginner: true, White: "Åse Ødegård"},
	}
	for _, s := range good {
		if _, err := h.Create(context.Background(), s); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
}

func TestRoleEnforcement(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{TimeControl: "60"})
	yes := true
	player := []Intent{mv("9-13"), {Kind: "claim", Claim: "threefold"}, {Kind: "offer"}, {Kind: "accept"}, {Kind: "decline"},
		{Kind: "resign"}, {Kind: "decide", Correct: &yes}}
	arb := []Intent{{Kind: "pause"}, {Kind: "resume"}, {Kind: "add-time", Color: "white", Seconds: 5}, {Kind: "declare", Outcome: "1-0"},
		{Kind: "annotate", Text: "x"}, {Kind: "reissue", Role: "white"}}
	for _, in := range player {
		for _, r := range []Role{RoleSpectator, RoleArbiter} {
			refused(t, h, c.ID, r, in, message.Forbidden)
		}
	}
	for _, in := range arb {
		for _, r := range []Role{RoleWhite, RoleBlack, RoleSpectator} {
			refused(t, h, c.ID, r, in, message.Forbidden)
		}
	}
	refused(t, h, c.ID, RoleWhite, mv("22-18"), message.Conflict) // black moves first in english
	refused(t, h, c.ID, RoleBlack, Intent{Kind: "accept"}, message.Conflict)
	refused(t, h, c.ID, RoleBlack, Intent{Kind: "dance"}, message.Invalid)
	refused(t, h, c.ID, RoleBlack, Intent{}, message.Invalid)
	refused(t, h, c.ID, RoleBlack, mv(""), message.Invalid)
	refused(t, h, c.ID, Role(9), mv("9-13"), message.Invalid)
	s, _ := h.Snapshot(c.ID, RoleSpectator)
	if s.V != 0 || s.State.Ply != 0 {
		t.Errorf("refusals changed the game: v %d ply %d", s.V, s.State.Ply)
	}
	if _, err := h.Act(context.Background(), "nosuchgame", RoleWhite, mv("9-13")); !errors.Is(err, ErrUnknownGame) {
		t.Errorf("unknown game: %v", err)
	}
}

func TestOffersAndResign(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{})
	// An offer is withdrawn by the offerer's own move.
	rep := act(t, h, c.ID, RoleBlack, Intent{Kind: "offer"})
	if rep.State.Offer != "black" {
		t.Fatalf("offer state %q", rep.State.Offer)
	}
	refused(t, h, c.ID, RoleBlack, Intent{Kind: "offer"}, message.Conflict)
	refused(t, h, c.ID, RoleBlack, Intent{Kind: "accept"}, message.Conflict)
	rep = act(t, h, c.ID, RoleBlack, mv("9-13"))
	if hasCode(rep.Events, "offer.withdrawn") == nil || rep.State.Offer != "" {
		t.Fatalf("offer not withdrawn by the move: %s", describe(rep.Events))
	}
	// Replying with a move declines.
	act(t, h, c.ID, RoleBlack, Intent{Kind: "offer"})
	rep = act(t, h, c.ID, RoleWhite, mv("22-18"))
	if hasCode(rep.Events, "offer.declined") == nil {
		t.Fatalf("offer not declined by the reply: %s", describe(rep.Events))
	}
	// Declined outright, then accepted.
	act(t, h, c.ID, RoleWhite, Intent{Kind: "offer"})
	act(t, h, c.ID, RoleBlack, Intent{Kind: "decline"})
	act(t, h, c.ID, RoleWhite, Intent{Kind: "offer"})
	rep = act(t, h, c.ID, RoleBlack, Intent{Kind: "accept"})
	if rep.State.Status != "over" || rep.State.Result != "1/2-1/2" || hasCode(rep.Events, "result.agreed") == nil {
		t.Fatalf("accept: %+v %s", rep.State, describe(rep.Events))
	}
	refused(t, h, c.ID, RoleWhite, mv("22-17"), message.Conflict)

	c2 := create(t, h, Setup{})
	rep = act(t, h, c2.ID, RoleWhite, Intent{Kind: "resign"}) // either side may resign at any time
	if rep.State.Result != "0-1" || hasCode(rep.Events, "result.resigned") == nil {
		t.Fatalf("resign: %+v %s", rep.State, describe(rep.Events))
	}
}

func TestWCDFWarningThenLoss(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{Variant: "english", Policy: "wcdf", TimeControl: "300"})
	play(t, h, c.ID, "9-13", "22-18")
	rep := act(t, h, c.ID, RoleBlack, mv("13-9")) // a man backwards
	w := hasCode(rep.Events, "warning.wcdf")
	if w == nil || w.Msg.Why == nil || w.Msg.Why.Code != "illegal.backward" || w.Msg.Args["count"] != "1" || rep.State.Warnings["black"] != 1 || rep.State.Turn != "black" {
		t.Fatalf("first illegal move: %+v %s", rep.State, describe(rep.Events))
	}
	// Text that names no move is judged too.
	rep = act(t, h, c.ID, RoleBlack, mv("hello"))
	if rep.State.Status != "over" || rep.State.Result != "1-0" || rep.State.Termination != "illegal move" {
		t.Fatalf("second illegal move: %+v %s", rep.State, describe(rep.Events))
	}
	checkPDN(t, h, c.ID)
}

func TestOpponentDecides(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{Variant: "english", Policy: "opponent-decides"})
	play(t, h, c.ID, "9-13", "22-18")
	rep := act(t, h, c.ID, RoleBlack, mv("13-9"))
	if e := hasCode(rep.Events, "decision.pending"); e == nil || e.Msg.Why == nil || e.Msg.Why.Code != "illegal.backward" || rep.State.Pending == nil || rep.State.Pending.Decider != "white" {
		t.Fatalf("illegal move: %+v %s", rep.State, describe(rep.Events))
	}
	refused(t, h, c.ID, RoleBlack, mv("10-14"), message.Conflict) // the decision comes first
	refused(t, h, c.ID, RoleBlack, Intent{Kind: "decide", Correct: new(bool)}, message.Conflict)
	yes := true
	rep = act(t, h, c.ID, RoleWhite, Intent{Kind: "decide", Correct: &yes})
	if rep.State.Pending != nil || rep.State.Turn != "black" || hasCode(rep.Events, "decision.corrected") == nil {
		t.Fatalf("corrected: %+v %s", rep.State, describe(rep.Events))
	}
	// Again, and this time white answers with a move: the illegal move stands.
	act(t, h, c.ID, RoleBlack, mv("13-9"))
	rep = act(t, h, c.ID, RoleWhite, mv("18-14"))
	if hasCode(rep.Events, "move.illegal-stood") == nil || hasCode(rep.Events, "move.played") == nil || rep.State.Turn != "black" || rep.State.Ply != 4 {
		t.Fatalf("stand by a reply: %+v %s", rep.State, describe(rep.Events))
	}
}

func TestThreefoldClaims(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{Variant: "english", FEN: "B:WK29:BK4"})
	// A claim before any move: the position stood only at the start, said
	// once, as a sentence after "refused.", and the rule it was judged on
	// (WCDF 1.32.1), also as a message of its own for a translation.
	rep := act(t, h, c.ID, RoleBlack, Intent{Kind: "claim", Claim: "threefold"})
	e := hasCode(rep.Events, "claim.refused")
	if e == nil {
		t.Fatalf("claim at the start: %s", describe(rep.Events))
	}
	if want := "Black claimed a threefold draw: refused. The position has occurred once, at the start; three times are needed (WCDF rules, 1.32.1)."; e.Msg.Text != want {
		t.Errorf("claim at the start:\n got %q\nwant %q", e.Msg.Text, want)
	}
	if w := e.Msg.Why; w == nil || w.Code != "evidence.threefold-start-only" || w.Args["count"] != "1" || strings.Count(w.Text, "start") != 1 {
		t.Errorf("claim at the start, its reason as a message: %+v", w)
	} else if c := w.Cite; c == nil || c.Code != "article.wcdf" || c.Args["article"] != "1.32.1" || c.Text != "WCDF rules, 1.32.1" {
		t.Errorf("claim at the start, its rule's article: %+v", c)
	}
	play(t, h, c.ID, "4-8", "29-25", "8-4", "25-29")
	// The start position has occurred twice: a claim now is premature.
	rep = act(t, h, c.ID, RoleBlack, Intent{Kind: "claim", Claim: "threefold"})
	e = hasCode(rep.Events, "claim.refused")
	if e == nil || rep.State.Status != "running" || e.Msg.Args["reason"] == "" {
		t.Fatalf("premature claim: %+v %s", rep.State, describe(rep.Events))
	}
	t.Logf("refused: %s", e.Msg.Text)
	if got := e.Msg.Args["occurred"]; strings.Count(got, ",") != 1 {
		t.Errorf("refused claim's evidence: occurred %q, want two places", got)
	}
	// The reason as a code with structured arguments, for the catalogs.
	if w := e.Msg.Why; w == nil || w.Code != "evidence.threefold-short-start" || w.Args["count"] != "2" || w.Args["since"] != "the start" || w.Args["at"] == "" {
		t.Errorf("refused claim's reason as a message: %+v", w)
	}
	play(t, h, c.ID, "4-8", "29-25", "8-4")
	// White claims before the move that repeats the position a third time.
	rep = act(t, h, c.ID, RoleWhite, Intent{Kind: "claim", Claim: "threefold", WithMove: "25-29"})
	e = hasCode(rep.Events, "claim.accepted")
	if e == nil || rep.State.Result != "1/2-1/2" || rep.State.Ply != 8 {
		t.Fatalf("valid claim: %+v %s", rep.State, describe(rep.Events))
	}
	t.Logf("accepted: %s", e.Msg.Text)
	if got := e.Msg.Args["occurred"]; strings.Count(got, ",") != 2 || !strings.Contains(got, "25-29") {
		t.Errorf("valid claim's evidence: occurred %q, want three places ending with the claimed move", got)
	}
	if w := e.Msg.Why; w == nil || w.Code != "evidence.threefold-move-start" || w.Args["count"] != "3" || w.Args["move"] != "25-29" || strings.Count(w.Args["at"], ",") != 1 {
		t.Errorf("valid claim's reason as a message: %+v", w)
	}
	refused(t, h, c.ID, RoleBlack, Intent{Kind: "claim", Claim: "threefold"}, message.Conflict)
	if text := checkPDN(t, h, c.ID); !strings.Contains(text, "[%claim black threefold refused]") || !strings.Contains(text, "accepted") ||
		strings.Count(strings.Join(strings.Fields(text), " "), "(WCDF rules, 1.32.1).") != 3 {
		t.Errorf("the claims are not in the PDN:\n%s", text)
	}
	c2 := create(t, h, Setup{Variant: "english"})
	refused(t, h, c2.ID, RoleBlack, Intent{Kind: "claim", Claim: "25-move"}, message.Invalid)
	play(t, h, c2.ID, "9-13")
	rep = act(t, h, c2.ID, RoleBlack, Intent{Kind: "claim", Claim: "40-move"})
	if e := hasCode(rep.Events, "claim.refused"); e == nil || e.Msg.Args["window_needed"] != "80" || e.Msg.Args["window_counted"] == "" {
		t.Fatalf("40-move claim after a man's move: %s %v", describe(rep.Events), rep.Events)
	} else {
		t.Logf("40-move: %s %v", e.Msg.Text, e.Msg.Args)
	}
}

// An N-move claim's count comes as a code with structured arguments too.
func TestMoveRuleClaimReasonCode(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{Variant: "english", FEN: "B:WK29:BK4"})
	play(t, h, c.ID, "4-8", "29-25", "8-4", "25-29")
	rep := act(t, h, c.ID, RoleBlack, Intent{Kind: "claim", Claim: "40-move"})
	e := hasCode(rep.Events, "claim.refused")
	if e == nil {
		t.Fatalf("40-move claim: %s", describe(rep.Events))
	}
	w := e.Msg.Why
	if w == nil || w.Code != "evidence.window-short" || w.Args["counted"] != "4" || w.Args["needed"] != "80" || w.Args["moves"] != "40" ||
		w.Args["rule"] != e.Msg.Args["window_rule"] || w.Args["first"] == "" || e.Msg.Args["reason"] == "" {
		t.Fatalf("the count as a message: %+v (args %v)", w, e.Msg.Args)
	}
	t.Logf("%s", w.Text)
}

func TestFlagPauseAddTime(t *testing.T) {
	h, ft := testHall(t, Config{})
	c := create(t, h, Setup{Variant: "english", TimeControl: "60"})
	play(t, h, c.ID, "9-13")
	ft.advance(30 * time.Second)
	rep := act(t, h, c.ID, RoleArbiter, Intent{Kind: "pause", Text: "noise"})
	if rep.State.Status != "paused" || rep.State.Clocks.Running != "" || rep.State.Clocks.White != 30000 {
		t.Fatalf("pause: %+v", rep.State)
	}
	refused(t, h, c.ID, RoleWhite, mv("22-18"), message.Conflict)
	ft.advance(time.Hour) // not charged
	act(t, h, c.ID, RoleArbiter, Intent{Kind: "resume"})
	rep = act(t, h, c.ID, RoleArbiter, Intent{Kind: "add-time", Color: "white", Seconds: 60, Text: "the noise"})
	if rep.State.Clocks.White != 90000 || hasCode(rep.Events, "arbiter.add-time") == nil {
		t.Fatalf("add time: %+v %s", rep.State, describe(rep.Events))
	}
	refused(t, h, c.ID, RoleArbiter, Intent{Kind: "add-time", Color: "green", Seconds: 60}, message.Invalid)
	ft.advance(91*time.Second + 51825174) // the flag falls 1.051825174s late
	// The flag is checked on any act, here black's offer.
	_, err := h.Act(context.Background(), c.ID, RoleBlack, Intent{Kind: "offer"})
	var r *Refusal
	if !errors.As(err, &r) || r.Code != "refused.game-over" {
		t.Fatalf("after the flag: %v", err)
	}
	s, _ := h.Snapshot(c.ID, RoleArbiter)
	if s.State.Result != "0-1" || s.State.Termination != "time forfeit" {
		t.Fatalf("flag: %+v", s.State)
	}
	// The flagged side's clock shows 0, not the 120 s its move began with;
	// black's is untouched, and nothing runs.
	if c := s.State.Clocks; c.White != 0 || c.Black != 60000 || c.Running != "" {
		t.Errorf("the clocks after white's flag: %+v", c)
	}
	res := hasCode(s.Messages, "result.flag")
	if res == nil || res.State.Clocks.White != 0 {
		t.Errorf("the result event's state: %+v", res)
	}
	act(t, h, c.ID, RoleArbiter, Intent{Kind: "annotate", Text: "after the game"})
	pdn := checkPDN(t, h, c.ID)
	// The time used to the hundredth of a second, as people read it.
	if flat := strings.Join(strings.Fields(pdn), " "); !strings.Contains(flat, "White used 2m1.05s, more than its 2m0s plus the 50ms margin.}") {
		t.Errorf("PDN does not say the time used as people read it:\n%s", pdn)
	}
	for _, want := range []string{"pause: noise", "add-time: 60 seconds to White's clock", "after the game", "0-1"} {
		if !strings.Contains(pdn, want) {
			t.Errorf("PDN lacks %q:\n%s", want, pdn)
		}
	}
}

func TestFlagByTimer(t *testing.T) {
	h, _ := testHall(t, Config{Now: time.Now})
	c := create(t, h, Setup{Variant: "english", TimeControl: "1"})
	_, live, err := h.Watch(context.Background(), c.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	play(t, h, c.ID, "9-13")
	deadline := time.After(30 * time.Second)
	for {
		select {
		case e, ok := <-live:
			if !ok {
				t.Fatal("watch closed")
			}
			if e.Type == EvResult {
				if e.State.Result != "0-1" || e.Msg.Code != "result.flag" {
					t.Fatalf("result %+v", e)
				}
				return
			}
		case <-deadline:
			t.Fatal("the server's timer never made white's flag fall")
		}
	}
}

func TestDeclareAndReissue(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{})
	rep := act(t, h, c.ID, RoleArbiter, Intent{Kind: "reissue", Role: "white"})
	if rep.Token == "" || rep.Token == c.Tokens[RoleWhite] {
		t.Fatalf("reissue token %q", rep.Token)
	}
	for _, e := range rep.Events {
		if strings.Contains(e.Msg.Text, rep.Token) {
			t.Fatal("the new token is in an event")
		}
	}
	if _, _, ok := h.Resolve(c.Tokens[RoleWhite]); ok {
		t.Error("the old token still works")
	}
	if id, role, ok := h.Resolve(rep.Token); !ok || id != c.ID || role != RoleWhite {
		t.Error("the new token does not work")
	}
	if _, _, ok := h.Resolve(c.Tokens[RoleWhite][:20] + "AAAA"); ok {
		t.Error("a tampered token works")
	}
	refused(t, h, c.ID, RoleArbiter, Intent{Kind: "declare", Outcome: "3-0"}, message.Invalid)
	rep = act(t, h, c.ID, RoleArbiter, Intent{Kind: "declare", Outcome: "1-0", Text: "black left"})
	if rep.State.Result != "1-0" || hasCode(rep.Events, "result.declared") == nil {
		t.Fatalf("declare: %+v %s", rep.State, describe(rep.Events))
	}
}

func TestWatchCatchUpAndSlowSubscriber(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{FEN: "B:WK29:BK4"})
	ctx, cancel := context.WithCancel(context.Background())
	_, slow, err := h.Watch(ctx, c.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	moves := []string{"4-8", "29-25", "8-4", "25-29"}
	for i := 0; i < subBuffer/4+2; i++ {
		for _, m := range moves {
			if i*4 > subBuffer+8 {
				break
			}
			play(t, h, c.ID, m)
		}
	}
	n := 0
	for range slow {
		n++
	}
	if n != subBuffer {
		t.Errorf("the slow subscriber got %d events before it was dropped, want %d", n, subBuffer)
	}
	missed, _, err := h.Watch(ctx, c.ID, 5)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := h.Snapshot(c.ID, RoleSpectator)
	if int64(len(missed)) != s.V-5 || missed[0].V != 6 {
		t.Errorf("catch-up from 5: %d events (first %d), version %d", len(missed), missed[0].V, s.V)
	}
	cancel()
}

// A watcher costs little memory while it waits: its buffer holds
// pointers to the events, which every watcher of the game shares (by
// value, 256 buffered events took some 90 KiB per watcher).
func TestWatchersShareEvents(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{Variant: "english"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const n = 1000
	lives := make([]<-chan *Event, 0, n)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		_, live, err := h.Watch(ctx, c.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		lives = append(lives, live)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	// A bound far above what a watcher takes (some 2.5 KiB) and far below
	// what a buffer of events by value took: not a measurement.
	if per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n; per > 16<<10 {
		t.Errorf("a waiting watcher takes %d bytes", per)
	}
	play(t, h, c.ID, "9-13")
	first := <-lives[0]
	for i, live := range lives[1:] {
		if e := <-live; e != first {
			t.Fatalf("watcher %d got its own copy of the event (v %d)", i+1, e.V)
		}
	}
	if first.Type != EvMove || first.V != 1 {
		t.Errorf("the event %+v", first)
	}
}

func TestBeginnerLegalMoves(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{Beginner: true})
	s, _ := h.Snapshot(c.ID, RoleBlack)
	if len(s.Legal) != 7 {
		t.Errorf("legal moves for black: %v", s.Legal)
	}
	if s, _ := h.Snapshot(c.ID, RoleWhite); len(s.Legal) != 0 {
		t.Errorf("white is shown moves out of turn: %v", s.Legal)
	}
	c2 := create(t, h, Setup{})
	if s, _ := h.Snapshot(c2.ID, RoleBlack); len(s.Legal) != 0 {
		t.Errorf("no beginner option, yet moves: %v", s.Legal)
	}
}

func TestCodesAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Codes() {
		if c.Text == "" || seen[c.Code] {
			t.Errorf("code %q: empty or twice", c.Code)
		}
		seen[c.Code] = true
	}
	// Every code the package emits is listed (render falls back to the code).
	for _, code := range []string{"move.played", "warning.wcdf", "claim.refused", "server.down", "refused.role"} {
		if !seen[code] {
			t.Errorf("%s not in Codes", code)
		}
	}
}

// A player who has lost every piece reads "has no pieces left"; one whose
// pieces are all blocked, "has no legal move left" (FMJD art. 7, WCDF:
// either loses), in the log, the state's reason and the PDN comment (a
// sentence of its own there).
func TestNoPiecesOrBlocked(t *testing.T) {
	h, _ := testHall(t, Config{})
	for _, tc := range []struct {
		fen, move, code, text, reason, note string
	}{
		{"W:W18:B14", "18x9", "result.no-pieces", "Black has no pieces left. 1-0", "Black has no pieces left", "Black has no pieces left."},
		// Black's man on 5 can only go to 9, where white now stands, and
		// cannot take it: 14 is white's too.
		{"W:W13,14:B5", "13-9", "result.no-move", "Black has no legal move left. 1-0", "Black has no legal move", "Black has no legal move."},
	} {
		c := create(t, h, Setup{Variant: "english", FEN: tc.fen})
		rep := play(t, h, c.ID, tc.move)
		e := hasCode(rep.Events, tc.code)
		if e == nil || e.Msg.Text != tc.text || rep.State.Reason != tc.reason {
			t.Errorf("%s %s: state %q, want %s %q, reason %q: %s", tc.fen, tc.move, rep.State.Reason, tc.code, tc.text, tc.reason, describe(rep.Events))
		}
		if text := checkPDN(t, h, c.ID); !strings.Contains(text, "{"+tc.note+"}") {
			t.Errorf("%s %s: the PDN does not say %q:\n%s", tc.fen, tc.move, tc.note, text)
		}
	}
}

// An N-move claim with nothing counted yet names, as a code with its
// arguments, why: at the start of the record, since the capture just
// played, or because the claimed move is itself a capture. Each was said
// only in English (args.reason), so a Russian or Dutch player read it in
// English.
func TestMoveRuleClaimNothingCounted(t *testing.T) {
	h, _ := testHall(t, Config{})
	for _, c := range []struct {
		name, before string
		who          Role
		with, code   string
		args         map[string]string
	}{
		{"at the start", "", RoleBlack, "", "evidence.window-none", map[string]string{"needed": "80", "moves": "40"}},
		{"after a capture", "14x23", RoleWhite, "", "evidence.window-none-since", map[string]string{"broken": "1. 14x23", "broke": "was a capture"}},
		{"with a capture", "", RoleBlack, "14x23", "evidence.window-none-move", map[string]string{"move": "14x23", "broke": "is a capture"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := create(t, h, Setup{Variant: "english", FEN: "B:W18,K32:B14,K1"})
			if c.before != "" {
				play(t, h, g.ID, c.before)
			}
			rep := act(t, h, g.ID, c.who, Intent{Kind: "claim", Claim: "40-move", WithMove: c.with})
			e := hasCode(rep.Events, "claim.refused")
			if e == nil {
				t.Fatalf("the claim: %s", describe(rep.Events))
			}
			w := e.Msg.Why
			if w == nil || w.Code != c.code || w.Args["rule"] != e.Msg.Args["window_rule"] {
				t.Fatalf("the count as a message: %+v (args %v)", w, e.Msg.Args)
			}
			for k, v := range c.args {
				if w.Args[k] != v {
					t.Errorf("%s = %q, want %q (%s)", k, w.Args[k], v, w.Text)
				}
			}
			t.Logf("%s", w.Text)
		})
	}
}
