package online

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/sqlitefile"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// The store is a SQLite file of its own (WAL). Its application_id marks
// it as this package's, so that another program's database (the
// tournament store, say) is refused instead of written into; user_version
// is the schema version.
const (
	applicationID = 0x4F4E4C47 // "ONLG"
	schemaVersion = 1
)

const schema = `
CREATE TABLE games (
	id       TEXT PRIMARY KEY,
	created  INTEGER NOT NULL, -- unix ns
	setup    TEXT NOT NULL,    -- the Setup as JSON
	status   TEXT NOT NULL,    -- running | over
	result   TEXT NOT NULL DEFAULT '*'
) WITHOUT ROWID;
CREATE TABLE tokens (
	hash    BLOB PRIMARY KEY, -- SHA-256 of the token; the token itself is never stored
	game    TEXT NOT NULL REFERENCES games(id),
	role    INTEGER NOT NULL,
	revoked INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
-- Every event, in order. input is the input that produced it (on the first
-- event of an input's batch), which restart replays at the time at.
CREATE TABLE events (
	game  TEXT NOT NULL REFERENCES games(id),
	v     INTEGER NOT NULL,
	at    INTEGER NOT NULL, -- unix ns
	type  TEXT NOT NULL,
	body  TEXT NOT NULL,    -- the Event as JSON
	input TEXT,
	PRIMARY KEY (game, v)
) WITHOUT ROWID;
CREATE TABLE heartbeat (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	at INTEGER NOT NULL -- unix ns: the server was alive then
);
`

type store struct {
	db   *sql.DB
	path string
}

// openStore opens or creates the games database at path. A file that is
// not SQLite, a damaged (half-written) one, another program's database or
// a newer schema is refused with an error that says which.
func openStore(path string) (*store, error) {
	if path == "" {
		return nil, errors.New("online: Config.Path: no database file given")
	}
	if err := sqlitefile.CheckPath(path); err != nil {
		return nil, fmt.Errorf("online: %w", err)
	}
	db, _, err := sqlitefile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("online: %w", err)
	}
	s := &store{db: db, path: path}
	if err := s.init(); err != nil {
		db.Close()
		return nil, fmt.Errorf("online: %s: %w", path, err)
	}
	return s, nil
}

func (s *store) init() error {
	return sqlitefile.Init(s.db, sqlitefile.Schema{Owner: "the web referee", App: applicationID, Version: schemaVersion, SQL: schema, Migrations: nil})
}

func (s *store) close() error { return s.db.Close() }

// tokenRow is one role's secret, hashed.
type tokenRow struct {
	hash [32]byte
	game string
	role Role
}

