package match_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/draughts-arbiter/arbiter/match"
)

// Starts tells an engine that never got going from one that started at
// least once, and says when trying again is hopeless.
func TestStarts(t *testing.T) {
	s := match.NewStarts([]string{"ok", "broken", "flaky", "idle"})
	fail := func(why string) *match.Watch { return &match.Watch{Err: errors.New(why)} }
	s.Note(0, &match.Watch{Ready: true})
	s.Note(1, fail("no book"))
	s.Note(2, fail("slow init"))
	s.Note(2, &match.Watch{Ready: true})
	s.Note(3, &match.Watch{}) // never asked (its opponent failed first)
	if s.Hopeless(1, 2) {
		t.Error("hopeless after one failure")
	}
	s.Note(1, fail("no book either"))
	for i, want := range []bool{false, true, false, false} {
		if got := s.Hopeless(i, 2); got != want {
			t.Errorf("Hopeless(%d, 2) = %v, want %v", i, got, want)
		}
	}
	if got, want := s.Never(), []string{"broken (2 attempts): no book either"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Never() = %q, want %q", got, want)
	}
}
