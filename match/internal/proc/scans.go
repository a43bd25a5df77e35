package proc

import "sync"

// scans runs the search for what stopped engines left behind (killMarked):
// one pass over every process of the machine, reading each one's
// environment. An event's end stops all its engines at once; HoldScans
// makes that one pass instead of one per engine.
var scans scanHold

type scanHold struct {
	mu      sync.Mutex
	held    int      // HoldScans not yet released
	pending []uint64 // engines stopped while held
}

// stopped finds and kills what engine seq left behind: now, or at the
// release of the holds in force.
func (h *scanHold) stopped(seq uint64) {
	h.mu.Lock()
	if h.held > 0 {
		h.pending = append(h.pending, seq)
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	killMarked([]uint64{seq})
}

// HoldScans defers the search for what stopping engines leave behind
// (children that left their process group) until release, which searches
// once for all of them; a Stop meanwhile returns without it. The caller
// stops a set of engines between the two (the end of an event, its
// preflight): each search reads the environment of every process of the
// machine, hundreds on a desktop. release may be called more than once.
func HoldScans() (release func()) {
	scans.mu.Lock()
	scans.held++
	scans.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			scans.mu.Lock()
			scans.held--
			var seqs []uint64
			if scans.held == 0 {
				seqs, scans.pending = scans.pending, nil
			}
			scans.mu.Unlock()
			if len(seqs) > 0 {
				killMarked(seqs)
			}
		})
	}
}
