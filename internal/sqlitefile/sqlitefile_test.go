package sqlitefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpen: a foreign or half-written file is refused by name; a path with
// the characters a URI would misread opens that very file; the database has
// one connection.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"notes.db": "these are my notes\n", "half.db": "SQLite for"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Open(p); err == nil || !strings.Contains(err.Error(), p+" is not an SQLite database") {
			t.Fatalf("%s: %v", name, err)
		}
	}
	odd := filepath.Join(dir, "a?b#c%20d")
	if err := os.Mkdir(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(odd, "x.db")
	db, dsn, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t (x)"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the file was not created where asked (dsn %s): %v", dsn, err)
	}
	if n := db.Stats().MaxOpenConnections; n != 1 {
		t.Fatalf("%d connections, want 1", n)
	}
	if _, _, err := Open(p); err != nil {
		t.Fatalf("reopening an SQLite file: %v", err)
	}
}
