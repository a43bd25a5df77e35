// Package message is the arbiter's one coded message: a code (the key of a
// translation in the web client's catalogs), its arguments, and an English
// template with {name} placeholders, filled by one renderer; and the closed
// set of kinds a refusal can be of, so that domain packages say what went
// wrong (not found, not now, bad input) and only the HTTP front turns a kind
// into a status code.
//
// It imports only the standard library and sits at the bottom of the flow:
// anyone may import it (arbiter, match/people/online, match/people/director,
// match/web and the rest).
package message

import (
	"slices"
	"strconv"
	"strings"
)

// Message is a coded message as the web client receives it: it translates
// Code with Args, and Text is the English form. Why, where there is one,
// explains one argument with a code of its own (a warning's or an illegal
// move's Args["why"]: the referee's explanation; a claim's Args["reason"]:
// its evidence), for a client that translates it. Cite, on an
// explanation, is the article of the federation's rulebook that the rule
// stands in ("FMJD rules, art. 4.13"), a message of its own so that each
// language says it in its words; Text leaves it out. Parts are
// arguments that are coded messages of their own (a result's label "1-2
// (White: half-point bye)" has its bye sides, each its side and its bye),
// which a client translates and joins with ", " as Args[name]; Text has
// them in English.
type Message struct {
	Code  string               `json:"code"`
	Args  map[string]string    `json:"args,omitempty"`
	Text  string               `json:"text"`
	Why   *Message             `json:"why,omitempty"`
	Cite  *Message             `json:"cite,omitempty"`
	Parts map[string][]Message `json:"parts,omitempty"`
}

// Catalog maps each message code to its English template; {name} in a
// template stands for the argument name.
type Catalog map[string]string

// Text is code's English text: its template filled with args. A code the
// catalog does not hold is its own text.
func (c Catalog) Text(code string, args map[string]string) string {
	t, ok := c[code]
	if !ok {
		return code
	}
	return Fill(t, args)
}

// Codes lists the catalog's codes, sorted.
func (c Catalog) Codes() []string {
	out := make([]string, 0, len(c))
	for code := range c {
		out = append(out, code)
	}
	slices.Sort(out)
	return out
}

// Fill replaces each {name} in template by args[name], reading the template
// once from left to right (an argument's value is never read again for
// placeholders). A placeholder without an argument stays as it is, so a
// missing argument shows instead of vanishing. A {name|form|form...} is
// the word that goes with the number args[name] in English (FillIn).
func Fill(template string, args map[string]string) string { return FillIn("en", template, args) }

// FillIn is Fill in language lang (a tag: "ru", "en-GB"): a
// {name|form|form...} is replaced by the form of the number args[name], as
// the web client's catalogs write it and i18n.js reads it, so that the
// server's pages and the browser's agree ("после {games}
// {games|партии|партий|партий}": после 21 партии, после 22 партий).
func FillIn(lang, template string, args map[string]string) string {
	if len(args) == 0 || !strings.Contains(template, "{") {
		return template
	}
	var b strings.Builder
	t := template
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 {
			break
		}
		b.WriteString(t[:i])
		name, forms, plural := strings.Cut(t[i+1:i+j], "|")
		v, ok := args[name]
		n, err := strconv.Atoi(v)
		switch {
		case ok && !plural:
			b.WriteString(v)
		case ok && err == nil:
			all := strings.Split(forms, "|")
			b.WriteString(all[min(pluralIndex(n, lang), len(all)-1)])
		default:
			b.WriteString(t[i : i+j+1])
		}
		t = t[i+j+1:]
	}
	b.WriteString(t)
	return b.String()
}

// pluralIndex is the place of n's plural category among lang's, in the
// order i18n.js gives the forms (one, few, many, other), for whole
// numbers by CLDR's rules (the browsers' Intl.PluralRules): Russian one
// (1, 21, 31, ...), few (2-4, 22-24, ...), many (the rest); French one (0
// and 1), many (whole millions), other; the catalogs' other languages one
// (1) and other. A catalog that gives fewer forms has its last stand for
// the rest.
func pluralIndex(n int, lang string) int {
	base, _, _ := strings.Cut(strings.ToLower(lang), "-")
	switch base {
	case "ru":
		switch m10, m100 := n%10, n%100; {
		case m10 == 1 && m100 != 11:
			return 0
		case m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14):
			return 1
		}
		return 2
	case "fr":
		switch {
		case n == 0 || n == 1:
			return 0
		case n%1000000 == 0:
			return 1
		}
		return 2
	}
	if n == 1 {
		return 0
	}
	return 1
}

// Decimal writes x with digits decimals in language lang (a tag: "ru",
// "en-GB"), as the browsers' Intl.NumberFormat does for the catalogs'
// languages: a decimal comma in Russian, Norwegian, Danish, Dutch and
// French (CLDR's decimal symbol), a point in English and any other tag;
// no grouping (the numbers it writes are small: rating changes). The
// minus is the sign's typographic form (−), as the sheets print it.
func Decimal(lang string, x float64, digits int) string {
	s := strconv.FormatFloat(x, 'f', digits, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-") // no "−0.0"
	}
	if strings.HasPrefix(s, "-") {
		s = "−" + s[1:]
	}
	base, _, _ := strings.Cut(strings.ToLower(lang), "-")
	switch base {
	case "ru", "nb", "nn", "no", "da", "nl", "fr":
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// Args makes an argument map from name, value pairs (a last name without a
// value is dropped); nil for none.
func Args(pairs ...string) map[string]string {
	if len(pairs) < 2 {
		return nil
	}
	m := make(map[string]string, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return m
}

// Kind is what sort of refusal an operation met. The set is closed: a
// domain package picks one of these, and the HTTP front maps each to one
// status code (match/web).
type Kind uint8

const (
	// Invalid is bad input: a field, a result, a move text that is not
	// one.
	Invalid Kind = iota + 1
	// Forbidden is an operation the caller's role may not do.
	Forbidden
	// NotFound is a thing that does not exist: a game, an event, a round.
	NotFound
	// Conflict is an operation that is not possible now: not your turn,
	// the round is closed, the game is over.
	Conflict
	// TooLarge is input over its size limit.
	TooLarge
	// Failed is an operation that failed on the server's side (a pairing
	// program's error).
	Failed
	// Unavailable is a server that cannot take it now: shutting down, or
	// full (its limit of games or events reached).
	Unavailable
)

var kindNames = [...]string{"", "invalid", "forbidden", "not found", "conflict", "too large", "failed", "unavailable"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}
