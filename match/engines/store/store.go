// Package store keeps an event in a SQLite database (modernc.org/sqlite, a
// real file in WAL mode) so that a tournament survives being killed: every
// finished game is committed in one statement, its row with its moves, and a
// new run over the same database plays only what is missing.
//
// The database belongs to one effective configuration. Its hash is stored
// with the event; opening the database for a different configuration is
// refused (ErrConfigMismatch) instead of mixing two events. The hash covers
// an engine's command, not its program: each engine's Identity (program
// checksum, its own name and version) is kept too, so that a resumed event
// can say when an engine was rebuilt in between.
//
// Imported by the engines' runner, the cluster, the HTTP front (the live
// view) and cmd/arbiter; never by the people's wing.
package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/sqlitefile"
	"modernc.org/sqlite" // also the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"
)

// FileName is the database file's name inside an output directory.
const FileName = "arbiter.db"

// ErrConfigMismatch is wrapped by Init when the database holds an event made
// from another configuration.
var ErrConfigMismatch = errors.New("database belongs to another configuration")

// ErrFinished is wrapped by Start and Finish for a game that is already
// finished: its row is never overwritten (a game is never played twice).
var ErrFinished = errors.New("already finished")

// ErrNoEvent is returned by Event when the database holds no event yet.
var ErrNoEvent = errors.New("database holds no event")

// Status is a game's state in the database.
type Status string

// Game states. A game is written as Running when it starts (so that an
// observer sees what is being played) and as Finished, with its moves, when
// it ends. A Running row left by a killed run is played again.
const (
	Running  Status = "running"
	Finished Status = "finished"
)

// Event is the event row and its engines.
type Event struct {
	Name        string
	ConfigFile  string // where the configuration came from, for messages
	ConfigHash  string // hash of the effective configuration
	Config      string // the effective configuration, as text
	Variant     string
	TimeControl string
	Planned     int // number of games in the plan
	Engines     []Engine
	Created     time.Time
	// SPRT is the SPRT configuration as JSON ("" = none), so that a report
	// rebuilt from the database alone shows the test.
	SPRT string
	// Stopped is set when the event ended before its plan did (an SPRT
	// decision); it says why.
	Stopped string
}

// Engine is a participant. ID is its index in the configuration (0-based),
// which is what games refer to.
type Engine struct {
	ID          int
	Name        string
	Command     string
	Protocol    string
	TimeControl string
}

// Game is one game row. ID is the game's index in the schedule (0-based);
// messages number games from 1 (ID+1), as the PDN and the report do.
type Game struct {
	ID       int
	Cycle    int
	Round    int
	Board    int
	Pair     int // opening pair, 0-based over the event
	PairGame int // 0 or 1 (colours reversed)
	White    int // engine IDs
	Black    int
	// Opening names the opening ("" for the start position) and OpeningFEN
	// is the position the game started from.
	Opening    string
	OpeningFEN string
	Status     Status
	// Result is the PDN result ("1-0", "0-1", "1/2-1/2", the wide forms, or
	// "*" when the game could not be played, e.g. neither engine started).
	Result      string
	Termination string
	Reason      string
	FirstMover  string // "white" or "black"
	PDN         string
	Started     time.Time
	Finished    time.Time
	// Plies is the number of moves played (filled when reading).
	Plies int
	// Moves are the plies in order; each carries the thinking time. They
	// are read only when asked for (ReadOptions.Moves).
	Moves []Move
	// MoveTimes is filled when games are read without their moves (the
	// times are kept packed apart, so that reports need not unpack the
	// moves).
	MoveTimes []time.Duration
	// MoveLatency is, like MoveTimes, each move's latency (Move.Latency)
	// kept packed apart (schema version 5); nil for a game stored before,
	// whose latencies are only in its moves.
	MoveLatency []time.Duration
	// Record is the game's moves as one compact text the caller made at the
	// game's finish (the report's replay record, see
	// tournament.WriteReport), kept in the game row so that a report of
	// 100,000 games reads it instead of unpacking the moves; ""
	// when none was made (a game stored before schema version 5). The
	// store does not read it.
	Record string
	// Worker names the cluster worker that played the game ("" = this
	// machine, or a database from before clusters).
	Worker string
	// HostGuard is, per side ([0] White, [1] Black), what the side's
	// CheckerBoard host did to keep the engine inside its clock in this
	// game (schema version 7; zero for any other engine and in older
	// files).
	HostGuard [2]HostGuard `json:",omitzero"`
}

// HostGuard is what an engine's CheckerBoard host (cb-host) reported of
// its guard over one game: of the Moves it timed with a deadline, how
// many it Stopped by raising playnow, and the engine's overshoot (wall
// time over the time it was given) as learned after its last move.
type HostGuard struct {
	Stopped, Moves int
	Overshoot      float64
}

