package director

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/message"
)

// The audit log: every change to an event writes one line (time, action,
// what changed). A line is a coded message (a code of auditText and its
// arguments) so that the director's page reads it in its own language
// (the catalogs' audit.* keys); its English text is stored beside it for
// whatever has no catalog (the JSON's detail, an older page) and is all
// that lines written before the codes have.

// auditActions are the actions a line can be of; the page names each in
// its language (audit.action.*).
var auditActions = []string{
	"create", "import", "edit", "add-player", "edit-player", "remove-player", "withdraw", "reinstate",
	"seeding", "forbidden", "bye", "check-in", "links", "pair", "fix", "undo", "publish", "game",
	"report", "result", "dispute", "close",
}

// auditText is every audit line's English template, and those of the
// parts a line is made of (a change, who entered a result, how a round
// was paired): a client translates them by the same codes.
var auditText = message.Catalog{
	"audit.create":              `event "{name}", {system}, {rounds} {rounds|round|rounds}, {variant}`,
	"audit.system.swiss":        "Swiss",
	"audit.system.round-robin":  "round-robin",
	"audit.import":              `event "{name}" imported from TRF16: {players} {players|player|players}, {played} {played|round|rounds} closed of {rounds}`,
	"audit.edit":                "{changes}",
	"audit.change.name":         `name "{was}" -> "{is}"`,
	"audit.change.site":         `site "{was}" -> "{is}"`,
	"audit.change.start":        `start "{was}" -> "{is}"`,
	"audit.change.end":          `end "{was}" -> "{is}"`,
	"audit.change.time_control": `time_control "{was}" -> "{is}"`,
	"audit.change.club":         `club "{was}" -> "{is}"`,
	"audit.change.federation":   `federation "{was}" -> "{is}"`,
	"audit.change.fed_id":       `fed_id "{was}" -> "{is}"`,
	"audit.change.rating":       `rating "{was}" -> "{is}"`,
	"audit.change.title":        `title "{was}" -> "{is}"`,
	"audit.change.born":         `born "{was}" -> "{is}"`,
	"audit.change.games":        `games "{was}" -> "{is}"`,
	"audit.change.k":            `k "{was}" -> "{is}"`,
	"audit.add-player":          "{id} {name}, {club} {federation}, rating {rating}",
	"audit.add-player-notes":    "{id} {name}, {club} {federation}, rating {rating} ({notes})",
	// A player's club and federation, the ones given ({from}); the two
	// codes above are those of entries written before.
	"audit.add-player.from":        "{id} {name}, {from}, rating {rating}",
	"audit.add-player.from-notes":  "{id} {name}, {from}, rating {rating} ({notes})",
	"audit.add-player.bare":        "{id} {name}, rating {rating}",
	"audit.add-player.bare-notes":  "{id} {name}, rating {rating} ({notes})",
	"audit.note.like":              "looks like {other_id} {other}: confirmed as another person",
	"audit.note.late":              "late entry, from round {round}",
	"audit.edit-player":            "{id} {name}, {when}: {changes}",
	"audit.edit-player-notes":      "{id} {name}, {when}: {changes} ({notes})",
	"audit.when.before":            "before round 1",
	"audit.when.paired":            "after round {round} was paired",
	"audit.remove-player":          "{id} {player} (number {number}) removed before round 1",
	"audit.remove-player-unplayed": "{id} {player} (number {number}) removed after round {round}, never having played",
	"audit.withdraw":               "{id} {name} withdrawn from round {round} on",
	"audit.reinstate":              "{id} {name} reinstated (withdrawn from round {withdrawn}), paired again from round {round}",
	"audit.seeding-ranking":        "starting numbers by the initial ranking (rating, title, name)",
	"audit.seeding-hand":           "starting numbers set by hand: {moved}",
	"audit.seeding-same":           "starting numbers set by hand: no number changed",
	"audit.forbidden":              "kept apart: {groups}",
	"audit.forbidden-none":         "no players kept apart",
	"audit.group":                  "{players}",
	"audit.group-rounds":           "{players} in rounds {from}-{to}",
	"audit.bye-ask-H":              "{id} {name} asks for a half-point bye (H) in round {round}",
	"audit.bye-ask-Z":              "{id} {name} asks for a zero-point bye (Z) in round {round}",
	"audit.bye-ask-F":              "{id} {name} asks for a full-point bye (F) in round {round}",
	"audit.bye-cancel":             "{id} {name}: request for round {round} cancelled",
	"audit.bye-absent":             "round {round}: zero-point bye for the players not checked in: {players}",
	"audit.bye-lifted":             "{player} checked in late: the zero-point bye for absence in round {round} is lifted",
	"audit.check-in":               "{player} present for round {round} ({how})",
	"audit.check-out":              "{player} no longer checked in for round {round} ({how})",
	"audit.how.link":               "link",
	"audit.how.tablet":             "tablet",
	"audit.how.director":           "director",
	"audit.links-check-in":         "check-in links made for the players and the tablet",
	"audit.links-results":          "round {round}: {count} result {count|link|links} made for the players",
	"audit.pair":                   "round {round} paired ({how}): {boards}",
	"audit.pair-bye":               "round {round} paired ({how}): {boards}, bye {bye}",
	"audit.pairing.hand":           "by hand",
	"audit.pairing.berger":         "Berger table",
	"audit.pairing.dutch":          "Dutch system",
	"audit.fix":                    "round {round} changed by hand: {changes}",
	"audit.fix.board":              "board {board}: {was} -> {is}",
	"audit.fix.bye":                "bye: {was} -> {is}",
	"audit.undo":                   "round {round}'s pairing undone (was {boards})",
	"audit.undo-bye":               "round {round}'s pairing undone (was {boards}, bye {bye})",
	"audit.publish":                "round {round} published",
	"audit.game":                   "round {round} board {board}: online game {game}",
	"audit.report":                 "round {round} board {board}: {side} ({player}) reports {result}",
	"audit.dispute":                "round {round} board {board}: the players disagree ({side} {result}, {other} {other_result}); the director decides",
	"audit.result":                 "round {round} board {board}: {result} ({source})",
	"audit.result-changed":         "round {round} board {board}: {was} -> {result} ({source})",
	"audit.result-corrected":       "round {round} board {board}: {was} -> {result} ({source}, after the round was closed)",
	"audit.result-stands":          "round {round} board {board}: the online game gave {result}; the director's {was} stands",
	"audit.source.director":        "director",
	"audit.source.online":          "online",
	"audit.source.players":         "players",
	"audit.close":                  "round {round} closed",
}