func (s *store) createGame(ctx context.Context, id string, created time.Time, setup Setup, toks []tokenRow) error {
	b, err := json.Marshal(setup)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec("INSERT INTO games (id, created, setup, status) VALUES (?, ?, ?, 'running')", id, created.UnixNano(), string(b)); err != nil {
		return err
	}
	for _, t := range toks {
		if _, err := tx.Exec("INSERT INTO tokens (hash, game, role) VALUES (?, ?, ?)", t.hash[:], id, int(t.role)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// eventRow is an event to write.
type eventRow struct {
	ev    Event
	input []byte // nil on all but the first event of an input
}

// commit writes a batch of events of game id, the game's status when it
// changed, and a reissued token (nil: none), in one transaction.
func (s *store) commit(id string, rows []eventRow, over bool, result string, tok *tokenRow) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, r := range rows {
		body, err := json.Marshal(r.ev)
		if err != nil {
			return err
		}
		var in any
		if r.input != nil {
			in = string(r.input)
		}
		if _, err := tx.Exec("INSERT INTO events (game, v, at, type, body, input) VALUES (?, ?, ?, ?, ?, ?)",
			id, r.ev.V, r.ev.At.UnixNano(), r.ev.Type, string(body), in); err != nil {
			return err
		}
	}
	if over {
		if _, err := tx.Exec("UPDATE games SET status = 'over', result = ? WHERE id = ?", result, id); err != nil {
			return err
		}
	}
	if tok != nil {
		if _, err := tx.Exec("UPDATE tokens SET revoked = 1 WHERE game = ? AND role = ?", id, int(tok.role)); err != nil {
			return err
		}
		if _, err := tx.Exec("INSERT INTO tokens (hash, game, role) VALUES (?, ?, ?)", tok.hash[:], id, int(tok.role)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// events returns game id's events after version since (at most limit,
// 0 = all), oldest first; with skipPresence the presence events are left out.
func (s *store) events(ctx context.Context, id string, since int64, limit int, skipPresence bool) ([]Event, error) {
	q := "SELECT body FROM events WHERE game = ? AND v > ?"
	if skipPresence {
		q += " AND type <> 'presence'"
	}
	args := []any{id, since}
	if limit > 0 {
		// The last limit events, newest first (reversed below).
		q += " ORDER BY v DESC LIMIT ?"
		args = append(args, limit)
	} else {
		q += " ORDER BY v"
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var body string
		if err := rows.Scan(&body); err != nil {
			return nil, err
		}
		var e Event
		if err := json.Unmarshal([]byte(body), &e); err != nil {
			return nil, fmt.Errorf("event of game %s: %w", id, err)
		}
		out = append(out, e)
	}
	if limit > 0 {
		slices.Reverse(out)
	}
	return out, rows.Err()
}

// gameRow is a game as stored.
type gameRow struct {
	id      string
	created time.Time
	setup   Setup
	status  string
}

func (s *store) games(ctx context.Context, where string, args ...any) ([]gameRow, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, created, setup, status FROM games "+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []gameRow
	for rows.Next() {
		var g gameRow
		var created int64
		var setup string
		if err := rows.Scan(&g.id, &created, &setup, &g.status); err != nil {
			return nil, err
		}
		g.created = time.Unix(0, created)
		if err := json.Unmarshal([]byte(setup), &g.setup); err != nil {
			// Reported by the caller with the game's id.
			g.status = "corrupt: " + err.Error()
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// inputRow is a stored input with its version and time.
type inputRow struct {
	v     int64
	at    time.Time
	input []byte
	types []string // the types of the events it produced (presence left out)
}

func (s *store) inputs(ctx context.Context, id string) (ins []inputRow, maxV int64, err error) {
	rows, err := s.db.QueryContext(ctx, "SELECT v, at, type, input FROM events WHERE game = ? ORDER BY v", id)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var r inputRow
		var at int64
		var in sql.NullString
		var typ string
		if err := rows.Scan(&r.v, &at, &typ, &in); err != nil {
			return nil, 0, err
		}
		maxV = r.v
		if in.Valid {
			r.at, r.input = time.Unix(0, at), []byte(in.String)
			ins = append(ins, r)
		}
		if n := len(ins); n > 0 && typ != EvPresence {
			ins[n-1].types = append(ins[n-1].types, typ)
		}
	}
	return ins, maxV, rows.Err()
}

// present lists the sides ("white", "black") that have had a presence
// event in game id: they opened the game before, whatever came since.
func (s *store) present(ctx context.Context, id string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT DISTINCT json_extract(body, '$.msg.args.color') FROM events WHERE game = ? AND type = ?", id, EvPresence)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c sql.NullString
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		if c.Valid {
			out = append(out, c.String)
		}
	}
	return out, rows.Err()
}

func (s *store) tokens(ctx context.Context) ([]tokenRow, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT hash, game, role FROM tokens WHERE revoked = 0")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []tokenRow
	for rows.Next() {
		var h []byte
		var t tokenRow
		var role int
		if err := rows.Scan(&h, &t.game, &role); err != nil {
			return nil, err
		}
		if len(h) != len(t.hash) {
			continue
		}
		copy(t.hash[:], h)
		t.role = Role(role)
		out = append(out, t)
	}
	return out, rows.Err()
}

func (s *store) beat(at time.Time) error {
	_, err := s.db.Exec("INSERT INTO heartbeat (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at", at.UnixNano())
	return err
}

// lastBeat is the last heartbeat (zero if none).
func (s *store) lastBeat() (time.Time, error) {
	var at int64
	err := s.db.QueryRow("SELECT at FROM heartbeat WHERE id = 1").Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(0, at), nil
}

// discard deletes a game that never had an event, with its tokens.
func (s *store) discard(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM events WHERE game = ?", id).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("game %s has %d events", id, n)
	}
	if _, err := tx.Exec("DELETE FROM tokens WHERE game = ?", id); err != nil {
		return err
	}
	if _, err := tx.Exec("DELETE FROM games WHERE id = ?", id); err != nil {
		return err
	}
	return tx.Commit()
}

// setStatus marks game id running or adjourned.
func (s *store) setStatus(ctx context.Context, id, status string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE games SET status = ? WHERE id = ? AND status <> 'over'", status, id)
	return err
}
