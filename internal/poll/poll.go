// Package poll waits for a condition, never for a time: the tests' one way
// to wait for what another process, a goroutine or a browser does. The
// timeout is a generous bound for a loaded machine (CI runs on two busy
// cores), not a timing the test asserts.
//
// Imported by tests only; it imports only the standard library.
package poll

import "time"

// Every is how often Until asks by default.
const Every = 20 * time.Millisecond

// Until asks cond at once and then every interval (Every when 0) until it
// holds, and reports whether it held within timeout.
func Until(timeout, interval time.Duration, cond func() bool) bool {
	if cond() {
		return true
	}
	if interval <= 0 {
		interval = Every
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-deadline.C:
			return cond()
		case <-tick.C:
			if cond() {
				return true
			}
		}
	}
}
