package swiss

import "testing"

// SetVerify turns on a check of every warm solve against a solve from
// scratch (for the external tests too).
func SetVerify(t *testing.T) func() {
	verifyHook = func(m *matcher, mate []int) {
		f := m.fresh()
		if wCmp(m.total(mate), m.total(f)) != 0 {
			t.Errorf("warm solve weight %x, fresh %x", m.total(mate), m.total(f))
		}
	}
	return func() { verifyHook = nil }
}

// TestVerifySolves plays small events with every warm solve checked
// against a solve from scratch.
func TestVerifySolves(t *testing.T) {
	defer SetVerify(t)()
	propertyRun(t, []eventSize{{8, 7}, {13, 9}, {20, 11}, {31, 9}})
}
