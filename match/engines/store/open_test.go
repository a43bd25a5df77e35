package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// A monitor that opens the database of a running event and counts its games
// (arbiter report, a test, a script) must never make the event's own writes
// fail. Before every transaction was taken IMMEDIATE and an open of an
// existing database stopped writing, the writer met SQLITE_BUSY within a few
// games.
func TestWritesSurviveAPollingReader(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	w := open(t, path)
	if err := w.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	polled := make(chan error, 1)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				if n == 0 {
					polled <- errors.New("the reader never ran")
				}
				polled <- nil
				return
			default:
			}
			r, err := Open(path)
			if err != nil {
				polled <- err
				return
			}
			_, err = r.Count(ctx)
			r.Close()
			if err != nil {
				polled <- err
				return
			}
			n++
		}
	}()
	for id := 0; id < 200; id++ {
		if err := w.Start(ctx, testGame(id)); err != nil {
			t.Fatalf("start %d: %v", id, err)
		}
		if err := w.Finish(ctx, testGame(id)); err != nil {
			t.Fatalf("finish %d: %v", id, err)
		}
	}
	close(stop)
	if err := <-polled; err != nil {
		t.Fatal(err)
	}
	if c, _ := w.Count(ctx); c[Finished] != 200 {
		t.Errorf("finished = %d, want 200", c[Finished])
	}
}

// A database written by a newer arbiter (a later schema) is refused by name
// rather than misread.
func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	s := open(t, path)
	if _, err := s.db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), "schema version 99 is newer") {
		t.Fatalf("err = %v, want a newer-schema refusal", err)
	}
}

// An event's database cut in half (a copy stopped midway, a disk that
// failed) is refused when opened, saying so and what to do, where it said
// only "journal_mode=WAL: database disk image is malformed".
func TestDamagedDatabaseRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	s := open(t, path)
	if err := s.Init(ctx, testEvent("h")); err != nil {
		t.Fatal(err)
	}
	for id := range 300 {
		g := testGame(id)
		g.PDN = strings.Repeat("1. 11-15 23-19 ", 40) // rows spread over many pages
		if err := s.Finish(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	_, err = Open(path)
	if err == nil || !strings.Contains(err.Error(), path+": the database is damaged (half-written or truncated?)") ||
		!strings.Contains(err.Error(), "restore it from a backup, or move it away to start with a new one") {
		t.Fatalf("opening a truncated database: %v", err)
	}
}
