package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A second open file of the same name cannot take a held lock, and takes
// it once the first is closed.
func TestTryLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b := open(), open()
	defer b.Close()
	if err := TryLock(a); err != nil {
		t.Fatalf("first lock: %v", err)
	}
	if err := TryLock(b); !errors.Is(err, ErrLocked) {
		t.Fatalf("second lock while held: %v, want ErrLocked", err)
	}
	a.Close()
	if err := TryLock(b); err != nil {
		t.Fatalf("lock after the holder closed: %v", err)
	}
}
