package reports

import (
	"testing"
	"time"
)

// The participants' host guard sums the games' per side, takes the
// overshoot of the engine's last game to finish, and is absent for an
// engine whose host never timed a move.
func TestParticipantsHostGuard(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ev := Event{Engines: []string{"cb", "hub"}, Games: []Game{
		{White: "cb", Black: "hub", Result: "1-0", Finished: t0.Add(2 * time.Minute),
			HostGuard: [2]HostGuard{{Stopped: 2, Moves: 10, Overshoot: 1.5}}},
		{White: "hub", Black: "cb", Result: "0-1", Finished: t0.Add(time.Minute),
			HostGuard: [2]HostGuard{{}, {Stopped: 1, Moves: 12, Overshoot: 1.2}}},
	}}
	ps := participants(ev, ev.Engines)
	if g := ps[0].HostGuard; g == nil || *g != (HostGuard{Stopped: 3, Moves: 22, Overshoot: 1.5}) {
		t.Errorf("cb's host guard %+v; want 3 of 22 moves stopped, overshoot 1.5 (its last game's)", g)
	}
	if g := ps[1].HostGuard; g != nil {
		t.Errorf("hub's host guard %+v; want none", *g)
	}
	r, err := BuildResults(ev)
	if err != nil {
		t.Fatal(err)
	}
	if g := r.Event.Participants[0].HostGuard; g == nil || g.Stopped != 3 {
		t.Errorf("results.json's cb host guard %+v; want 3 stops", g)
	}
}
