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
// A third, generic generator (grid.go) plays the games that are not
// diagonal draughts (RULES.md section 8: Turkish, Frisian, Dameo, Gothic,
// Alquerque): the rules as data, a geometry of points and lines (Layout)
// and direction sets for men's and kings' moves and captures, walked by one
// table-driven search. Callers see the same API: a Move is (From, To,
// Captured, Path), a Position a set of squares per colour plus kings and,
// where the rules keep it, state beyond the board (Frisian's king-move
// count, Alquerque's no-return point) that is part of its identity.
//
// Anyone may import it; it imports nothing of the module and knows nothing of
// engines, events or HTTP.
package rules
