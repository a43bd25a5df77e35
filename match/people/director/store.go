package director

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/draughts-arbiter/arbiter/internal/sqlitefile"
	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
)

// The file's marks: application_id says it is a director's database,
// user_version its schema.
const (
	applicationID = 0x44495245 // "DIRE"
	schemaVersion = 5
)

const schema = `
CREATE TABLE events (
	id         TEXT PRIMARY KEY,      -- the public id
	token_hash BLOB NOT NULL UNIQUE,  -- SHA-256 of the director's secret
	created    INTEGER NOT NULL,      -- unix ns
	body       TEXT NOT NULL          -- the Event as JSON (id and created aside)
) WITHOUT ROWID;
CREATE TABLE players (
	event      TEXT NOT NULL REFERENCES events(id),
	id         INTEGER NOT NULL,       -- entry order
	number     INTEGER NOT NULL DEFAULT 0,
	name       TEXT NOT NULL,
	club       TEXT NOT NULL DEFAULT '',
	federation TEXT NOT NULL DEFAULT '',
	fed_id     TEXT NOT NULL DEFAULT '',
	rating     INTEGER NOT NULL DEFAULT 0,
	entered    INTEGER NOT NULL DEFAULT 1,
	withdrawn  INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (event, id)
) WITHOUT ROWID;
CREATE TABLE rounds (
	event TEXT NOT NULL REFERENCES events(id),
	n     INTEGER NOT NULL,
	state TEXT NOT NULL,              -- paired | published | closed
	bye   INTEGER NOT NULL DEFAULT 0, -- player id of the pairing-allocated bye
	PRIMARY KEY (event, n)
) WITHOUT ROWID;
CREATE TABLE boards (
	event  TEXT NOT NULL,
	round  INTEGER NOT NULL,
	board  INTEGER NOT NULL,
	white  INTEGER NOT NULL,
	black  INTEGER NOT NULL,
	wres   TEXT NOT NULL DEFAULT '',  -- TRF code, '' while pending
	bres   TEXT NOT NULL DEFAULT '',
	source TEXT NOT NULL DEFAULT '',
	game   TEXT NOT NULL DEFAULT '',  -- online game id
	links  BLOB,                      -- the game's links, sealed
	PRIMARY KEY (event, round, board),
	FOREIGN KEY (event, round) REFERENCES rounds(event, n)
) WITHOUT ROWID;
-- Requested byes (H Z F) by round, asked for before the round is paired.
CREATE TABLE byes (
	event  TEXT NOT NULL,
	round  INTEGER NOT NULL,
	player INTEGER NOT NULL,
	kind   TEXT NOT NULL,
	requested INTEGER NOT NULL DEFAULT 0, -- 1: asked for; 0: written by the pairing (withdrawn, free round); 2: absent at check-in (checkin.go)
	PRIMARY KEY (event, round, player)
) WITHOUT ROWID;
CREATE TABLE audit (
	seq    INTEGER PRIMARY KEY AUTOINCREMENT,
	event  TEXT NOT NULL,
	at     INTEGER NOT NULL,
	action TEXT NOT NULL,
	detail TEXT NOT NULL
);
CREATE INDEX audit_event ON audit(event, seq);
`

// migrations[v] takes the schema from version v to v+1. A file of a
// version with no way here is refused.
var migrations = map[int]string{
	1: boardsSchema, // the players' links, reports and check-ins (passes.go)
	2: titleSchema,  // a player's title (seeding)
	3: kSchema,      // what a player's K reads (ratings.go)
	4: auditSchema,  // the audit lines' codes (audit.go)
}

// kSchema adds what FIDE B.02 art. 8.3.3's K reads of a player (year of
// birth, rated games before the event) and the director's own K.
const kSchema = `ALTER TABLE players ADD COLUMN born INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN games INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN k INTEGER NOT NULL DEFAULT 0;
`

// titleSchema adds a player's title (GMI, MI, MF, GM, IM, ...: the
// seeding's second key) to the players of version 1.
const titleSchema = "ALTER TABLE players ADD COLUMN title TEXT NOT NULL DEFAULT '';\n"

// Config sets up a Store.
type Config struct {
	Path string // the SQLite file (created if missing)
	// Pair pairs a Swiss round; nil is swiss.Pair, the Dutch system (a
	// test gives a pairer of its own).
	Pair swiss.Pairer
	Now  func() time.Time // nil: time.Now
}

// Store holds the events of a director's database. It is safe for
// concurrent use (SQLite serialises the transactions).
type Store struct {
	db   *sql.DB
	path string
	pair swiss.Pairer
	now  func() time.Time
	gen  atomic.Uint64 // committed writes: see Generation
}

// Generation counts the store's committed writes: it changes whenever any
// event changes, so that a page drawn from the store may be kept until it
// does (the public sheets' cache).
func (s *Store) Generation() uint64 { return s.gen.Load() }

// Open opens or creates the database at cfg.Path.
func Open(cfg Config) (*Store, error) {
	if cfg.Path == "" {
		return nil, errors.New("director: no database file given")
	}
	path := cfg.Path
	if err := sqlitefile.CheckPath(path); err != nil {
		return nil, fmt.Errorf("director: %w", err)
	}
	db, _, err := sqlitefile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("director: %w", err)
	}
	s := &Store{db: db, path: path, pair: cfg.Pair, now: cfg.Now}
	if s.pair == nil {
		s.pair = swiss.Pair
	}
	if s.now == nil {
		s.now = time.Now
	}
	if err := s.init(); err != nil {
		db.Close()
		return nil, fmt.Errorf("director: %s: %w", path, err)
	}
	return s, nil
}

func (s *Store) init() error {
	return sqlitefile.Init(s.db, sqlitefile.Schema{Owner: "the director's events", App: applicationID, Version: schemaVersion, SQL: schema + boardsSchema + titleSchema + kSchema + auditSchema, Migrations: migrations})
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// tx runs f in one transaction, committed when f returns nil. A panic in
// f (a bug) rolls back and becomes an error.
func (s *Store) tx(ctx context.Context, f func(*sql.Tx) error) (err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("director: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("director: internal error: %v", p)
		}
		if err != nil {
			tx.Rollback()
		}
	}()
	if err = f(tx); err != nil {
		return err
	}
	if err = tx.Commit(); err != nil {
		return fmt.Errorf("director: commit: %w", err)
	}
	s.gen.Add(1)
	return nil
}
