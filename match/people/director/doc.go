// Package director runs a human event round by round: the event (name,
// site, dates, variant, time control, Swiss or round-robin, rounds,
// scoring, tie-break order), its players (entered one by one or imported
// from CSV), and the round flow a tournament director follows: pair the
// round, fix a pairing by hand, publish it, record each board's result,
// close the round. It stores everything in a SQLite file of its own and
// knows nothing of HTTP (match/web serves it) nor of the online games (the
// web layer links a board to a game of match/people/online and reports its
// result here).
//
// # State
//
// The event's state is exported as []tally.Player (State): the type the
// Dutch pairing (match/schedule/swiss), the tie-breaks (reports/tiebreak) and the
// TRF16 format (match/schedule/swiss/trf) read. Players have a stable entry id (the
// order they were entered in) and a pairing number: before round 1 is
// paired the numbers follow the initial ranking (rating, highest first,
// then name, then entry); pairing round 1 fixes them; a late entry gets the
// next free number.
//
// A round is paired, then published, then closed. Results are recorded
// only in a published round and may be corrected until it is closed; it
// closes when every board has a result. After that only the director
// corrects a result (a wrong one found out later); the rounds paired since
// keep their pairings. The last round's pairing may be
// undone while none of its boards has a result. Each board stores each
// side's result as a TRF16 code (tally.Result): a played game (1 = 0), a
// forfeit (+ -, and "- -" for a double forfeit). Players not on a board
// have the round's pairing-allocated bye (U), a requested bye (H, Z or F,
// asked for before the round is paired), or are absent (Z: withdrawn, or
// not yet entered). tally.Scoring gives the points of each.
//
// In a round-robin FIDE's Berger tables (C.05 Annex 1, berger.go) pair every
// round from the numbers fixed at round 1 (no late entries then); an event
// whose round 1 was paired from match/schedule's tables, used before, keeps
// them. A withdrawn
// player, or one who asked for a bye, stays on the table: the opponent has
// a forfeit win (+) and the absent player the bye asked for (or Z). The
// free round of an odd field scores as a zero-point bye (Z).
//
// # Corrections
//
// A player's every field (name, club, federation, federation id, rating,
// title) can be corrected at any time (EditPlayer, audited); before round
// 1 the numbers follow the new ranking, after it they stay. A player is
// removed (RemovePlayer) before round 1, or later in a Swiss when they
// never played (a mistaken entry, a no-show): the numbers after theirs
// move up one. A new player who looks like one entered (the same name and
// federation id, or the same name and club) is refused, by the form or by
// CSV line, unless the director confirms they are two people. The
// starting numbers follow the initial ranking (rating, title, name: FIDE
// C.04.1 A.2, with FMJD's titles) or the director's own order (SetSeeding)
// until round 1 is paired.
//
// # Storage
//
// Every operation is one SQLite transaction (BEGIN IMMEDIATE) that checks
// the state it changes and writes an audit row (time, action, what
// changed); a refused operation writes nothing and returns an *Error with
// a code (Codes lists them with their English text) that a client can
// translate. The file carries an application_id and a schema version: a
// file that is not SQLite, another program's database, a half-written one
// or one of an unknown (newer) schema is refused with an error saying
// which.
//
// # Secrets
//
// Creating an event returns the director's secret (256 bits from
// crypto/rand, base64url); only its SHA-256 is stored, and Resolve
// compares hashes in constant time. The links of a board's online game are
// stored sealed (AES-GCM) with a key derived from the director's secret,
// so that the file alone does not give them away; only a request that
// carries the director's secret can open them (OpenLinks).
//
// The players' own links (passes.go: a board's result link per side, a
// player's check-in link, the event's tablet) are passes of 256 bits from
// crypto/rand, stored as a hash and sealed like the game links; the
// players report results with them (reporting.go: recorded when both sides
// agree, a disagreement left to the director) and check in before a round
// (checkin.go: the absent get a zero-point bye in one action).
package director