// packGuard is the games.host_guard column: "stopped moves overshoot"
// per side, White's then Black's, separated by ';'; "" when neither side
// was guarded.
func packGuard(h [2]HostGuard) string {
	if h == [2]HostGuard{} {
		return ""
	}
	var b strings.Builder
	for i, s := range h {
		if i > 0 {
			b.WriteByte(';')
		}
		fmt.Fprintf(&b, "%d %d %g", s.Stopped, s.Moves, s.Overshoot)
	}
	return b.String()
}

// unpackGuard reads packGuard's form.
func unpackGuard(s string) ([2]HostGuard, error) {
	var h [2]HostGuard
	if s == "" {
		return h, nil
	}
	sides := strings.Split(s, ";")
	if len(sides) != 2 {
		return h, fmt.Errorf("host guard %q: want two sides", s)
	}
	for i, side := range sides {
		if _, err := fmt.Sscanf(side, "%d %d %g", &h[i].Stopped, &h[i].Moves, &h[i].Overshoot); err != nil {
			return h, fmt.Errorf("host guard %q: %w", s, err)
		}
	}
	return h, nil
}

// Move is one ply of a game.
type Move struct {
	Text string
	Time time.Duration
	// What the engine said of the move and what the clocks did (schema
	// version 4; zero in older files): the side's time left after the
	// move (0 untimed), the search's score (in men, from the mover's side;
	// HasScore false when it gave none), depth, nodes and principal
	// variation, and the move's latency: the time between the request
	// written and the reply read (match.Reply.Latency) less the search time
	// the engine reported; UnknownLatency when it reported none (a DXP
	// engine, which gives whole seconds; a Hub engine without time= in its
	// info line): its thinking and the machine's share cannot be told apart.
	Clock    time.Duration
	Score    float64
	HasScore bool
	Depth    int
	Nodes    int64
	PV       string
	Latency  time.Duration
	// HostStopped: the engine's host had to stop the search to keep the
	// engine inside its clock (a CheckerBoard engine's cb-host, whose info
	// line says stopped=host). Counted in the run's summary; not stored.
	HostStopped bool `json:",omitempty"`
}

// Store is an open database. Its methods are safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string
	dsn  string
	// rdb is a second connection that only reads (see gamesInParts).
	rmu sync.Mutex
	rdb *sql.DB
	// upsert is write's statement (upsertSQL), prepared at its first call
	// on the store's one connection: SQLite's parse of it was most of
	// storing a game.
	wmu    sync.Mutex
	upsert *sql.Stmt
}

const (
	// upsertSQL writes a game's row, unless the game is finished: then it
	// changes no row, which is how write knows (one statement where a
	// SELECT of the status and an INSERT OR REPLACE were two). The row is
	// replaced whole, as INSERT OR REPLACE did: every column is set, the
	// live moves emptied.
	upsertSQL = `INSERT INTO games
		(id, cycle, round, board, pair, pair_game, white, black, opening, opening_fen, status, result, termination, reason,
		 first_mover, pdn, plies, move_times, started, finished, worker, record, move_latency, host_guard, moves)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET
		cycle = excluded.cycle, round = excluded.round, board = excluded.board, pair = excluded.pair,
		pair_game = excluded.pair_game, white = excluded.white, black = excluded.black, opening = excluded.opening,
		opening_fen = excluded.opening_fen, status = excluded.status, result = excluded.result,
		termination = excluded.termination, reason = excluded.reason, first_mover = excluded.first_mover,
		pdn = excluded.pdn, plies = excluded.plies, move_times = excluded.move_times, started = excluded.started,
		finished = excluded.finished, worker = excluded.worker, record = excluded.record,
		move_latency = excluded.move_latency, host_guard = excluded.host_guard, moves = excluded.moves, live = ''
		WHERE games.status <> 'finished'`
)

// upsertStatement prepares write's statement at the first call. It runs
// outside a transaction: the store has one connection, which a
// transaction holds.
func (s *Store) upsertStatement(ctx context.Context) (*sql.Stmt, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.upsert != nil {
		return s.upsert, nil
	}
	st, err := s.db.PrepareContext(ctx, upsertSQL)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", s.path, err)
	}
	s.upsert = st
	return st, nil
}

