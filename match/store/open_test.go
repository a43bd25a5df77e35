package store

import (
	"path/filepath"
	"sync"
	"testing"
)

// Several processes may open a new database at the same moment (a
// tournament starting, a report or a monitor polling its directory): every
// open must succeed. SQLite refuses the switch to WAL at once while another
// connection is opening the file; before the retry this failed within a few
// dozen rounds.
func TestConcurrentOpenOfNewDatabase(t *testing.T) {
	for i := 0; i < 100; i++ {
		p := filepath.Join(t.TempDir(), "x.db")
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for k := 0; k < 4; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := Open(p)
				errs[k] = err
				if err == nil {
					s.Close()
				}
			}()
		}
		wg.Wait()
		for _, e := range errs {
			if e != nil {
				t.Fatalf("iter %d: %v", i, e)
			}
		}
	}
}
