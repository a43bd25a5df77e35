// Package online is the domain of an online game between people (or a
// person and an engine): the Hall that holds the games, the players' and
// the arbiter's intents, the events everyone watching sees, persistence in
// SQLite and restart. It knows nothing of HTTP; match/web serves it.
//
// # Design
//
// A game is one arbiter.Referee behind a mutex, driven by inputs: a
// player's or the arbiter's Intent, or an internal input (the server's
// flag timer, an engine's fault, a restart's down time). Every input that
// changed anything is committed to SQLite, together with the events it
// produced, in one transaction BEFORE the events are published; an input
// that changed nothing (a refused intent) is not stored. Each event has a
// version, 1, 2, ... per game.
//
// The referee's clock is set by hand for every input to the moment the
// input arrived (Config.Now, or the process's monotonic clock expressed as
// a wall time), and that moment is stored with the input. Restart (Open)
// replays the stored inputs of every running game into a fresh Referee,
// setting the same clock to each input's stored time, so the replayed
// game is the game as it was, clocks included; then it resumes. A
// heartbeat row, written every second, says when the server was last
// alive: the time from then to the restart is given back to the side to
// move (arbiter.Referee.Downtime) and a "resume-after-restart" event with a
// server-down decision says so. A game that cannot be replayed (a refused
// input, a corrupt row) is reported by Hall.Broken with its id and the
// reason; the others load.
//
// The first move's clock starts with the first thing done at the board (a
// move, an illegal attempt, a pause), not when the game is created: the
// players may not have opened their links yet. Every event of one input
// carries the state after the whole input (a move and the result it gave
// share it). A warning's or illegal move's message has, in Msg.Why, the
// referee's explanation (arbiter.Explain's code and arguments), so that a
// client can translate the reason too.
//
// Limits: Config.MaxGames running games (Create refuses more as message.Unavailable),
// Config.MaxEvents events per game (then only resign and declare, which
// end it), and the field limits in setup.go (names 64 runes, annotations
// 2 KiB, rules 8 KiB, FEN 512 bytes). The last 1000 finished games stay
// in memory; older ones are read back from the store when looked at.
//
// Watch reads the events a viewer missed from the store, never from
// memory, and then delivers live ones on a bounded channel; a subscriber
// that does not keep up is dropped (its channel closed), so that no viewer
// can hold up a game. It reconnects and catches up from the store.
//
// Secrets: each role's link carries a 256-bit token from crypto/rand
// (base64url); only its SHA-256 is stored. Resolve hashes what it is given
// and compares hashes with crypto/subtle. Reissue revokes a role's token.
//
// Engines: Config.Engines maps an operator's engine name to an engine spec
// (the one the match and tournament commands use); a Setup can only name
// one of them. The engine plays in a goroutine per game with the referee's
// clock (match.Player, built by engines.Player), and its moves go
// through the same inputs as a person's.
//
// Clients may attempt illegal moves: a move text naming squares is turned
// into a rules.Move geometrically (from, to, and the opposing pieces
// jumped) and handed to the referee, which judges it under the game's
// policy; text that names no move at all is SubmitIllegal.
//
// Imported by the HTTP front (match/web) and cmd/arbiter; it imports the
// game (match), the engine player (match/engines), configs and the rules,
// never the engines' events (tournament, store, cluster) nor HTTP.
package online
