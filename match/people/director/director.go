package director

import (
	"fmt"
	"strings"
	"time"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules/tally"

	"github.com/draughts-arbiter/arbiter/match/schedule/swiss"
	"github.com/draughts-arbiter/arbiter/reports/tiebreak"
)

// System is an event's pairing system.
type System string

// Systems.
const (
	Swiss      System = "swiss"
	RoundRobin System = "round-robin"
)

// Round states.
const (
	Paired    = "paired"    // paired, seen by the director only
	Published = "published" // on the public pages; results may be recorded
	Closed    = "closed"    // every board has its result
)

// Limits of one event.
const (
	MaxEvents  = 100_000 // events in one store
	MaxPlayers = 1000
	MaxRounds  = 50
	MaxName    = 64  // runes of a name, club, site, federation id
	MaxText    = 128 // runes of an event's name, site, time control
	MaxCSV     = 256 << 10
)

// Event is what the director sets up.
type Event struct {
	ID          string        `json:"id"` // public id (the public pages' address)
	Name        string        `json:"name"`
	Site        string        `json:"site"`
	Start       string        `json:"start"` // YYYY-MM-DD ("" unknown)
	End         string        `json:"end"`
	Variant     string        `json:"variant"`      // a rules preset
	TimeControl string        `json:"time_control"` // PDN syntax, "" untimed
	System      System        `json:"system"`
	Rounds      int           `json:"rounds"`
	Scoring     tally.Scoring `json:"scoring"`
	// HalfPoints prints scores halved (1-½-0, English checkers) rather
	// than in scoring units (2-1-0, FMJD).
	HalfPoints bool     `json:"half_points"`
	TieBreaks  []string `json:"tie_breaks"`
	Baku       bool     `json:"baku,omitempty"`
	// Pairing is a Swiss event's pairing system: "" the Dutch system
	// (C.04.3), "burstein" the Burstein system (C.04.4.2, after its Dutch
	// seeding rounds); see swiss.ParseSystem. Fixed when created.
	Pairing string `json:"pairing,omitempty"`
	// Forbidden are the groups of players (entry ids) of whom no two may
	// be paired together: players of one family or club, the director's
	// choice (SetForbidden) or a TRF's XXP and 260 records. The Swiss
	// pairing treats them as a rematch (swiss.Options.Forbidden); a
	// pairing by hand may still put them on one board.
	Forbidden Groups `json:"forbidden"`
	// FirstColor is the colour drawn for the first player in round 1
	// (TRF's XXC white1/black1); NoColor leaves it to the pairing (White).
	FirstColor tally.Color `json:"first_color,omitempty"`
	// Seeding is how the starting numbers are given before round 1: ""
	// by the initial ranking (rating, title, name), SeedManual as the
	// director ordered them (SetSeeding).
	Seeding string `json:"seeding,omitempty"`
	// LastID is the highest entry id a removed player had (RemovePlayer),
	// so that no id is given twice: links and the audit log name players
	// by it.
	LastID  int       `json:"last_id,omitempty"`
	Created time.Time `json:"created"`
}

// Details are the settings a director may change once the event is
// created (EditDetails): what it is called, where and when, and the time
// control. The pairing settings (system, rounds, scoring, tie-breaks)
// stay as created.
type Details struct {
	Name        string `json:"name"`
	Site        string `json:"site"`
	Start       string `json:"start"`
	End         string `json:"end"`
	TimeControl string `json:"time_control"`
}

// Details is the event's details.
func (e *Event) Details() Details {
	return Details{Name: e.Name, Site: e.Site, Start: e.Start, End: e.End, TimeControl: e.TimeControl}
}

func (e *Event) setDetails(d Details) {
	e.Name, e.Site, e.Start, e.End, e.TimeControl = d.Name, d.Site, d.Start, d.End, d.TimeControl
}

// Options is the event's pairing options.
func (e *Event) Options() swiss.Options {
	sys, _ := swiss.ParseSystem(e.Pairing) // checked when created
	return swiss.Options{Rounds: e.Rounds, Scoring: e.Scoring, Baku: e.Baku, FirstColor: e.FirstColor, System: sys}
}