const schema = `
CREATE TABLE IF NOT EXISTS event (
	id           INTEGER PRIMARY KEY CHECK (id = 1),
	name         TEXT NOT NULL,
	config_file  TEXT NOT NULL,
	config_hash  TEXT NOT NULL,
	config       TEXT NOT NULL,
	variant      TEXT NOT NULL,
	time_control TEXT NOT NULL,
	planned      INTEGER NOT NULL,
	created      TEXT NOT NULL,
	sprt         TEXT NOT NULL DEFAULT '',
	stopped      TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS engines (
	id           INTEGER PRIMARY KEY,
	name         TEXT NOT NULL UNIQUE,
	command      TEXT NOT NULL,
	protocol     TEXT NOT NULL,
	time_control TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
	id          INTEGER PRIMARY KEY,
	cycle       INTEGER NOT NULL,
	round       INTEGER NOT NULL,
	board       INTEGER NOT NULL,
	pair        INTEGER NOT NULL,
	pair_game   INTEGER NOT NULL,
	white       INTEGER NOT NULL REFERENCES engines(id),
	black       INTEGER NOT NULL REFERENCES engines(id),
	opening     TEXT NOT NULL,
	opening_fen TEXT NOT NULL,
	status      TEXT NOT NULL CHECK (status IN ('running', 'finished')),
	result      TEXT NOT NULL DEFAULT '*',
	termination TEXT NOT NULL DEFAULT '',
	reason      TEXT NOT NULL DEFAULT '',
	first_mover TEXT NOT NULL DEFAULT 'white',
	pdn         TEXT NOT NULL DEFAULT '',
	plies       INTEGER NOT NULL DEFAULT 0,
	move_times  BLOB,
	started     TEXT NOT NULL,
	finished    TEXT NOT NULL DEFAULT '',
	worker      TEXT NOT NULL DEFAULT '',
	record      TEXT NOT NULL DEFAULT '',
	move_latency BLOB,
	live        TEXT NOT NULL DEFAULT '',
	host_guard  TEXT NOT NULL DEFAULT '',
	moves       BLOB
);
CREATE TABLE IF NOT EXISTS engine_identity (
	engine   INTEGER PRIMARY KEY REFERENCES engines(id),
	program  TEXT NOT NULL DEFAULT '',
	checksum TEXT NOT NULL DEFAULT '',
	name     TEXT NOT NULL DEFAULT '',
	version  TEXT NOT NULL DEFAULT '',
	updated  TEXT NOT NULL DEFAULT ''
);
`

