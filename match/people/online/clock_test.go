package online

import (
	"context"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/internal/message"
)

// TestReadClock reads the create page's field as a player writes it:
// minutes and seconds, presets, PDN seconds, and refusals in words.
func TestReadClock(t *testing.T) {
	for _, c := range []struct {
		in, read, pdn, words string
		short, hint          bool
	}{
		{"", ReadNone, "-", "No clock: the game is untimed.", false, false},
		{"none", ReadNone, "-", "No clock: the game is untimed.", false, false},
		// Players' syntax: minutes, then seconds per move.
		{"5+3", ReadMinutes, "300+3", "5 minutes each, 3 seconds added per move.", false, false},
		{" 5 + 3 ", ReadMinutes, "300+3", "5 minutes each, 3 seconds added per move.", false, false},
		{"3|2", ReadMinutes, "180+2", "3 minutes each, 2 seconds added per move.", false, false},
		{"5 min", ReadMinutes, "300", "5 minutes each.", false, false},
		{"5 min + 3 s", ReadMinutes, "300+3", "5 minutes each, 3 seconds added per move.", false, false},
		{"90+30", ReadMinutes, "5400+30", "1 hour 30 minutes each, 30 seconds added per move.", false, false},
		{"1h30+30", ReadMinutes, "5400+30", "1 hour 30 minutes each, 30 seconds added per move.", false, false},
		{"1+0", ReadMinutes, "60", "1 minute each.", false, false},
		{"0.5+1", ReadMinutes, "30+1", "30 seconds each, 1 second added per move.", true, false},
		{"30s", ReadMinutes, "30", "30 seconds each.", true, false},
		{"40/120+30", ReadMinutes, "40/7200+30",
			"40 moves in 2 hours, then 40 moves in 2 hours again, and so on, 30 seconds added per move.", false, false},
		{"40/90:30+30", ReadMinutes, "40/5400:1800+30",
			"40 moves in 1 hour 30 minutes, then 30 minutes for the rest of the game, 30 seconds added per move.", false, false},
		// A number that looks like PDN seconds: read as minutes, with a hint.
		{"300+3", ReadMinutes, "18000+3", "5 hours each, 3 seconds added per move.", false, true},
		// Presets.
		{"blitz", ReadPreset, "300+3", "5 minutes each, 3 seconds added per move.", false, false},
		{"Bullet", ReadPreset, "60+1", "1 minute each, 1 second added per move.", false, false},
		{"classical", ReadPreset, "5400+30", "1 hour 30 minutes each, 30 seconds added per move.", false, false},
		{"fmjd", ReadPreset, "4800+60", "1 hour 20 minutes each, 1 minute added per move.", false, false},
		{"wcdf", ReadPreset, "30/3600", "30 moves in 1 hour, then 30 moves in 1 hour again, and so on.", false, false},
		// PDN syntax in seconds, said so.
		{"pdn:300+3", ReadPDN, "300+3", "5 minutes each, 3 seconds added per move.", false, false},
		{"pdn 40/7200:1800", ReadPDN, "40/7200:1800", "40 moves in 2 hours, then 30 minutes for the rest of the game.", false, false},
		{"600 delay=5", ReadPDN, "600 delay=5", "10 minutes each, the clock waits 5 seconds each move before it runs.", false, false},
		{"move=30", ReadPDN, "move=30", "30 seconds for every move, nothing saved up.", false, false},
		{"move=2", ReadPDN, "move=2", "2 seconds for every move, nothing saved up.", true, false},
	} {
		r, err := ReadClock(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if r.Read != c.read || r.PDN != c.pdn || r.Words.Text != c.words {
			t.Errorf("%q: read %s as %q, %q; want %s, %q, %q", c.in, r.Read, r.PDN, r.Words.Text, c.read, c.pdn, c.words)
		}
		if (r.Short != nil) != c.short {
			t.Errorf("%q: short warning %v, want %v", c.in, r.Short, c.short)
		}
		if (r.Hint != nil) != c.hint {
			t.Errorf("%q: hint %v, want %v", c.in, r.Hint, c.hint)
		}
	}
	if r, _ := ReadClock("300+3"); r.Hint == nil || r.Hint.Text != "That is 300 minutes each. If you meant 300 seconds, write 5+3." {
		t.Errorf("the hint for 300+3: %+v", r.Hint)
	}
	if r, _ := ReadClock("0.5"); r.Short == nil || !strings.Contains(r.Short.Text, "Under a minute") {
		t.Errorf("the warning for 30 seconds: %+v", r.Short)
	}
}

// TestReadClockRefusals refuses in words that say what to write instead.
func TestReadClockRefusals(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"five minutes", `"five minutes": "five minutes" is not a number. Write minutes, then + and the seconds`},
		{"5 parsecs", `"parsecs" is not a unit (write min or s)`},
		{"5+", "a number is missing"},
		{"0+3", "no time on the clock"},
		{"x/5", `"x" is not a number of moves`},
		// A clock face's hours:minutes (it said only "period 1 has no move
		// count, so no period can follow it").
		{"1:30+30", `":" separates periods of moves here (40/120:30: 40 moves in 120 minutes, then 30 minutes); for 1 hour 30 minutes write 90 or 1h30`},
		{"hyperbullet", "or a preset (bullet, blitz, rapid, classical, fmjd, wcdf)"},
		{"pdn:5 minutes", "PDN syntax counts seconds"},
		{"depth=8", "a game between people needs a clock"},
		{"99999999", "more than 11 days"},
		{strings.Repeat("5", 300), "longer than 256 characters"},
	} {
		_, err := ReadClock(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.in, err, c.want)
		}
	}
}

