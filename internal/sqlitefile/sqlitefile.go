// Package sqlitefile opens and prepares the SQLite files the arbiter owns
// (the engine events' store, the web referee's games, the director's
// events): Open checks that a file is SQLite at all and opens it with the
// arbiter's settings (pragmas, immediate transactions, one connection); Init
// checks that it is whole, that it belongs to its owner and that its schema
// is one this build knows, creates the schema in an empty file and migrates
// an older one. One definition, so that every store refuses a damaged or
// foreign file with the same clear sentence instead of a crash or a silent
// overwrite.
//
// Imported by the stores (match/engines/store, match/people/online,
// match/people/director); it imports only the standard library and the
// SQLite driver.
package sqlitefile

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// BusyTimeout is how long a statement waits for another connection's lock.
const BusyTimeout = 10 * time.Second

// magic starts every SQLite file.
var magic = []byte("SQLite format 3\x00")

// uriPath escapes what a "file:" URI path cannot hold as it is.
var uriPath = strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23")

// Open opens (creating it if need be) the SQLite file at path and returns
// the database, limited to one connection (SQLite has one writer anyway,
// and one connection never meets SQLITE_BUSY from itself, so a store's
// writes happen in the order it makes them), and the DSN it was opened
// with, for a second connection (a reader). A file that exists but does not
// start as an SQLite file starts (a foreign or half-written file) is
// refused. Errors name the path; callers add who they are.
func Open(path string) (*sql.DB, string, error) {
	if err := checkKind(path); err != nil {
		return nil, "", err // not a regular file: opening a FIFO would block
	}
	if f, err := os.Open(path); err == nil {
		head := make([]byte, len(magic))
		n, _ := io.ReadFull(f, head)
		f.Close()
		if n > 0 && (n < len(head) || !bytes.Equal(head, magic)) {
			return nil, "", fmt.Errorf("%s is not an SQLite database (a foreign or half-written file); refusing to use it", path)
		}
	}
	dsn := DSN(path)
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, "", fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, dsn, nil
}

// DSN is the data source name of the SQLite file at path with the
// arbiter's settings: a busy timeout, synchronous=NORMAL (durable with
// write-ahead logging), foreign keys on, a page cache of 512 KB, and
// transactions taken IMMEDIATE.
// The cache is a quarter of SQLite's default: the stores append rows and
// read them back in scans, which the system's file cache serves as well,
// and every page the cache grows by is memory touched for the first time
// (a page fault: 16 µs each on the project's virtual machine, where the
// default cache cost a 200-game match 900 faults, 2.5 % of its CPU).
// Every transaction of the stores writes: taken IMMEDIATE, it waits for the
// write lock through the busy handler, where a deferred one that read first
// would fail at once with SQLITE_BUSY when another connection wrote in
// between. The path goes in a "file:" URI: SQLite decodes %XX in it, and
// "?" and "#" (legal in a directory name) would otherwise end it early.
func DSN(path string) string {
	q := url.Values{}
	busy := fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds())
	for _, p := range []string{busy, "synchronous(NORMAL)", "foreign_keys(1)", "cache_size(-512)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	return "file:" + uriPath.Replace(path) + "?" + q.Encode()
}

// Schema describes one owner's files.
type Schema struct {
	Owner string // who the file belongs to, as a sentence names it: "the web referee"
	App   int    // PRAGMA application_id that marks the owner's files
	// Version is the newest schema version (PRAGMA user_version) and SQL
	// creates it in an empty file.
	Version int
	SQL     string
	// Migrations[v] turns version v into v+1.
	Migrations map[int]string
}

// CheckWhole runs SQLite's quick check of db's file: a damaged one
// (half-written, truncated, overwritten) is refused with the same sentence
// by every store, which says what to do.
func CheckWhole(db *sql.DB) error {
	var ok string
	err := db.QueryRow("PRAGMA quick_check").Scan(&ok)
	if err == nil && ok != "ok" {
		err = errors.New(ok)
	}
	if err != nil {
		return fmt.Errorf("the database is damaged (half-written or truncated?): %w; restore it from a backup, or move it away to start with a new one", err)
	}
	return nil
}

// Init checks db's file against s, creating or migrating its schema, and
// switches it to write-ahead logging.
func Init(db *sql.DB, s Schema) error {
	if err := CheckWhole(db); err != nil {
		return err
	}
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode=WAL").Scan(&mode); err != nil {
		return fmt.Errorf("journal_mode=WAL: %w", err)
	}
	var app, ver, tables int
	if err := db.QueryRow("PRAGMA application_id").Scan(&app); err != nil {
		return err
	}
	if err := db.QueryRow("PRAGMA user_version").Scan(&ver); err != nil {
		return err
	}
	if err := db.QueryRow("SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
		return err
	}
	switch {
	case app == 0 && tables == 0:
		_, err := db.Exec(fmt.Sprintf("BEGIN IMMEDIATE;\n%sPRAGMA application_id = %d;\nPRAGMA user_version = %d;\nCOMMIT;", s.SQL, s.App, s.Version))
		if err != nil {
			return fmt.Errorf("creating the schema: %w", err)
		}
		return nil
	case app != s.App:
		return fmt.Errorf("the database belongs to another program (application_id %#x, %d tables), not to %s; use a file of its own", app, tables, s.Owner)
	case ver < 1:
		return fmt.Errorf("the database has no schema version (half-written?)")
	case ver > s.Version:
		return fmt.Errorf("the database's schema version %d is newer than this arbiter's (%d); use a newer arbiter", ver, s.Version)
	}
	for v := ver; v < s.Version; v++ {
		m, ok := s.Migrations[v]
		if !ok {
			return fmt.Errorf("no migration from schema version %d to %d", v, v+1)
		}
		if _, err := db.Exec(fmt.Sprintf("BEGIN IMMEDIATE;\n%s\nPRAGMA user_version = %d;\nCOMMIT;", m, v+1)); err != nil {
			return fmt.Errorf("migrating the schema from version %d: %w", v, err)
		}
	}
	return nil
}
