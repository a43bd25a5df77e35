package web

import (
	"github.com/draughts-arbiter/arbiter/arbiter"
	"github.com/draughts-arbiter/arbiter/match/people/director"
	"github.com/draughts-arbiter/arbiter/match/people/online"
)

// code is one message code the client must translate, with where it comes
// from and its English template when the source exports one.
type code struct {
	code, from, english string
}

// messageCodes lists every code the server side can put in a message: the
// Hall's (online.Codes), the referee's explanations of illegal moves
// (arbiter.Codes), the director's refusals and audit lines
// (director.Codes, director.AuditCodes) and the HTTP layer's own (Codes).
func messageCodes() []code {
	var out []code
	for _, c := range online.Codes() {
		out = append(out, code{code: c.Code, from: "match/people/online", english: c.Text})
	}
	for _, c := range arbiter.Codes() {
		// An Explanation without arguments prints its template as it is.
		out = append(out, code{code: c, from: "referee", english: arbiter.Explanation{Code: c}.String()})
	}
	for c, english := range arbiter.ArticleCodes() {
		// The rulebook's article after an explanation (its Cite).
		out = append(out, code{code: c, from: "referee's citation", english: english})
	}
	for _, c := range director.Codes() {
		out = append(out, code{code: c.Code, from: "match/people/director", english: c.Text})
	}
	for _, c := range director.AuditCodes() {
		out = append(out, code{code: c.Code, from: "director's audit log", english: c.Text})
	}
	for _, c := range Codes() {
		out = append(out, code{code: c, from: "match/web", english: codeText[c]})
	}
	return out
}