// TestSetupClock: the Setup's clock field is read as players write it, and
// the friendly mode refuses an illegal move with the referee's words.
func TestSetupClock(t *testing.T) {
	sp, err := check(Setup{Variant: "english", Clock: "5+3"}, nil)
	if err != nil || sp.tc.String() != "300+3" {
		t.Fatalf("clock 5+3: %v, %v", sp, err)
	}
	if _, err := check(Setup{Clock: "5+3", TimeControl: "300+3"}, nil); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("clock and time_control: %v", err)
	}
	if _, err := check(Setup{Mode: "friendly", Policy: "strict"}, nil); err == nil || !strings.Contains(err.Error(), "policy") {
		t.Errorf("friendly with a policy: %v", err)
	}
	if _, err := check(Setup{Mode: "casual"}, nil); err == nil || !strings.Contains(err.Error(), "tournament or friendly") {
		t.Errorf("an unknown mode: %v", err)
	}
}

// TestFriendlyRefusesIllegalMoves: in a friendly game two wrong moves lose
// nothing; each is refused with the referee's explanation, and the same
// moves under tournament rules (WCDF) lose the game.
func TestFriendlyRefusesIllegalMoves(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{Variant: "english", Mode: "friendly"})
	play(t, h, c.ID, "11-15", "22-18")
	for _, wrong := range []string{"9-13", "15-11"} {
		r := refused(t, h, c.ID, RoleBlack, mv(wrong), message.Invalid)
		if r.Code != "refused.friendly" || r.Why == nil || r.Why.Code == "" || !strings.Contains(r.Error(), "Nothing is counted") {
			t.Fatalf("%s: refusal %+v (%s)", wrong, r, r.Error())
		}
	}
	s, _ := h.Snapshot(c.ID, RoleBlack)
	if s.State.Status != "running" || s.State.Warnings["black"] != 0 || s.State.Ply != 2 {
		t.Fatalf("after two refused moves: %+v", s.State)
	}
	if r := refused(t, h, c.ID, RoleBlack, mv("9-13"), message.Invalid); !strings.Contains(r.Error(), "15x22") {
		t.Errorf("the explanation does not name the capture: %s", r.Error())
	} else if cite := r.Why.Cite; !strings.Contains(r.Error(), "(15x22) (WCDF rules, 1.20). Nothing") ||
		cite == nil || cite.Code != "article.wcdf" || cite.Args["article"] != "1.20" || strings.Contains(r.Why.Text, "WCDF") {
		// The rulebook's article: in the English text, and as a message
		// of its own for a translation (the explanation's text without it).
		t.Errorf("the refusal does not cite WCDF rule 1.20: %s, why %+v, cite %+v", r.Error(), r.Why, cite)
	}
	act(t, h, c.ID, RoleBlack, mv("15x22"))

	tc := create(t, h, Setup{Variant: "english", Mode: "tournament"})
	play(t, h, tc.ID, "11-15", "22-18")
	act(t, h, tc.ID, RoleBlack, mv("9-13"))
	rep := act(t, h, tc.ID, RoleBlack, mv("15-11"))
	if rep.State.Status != "over" || rep.State.Result != "1-0" {
		t.Fatalf("two illegal moves under tournament rules: %+v", rep.State)
	}
}

// TestRematch: after the game, either player starts a rematch with the
// colours swapped; each gets a link to the side they now play, once.
func TestRematch(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{Variant: "english", Clock: "5+3", White: "Ann", Black: "Bob", Mode: "friendly"})
	ctx := context.Background()
	if _, err := h.Rematch(ctx, c.ID, RoleWhite); err == nil || !strings.Contains(err.Error(), "not over") {
		t.Fatalf("a rematch during the game: %v", err)
	}
	act(t, h, c.ID, RoleBlack, Intent{Kind: "resign"})
	if _, err := h.Rematch(ctx, c.ID, RoleSpectator); err == nil {
		t.Fatal("a spectator started a rematch")
	}
	ann, err := h.Rematch(ctx, c.ID, RoleWhite)
	if err != nil {
		t.Fatal(err)
	}
	bob, err := h.Rematch(ctx, c.ID, RoleBlack)
	if err != nil || bob == "" || bob == ann {
		t.Fatalf("Bob's link %q, %v", bob, err)
	}
	if again, _ := h.Rematch(ctx, c.ID, RoleWhite); again != ann {
		t.Error("a second click made another game")
	}
	id, role, ok := h.Resolve(ann)
	if !ok || role != RoleBlack {
		t.Fatalf("Ann's new link: %s %s %v", id, role, ok)
	}
	s, _ := h.Snapshot(id, role)
	if s.Setup.White != "Bob" || s.Setup.Black != "Ann" || s.Setup.Clock != "5+3" || s.Setup.Mode != "friendly" || s.State.Status != "running" {
		t.Errorf("the rematch's setup %+v, state %+v", s.Setup, s.State)
	}
	old, _ := h.Snapshot(c.ID, RoleBlack)
	if old.Rematch != bob || hasCode(old.Messages, "rematch.started") == nil {
		t.Errorf("the old game's snapshot for Bob: rematch %q, messages %s", old.Rematch, describe(old.Messages))
	}
	if sp, _ := h.Snapshot(c.ID, RoleSpectator); sp.Rematch != "" {
		t.Error("the spectator got a rematch link")
	}
}
