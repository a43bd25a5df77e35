package arbiter

import "github.com/draughts-arbiter/arbiter/rules"

// drawTrackers holds the draw rule trackers of one game.
type drawTrackers struct{}

func newDrawTrackers(v *rules.Variant, start rules.Position, maxMoves int) drawTrackers {
	return drawTrackers{}
}
