package match_test

import (
	"context"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match"
	"github.com/draughts-arbiter/arbiter/rules"
)

// scripted is a test double of an engine: it plays its first legal move
// until its move number `at`, then answers with `end` instead of a move (a
// DXP engine's GAMEEND).
type scripted struct {
	at, made int
	end      match.Reply
}

func (s *scripted) Name() string { return "scripted" }
func (s *scripted) NewGame(context.Context, *rules.Variant, rules.Position, arbiter.TimeControl) error {
	s.made = 0
	return nil
}
func (s *scripted) Close() error { return nil }
func (s *scripted) Play(_ context.Context, req match.Request) (match.Reply, error) {
	s.made++
	if s.made >= s.at {
		return s.end, nil
	}
	return match.Reply{Move: req.Position.LegalMoves()[0]}, nil
}

// An engine that ends the game itself (DXP GAMEEND) gets what the rules
// give: "I give up" is a resignation; a draw or a win claimed in a game the
// rules have not ended is leaving the game, recorded as such.
func TestEngineEndsTheGame(t *testing.T) {
	tests := []struct {
		name string
		end  match.Reply
		why  string
	}{
		{"gives up", match.Reply{Resign: true, Text: "DXP GAMEEND E10"}, "resigned (DXP GAMEEND E10)"},
		{"claims a draw the rules do not give", match.Reply{ClaimDraw: true}, "claiming a draw that the rules do not give"},
		{"claims a win", match.Reply{ClaimWin: true}, "claiming a win that the rules do not give"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			white := &scripted{at: 3, end: tt.end}
			black := &scripted{at: 1000}
			rec := play(t, config("international", "60+1", arbiter.PolicyWCDF), white, black, match.Options{})
			res := rec.Result
			if res.Outcome != rules.BlackWins || res.Termination != arbiter.Resignation {
				t.Fatalf("result %s, want white losing by resignation", res)
			}
			if len(rec.Moves) != 4 {
				t.Errorf("%d plies, want 4 (white ended the game at its third move)", len(rec.Moves))
			}
			if !strings.Contains(res.Reason, tt.why) {
				t.Errorf("reason %q does not say %q", res.Reason, tt.why)
			}
		})
	}
}
