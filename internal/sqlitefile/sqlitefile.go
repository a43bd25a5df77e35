// Package sqlitefile prepares the SQLite files the arbiter owns (the web
// referee's games, the director's events): it checks that a file is whole,
// that it belongs to its owner and that its schema is one this build knows,
// creates the schema in an empty file and migrates an older one. One
// definition, so that every store refuses a damaged or foreign file with the
// same clear sentence instead of a crash or a silent overwrite.
package sqlitefile

import (
	"database/sql"
	"fmt"
)

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

// Init checks db's file against s, creating or migrating its schema, and
// switches it to write-ahead logging.
func Init(db *sql.DB, s Schema) error {
	var ok string
	if err := db.QueryRow("PRAGMA quick_check").Scan(&ok); err != nil {
		return fmt.Errorf("the database is damaged (half-written or truncated?): %w", err)
	}
	if ok != "ok" {
		return fmt.Errorf("the database is damaged (half-written or truncated?): %s", ok)
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
