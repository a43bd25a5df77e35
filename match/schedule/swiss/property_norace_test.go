//go:build !race

package swiss

import "testing"

// TestPairProperties500 plays one generated event of 500 players over 11
// rounds (the largest size the property tests ask for) with the same
// checks as TestPairProperties. It stays out of the race build, where the
// solver runs ten times slower and the race detector finds nothing here that
// the small fields do not already exercise.
func TestPairProperties500(t *testing.T) {
	if testing.Short() {
		t.Skip("500 players over 11 rounds: not in -short")
	}
	propertyRunSeeds(t, []eventSize{{500, 11}}, 1)
}
