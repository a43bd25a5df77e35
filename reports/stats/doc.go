// Package stats holds the statistics of engine matches and events: win/draw/
// loss and pentanomial pair counts, Elo estimates with their intervals, the
// likelihood of superiority, the SPRT and ratings fitted to all games at
// once. It is pure arithmetic on counts and knows nothing about games,
// stores or reports, so that configs (the SPRT settings), the runner (the
// SPRT during an event) and reports (the figures printed) all import it and
// data still flows one way.
package stats