// FormatScore writes units of e.Scoring as the event prints them.
func (e *Event) FormatScore(units int) string { return tally.FormatUnits(units, e.HalfPoints) }

// TieBreakOrder is the event's tie-breaks, in order (checked when the
// event was created: an error means a store written by something else).
func (e *Event) TieBreakOrder() (tiebreak.Order, error) {
	order, err := tiebreak.Parse(strings.Join(e.TieBreaks, ","))
	if err != nil {
		return nil, fmt.Errorf("director: event %s: tie-breaks: %w", e.ID, err)
	}
	return order, nil
}

// FormatTieBreak writes a tie-break value in the event's style, or a dash
// for one not shown (Standing.Shown: a direct encounter that breaks no tie).
func (e *Event) FormatTieBreak(tb tiebreak.TieBreak, v float64, shown bool) string {
	if !shown {
		return tiebreak.NotShown
	}
	return tb.Format(v, e.HalfPoints)
}

// Player is an entrant.
type Player struct {
	ID         int    `json:"id"`     // entry order, 1-based, stable
	Number     int    `json:"number"` // pairing number (0 before round 1 is paired)
	Name       string `json:"name"`
	Club       string `json:"club,omitempty"`
	Federation string `json:"federation,omitempty"` // e.g. NED, NOR
	FedID      string `json:"fed_id,omitempty"`     // the federation's id of the player
	Rating     int    `json:"rating,omitempty"`
	Title      string `json:"title,omitempty"` // GMI, MI, MF, GM, IM, ... (seeding: TitleRank)
	// Entered is the first round the player is paired in (1 = from the
	// start); Withdrawn the first round the player no longer is (0 = not
	// withdrawn).
	Entered   int `json:"entered"`
	Withdrawn int `json:"withdrawn,omitempty"`
	// What the development coefficient K of FIDE B.02 art. 8.3.3 reads
	// (Snapshot.PlayerK): the year of birth (0 not known), the rated
	// games completed before the event (0 not known: a rated player has
	// at least 5, art. 7.1.4, so 0 is never a real count and the player
	// is taken as past the 30 games of a new player), and K as the
	// director or the federation's list sets it (0: from the article).
	Born  int `json:"born,omitempty"`
	Games int `json:"games,omitempty"`
	K     int `json:"k,omitempty"`
}

// Board is one board of a round.
type Board struct {
	Board int `json:"board"` // 1-based
	White int `json:"white"` // player ids
	Black int `json:"black"`
	// WhiteResult and BlackResult are TRF16 codes, 0 while not in.
	WhiteResult tally.Result `json:"white_result,omitempty"`
	BlackResult tally.Result `json:"black_result,omitempty"`
	Source      string       `json:"source,omitempty"` // director | online | auto
	Game        string       `json:"game,omitempty"`   // the online game's id
}

// Done reports whether the board's result is in.
func (b Board) Done() bool { return b.WhiteResult != 0 && b.BlackResult != 0 }

// Score is the board's result as a code of Outcomes ("1-0", "=-=",
// "+--", "" while not in; other codes as "H:+"), from White's side; a game
// played but not rated (TRF W D L) has " (not rated)" after it. It is the
// same whatever the event's scoring: ResultLabel is what people read.
func (b Board) Score() string {
	if !b.Done() {
		return ""
	}
	if k := b.Outcome(); k != "" {
		if Rated(b.WhiteResult) != b.WhiteResult || Rated(b.BlackResult) != b.BlackResult {
			return k + " (not rated)"
		}
		return k
	}
	return string(b.WhiteResult) + ":" + string(b.BlackResult)
}

// ResultLabel is a board's result as the event writes it, from White's
// side, in the points of its scoring (FormatScore): FMJD's 2-1-0 gives
// "2-0", "1-1", "0-2", English checkers' halves "1-0", "½-½", "0-1"; a
// forfeit is "2-0 by forfeit" ("0-0 by forfeit" when neither appeared); a
// round-robin board decided by a side's bye names it ("1-2 (White:
// half-point bye)"); a game played but not rated has " (not rated)" after
// it; "" while the result is not in. The director's page, the audit log
// and the sheets all print this one form.
func (e *Event) ResultLabel(b Board) string { return e.ResultLabelIn(b, nil) }

