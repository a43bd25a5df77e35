// Package people is the people's wing of match: games and events between
// people. Its sub-packages are online (a refereed game between two people,
// or a person and an engine, with its event log, clocks and links) and
// director (a human event run by a director: players, rounds, pairings,
// results, sheets). Neither knows HTTP: match/web is their front.
//
// Who may import: match/web and the commands. The people's wing may start an
// engine opponent through match/engines (its Player), never the engines'
// event runner, store or cluster.
package people