// Open opens (creating if needed) the database at path. The parent directory
// is created too.
func Open(path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	db, dsn, err := sqlitefile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if err := sqlitefile.CheckWhole(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	if err := setWAL(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: journal_mode=WAL: %w", path, err)
	}
	if err := createSchema(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	return &Store{db: db, path: path, dsn: dsn}, nil
}

// busyTimeout is how long a statement waits for another connection's lock.
const busyTimeout = sqlitefile.BusyTimeout

// schemaVersion is stored in PRAGMA user_version once the tables exist.
// Version 2 added engine_identity, version 3 games.worker, version 4 the
// moves' annotations (clock, score, depth, nodes, pv, latency), version 5
// the games' packed record and latencies (games.record, games.move_latency:
// a report reads one row per game; the games of an older file keep them
// empty and are reported from their moves), version 6 games.live (the
// moves of a running game so far, see SetLive), version 7
// games.host_guard (Game.HostGuard), version 8 games.moves (a game's moves
// in one blob, see packMoves; the moves table, a row a ply, is gone).
const schemaVersion = 8

// migrations[v] takes a database from version v to v+1.
var migrations = map[int]string{
	1: `CREATE TABLE IF NOT EXISTS engine_identity (
	engine   INTEGER PRIMARY KEY REFERENCES engines(id),
	program  TEXT NOT NULL DEFAULT '',
	checksum TEXT NOT NULL DEFAULT '',
	name     TEXT NOT NULL DEFAULT '',
	version  TEXT NOT NULL DEFAULT '',
	updated  TEXT NOT NULL DEFAULT ''
);
`,
	2: `ALTER TABLE games ADD COLUMN worker TEXT NOT NULL DEFAULT '';
`,
	3: `ALTER TABLE moves ADD COLUMN clock_ms REAL NOT NULL DEFAULT 0;
ALTER TABLE moves ADD COLUMN score REAL;
ALTER TABLE moves ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
ALTER TABLE moves ADD COLUMN nodes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE moves ADD COLUMN pv TEXT NOT NULL DEFAULT '';
ALTER TABLE moves ADD COLUMN latency_ms REAL NOT NULL DEFAULT 0;
`,
	4: `ALTER TABLE games ADD COLUMN record TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN move_latency BLOB;
`,
	5: `ALTER TABLE games ADD COLUMN live TEXT NOT NULL DEFAULT '';
`,
	6: `ALTER TABLE games ADD COLUMN host_guard TEXT NOT NULL DEFAULT '';
`,
	7: `ALTER TABLE games ADD COLUMN moves BLOB;
`,
}

// packSteps[v] is the part of migrations[v] done in Go, after its SQL.
var packSteps = map[int]func(*sql.Tx) error{7: packMovesTable}

// createSchema creates the tables of a new database, or migrates an older
// one (its games stay as they are). A current database is only read, so
// that a report or a monitor opening a running event never takes the write
// lock from the games being stored.
func createSchema(db *sql.DB) error {
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	switch {
	case v == schemaVersion:
		return nil
	case v > schemaVersion:
		return fmt.Errorf("database schema version %d is newer than this arbiter's (%d); use a newer arbiter", v, schemaVersion)
	case v == 0:
		// BEGIN IMMEDIATE takes the write lock up front through the busy
		// handler; two processes creating the same new database both succeed.
		_, err := db.Exec(fmt.Sprintf("BEGIN IMMEDIATE;\n%sPRAGMA user_version = %d;\nCOMMIT;", schema, schemaVersion))
		return err
	}
	// The version is read again under the write lock (the transaction is
	// IMMEDIATE, see Open): of two processes migrating at once, the second
	// finds the work done (ALTER TABLE cannot be run twice).
	tx, err := db.Begin()
	if err != nil {
		return fmt.Errorf("migrating the schema from version %d: %w", v, err)
	}
	defer tx.Rollback()
	if err := tx.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	for from := v; from < schemaVersion; from++ {
		if _, err := tx.Exec(migrations[from]); err != nil {
			return fmt.Errorf("migrating the schema from version %d to %d: %w", from, from+1, err)
		}
		if step := packSteps[from]; step != nil {
			if err := step(tx); err != nil {
				return fmt.Errorf("migrating the schema from version %d to %d: %w", from, from+1, err)
			}
		}
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrating the schema from version %d to %d: %w", v, schemaVersion, err)
	}
	return nil
}

// setWAL switches the database to write-ahead logging. The switch needs an
// exclusive lock and SQLite refuses it at once, without the busy handler,
// while another connection is opening the same new file, so it is retried
// for as long as the busy timeout would have waited.
func setWAL(db *sql.DB) error {
	deadline := time.Now().Add(busyTimeout)
	for {
		var mode string
		err := db.QueryRow("PRAGMA journal_mode=WAL").Scan(&mode)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			// A file system without shared memory keeps its rollback
			// journal: slower, equally durable, so it is not an error.
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// isBusy reports whether err is SQLITE_BUSY or SQLITE_LOCKED.
func isBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return true
		}
	}
	return false
}

// OpenDir opens the database of an output directory (dir/arbiter.db).
func OpenDir(dir string) (*Store, error) { return Open(filepath.Join(dir, FileName)) }

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error {
	s.rmu.Lock()
	defer s.rmu.Unlock()
	if s.rdb != nil {
		s.rdb.Close()
	}
	s.wmu.Lock()
	if s.upsert != nil {
		s.upsert.Close()
		s.upsert = nil
	}
	s.wmu.Unlock()
	return s.db.Close()
}

const timeFormat = time.RFC3339Nano

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeFormat)
}

func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse(timeFormat, s)
}

