package director

import (
	"context"
	"strings"
	"testing"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// TestResultLabel: one notation per event, from its scoring: FMJD's
// 2-1-0 writes 2-0 / 1-1 / 0-2, English checkers' halves 1-0 / ½-½ / 0-1.
func TestResultLabel(t *testing.T) {
	fmjd := Event{Scoring: tally.DefaultScoring}
	english := Event{Scoring: tally.DefaultScoring, HalfPoints: true}
	for _, tc := range []struct {
		w, b          tally.Result
		fmjd, english string
	}{
		{tally.Win, tally.Loss, "2-0", "1-0"},
		{tally.Draw, tally.Draw, "1-1", "½-½"},
		{tally.Loss, tally.Win, "0-2", "0-1"},
		{tally.ForfeitWin, tally.ForfeitLoss, "2-0 by forfeit", "1-0 by forfeit"},
		{tally.ForfeitLoss, tally.ForfeitWin, "0-2 by forfeit", "0-1 by forfeit"},
		{tally.ForfeitLoss, tally.ForfeitLoss, "0-0 by forfeit", "0-0 by forfeit"},
		{tally.UnratedWin, tally.UnratedLoss, "2-0 (not rated)", "1-0 (not rated)"},
		{tally.UnratedDraw, tally.UnratedDraw, "1-1 (not rated)", "½-½ (not rated)"},
		{tally.HalfBye, tally.ForfeitWin, "1-2 (White: half-point bye)", "½-1 (White: half-point bye)"},
		{tally.ForfeitWin, tally.ZeroBye, "2-0 (Black: zero-point bye)", "1-0 (Black: zero-point bye)"},
		{0, 0, "", ""},
		{tally.Win, 0, "", ""},
	} {
		b := Board{WhiteResult: tc.w, BlackResult: tc.b}
		if got := fmjd.ResultLabel(b); got != tc.fmjd {
			t.Errorf("FMJD %q-%q: %q, want %q", tc.w, tc.b, got, tc.fmjd)
		}
		if got := english.ResultLabel(b); got != tc.english {
			t.Errorf("English %q-%q: %q, want %q", tc.w, tc.b, got, tc.english)
		}
	}
	// The zero value of Scoring is 2-1-0; a scoring of 3-1-0 writes 3-0.
	if got := (&Event{}).ResultLabel(Board{WhiteResult: tally.Win, BlackResult: tally.Loss}); got != "2-0" {
		t.Errorf("default scoring: %q", got)
	}
	three := Event{Scoring: tally.Scoring{Win: 3, Draw: 1, ForfeitWin: 3}}
	if got := three.ResultLabel(Board{WhiteResult: tally.Loss, BlackResult: tally.Win}); got != "0-3" {
		t.Errorf("3-1-0: %q", got)
	}
	labels := english.OutcomeLabels()
	if len(labels) != len(Outcomes()) || labels["=-="] != "½-½" || labels["--+"] != "0-1 by forfeit" {
		t.Errorf("outcome labels %v", labels)
	}
	if o := (Board{WhiteResult: tally.HalfBye, BlackResult: tally.ForfeitWin}).Outcome(); o != "" {
		t.Errorf("a bye's board as an outcome: %q", o)
	}
}

// TestAuditLabels: the audit log writes results as the event does.
func TestAuditLabels(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		half bool
		want []string
	}{
		{"fmjd", false, []string{"round 1 board 1: 2-0 (director)", "round 1 board 2: 1-1 (director)", "round 1 board 2: 1-1 -> 0-2 by forfeit (director)"}},
		{"english", true, []string{"round 1 board 1: 1-0 (director)", "round 1 board 2: ½-½ (director)", "round 1 board 2: ½-½ -> 0-1 by forfeit (director)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t, testPair)
			ev, _, err := s.Create(ctx, Event{Name: tc.name, Variant: "international", Rounds: 1, HalfPoints: tc.half})
			must(t, err)
			_, err = s.AddPlayers(ctx, ev.ID, []Player{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D"}})
			must(t, err)
			must(t, s.PairRound(ctx, ev.ID, 1, nil))
			must(t, s.Publish(ctx, ev.ID, 1))
			for _, r := range []struct {
				board int
				res   [2]tally.Result
			}{{1, [2]tally.Result{tally.Win, tally.Loss}}, {2, [2]tally.Result{tally.Draw, tally.Draw}}, {2, [2]tally.Result{tally.ForfeitLoss, tally.ForfeitWin}}} {
				if _, err := s.Record(ctx, ev.ID, 1, r.board, r.res, "director"); err != nil {
					t.Fatal(err)
				}
			}
			log, err := s.AuditLog(ctx, ev.ID)
			must(t, err)
			var lines []string
			for _, a := range log {
				if a.Action == "result" {
					lines = append(lines, a.Detail)
				}
			}
			if strings.Join(lines, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("audit lines\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
