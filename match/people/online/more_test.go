package online

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/rules"
)

func TestPresenceAway(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{})
	h.Presence(c.ID, RoleWhite, true)
	h.Presence(c.ID, RoleWhite, true) // a second tab
	h.Presence(c.ID, RoleSpectator, true)
	h.Presence(c.ID, RoleWhite, false)
	s, _ := h.Snapshot(c.ID, RoleBlack)
	if !s.State.Presence["white"] || s.State.Presence["black"] {
		t.Fatalf("presence %v", s.State.Presence)
	}
	h.Presence(c.ID, RoleWhite, false)
	missed, _, err := h.Watch(context.Background(), c.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A first visit is an arrival ("has opened the game"), not a return.
	if len(missed) != 2 || missed[0].Msg.Code != "presence.joined" || missed[1].Msg.Code != "presence.away" || missed[1].State.Presence["white"] {
		t.Fatalf("presence events %s", describe(missed))
	}
	h.Presence(c.ID, RoleWhite, true)
	missed, _, _ = h.Watch(context.Background(), c.ID, 0)
	if len(missed) != 3 || missed[2].Msg.Text != "White is back." {
		t.Fatalf("presence events after a return %s", describe(missed))
	}
	h.Presence("no-such-game", RoleWhite, true) // ignored
	h.Presence(c.ID, Role(200), true)
}

// shuffle plays n plies of king moves back and forth (first legal move,
// then its reverse).
func shuffle(t *testing.T, h *Hall, id string, n int) Reply {
	t.Helper()
	h.mu.Lock()
	g := h.games[id]
	h.mu.Unlock()
	var rep Reply
	var last [2]rules.Move
	for i := 0; i < n; i++ {
		g.mu.Lock()
		p := g.ref.Position()
		g.mu.Unlock()
		side := p.Turn()
		m, ok := rules.Move{}, false
		if prev := last[side]; prev.From != 0 {
			m, ok = p.Find(prev.To, prev.From, rules.Set{})
		}
		if !ok {
			// The first move after which the opponent cannot capture.
			for _, c := range p.LegalMoves() {
				safe := true
				for _, o := range p.Play(c).LegalMoves() {
					safe = safe && !o.IsCapture()
				}
				if safe {
					m = c
					break
				}
			}
		}
		last[side] = m
		rep = act(t, h, id, Role(side), mv(p.MoveText(m)))
		if rep.State.Status == "over" {
			return rep
		}
	}
	return rep
}

func TestAutomaticDrawsAnnounced(t *testing.T) {
	h, _ := testHall(t, Config{})
	for _, s := range []Setup{
		{Variant: "international", FEN: "W:WK47:BK4"},
		{Variant: "english", FEN: "B:WK29:BK4", Draws: "auto"},
	} {
		// The rule's article, as the arbiter asks "which rule?".
		cites := map[string]string{"international": "FMJD rules, art. 6.1", "english": "WCDF rules, 1.32.1"}[s.Variant]
		c := create(t, h, s)
		rep := shuffle(t, h, c.ID, 20)
		e := hasCode(rep.Events, "result.draw-rule")
		if rep.State.Status != "over" || e == nil || e.Msg.Args["reason"] == "" {
			t.Fatalf("%+v: %+v %s", s, rep.State, describe(rep.Events))
		}
		t.Log(e.Msg.Text)
		// The announcement's reason as a code for the catalogs, and the
		// automatic claim's too (English with automatic draws claims for
		// the player; FMJD's rules declare the draw without a claim).
		claim := hasCode(rep.Events, "claim.accepted")
		autoClaim := s.Draws == "auto"
		if e.Msg.Why == nil || !strings.HasPrefix(e.Msg.Why.Code, "evidence.") || e.Msg.Why.Args["count"] != "3" ||
			autoClaim != (claim != nil) || autoClaim && (claim.Msg.Args["auto"] != "true" || claim.Msg.Why == nil) {
			t.Errorf("%+v: the reason as a message: %+v; the claim %+v", s, e.Msg.Why, claim)
		} else {
			t.Log(e.Msg.Why.Code, e.Msg.Why.Args)
		}
		if e.Msg.Why == nil || e.Msg.Why.Cite == nil || e.Msg.Why.Cite.Text != cites || !strings.Contains(e.Msg.Text, "("+cites+")") ||
			autoClaim && (claim == nil || claim.Msg.Why == nil || claim.Msg.Why.Cite == nil || claim.Msg.Why.Cite.Text != cites) {
			t.Errorf("%+v: the draw does not cite %q: %q %+v", s, cites, e.Msg.Text, e.Msg.Why)
		}
	}
}

func TestLimits(t *testing.T) {
	h, _ := testHall(t, Config{MaxGames: 2, MaxEvents: 4})
	a := create(t, h, Setup{})
	create(t, h, Setup{})
	if _, err := h.Create(context.Background(), Setup{}); err == nil {
		t.Fatal("a third running game was created")
	} else if r, ok := err.(*Refusal); !ok || r.Kind != message.Unavailable {
		t.Fatalf("third game: %v", err)
	}
	play(t, h, a.ID, "9-13", "22-18", "10-14", "18x9")
	refused(t, h, a.ID, RoleBlack, mv("5x14"), message.Conflict) // the event limit
	act(t, h, a.ID, RoleBlack, Intent{Kind: "resign"})
	b := create(t, h, Setup{}) // a finished game frees its place
	refused(t, h, b.ID, RoleArbiter, Intent{Kind: "annotate", Text: string(make([]byte, MaxAnnotation+1))}, message.Invalid)
}