// Init records the event, or checks that the database already holds this
// very event (same configuration hash). A database made from another
// configuration is refused with an error wrapping ErrConfigMismatch that
// names both.
func (s *Store) Init(ctx context.Context, ev Event) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	var name, file, hash string
	err = tx.QueryRowContext(ctx, `SELECT name, config_file, config_hash FROM event WHERE id = 1`).Scan(&name, &file, &hash)
	switch {
	case err == nil:
		if hash != ev.ConfigHash {
			return fmt.Errorf("store: %s: %w: it holds event %q from %s (config hash %s), this run is event %q from %s (config hash %s); "+
				"use another output directory, or delete the database to start over",
				s.path, ErrConfigMismatch, name, file, short(hash), ev.Name, ev.ConfigFile, short(ev.ConfigHash))
		}
		return nil
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	created := ev.Created
	if created.IsZero() {
		created = time.Now()
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO event (id, name, config_file, config_hash, config, variant, time_control, planned, created, sprt)
		VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ev.Name, ev.ConfigFile, ev.ConfigHash, ev.Config, ev.Variant, ev.TimeControl, ev.Planned, formatTime(created), ev.SPRT); err != nil {
		return fmt.Errorf("store: %s: write event: %w", s.path, err)
	}
	for _, e := range ev.Engines {
		if _, err := tx.ExecContext(ctx, `INSERT INTO engines (id, name, command, protocol, time_control) VALUES (?, ?, ?, ?, ?)`,
			e.ID, e.Name, e.Command, e.Protocol, e.TimeControl); err != nil {
			return fmt.Errorf("store: %s: write engine %q: %w", s.path, e.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	return nil
}

// Rebase makes the recorded event ev: its configuration (hash, text, file)
// and its engines' commands. It is for a resumed event whose engines'
// commands changed (a program moved) while the engines are the same ones;
// the caller checks that (see tournament.Reconcile).
func (s *Store) Rebase(ctx context.Context, ev Event) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE event SET config_hash = ?, config = ?, config_file = ? WHERE id = 1`,
		ev.ConfigHash, ev.Config, ev.ConfigFile); err != nil {
		return fmt.Errorf("store: %s: rebase event: %w", s.path, err)
	}
	for _, e := range ev.Engines {
		if _, err := tx.ExecContext(ctx, `UPDATE engines SET command = ? WHERE id = ?`, e.Command, e.ID); err != nil {
			return fmt.Errorf("store: %s: rebase engine %q: %w", s.path, e.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	return nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Event reads the event row and its engines; ErrNoEvent if there is none.
func (s *Store) Event(ctx context.Context) (Event, error) {
	var ev Event
	var created string
	err := s.db.QueryRowContext(ctx, `SELECT name, config_file, config_hash, config, variant, time_control, planned, created, sprt, stopped FROM event WHERE id = 1`).
		Scan(&ev.Name, &ev.ConfigFile, &ev.ConfigHash, &ev.Config, &ev.Variant, &ev.TimeControl, &ev.Planned, &created, &ev.SPRT, &ev.Stopped)
	if errors.Is(err, sql.ErrNoRows) {
		return ev, fmt.Errorf("store: %s: %w", s.path, ErrNoEvent)
	}
	if err != nil {
		return ev, fmt.Errorf("store: %s: %w", s.path, err)
	}
	if ev.Created, err = parseTime(created); err != nil {
		return ev, fmt.Errorf("store: %s: event created %q: %w", s.path, created, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, command, protocol, time_control FROM engines ORDER BY id`)
	if err != nil {
		return ev, fmt.Errorf("store: %s: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var e Engine
		if err := rows.Scan(&e.ID, &e.Name, &e.Command, &e.Protocol, &e.TimeControl); err != nil {
			return ev, fmt.Errorf("store: %s: %w", s.path, err)
		}
		ev.Engines = append(ev.Engines, e)
	}
	return ev, rows.Err()
}

// SetStopped records that the event ended early, and why.
func (s *Store) SetStopped(ctx context.Context, why string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE event SET stopped = ? WHERE id = 1`, why); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	return nil
}

// Discard removes a game that was started but will not be finished (the
// event stopped early); finished games are kept.
func (s *Store) Discard(ctx context.Context, id int) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM games WHERE id = ? AND status = 'running'`, id); err != nil {
		return fmt.Errorf("store: %s: discard game %d: %w", s.path, id+1, err)
	}
	return nil
}

// DiscardFrom removes every game from ID first on, finished or not, and
// returns how many finished games it removed. They are the games beyond
// the one on which an SPRT decided: the standings, the console and the SPRT
// count the games up to the decision in plan order, and a later game that
// another slot or a cluster's worker finished meanwhile is not part of the
// match (kept, the report would count a game the console does not, as
// games cut short by the decision are not kept).
func (s *Store) DiscardFrom(ctx context.Context, first int) (int, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM games WHERE id >= ? AND status = 'finished'`, first)
	if err != nil {
		return 0, fmt.Errorf("store: %s: discard games from %d: %w", s.path, first+1, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: %s: discard games from %d: %w", s.path, first+1, err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM games WHERE id >= ?`, first); err != nil {
		return 0, fmt.Errorf("store: %s: discard games from %d: %w", s.path, first+1, err)
	}
	return int(n), nil
}

// FinishedIDs returns the IDs of the finished games, in order.
func (s *Store) FinishedIDs(ctx context.Context) ([]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM games WHERE status = 'finished' ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", s.path, err)
	}
	defer rows.Close()
	var ids []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: %s: %w", s.path, err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Start writes a game as Running (replacing what a killed run left of it).
// A finished game is never overwritten: Start then fails.
func (s *Store) Start(ctx context.Context, g Game) error {
	g.Status = Running
	g.Finished = time.Time{}
	return s.write(ctx, g)
}

// Finish commits a finished game and its moves in one statement. A game
// that is already finished is refused (a game is never played twice).
func (s *Store) Finish(ctx context.Context, g Game) error {
	g.Status = Finished
	if g.Finished.IsZero() {
		g.Finished = time.Now()
	}
	return s.write(ctx, g)
}

// write replaces game g's row, its moves included, unless the game is
// already finished. One statement is its own transaction: no BEGIN and
// COMMIT around it.
func (s *Store) write(ctx context.Context, g Game) error {
	upsert, err := s.upsertStatement(ctx)
	if err != nil {
		return err
	}
	if err := upsertGame(ctx, upsert, g); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	return nil
}