// ResultLabelIn is ResultLabel in another language: text gives the
// translation of each of its words by the key the clients' catalogs use
// (sheet.label.*, sheet.colour.*, sheet.bye.*; {score}, {side}, {bye},
// {byes} filled in), "" (or a nil text) keeping the English.
func (e *Event) ResultLabelIn(b Board, text func(key string) string) string {
	if !b.Done() {
		return ""
	}
	tr := func(key, english string, kv ...string) string {
		if text != nil {
			if s := strings.TrimSpace(text(key)); s != "" {
				english = s
			}
		}
		return strings.NewReplacer(kv...).Replace(english)
	}
	key, score := e.labelKind(b)
	switch key {
	case byesLabel:
		var byes []string
		for _, s := range byeSides(b) {
			byes = append(byes, tr(byeSideLabel, byeSideEnglish,
				"{side}", tr(s.sideKey, s.side), "{bye}", tr(s.byeKey, s.bye)))
		}
		return tr(byesLabel, "{score} ({byes})", "{score}", score, "{byes}", strings.Join(byes, ", "))
	case forfeitLabel:
		return tr(forfeitLabel, "{score} by forfeit", "{score}", score)
	case unratedLabel:
		return tr(unratedLabel, "{score} (not rated)", "{score}", score)
	}
	return score
}

// byeSide is a side of a board that has a requested bye, as a result's
// label names it: the side and the bye, each in English and by the key the
// clients' catalogs translate it by.
type byeSide struct {
	sideKey, side, byeKey, bye string
}

// byeSides are the sides of b that have a requested bye, White first: the
// one list ResultLabelIn and the audit log's label (labelPart) name.
func byeSides(b Board) []byeSide {
	var out []byeSide
	for _, s := range []struct {
		key, english string
		r            tally.Result
	}{{"sheet.colour.white", "White", Rated(b.WhiteResult)}, {"sheet.colour.black", "Black", Rated(b.BlackResult)}} {
		if isBye(s.r) {
			w := byeWords[s.r]
			out = append(out, byeSide{sideKey: s.key, side: s.english, byeKey: w[0], bye: w[1]})
		}
	}
	return out
}

// The catalog keys of a result's label with words.
const (
	byeSideLabel = "sheet.label.bye_side"
	// byeSideEnglish is byeSideLabel's English template.
	byeSideEnglish = "{side}: {bye}"
	byesLabel      = "sheet.label.byes"
	forfeitLabel   = "sheet.label.forfeit"
	unratedLabel   = "sheet.label.unrated"
)

// labelKind is the kind of b's label (the catalog key of its words, ""
// for a bare score) and its score in the event's points ("2-0").
func (e *Event) labelKind(b Board) (key, score string) {
	sc := e.Scoring
	if sc == (tally.Scoring{}) {
		sc = tally.DefaultScoring
	}
	w, bl := Rated(b.WhiteResult), Rated(b.BlackResult)
	score = e.FormatScore(sc.Points(w)) + "-" + e.FormatScore(sc.Points(bl))
	switch {
	case isBye(w) || isBye(bl):
		return byesLabel, score
	case w == tally.ForfeitWin || bl == tally.ForfeitWin || w == tally.ForfeitLoss:
		return forfeitLabel, score
	case w != b.WhiteResult || bl != b.BlackResult:
		return unratedLabel, score
	}
	return "", score
}

// byeWords name the requested byes in a result's label: the catalog key
// and the English.
var byeWords = map[tally.Result][2]string{
	tally.HalfBye: {"sheet.bye.half", "half-point bye"}, tally.FullBye: {"sheet.bye.full", "full-point bye"},
	tally.ZeroBye: {"sheet.label.bye_zero", "zero-point bye"},
}

