// Package hub speaks the Hub protocol (version 2, the protocol of Fabien
// Letouzey's Scan and Hub) to an engine process over its standard input and
// output: a line codec (ParseLine, Line.String) and a match.Player.
//
// Every line has the form `<command> <arg>=<val> <arg>=<val> ...`; values
// are quoted with double quotes when they contain a space or '=' or are
// empty; an argument without "=val" is a flag. The player judges a line by
// its command (the first word), not by whether it parses: unknown commands
// and arguments are ignored, as the protocol asks, and so is any line the
// arbiter does not act on, even one that breaks the syntax (logged, with a
// warning once per game). Only a "done" that cannot be read is an illegal
// move under the event's policy; a line over 64 KiB is an engine fault.
//
// Imported by the engine players (match/engines, sparring, cb, check) and
// the engines' runner; it imports the game (match), the referee and the rules.
package hub

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrSyntax marks a line that does not follow the Hub syntax at all.
var ErrSyntax = errors.New("hub: syntax error")

// Arg is one argument; Flag is true for an argument written without "=val".
type Arg struct {
	Name, Value string
	Flag        bool
}

// Line is one protocol line.
type Line struct {
	Command string
	Args    []Arg
}

// Get returns the value of the first argument called name.
func (l Line) Get(name string) (string, bool) {
	for _, a := range l.Args {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Has reports whether an argument (or flag) called name is present.
func (l Line) Has(name string) bool {
	_, ok := l.Get(name)
	return ok
}

// ParseLine reads one line (without its line end). Blank lines give a Line
// with an empty Command. A line that breaks the syntax (control characters,
// invalid UTF-8, an unterminated or misplaced quote, an argument without a
// name) is an error wrapping ErrSyntax that names the column.
func ParseLine(s string) (Line, error) { return parseLineInto(s, nil) }

// parseLineInto is ParseLine with room for the arguments: a caller that
// keeps no argument past its own return passes an array of its stack, and
// a line of up to len(args) arguments allocates nothing.
func parseLineInto(s string, args []Arg) (Line, error) {
	l := Line{Args: args[:0]}
	fail := func(i int, why string) (Line, error) {
		return Line{}, fmt.Errorf("%w at column %d: %s", ErrSyntax, i+1, why)
	}
	if !utf8.ValidString(s) {
		return fail(0, "invalid UTF-8")
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return fail(i, fmt.Sprintf("control character %#02x", c))
		}
	}
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	skip()
	start := i
	for i < len(s) && s[i] != ' ' && s[i] != '\t' {
		if s[i] == '"' || s[i] == '=' {
			return fail(i, fmt.Sprintf("%q in the command name", s[i]))
		}
		i++
	}
	l.Command = s[start:i]
	if n := strings.Count(s[i:], "="); n > cap(l.Args) {
		// One allocation for the arguments (an info line has half a dozen).
		l.Args = make([]Arg, 0, n)
	}
	for {
		skip()
		if i >= len(s) {
			return l, nil
		}
		start = i
		for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '=' {
			if s[i] == '"' {
				return fail(i, "quote in an argument name")
			}
			i++
		}
		a := Arg{Name: s[start:i]}
		if a.Name == "" {
			return fail(i, "argument without a name")
		}
		if i >= len(s) || s[i] != '=' {
			a.Flag = true
			l.Args = append(l.Args, a)
			continue
		}
		i++ // '='
		if i < len(s) && s[i] == '"' {
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return fail(i, "unterminated quote")
			}
			a.Value = s[i+1 : i+1+end]
			i += end + 2
			if i < len(s) && s[i] != ' ' && s[i] != '\t' {
				return fail(i, "text right after a closing quote")
			}
		} else {
			start = i
			for i < len(s) && s[i] != ' ' && s[i] != '\t' {
				if s[i] == '"' || s[i] == '=' {
					return fail(i, fmt.Sprintf("%q inside an unquoted value", s[i]))
				}
				i++
			}
			a.Value = s[start:i]
		}
		l.Args = append(l.Args, a)
	}
}

// String writes the line, quoting values that need it. Double quotes inside
// a value cannot be written in Hub syntax and are replaced by single quotes.
func (l Line) String() string {
	var b strings.Builder
	b.WriteString(l.Command)
	for _, a := range l.Args {
		b.WriteByte(' ')
		b.WriteString(a.Name)
		if a.Flag {
			continue
		}
		b.WriteByte('=')
		writeValue(&b, a.Value)
	}
	return b.String()
}

func writeValue(b *strings.Builder, v string) {
	v = strings.ReplaceAll(v, `"`, `'`)
	if v == "" || strings.ContainsAny(v, " \t=") {
		b.WriteByte('"')
		b.WriteString(v)
		b.WriteByte('"')
		return
	}
	b.WriteString(v)
}

// Cmd builds a line from a command and name, value pairs.
func Cmd(command string, nameValues ...string) Line {
	l := Line{Command: command}
	for i := 0; i+1 < len(nameValues); i += 2 {
		l.Args = append(l.Args, Arg{Name: nameValues[i], Value: nameValues[i+1]})
	}
	return l
}