// upsertGame writes g's row with upsert (upsertSQL), or fails when the
// game is already finished.
func upsertGame(ctx context.Context, upsert *sql.Stmt, g Game) error {
	times, latency := g.MoveTimes, g.MoveLatency
	if len(g.Moves) > 0 {
		times = make([]time.Duration, len(g.Moves))
		latency = make([]time.Duration, len(g.Moves))
		for i, m := range g.Moves {
			times[i], latency[i] = m.Time, m.Latency
		}
	}
	if latency == nil {
		latency = []time.Duration{} // known: none (NULL is a game from before version 5)
	}
	if g.Result == "" {
		g.Result = "*"
	}
	if g.FirstMover == "" {
		g.FirstMover = "white"
	}
	plies := len(times)
	var moves []byte // NULL: a running game, moves unknown
	if g.Status == Finished || len(g.Moves) > 0 {
		moves = packMoves(g.Moves)
	}
	res, err := upsert.ExecContext(ctx,
		g.ID, g.Cycle, g.Round, g.Board, g.Pair, g.PairGame, g.White, g.Black, g.Opening, g.OpeningFEN, string(g.Status),
		g.Result, g.Termination, g.Reason, g.FirstMover, g.PDN, plies, packTimes(times),
		formatTime(g.Started), formatTime(g.Finished), g.Worker, g.Record, packLatency(latency), packGuard(g.HostGuard), moves)
	if err != nil {
		return fmt.Errorf("game %d: %w", g.ID+1, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("game %d: %w", g.ID+1, err)
	} else if n == 0 {
		return fmt.Errorf("game %d is %w", g.ID+1, ErrFinished)
	}
	return nil
}

// UnknownLatency is a move's Latency when the engine reported no search
// time (see Move). Readers leave such moves out of latency sums.
const UnknownLatency time.Duration = -1

// unknownLatencyCode is UnknownLatency in a packed latency column: a
// number of microseconds no real latency reaches (292,000 years).
const unknownLatencyCode = 1<<63 - 1

// packLatency is packTimes for latencies, which may be UnknownLatency.
func packLatency(ls []time.Duration) []byte {
	b := make([]byte, 0, len(ls)*3)
	for _, l := range ls {
		if l == UnknownLatency {
			b = binary.AppendUvarint(b, unknownLatencyCode)
			continue
		}
		b = binary.AppendUvarint(b, uint64(max(l, 0)/time.Microsecond))
	}
	return b
}

// unpackLatency reads packLatency's form (n as in unpackTimes).
func unpackLatency(b []byte, n int) ([]time.Duration, error) {
	return unpackMicros(b, n, func(v uint64) time.Duration {
		if v == unknownLatencyCode {
			return UnknownLatency
		}
		return time.Duration(v) * time.Microsecond
	})
}

// packTimes stores move times as unsigned varints of microseconds.
func packTimes(ts []time.Duration) []byte {
	b := make([]byte, 0, len(ts)*3)
	for _, t := range ts {
		if t < 0 {
			t = 0
		}
		b = binary.AppendUvarint(b, uint64(t/time.Microsecond))
	}
	return b
}

// unpackTimes reads packTimes's form; n is the number of times expected
// (the game's plies), to allocate once.
func unpackTimes(b []byte, n int) ([]time.Duration, error) {
	return unpackMicros(b, n, func(v uint64) time.Duration { return time.Duration(v) * time.Microsecond })
}

// unpackMicros reads unsigned varints, each made a duration by conv.
func unpackMicros(b []byte, n int, conv func(uint64) time.Duration) ([]time.Duration, error) {
	if len(b) == 0 {
		return nil, nil
	}
	ts := make([]time.Duration, 0, max(0, min(n, len(b))))
	for len(b) > 0 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, errors.New("corrupt move times")
		}
		ts = append(ts, conv(v))
		b = b[n:]
	}
	return ts, nil
}

// ReadOptions choose what Games reads.
type ReadOptions struct {
	// Moves unpacks Game.Moves (slower); otherwise only Game.MoveTimes is
	// filled.
	Moves bool
	// All includes running games; by default only finished ones are read.
	All bool
	// NoPDN leaves Game.PDN empty, NoTimes Game.MoveTimes and
	// Game.MoveLatency, and NoRecord Game.Record (saves memory when only
	// results are needed).
	NoPDN    bool
	NoTimes  bool
	NoRecord bool
	// Parallel reads a large file's rows on two connections at once (fn
	// is still called in ID order, and from the calling goroutine): for a
	// report of many games.
	Parallel bool
	// From skips the games whose ID is below it.
	From int
}

