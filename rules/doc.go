// Package rules is the rulebook of the arbiter: board geometry, variants,
// positions, legal-move generation, move application and end-of-game
// detection for the diagonal draughts family (English checkers, international
// draughts and the other presets of RULES.md).
//
// The package knows nothing of engines, clocks or files. A Variant is a value
// (see Lookup and the Variant fields); a Position is an immutable value that
// can be compared with == and used as a map key, which is what repetition
// detection needs. A Move is identified by (From, To, Captured): two capture
// paths that take the same pieces and end on the same square are one move.
//
// Two generators live here. The reference generator (reference.go) walks
// neighbour tables and works on every board geometry; the bitboard generator
// (bitboard*.go) covers the boards whose padded layout fits in 64 bits (8x8 and
// 10x10) and is what perft and the public API use there. Tests check that the
// two agree move for move.
//
// Nothing outside the generators assumes diagonal movement: a Move is
// (From, To, Captured, Path) on numbered squares, a Position is a set of
// squares (up to 128) per colour plus kings, and callers (the referee, the
// notations, the protocols) only ever ask for LegalMoves and Play. The
// orthogonal family (Turkish on all 64 squares with immediate removal,
// Frisian with 8 capture directions, Dameo) therefore comes as a new board
// geometry (numbering of all squares, more Direction values) and a generator
// of its own behind the same methods, not as a change to this API.
package rules
