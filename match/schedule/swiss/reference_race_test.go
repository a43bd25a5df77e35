//go:build race

package swiss_test

// raceEnabled: under the race detector the reference test pairs a sample of
// the generated cases (Pair is single-threaded; the full set runs without
// -race).
const raceEnabled = true