// AuditCodes lists the audit lines' codes and their parts' with their
// English templates, for the web client's catalogs.
func AuditCodes() []Code {
	out := make([]Code, 0, len(auditText))
	for _, c := range auditText.Codes() {
		out = append(out, Code{c, auditText[c]})
	}
	return out
}

// AuditActions lists the actions an audit line can be of.
func AuditActions() []string { return slices.Clone(auditActions) }

// partSep joins the parts of one argument (the changes of an edit).
const partSep = "; "

// note is what one audit line says: a code, its arguments, and the
// arguments made of parts, coded messages of their own (the changes of
// an edit, who entered a result, a result's label) that a client
// translates and joins with "; ": no English words inside a translated
// line. Names, numbers and scores go as they are.
type note struct {
	code  string
	args  map[string]string
	parts map[string][]message.Message
}

// say is the note of code with its arguments as name, value pairs.
func say(code string, kv ...string) note { return note{code: code, args: message.Args(kv...)} }

// with gives the argument name as parts.
func (n note) with(name string, parts ...message.Message) note {
	if n.parts == nil {
		n.parts = map[string][]message.Message{}
	}
	n.parts[name] = parts
	return n
}

// part is a coded piece of a line, with its English text.
func part(code string, kv ...string) message.Message {
	args := message.Args(kv...)
	return message.Message{Code: code, Args: args, Text: auditText.Text(code, args)}
}

// text is the note's English text.
func (n note) text() string {
	args := maps.Clone(n.args)
	if args == nil {
		args = map[string]string{}
	}
	for name, ps := range n.parts {
		args[name] = partsText(ps)
	}
	return auditText.Text(n.code, args)
}

func partsText(ps []message.Message) string {
	texts := make([]string, len(ps))
	for i, p := range ps {
		texts[i] = p.Text
	}
	return strings.Join(texts, partSep)
}

// Audit is one line of the audit log. Code, Args and Parts are the line
// as a coded message (Code "" for a line written before they were): the
// client fills Code's template with Args and with each of Parts, its
// coded messages joined with "; ". Detail is the English text.
type Audit struct {
	At     time.Time                    `json:"at"`
	Action string                       `json:"action"`
	Detail string                       `json:"detail"`
	Code   string                       `json:"code,omitempty"`
	Args   map[string]string            `json:"args,omitempty"`
	Parts  map[string][]message.Message `json:"parts,omitempty"`
}