func TestSnapshotGeometry(t *testing.T) {
	h, _ := testHall(t, Config{})
	c := create(t, h, Setup{Variant: "international"})
	s, err := h.Snapshot(c.ID, RoleBlack)
	if err != nil {
		t.Fatal(err)
	}
	if s.FlippedFor != RoleBlack || s.Geometry.Width != 10 || len(s.Geometry.Squares) != 50 || s.Geometry.Squares[0] != (Square{"1", 0, 1}) {
		t.Fatalf("snapshot %+v %+v", s.FlippedFor, s.Geometry.Squares[:2])
	}
	if len(s.State.Board.Pieces) != 40 || s.State.Turn != "white" {
		t.Fatalf("board %d pieces, %s to move", len(s.State.Board.Pieces), s.State.Turn)
	}
	if _, err := h.Snapshot("nope", RoleBlack); err == nil {
		t.Fatal("snapshot of no game")
	}
}

// TestSnapshotPolicy: the snapshot names the illegal-move policy in force,
// the variant's federation's when the creator left it to the variant, so
// that the page can say it before the first illegal move.
func TestSnapshotPolicy(t *testing.T) {
	h, _ := testHall(t, Config{})
	for _, c := range []struct {
		setup Setup
		want  string
	}{
		{Setup{Variant: "international", TimeControl: "300+3"}, "opponent-decides"},
		{Setup{Variant: "english", TimeControl: "300+3"}, "wcdf"},
		{Setup{Variant: "international", TimeControl: "300+3", Policy: "strict"}, "strict"},
		{Setup{Variant: "international", Mode: "friendly"}, ""},
	} {
		g := create(t, h, c.setup)
		s, err := h.Snapshot(g.ID, RoleWhite)
		if err != nil {
			t.Fatal(err)
		}
		if s.Policy != c.want {
			t.Errorf("%+v: the snapshot's policy is %q, want %q", c.setup, s.Policy, c.want)
		}
	}
}

func TestEngineGameResumesAfterRestart(t *testing.T) {
	bin := arbiterBin(t)
	engines := map[string]EngineSpec{"sparring": {Name: "sparring", Argv: []string{bin, "engine", "--variant", "english"}, Protocol: "hub", InitTimeout: time.Minute}}
	path := filepath.Join(t.TempDir(), "games.db")
	open := func() *Hall {
		h, err := Open(context.Background(), Config{Path: path, Engines: engines, Log: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h := open()
	c := create(t, h, Setup{Variant: "english", TimeControl: "600", Engine: "sparring", EngineSide: "black", Beginner: true})
	waitTurn := func(h *Hall, want string) Snapshot {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for time.Now().Before(deadline) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			s, err := h.Snapshot(c.ID, RoleWhite)
			if err != nil {
				t.Fatal(err)
			}
			if s.State.Turn == want || s.State.Status == "over" {
				cancel()
				return s
			}
			_, live, _ := h.Watch(ctx, c.ID, s.V)
			<-live // an event or the timeout
			cancel()
		}
		t.Fatalf("not %s's turn in time", want)
		return Snapshot{}
	}
	s := waitTurn(h, "white") // the engine moved first
	act(t, h, c.ID, RoleWhite, mv(s.Legal[0]))
	waitTurn(h, "white")
	h.Close()
	h = open()
	defer h.Close()
	s = waitTurn(h, "white")
	if s.State.Status != "running" || len(s.Moves) != 3 {
		t.Fatalf("after the restart: %d moves, %+v", len(s.Moves), s.State)
	}
	act(t, h, c.ID, RoleWhite, mv(s.Legal[0]))
	s = waitTurn(h, "white")
	if len(s.Moves) != 5 {
		t.Fatalf("the engine did not move after the restart: %d moves", len(s.Moves))
	}
}

func TestFinishedGamesLeaveMemoryAndComeBack(t *testing.T) {
	defer func(n int) { maxFinished = n }(maxFinished)
	maxFinished = 2
	h, _ := testHall(t, Config{})
	var ids []string
	for i := 0; i < 5; i++ {
		c := create(t, h, Setup{White: "w"})
		act(t, h, c.ID, RoleBlack, Intent{Kind: "resign"})
		ids = append(ids, c.ID)
	}
	var n int
	if !poll.Until(30*time.Second, 10*time.Millisecond, func() bool {
		h.mu.Lock()
		n = len(h.games)
		h.mu.Unlock()
		return n <= 3
	}) {
		t.Fatalf("%d games in memory, want at most 3", n)
	}
	for _, id := range ids {
		s, err := h.Snapshot(id, RoleSpectator)
		if err != nil || s.State.Result != "1-0" || s.Setup.White != "w" {
			t.Fatalf("game %s: %+v %v", id, s.State, err)
		}
		act(t, h, id, RoleArbiter, Intent{Kind: "annotate", Text: "seen again"})
	}
}
