package online

import (
	"strings"

	"github.com/draughts-arbiter/arbiter/internal/message"
)

// Code is a message code and its English template; {name} stands for the
// argument name.
type Code struct {
	Code string `json:"code"`
	Text string `json:"text"`
}

// codes are every message this package can produce. The web client has
// a translation of each (match/web/assets/i18n/*.json, checked by a test).
var codes = message.Catalog{
	// Moves and the referee.
	"move.played":        "{color} played {move}.",
	"move.illegal-stood": "{color} played {move}, an illegal move that {opponent} let stand.",
	"warning.wcdf":       "{color} played {move}, which is illegal: {why}. Warning {count} of 2: {color} moves again; a second illegal move loses.",
	"warning.corrected":  "{color} sent {move}, which is illegal: {why}. {color} moves again.",
	"decision.pending":   "{color} played {move}, which is illegal: {why}. {opponent} decides: correct it, or let it stand (a move of {opponent}'s own lets it stand).",
	"decision.corrected": "{decider} had the illegal move {move} corrected; {color} moves again.",
	"decision.stands":    "{decider} let the illegal move {move} stand.",
	// Claims.
	"claim.accepted": "{color} claimed a {claim} draw: valid. {reason}.",
	"claim.refused":  "{color} claimed a {claim} draw: refused. {reason}.",
	// A claim's or automatic draw's evidence (its Msg.Why, said in place of
	// {reason}; args.reason has it in English): lower case, no full stop, as
	// the English reason.
	"evidence.threefold":                  "the position has occurred {count} times since {since}, at moves {at}",
	"evidence.threefold-move":             "with {move} the position occurs {count} times since {since}, at moves {at}",
	"evidence.threefold-short":            "this position has occurred {count} of the three times needed since {since} (at moves {at})",
	"evidence.threefold-short-move":       "with {move} this position would have occurred {count} of the three times needed since {since} (at moves {at})",
	"evidence.threefold-start":            "the position has occurred {count} times since {since}, at the start and at moves {at}",
	"evidence.threefold-move-start":       "with {move} the position occurs {count} times since {since}, at the start and at moves {at}",
	"evidence.threefold-short-start":      "this position has occurred {count} of the three times needed since {since} (at the start and at moves {at})",
	"evidence.threefold-short-move-start": "with {move} this position would have occurred {count} of the three times needed since {since} (at the start and at moves {at})",
	"evidence.threefold-start-only":       "this position has occurred only at the start: {count} of the three times needed",
	"evidence.window":                     "each player has made {moves} moves {rule}: {counted} of the {needed} needed, counted from {first}",
	"evidence.window-short":               "only {counted} of the {needed} moves needed ({moves} each) have been played {rule}, counted from {first}",
	// No move counted; {broke} is the arbiter's English reason (value.*
	// entries translate it): "was a capture", "advanced an uncrowned
	// man", "moved a man", "brought about this endgame", "is a capture".
	"evidence.window-none":       "none of the {needed} moves needed ({moves} each) has been played {rule} since the start of the record",
	"evidence.window-none-since": "none of the {needed} moves needed ({moves} each) has been played {rule} since {broken}, which {broke}",
	"evidence.window-none-move":  "the claimed move {move} {broke}, which restarts the count of the {needed} moves needed ({moves} each) {rule}",
	// Offers.
	"offer.made":      "{color} offers a draw.",
	"offer.accepted":  "{color} accepted the draw offer.",
	"offer.declined":  "{color} declined the draw offer.",
	"offer.withdrawn": "{color}'s draw offer is withdrawn by {color}'s move.",
	// Results.
	"result.over":           "Game over: {result} ({termination}). {reason}",
	"result.draw-rule":      "Drawn automatically: {reason}.",
	"result.no-move":        "{color} has no legal move left. {result}",
	"result.no-pieces":      "{color} has no pieces left. {result}",
	"result.resigned":       "{color} resigned. {result}",
	"result.flag":           "{color}'s flag fell. {result}",
	"result.declared":       "The arbiter declared the result {result}: {reason}",
	"result.agreed":         "Drawn by agreement.",
	"result.engine":         "The engine playing {color} failed: {reason}. {result}",
	"result.illegal-strict": "{color} played {move}, which is illegal: {why}. Under the strict policy an illegal move loses. {result}",
	"result.illegal-second": "{color} played {move}, which is illegal: {why}. A second illegal move loses. {result}",
	// The arbiter.
	"arbiter.pause":      "The arbiter stopped the clocks: {reason}",
	"arbiter.resume":     "The arbiter started the clocks again.",
	"arbiter.add-time":   "The arbiter gave {color} {seconds} seconds: {reason}",
	"arbiter.annotation": "The arbiter notes: {text}",
	"arbiter.reissue":    "The arbiter issued a new link for {role}; the old one no longer works.",
	// Presence and the server.
	"presence.away":   "{color} is away.",
	"presence.back":   "{color} is back.",
	"rematch.started": "{color} started a rematch with the colours swapped.",
	"presence.joined": "{color} has opened the game.",
	"server.down":     "The server was down for {seconds} seconds; that time was not charged to anyone.",
	"engine.started":  "{engine} plays {color}.",
	// The time control in words (ReadClock): clauses joined with ", ".
	"clock.none":       "no clock: the game is untimed",
	"clock.each":       "{time} each",
	"clock.moves":      "{moves} moves in {time}",
	"clock.then-moves": "then {moves} moves in {time}",
	"clock.rest":       "then {time} for the rest of the game",
	"clock.repeats":    "then {moves} moves in {time} again, and so on",
	"clock.increment":  "{time} added per move",
	"clock.delay":      "the clock waits {time} each move before it runs",
	"clock.bronstein":  "up to {time} of each move's time given back",
	"clock.per-move":   "{time} for every move, nothing saved up",
	"clock.short":      "Under a minute on the clock: a game this fast is easily lost on time.",
	"clock.hint":       "That is {n} minutes each. If you meant {n} seconds, write {alt}.",
	"time.hour":        "1 hour",
	"time.hours":       "{n} hours",
	"time.minute":      "1 minute",
	"time.minutes":     "{n} minutes",
	"time.second":      "1 second",
	"time.seconds":     "{n} seconds",
	// Refusals.
	"refused.role":            "Your link ({role}) cannot do that ({kind}).",
	"refused.not-your-turn":   "It is {turn}'s turn.",
	"refused.game-over":       "The game is over.",
	"refused.paused":          "The clocks are stopped by the arbiter; wait until they run again.",
	"refused.not-paused":      "The clocks are not stopped.",
	"refused.bad-input":       "{field}: {problem}",
	"refused.unknown-kind":    "Unknown action {kind}.",
	"refused.no-offer":        "There is no draw offer to answer.",
	"refused.offer-open":      "Your draw offer is already open.",
	"refused.no-decision":     "No illegal move awaits your decision.",
	"refused.decision-first":  "{decider} must first decide about the illegal move {move}.",
	"refused.ambiguous":       "{move} could be {choices}: say which pieces are taken (the long form, or click each square).",
	"refused.unknown-claim":   "{claim} is not a draw rule of this game (it has {rules}).",
	"refused.no-time-control": "This game has no clock to add time to.",
	"refused.event-limit":     "This game has reached its limit of {limit} events.",
	"refused.broken":          "This game could not be restored after a restart: {reason}",
	"refused.unknown-game":    "No such game.",
	"refused.not-over":        "The game is not over yet.",
	"refused.friendly":        "{move} is not a legal move: {why}. Nothing is counted in a friendly game: play another move.",
	"refused.engine-side":     "An engine plays {color}.",
	"refused.closed":          "The server is shutting down.",
	"refused.cannot-save":     "The server cannot save: {reason}. The game is paused with the clocks stopped; it goes on by itself as soon as saving works again.",
	"refused.cannot-create":   "The server cannot save: {reason}. No game was created; try again in a while.",
	"store.cannot-save":       "The server cannot save: {reason}. The game is paused with the clocks stopped; it goes on by itself as soon as saving works again.",
	"refused.too-many-games":  "The server holds {limit} running games, its limit; try again later.",
}

// Codes lists every message code with its English template, sorted.
func Codes() []Code {
	out := make([]Code, 0, len(codes))
	for _, c := range codes.Codes() {
		out = append(out, Code{c, codes[c]})
	}
	return out
}

// render fills in a code's template. With arguments the text is a
// sentence: trimmed, and starting with a capital also when it starts with
// an argument ("white" -> "White played 32-28.").
func render(code string, args map[string]string) string {
	t, ok := codes[code]
	if !ok || len(args) == 0 || !strings.Contains(t, "{") {
		return codes.Text(code, args)
	}
	return sentence(strings.TrimSpace(message.Fill(t, args)))
}

// sentence begins s with a capital letter, as a sentence after a full
// stop.
func sentence(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

func newMsg(code string, args map[string]string) Msg {
	return Msg{Code: code, Args: args, Text: render(code, args)}
}

// kv makes an argument map from name, value pairs.
func kv(pairs ...string) map[string]string { return message.Args(pairs...) }

func refuse(kind message.Kind, code string, pairs ...string) *Refusal {
	return &Refusal{Code: code, Args: kv(pairs...), Kind: kind}
}

func badInput(field, problem string) *Refusal {
	return refuse(message.Invalid, "refused.bad-input", "field", field, "problem", problem)
}
