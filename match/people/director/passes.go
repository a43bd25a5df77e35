package director

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"

	"github.com/draughts-arbiter/arbiter/internal/message"
)

// Players at the boards (passes.go, reporting.go, checkin.go): the links
// a player opens on a phone, with no account. Each is a pass: a secret of
// 256 bits from crypto/rand, base64url, that names one thing it may do:
//
//   - report: report the result of one side of one board of a published
//     round (the side's player is part of the pass: a pairing changed by
//     hand after the links were printed leaves the old link unknown);
//   - checkin: a player confirms presence for the next round to pair;
//   - tablet: the event's check-in page for a tablet at the venue, where
//     each player taps their own name.
//
// Only the SHA-256 of a secret is stored (ResolvePass looks it up and
// compares in constant time), and the secret itself sealed with the
// director's key (as the online games' links are, SealLinks): the file
// alone gives none away, and only the director's page, which carries the
// director's secret, can print them again. A pass that is unknown,
// tampered with, or no longer fits the pairing is the same ErrUnknownPass.

// boardsSchema is the schema's part for the players at the boards:
// version 2 (migrations[1] adds it to a version-1 file).
const boardsSchema = `
CREATE TABLE passes (
	hash   BLOB PRIMARY KEY,             -- SHA-256 of the secret
	event  TEXT NOT NULL,
	kind   TEXT NOT NULL,                -- report | checkin | tablet
	round  INTEGER NOT NULL DEFAULT 0,
	board  INTEGER NOT NULL DEFAULT 0,
	side   INTEGER NOT NULL DEFAULT 0,   -- 1 White, 2 Black (tally.Color)
	player INTEGER NOT NULL DEFAULT 0,   -- the player's id
	sealed BLOB NOT NULL,                -- the secret, sealed with the director's key
	UNIQUE (event, kind, round, board, side, player)
) WITHOUT ROWID;
-- What each side of a board reported (the latest word of each).
CREATE TABLE reports (
	event   TEXT NOT NULL,
	round   INTEGER NOT NULL,
	board   INTEGER NOT NULL,
	side    INTEGER NOT NULL,
	player  INTEGER NOT NULL,
	outcome TEXT NOT NULL,               -- one of Outcomes
	at      INTEGER NOT NULL,            -- unix ns
	PRIMARY KEY (event, round, board, side)
) WITHOUT ROWID;
-- Players present for a round not yet paired.
CREATE TABLE checkins (
	event  TEXT NOT NULL,
	round  INTEGER NOT NULL,
	player INTEGER NOT NULL,
	at     INTEGER NOT NULL,
	how    TEXT NOT NULL,                -- link | tablet | director
	PRIMARY KEY (event, round, player)
) WITHOUT ROWID;
`

// Pass kinds.
const (
	PassReport  = "report"
	PassCheckIn = "checkin"
	PassTablet  = "tablet"
)

// Pass is what a pass lets its holder do.
type Pass struct {
	Event  string
	Kind   string // PassReport, PassCheckIn, PassTablet
	Round  int    // report
	Board  int    // report
	Side   int    // report: 1 White, 2 Black
	Player int    // report, checkin: the player's id
}

// ErrUnknownPass is any pass that does not open: unknown, tampered with,
// or no longer fitting the board it was made for. A server answers it as
// it answers any unknown address.
var ErrUnknownPass = refuse(message.NotFound, "director.unknown-link")

func init() {
	codeText["director.unknown-link"] = "This link is not known (mistyped, or no longer valid)."
}

// MaxPass is the longest secret ResolvePass looks up.
const MaxPass = 128

func hashPass(secret string) [32]byte { return sha256.Sum256([]byte("director-pass\x00" + secret)) }

// ResolvePass finds what secret is a pass for.
func (s *Store) ResolvePass(ctx context.Context, secret string) (Pass, error) {
	return resolvePass(ctx, s.db, secret)
}

func resolvePass(ctx context.Context, q querier, secret string) (Pass, error) {
	if secret == "" || len(secret) > MaxPass {
		return Pass{}, ErrUnknownPass
	}
	h := hashPass(secret)
	var p Pass
	var stored []byte
	err := q.QueryRowContext(ctx, "SELECT hash, event, kind, round, board, side, player FROM passes WHERE hash = ?", h[:]).
		Scan(&stored, &p.Event, &p.Kind, &p.Round, &p.Board, &p.Side, &p.Player)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !equalHash(stored, h[:])) {
		return Pass{}, ErrUnknownPass
	}
	if err != nil {
		return Pass{}, fmt.Errorf("director: reading a pass: %w", err)
	}
	return p, nil
}

// issue returns the secret of the pass p, made now if there is none yet:
// made from crypto/rand, stored hashed and sealed with token's key. A
// stored pass that does not open with token (a file written with another
// director's secret) is an error.
func (s *Store) issue(tx *sql.Tx, token string, p Pass) (string, error) {
	var sealed []byte
	err := tx.QueryRow("SELECT sealed FROM passes WHERE event = ? AND kind = ? AND round = ? AND board = ? AND side = ? AND player = ?",
		p.Event, p.Kind, p.Round, p.Board, p.Side, p.Player).Scan(&sealed)
	switch {
	case err == nil:
		m, err := OpenLinks(token, sealed)
		if err != nil || m["secret"] == "" {
			return "", fmt.Errorf("director: a stored %s link does not open with this director's secret", p.Kind)
		}
		return m["secret"], nil
	case !errors.Is(err, sql.ErrNoRows):
		return "", fmt.Errorf("director: reading a pass: %w", err)
	}
	secret := newSecret(32)
	sealed, err = SealLinks(token, map[string]string{"secret": secret})
	if err != nil {
		return "", fmt.Errorf("director: sealing a pass: %w", err)
	}
	h := hashPass(secret)
	if _, err := tx.Exec("INSERT INTO passes (hash, event, kind, round, board, side, player, sealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		h[:], p.Event, p.Kind, p.Round, p.Board, p.Side, p.Player, sealed); err != nil {
		return "", fmt.Errorf("director: storing a pass: %w", err)
	}
	return secret, nil
}

// checkToken refuses a token that is not event id's director's secret
// (the passes are sealed with its key: another would seal links no
// director's page could open).
func (s *Store) checkToken(ctx context.Context, id, token string) error {
	if got, ok := s.Resolve(ctx, token); !ok || got != id {
		return errUnknown
	}
	return nil
}