// Games calls fn for each game in ID order (schedule order).
func (s *Store) Games(ctx context.Context, opt ReadOptions, fn func(Game) error) error {
	where := `status = 'finished'`
	if opt.All {
		where = `1`
	}
	if opt.From > 0 {
		where += ` AND id >= ` + strconv.Itoa(opt.From) // an int: nothing to quote
	}
	pdn, timesCol, latencyCol, recordCol, movesCol := `pdn`, `move_times`, `move_latency, move_latency IS NOT NULL`, `record`, `NULL`
	if opt.NoPDN {
		pdn = `''`
	}
	if opt.NoTimes {
		timesCol, latencyCol = `NULL`, `NULL, 0`
	}
	if opt.NoRecord {
		recordCol = `''`
	}
	if opt.Moves {
		movesCol = `moves`
	}
	q := `SELECT id, cycle, round, board, pair, pair_game, white, black, opening, opening_fen, status,
		result, termination, reason, first_mover, ` + pdn + `, plies, ` + timesCol + `, started, finished, worker, ` + recordCol + `, ` + latencyCol + `, host_guard,
		` + movesCol + ` FROM games WHERE ` + where
	if opt.Parallel {
		return s.gamesInParts(ctx, q, fn)
	}
	return s.scanGames(ctx, s.db, q+` ORDER BY id`, nil, fn)
}

// partsFrom is the number of games from which Games reads in parts.
var partsFrom = 2000 // a variable for the tests

// gamesInParts is Games reading the rows of the upper half of the IDs on a
// second connection while fn gets those of the lower half: a report of
// 100,000 games spends most of its time in SQLite and in turning rows into
// Games, one core's work per connection. The upper half is kept until fn
// has had the lower one, so that fn still sees the games in ID order.
func (s *Store) gamesInParts(ctx context.Context, q string, fn func(Game) error) error {
	var lo, hi sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT min(id), max(id) FROM games`).Scan(&lo, &hi); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	if !lo.Valid || hi.Int64-lo.Int64 < int64(partsFrom) {
		return s.scanGames(ctx, s.db, q+` ORDER BY id`, nil, fn)
	}
	rdb, err := s.reader()
	if err != nil {
		return err
	}
	mid := lo.Int64 + (hi.Int64-lo.Int64+1)/2
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var upper []Game
	upperErr := make(chan error, 1)
	go func() {
		upperErr <- s.scanGames(ctx, rdb, q+` AND id >= ? ORDER BY id`, []any{mid}, func(g Game) error { upper = append(upper, g); return nil })
	}()
	if err := s.scanGames(ctx, s.db, q+` AND id < ? ORDER BY id`, []any{mid}, fn); err != nil {
		cancel()
		<-upperErr
		return err
	}
	if err := <-upperErr; err != nil {
		return err
	}
	for _, g := range upper {
		if err := fn(g); err != nil {
			return err
		}
	}
	return nil
}

// reader is the store's second connection, for reading only (opened at
// the first use).
func (s *Store) reader() (*sql.DB, error) {
	s.rmu.Lock()
	defer s.rmu.Unlock()
	if s.rdb == nil {
		db, err := sql.Open("sqlite", s.dsn)
		if err != nil {
			return nil, fmt.Errorf("store: open %s: %w", s.path, err)
		}
		db.SetMaxOpenConns(1)
		s.rdb = db
	}
	return s.rdb, nil
}

// scanGames runs a games query on db and calls fn for each row.
func (s *Store) scanGames(ctx context.Context, db *sql.DB, q string, args []any, fn func(Game) error) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var g Game
		var st, started, finished string
		var times, latency, moves []byte
		var hasLatency bool
		var guard string
		if err := rows.Scan(&g.ID, &g.Cycle, &g.Round, &g.Board, &g.Pair, &g.PairGame, &g.White, &g.Black, &g.Opening, &g.OpeningFEN,
			&st, &g.Result, &g.Termination, &g.Reason, &g.FirstMover, &g.PDN, &g.Plies, &times, &started, &finished, &g.Worker,
			&g.Record, &latency, &hasLatency, &guard, &moves); err != nil {
			return fmt.Errorf("store: %s: %w", s.path, err)
		}
		g.Status = Status(st)
		if g.Started, err = parseTime(started); err == nil {
			g.Finished, err = parseTime(finished)
		}
		if err == nil {
			g.MoveTimes, err = unpackTimes(times, g.Plies)
		}
		if err == nil {
			g.HostGuard, err = unpackGuard(guard)
		}
		if err == nil {
			g.Moves, err = unpackMoves(moves)
		}
		if err == nil && hasLatency {
			// An empty blob is a game of no moves: known, not missing.
			if g.MoveLatency, err = unpackLatency(latency, g.Plies); err == nil && g.MoveLatency == nil {
				g.MoveLatency = []time.Duration{}
			}
		}
		if err != nil {
			return fmt.Errorf("store: %s: game %d: %w", s.path, g.ID+1, err)
		}
		if err := fn(g); err != nil {
			return err
		}
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	return nil
}

// Count returns the number of games in each status.
func (s *Store) Count(ctx context.Context) (map[Status]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT status, count(*) FROM games GROUP BY status`)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", s.path, err)
	}
	defer rows.Close()
	m := map[Status]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, fmt.Errorf("store: %s: %w", s.path, err)
		}
		m[Status(strings.TrimSpace(st))] = n
	}
	return m, rows.Err()
}