// OutcomeLabels gives the label (ResultLabel) of each of Outcomes, for
// a client's menu of results.
func (e *Event) OutcomeLabels() map[string]string { return e.OutcomeLabelsIn(nil) }

// OutcomeLabelsIn is OutcomeLabels in another language, text as for
// ResultLabelIn.
func (e *Event) OutcomeLabelsIn(text func(key string) string) map[string]string {
	out := make(map[string]string, len(outcomes))
	for k, r := range outcomes {
		out[k] = e.ResultLabelIn(Board{WhiteResult: r[0], BlackResult: r[1]}, text)
	}
	return out
}

// Outcome is the board's result as one of Outcomes ("" while not in, or
// for a board no director enters: a round-robin's bye).
func (b Board) Outcome() string {
	w, bl := Rated(b.WhiteResult), Rated(b.BlackResult)
	for k, v := range outcomes {
		if v == [2]tally.Result{w, bl} {
			return k
		}
	}
	return ""
}

// outcomes are the board results a director enters, as White-Black TRF
// codes. A forfeit is + for the side present and - for the one who did not
// show; "--" neither showed.
var outcomes = map[string][2]tally.Result{
	"1-0": {tally.Win, tally.Loss},
	"0-1": {tally.Loss, tally.Win},
	"=-=": {tally.Draw, tally.Draw},
	"+--": {tally.ForfeitWin, tally.ForfeitLoss},
	"--+": {tally.ForfeitLoss, tally.ForfeitWin},
	"---": {tally.ForfeitLoss, tally.ForfeitLoss},
}

// Outcomes lists the board results ParseOutcome reads, canonical forms.
func Outcomes() []string { return []string{"1-0", "0-1", "=-=", "+--", "--+", "---"} }

// ParseOutcome reads a board result: 1-0, 0-1, a draw (½-½, 1/2-1/2, =,
// 1-1 and 2-0 / 0-2 in FMJD's notation), a forfeit (+- or -+, "+:-") or
// a double forfeit (--).
func ParseOutcome(s string) ([2]tally.Result, bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	switch s {
	case "1-0", "2-0":
		s = "1-0"
	case "0-1", "0-2":
		s = "0-1"
	case "½-½", "1/2-1/2", "=", "1-1", "=-=", "draw":
		s = "=-="
	case "+-", "+:-", "+--", "+/-":
		s = "+--"
	case "-+", "-:+", "--+", "-/+":
		s = "--+"
	case "--", "-:-", "---", "-/-":
		s = "---"
	}
	r, ok := outcomes[s]
	return r, ok
}

// Round is one round and its boards.
type Round struct {
	N      int     `json:"n"`
	State  string  `json:"state"`
	Boards []Board `json:"boards"`
	// Bye is the player (id) with the pairing-allocated bye (0 none).
	Bye int `json:"bye,omitempty"`
	// Absent are the players not on a board and without the
	// pairing-allocated bye, with their TRF code (H, Z, F); in a
	// round-robin also those who asked for a bye (their board is decided).
	Absent map[int]tally.Result `json:"absent,omitempty"`
}

// Error is an operation the event refuses: a code from Codes, its
// arguments, and the English text.
type Error struct {
	Code string
	Args map[string]string
	// Kind is what sort of refusal it is (Invalid bad input, NotFound
	// unknown, Conflict not now, ...); the web front maps it to a status.
	Kind message.Kind
}

func (e *Error) Error() string { return codeText.Text(e.Code, e.Args) }

// Text is the English text of the error.
func (e *Error) Text() string { return e.Error() }

func refuse(kind message.Kind, code string, kv ...string) *Error {
	return &Error{Code: code, Kind: kind, Args: message.Args(kv...)}
}

