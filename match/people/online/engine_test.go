package online

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/internal/poll"
	"github.com/draughts-arbiter/arbiter/internal/testbin"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// arbiterBin builds the arbiter binary once: its "engine" subcommand is
// the sparring engine.
func arbiterBin(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "arbiter-online-test")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "arbiter")
		binErr = testbin.Build(binPath, "../../../cmd/arbiter")
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func TestHumanAgainstSparringEngine(t *testing.T) {
	bin := arbiterBin(t)
	engines := map[string]EngineSpec{"sparring": {Name: "sparring", Argv: []string{bin, "engine", "--variant", "english", "--level", "greedy"}, Protocol: "hub",
		InitTimeout: time.Minute}}
	h, _ := testHall(t, Config{Engines: engines, Now: time.Now})
	c := create(t, h, Setup{Variant: "english", TimeControl: "600+5", Engine: "sparring", EngineSide: "white", Beginner: true, Black: "Human",
		Policy: "opponent-decides"})
	if _, ok := c.Tokens[RoleWhite]; ok {
		t.Fatal("the engine's side got a link")
	}
	refused(t, h, c.ID, RoleWhite, mv("22-18"), message.Forbidden)
	// The engine cannot decide about the human's illegal move: corrected.
	rep := act(t, h, c.ID, RoleBlack, mv("9-18"))
	if hasCode(rep.Events, "warning.corrected") == nil || rep.State.Pending != nil || rep.State.Turn != "black" {
		t.Fatalf("illegal move against the engine: %+v %s", rep.State, describe(rep.Events))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	_, live, err := h.Watch(ctx, c.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	engineMoves := 0
	for ply := 0; ; {
		s, err := h.Snapshot(c.ID, RoleBlack)
		if err != nil {
			t.Fatal(err)
		}
		if s.State.Status == "over" {
			t.Logf("over after %d plies: %s (%s) %s", s.State.Ply, s.State.Result, s.State.Termination, s.State.Reason)
			break
		}
		if s.State.Turn == "black" && len(s.Legal) > 0 {
			// The human plays the first legal move it is shown; after 60
			// moves it resigns to keep the test short.
			if s.State.Ply >= 120 {
				act(t, h, c.ID, RoleBlack, Intent{Kind: "resign"})
				continue
			}
			act(t, h, c.ID, RoleBlack, mv(s.Legal[0]))
			ply = s.State.Ply + 1
			continue
		}
		// Wait for the engine's move.
		select {
		case e, ok := <-live:
			if !ok {
				t.Fatal("watch closed")
			}
			if e.Type == EvMove && e.Move.Color == "white" {
				engineMoves++
			}
		case <-ctx.Done():
			t.Fatalf("the engine did not move at ply %d", ply)
		}
	}
	if engineMoves == 0 {
		t.Error("the engine never moved")
	}
	t.Log(checkPDN(t, h, c.ID))
}

// An engine that cannot start ends the game with a reason that names its
// side as the referee does ("White's engine could not start: ..."); it
// said "white engine".
func TestEngineThatCannotStartNamesItsSide(t *testing.T) {
	engines := map[string]EngineSpec{"broken": {Name: "broken", Argv: []string{"/bin/false"}, Protocol: "hub", InitTimeout: 5 * time.Second}}
	h, _ := testHall(t, Config{Engines: engines, Now: time.Now})
	c := create(t, h, Setup{Variant: "english", TimeControl: "600+5", Engine: "broken", EngineSide: "white", Black: "Human"})
	var s Snapshot
	if !poll.Until(time.Minute, 0, func() bool {
		var err error
		s, err = h.Snapshot(c.ID, RoleBlack)
		return err == nil && s.State.Status == "over"
	}) {
		t.Fatalf("the game is not over: %+v", s.State)
	}
	if want := "White's engine could not start: "; !strings.HasPrefix(s.State.Reason, want) {
		t.Errorf("reason %q, want it to begin %q", s.State.Reason, want)
	}
}
