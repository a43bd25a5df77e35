package arbiter

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Annotation is what an engine said of one of its moves, as the PDN keeps
// it in the move's comment (the form of fastchess and CheckerBoard):
//
//	{+0.31/12 0.52s [%nodes 123456] [%pv 32-28 19-23] [%clock 0:04:31]}
//
// the score (in men, from the mover's side, with its sign) and the search
// depth ("/12", left out when the engine gave none), the time the move
// took by the arbiter's clock, then the nodes and the principal variation
// as commands; "-" stands for a score the engine did not give. The clock
// after the move is the [%clock] command PDNTags.Clock writes.
type Annotation struct {
	Score    float64
	HasScore bool
	Depth    int
	Used     time.Duration
	Nodes    int64
	PV       string
}

// pvBrackets drops from a PV what would end its comment or tag. One
// replacer for all: building one is most of an annotation's cost.
var pvBrackets = strings.NewReplacer("[", "", "]", "", "{", "", "}", "")

// String writes the annotation as above, without the clock.
func (a Annotation) String() string {
	// Appended without fmt: one annotation per move of every stored game.
	var buf [64]byte
	b := buf[:0]
	if a.HasScore {
		b = appendSigned(b, a.Score) // fmt's %+.2f
	} else {
		b = append(b, '-')
	}
	if a.Depth > 0 {
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(a.Depth), 10)
	}
	b = append(b, ' ')
	b = strconv.AppendFloat(b, a.Used.Seconds(), 'f', 2, 64)
	b = append(b, 's')
	if a.Nodes > 0 {
		b = append(b, " [%nodes "...)
		b = strconv.AppendInt(b, a.Nodes, 10)
		b = append(b, ']')
	}
	if a.PV != "" {
		// The words appended one by one: strings.Join(strings.Fields(pv), " ")
		// without its two allocations.
		n := len(b)
		for w := range strings.FieldsSeq(pvBrackets.Replace(a.PV)) {
			if len(b) == n {
				b = append(b, " [%pv "...)
			} else {
				b = append(b, ' ')
			}
			b = append(b, w...)
		}
		if len(b) > n {
			b = append(b, ']')
		}
	}
	return string(b)
}

// appendSigned appends f as fmt's %+.2f does: a sign always.
func appendSigned(b []byte, f float64) []byte {
	n := len(b)
	b = strconv.AppendFloat(b, f, 'f', 2, 64)
	if c := b[n]; c != '-' && c != '+' {
		b = append(b, 0)
		copy(b[n+1:], b[n:])
		b[n] = '+'
	}
	return b
}

// Compiled at first use, not as the program starts: most runs of it (an
// engine, a match, a command) never read a comment back, and every
// process paid for the patterns (with the others of the package, about
// half a millisecond each start on the project's machine).
var (
	annotationHead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*([+-][0-9]+\.[0-9]+|-)(?:/([0-9]+))? ([0-9]+\.[0-9]+)s(?:\s|$)`)
	})
	nodesCmd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[%nodes ([0-9]+)\]`) })
	pvCmd    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[%pv ([^\]]*)\]`) })
)

// ParseAnnotation reads an annotation back from a move's comment (PDN as
// the arbiter writes it, read by rules/pdn); false when there is none.
func ParseAnnotation(comment string) (Annotation, bool) {
	m := annotationHead().FindStringSubmatch(comment)
	if m == nil {
		return Annotation{}, false
	}
	var a Annotation
	if m[1] != "-" {
		s, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			return Annotation{}, false
		}
		a.Score, a.HasScore = s, true
	}
	if m[2] != "" {
		d, err := strconv.Atoi(m[2])
		if err != nil {
			return Annotation{}, false
		}
		a.Depth = d
	}
	secs, err := strconv.ParseFloat(m[3], 64)
	if err != nil || secs > 1e9 {
		return Annotation{}, false
	}
	a.Used = time.Duration(secs * float64(time.Second))
	if n := nodesCmd().FindStringSubmatch(comment); n != nil {
		if v, err := strconv.ParseInt(n[1], 10, 64); err == nil {
			a.Nodes = v
		}
	}
	if p := pvCmd().FindStringSubmatch(comment); p != nil {
		a.PV = strings.TrimSpace(p[1])
	}
	return a, true
}
