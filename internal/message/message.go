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
// its evidence), for a client that translates it.
type Message struct {
	Code string            `json:"code"`
	Args map[string]string `json:"args,omitempty"`
	Text string            `json:"text"`
	Why  *Message          `json:"why,omitempty"`
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
// missing argument shows instead of vanishing.
func Fill(template string, args map[string]string) string {
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
		if v, ok := args[t[i+1:i+j]]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(t[i : i+j+1])
		}
		t = t[i+j+1:]
	}
	b.WriteString(t)
	return b.String()
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
