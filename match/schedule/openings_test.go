package schedule

import (
	"reflect"
	"testing"
)

// The opening options: the first opening (start), one opening per
// encounter instead of per round, and no colour swap within a pair.
func TestOpeningOptions(t *testing.T) {
	openings := func(cfg Config) (ops []int, swapped bool) {
		t.Helper()
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range s.All() {
			ops = append(ops, p.Opening)
			if p.PairGame == 1 {
				first := s.All()[p.Index-1]
				swapped = swapped || first.White == p.Black
			}
		}
		return ops, swapped
	}
	base := Config{Players: 4, GamesPerEncounter: 2, Openings: 5}
	for _, tt := range []struct {
		name    string
		cfg     func(Config) Config
		want    []int
		swapped bool
	}{
		// 3 rounds of 2 boards, a pair each: each round's boards share.
		{"per round", func(c Config) Config { return c }, []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, true},
		{"start 4", func(c Config) Config { c.Start = 3; return c }, []int{3, 3, 3, 3, 4, 4, 4, 4, 0, 0, 0, 0}, true},
		{"per encounter", func(c Config) Config { c.PerEncounter = true; return c }, []int{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0}, true},
		{"noswap", func(c Config) Config { c.NoSwap = true; return c }, []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, false},
	} {
		got, swapped := openings(tt.cfg(base))
		if !reflect.DeepEqual(got, tt.want) || swapped != tt.swapped {
			t.Errorf("%s: openings %v (swapped %v), want %v (swapped %v)", tt.name, got, swapped, tt.want, tt.swapped)
		}
	}
	if _, err := New(Config{Players: 2, Openings: 3, Start: 3}); err == nil {
		t.Error("a first opening past the list was accepted")
	}
}