// codeText is every refusal's English text.
var codeText = message.Catalog{
	"director.unknown-event":        "No such event.",
	"director.too-many-events":      "The server holds {limit} events, its most; no more can be created.",
	"director.bad-field":            "The field {field} is not valid: {detail}",
	"director.too-many-players":     "The event is full ({limit} players at most).",
	"director.unknown-player":       "There is no player {player} in this event.",
	"director.unknown-round":        "Round {round} has not been paired.",
	"director.unknown-board":        "Round {round} has no board {board}.",
	"director.round-order":          "Round {round} cannot be paired: the next round to pair is {next}.",
	"director.round-open":           "Round {round} cannot be paired before round {previous} is closed.",
	"director.all-rounds":           "All {rounds} rounds have been paired.",
	"director.too-few-players":      "At least two players are needed to pair a round ({count} present).",
	"director.no-pairing":           "No pairing satisfies the rules for round {round}; pair it by hand.",
	"director.pairing-failed":       "The pairing of round {round} failed: {detail}",
	"director.not-last":             "Only the last round ({last}) can be changed that way, not round {round}.",
	"director.has-results":          "Round {round} already has results; its pairing can no longer be changed or undone.",
	"director.not-published":        "Round {round} is not published yet; publish it before recording results.",
	"director.already":              "Round {round} is already {state}.",
	"director.closed":               "Round {round} is closed.",
	"director.results-missing":      "Round {round} cannot be closed: board {board} has no result yet. Enter its result, then close the round.",
	"director.bad-result":           "{result} is not a result (1-0, 0-1, ½-½, +-, -+ or --).",
	"director.bad-pairing":          "That pairing is not valid: {detail}",
	"director.rr-late":              "A round-robin takes no entries once round 1 is paired.",
	"director.withdrawn":            "Player {player} has withdrawn.",
	"director.not-withdrawn":        "Player {player} has not withdrawn.",
	"director.bad-bye":              "{kind} is not a requested bye (H half point, Z zero, F full point).",
	"director.bye-paired":           "Round {round} is already paired; a bye must be asked for before.",
	"director.has-game":             "Board {board} of round {round} already has an online game.",
	"director.csv":                  "CSV line {line}, column {column}: {detail}",
	"director.csv-line":             "CSV line {line}: {detail}",
	"director.csv-file":             "CSV file: {detail}",
	"director.trf":                  "TRF line {line}, column {column}: {detail}",
	"director.trf-line":             "TRF line {line}: {detail}",
	"director.trf-file":             "TRF file: {detail}",
	"director.trf-history":          "TRF player {player}, round {round}: {detail}",
	"director.duplicate-fed_id":     "{name} looks like player {number}, {other}, already entered: the same name and federation id. Confirm only if they are two people.",
	"director.duplicate-club":       "{name} looks like player {number}, {other}, already entered: the same name and club. Confirm only if they are two people.",
	"director.twice":                "{name} is entered twice.",
	"director.csv-duplicate-fed_id": "CSV line {line}: {name} looks like {other}, already entered: the same name and federation id. Remove the line, or import anyway if they are two people.",
	"director.csv-duplicate-club":   "CSV line {line}: {name} looks like {other}, already entered: the same name and club. Remove the line, or import anyway if they are two people.",
	"director.csv-twice":            "CSV line {line}: {name} is also on line {other}. Remove one of the lines, or import anyway if they are two people.",
	"director.has-played":           "{player} has played in round {round}: withdraw them instead; a player who has played stays in the results.",
	"director.rr-remove":            "A round-robin's tables count every player: once round 1 is paired, withdraw {player} instead of removing them.",
	"director.seeding-fixed":        "Round 1 is paired: the starting numbers are fixed.",
	"director.bad-seeding":          "That order of the starting numbers is not valid: {detail}",
	"director.bad-forbidden":        "Those players cannot be kept apart: {detail}",
	"director.forbidden-swiss":      "Players are kept apart only in a Swiss: a round-robin pairs everyone with everyone.",
}

// Code is a refusal code with its English template.
type Code struct{ Code, Text string }

// Codes lists every refusal code, for the web client's catalogs.
func Codes() []Code {
	out := make([]Code, 0, len(codeText))
	for _, c := range codeText.Codes() {
		out = append(out, Code{c, codeText[c]})
	}
	return out
}

func badField(field, detail string) *Error {
	return refuse(message.Invalid, "director.bad-field", "field", field, "detail", detail)
}
