package match

import "testing"

// plainPlayer is a Player that does not enforce Request.Limit itself.
type plainPlayer struct{ Player }

// limitPlayer is one that does.
type limitPlayer struct{ Player }

func (limitPlayer) EnforcesLimit() {}

// A Watch (how the runners wrap every engine) is looked through: PlayGame
// derives no ctx per move for a LimitPlayer inside one.
func TestEnforcesLimitThroughWatch(t *testing.T) {
	for _, tt := range []struct {
		p    Player
		want bool
	}{
		{limitPlayer{}, true},
		{&Watch{Player: limitPlayer{}}, true},
		{plainPlayer{}, false},
		{&Watch{Player: plainPlayer{}}, false},
	} {
		if got := enforcesLimit(tt.p); got != tt.want {
			t.Errorf("enforcesLimit(%T) = %v, want %v", tt.p, got, tt.want)
		}
	}
}