// Identity is what an engine was when it played, so that a resumed event
// can tell a rebuilt engine (the configuration, and its hash, name only the
// command). Empty fields are unknown.
type Identity struct {
	Program  string // the program file (cmd's first word, resolved)
	Checksum string // SHA-256 of the program file, hex
	Name     string // the engine's own name (Hub "id name=", DXP GAMEACC)
	Version  string // its version (Hub "id version=")
}

// Identities returns the recorded identity of each engine, by engine ID
// (none for a database migrated from before engine identities).
func (s *Store) Identities(ctx context.Context) (map[int]Identity, error) {
	out := map[int]Identity{}
	rows, err := s.db.QueryContext(ctx, `SELECT engine, program, checksum, name, version FROM engine_identity ORDER BY engine`)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int
		var e Identity
		if err := rows.Scan(&id, &e.Program, &e.Checksum, &e.Name, &e.Version); err != nil {
			return nil, fmt.Errorf("store: %s: %w", s.path, err)
		}
		out[id] = e
	}
	return out, rows.Err()
}

// SetIdentity records engine's identity; its empty fields keep what is
// recorded.
func (s *Store) SetIdentity(ctx context.Context, engine int, id Identity) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO engine_identity (engine, program, checksum, name, version, updated) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (engine) DO UPDATE SET
			program  = CASE WHEN excluded.program  = '' THEN program  ELSE excluded.program  END,
			checksum = CASE WHEN excluded.checksum = '' THEN checksum ELSE excluded.checksum END,
			name     = CASE WHEN excluded.name     = '' THEN name     ELSE excluded.name     END,
			version  = CASE WHEN excluded.version  = '' THEN version  ELSE excluded.version  END,
			updated  = excluded.updated`,
		engine, id.Program, id.Checksum, id.Name, id.Version, formatTime(time.Now()))
	if err != nil {
		return fmt.Errorf("store: %s: engine %d identity: %w", s.path, engine, err)
	}
	return nil
}

// MoveText is what a report reads of one ply: what its board viewer
// shows, and the move's latency (Move.Latency).
type MoveText struct {
	Text     string
	Score    float64
	HasScore bool
	Depth    int
	Latency  time.Duration
}

// GameMoves calls fn with the plies of every game that has any, in game ID
// order, in one pass over the games: far cheaper than a read of whole
// games for a report of 100,000 games. fn must not keep ms, which is
// reused.
func (s *Store) GameMoves(ctx context.Context, fn func(game int, ms []MoveText) error) error {
	return s.gameMoves(ctx, `SELECT id, moves FROM games WHERE moves IS NOT NULL ORDER BY id`, nil, fn)
}

// gamesPerQuery bounds the game IDs of one GameMovesOf query (far below
// SQLite's limit on parameters).
const gamesPerQuery = 500

// GameMovesOf is GameMoves for the games ids (in increasing order) only:
// the games of an older file that have no Game.Record, which a report
// reads from their moves while the others need no move read at all.
func (s *Store) GameMovesOf(ctx context.Context, ids []int, fn func(game int, ms []MoveText) error) error {
	for lo := 0; lo < len(ids); lo += gamesPerQuery {
		chunk := ids[lo:min(lo+gamesPerQuery, len(ids))]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		q := `SELECT id, moves FROM games WHERE moves IS NOT NULL AND id IN (?` + strings.Repeat(",?", len(chunk)-1) + `) ORDER BY id`
		if err := s.gameMoves(ctx, q, args, fn); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) gameMoves(ctx context.Context, q string, args []any, fn func(game int, ms []MoveText) error) error {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	defer rows.Close()
	var ms []MoveText
	for rows.Next() {
		var g int
		var blob []byte
		if err := rows.Scan(&g, &blob); err != nil {
			return fmt.Errorf("store: %s: %w", s.path, err)
		}
		moves, err := unpackMoves(blob)
		if err != nil {
			return fmt.Errorf("store: %s: game %d: %w", s.path, g+1, err)
		}
		if len(moves) == 0 {
			continue
		}
		ms = ms[:0]
		for _, m := range moves {
			ms = append(ms, MoveText{Text: m.Text, Score: m.Score, HasScore: m.HasScore, Depth: m.Depth, Latency: m.Latency})
		}
		if err := fn(g, ms); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	return nil
}