// auditSchema adds an audit line's code, arguments and parts (JSON) to
// the lines of version 4, which keep their English detail only.
const auditSchema = `ALTER TABLE audit ADD COLUMN code TEXT NOT NULL DEFAULT '';
ALTER TABLE audit ADD COLUMN args TEXT NOT NULL DEFAULT '';
ALTER TABLE audit ADD COLUMN parts TEXT NOT NULL DEFAULT '';
`

// audit writes one line of the event's audit log. An action or code
// (its own or a part's) outside the lists is a bug, refused so that a
// test meets it.
func (s *Store) audit(tx *sql.Tx, event, action string, n note) error {
	if _, ok := auditText[n.code]; !ok || !slices.Contains(auditActions, action) {
		return fmt.Errorf("director: internal error: audit line %s %q is not in the catalog", action, n.code)
	}
	for _, ps := range n.parts {
		for _, p := range ps {
			if _, ok := auditText[p.Code]; !ok && p.Code != "" && p.Code != forfeitLabel && p.Code != unratedLabel && p.Code != byesLabel {
				return fmt.Errorf("director: internal error: audit line %s has a part %q not in the catalog", n.code, p.Code)
			}
		}
	}
	args, err := jsonOrEmpty(n.args)
	if err != nil {
		return err
	}
	parts, err := jsonOrEmpty(n.parts)
	if err != nil {
		return err
	}
	_, err = tx.Exec("INSERT INTO audit (event, at, action, detail, code, args, parts) VALUES (?, ?, ?, ?, ?, ?, ?)",
		event, s.now().UnixNano(), action, n.text(), n.code, args, parts)
	if err != nil {
		return fmt.Errorf("director: writing the audit log: %w", err)
	}
	return nil
}

// jsonOrEmpty is v as JSON, "" for an empty map.
func jsonOrEmpty[M ~map[string]V, V any](v M) (string, error) {
	if len(v) == 0 {
		return "", nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("director: audit arguments: %w", err)
	}
	return string(b), nil
}

// AuditLog is the event's audit log, oldest first.
func (s *Store) AuditLog(ctx context.Context, event string) ([]Audit, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT at, action, detail, code, args, parts FROM audit WHERE event = ? ORDER BY seq", event)
	if err != nil {
		return nil, fmt.Errorf("director: %w", err)
	}
	defer rows.Close()
	var out []Audit
	for rows.Next() {
		var a Audit
		var at int64
		var args, parts string
		if err := rows.Scan(&at, &a.Action, &a.Detail, &a.Code, &args, &parts); err != nil {
			return nil, fmt.Errorf("director: %w", err)
		}
		if err := readJSON(args, &a.Args); err != nil {
			return nil, err
		}
		if err := readJSON(parts, &a.Parts); err != nil {
			return nil, err
		}
		a.At = time.Unix(0, at).UTC()
		out = append(out, a)
	}
	return out, rows.Err()
}

func readJSON(s string, v any) error {
	if s == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return fmt.Errorf("director: reading the audit log: %w", err)
	}
	return nil
}

// labelPart is a result's label (ResultLabel) as a part: by the
// catalogs' sheet.label key when it has words ("2-0 by forfeit"), a bare
// score as it is. A label naming byes (a round-robin's board decided by a
// requested bye) has its bye sides as parts, each with its side and its
// bye as parts, so that the reader's language says every word of it.
func (e *Event) labelPart(b Board) message.Message {
	m := message.Message{Text: e.ResultLabel(b)}
	key, score := e.labelKind(b)
	if key == "" {
		return m
	}
	m.Code, m.Args = key, message.Args("score", score)
	if key == byesLabel {
		var sides []message.Message
		for _, s := range byeSides(b) {
			sides = append(sides, message.Message{Code: byeSideLabel, Text: message.Fill(byeSideEnglish, message.Args("side", s.side, "bye", s.bye)), Parts: map[string][]message.Message{
				"side": {{Code: s.sideKey, Text: s.side}},
				"bye":  {{Code: s.byeKey, Text: s.bye}},
			}})
		}
		m.Parts = map[string][]message.Message{"byes": sides}
	}
	return m
}

// change is a part saying field went from was to is (an edit's).
func change(field, was, is string) message.Message {
	return part("audit.change."+field, "was", was, "is", is)
}
