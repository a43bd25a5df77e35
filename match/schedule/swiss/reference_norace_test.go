//go:build !race

package swiss_test

const raceEnabled = false
