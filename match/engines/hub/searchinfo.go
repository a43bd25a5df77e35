package hub

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/rules"
)

// SearchInfo is what an engine said of its search for one move.
type SearchInfo struct {
	Score    float64 // in men, from the mover's side
	HasScore bool
	Depth    int
	Nodes    int64
	Time     time.Duration // the search time it reported
	HasTime  bool          // it reported one (time=0 is an instant move)
	PV       string
}

// ParseSearchInfo reads a Hub "info" line (version 2, or version 1 as the
// Player rewrites it): score (men), depth, nodes, time (seconds) and pv. A
// field that is missing or unreadable is left zero; a line that is no info
// line gives the zero SearchInfo. It is for the record and the
// adjudication, which read the last info line of each move.
func ParseSearchInfo(line string) SearchInfo {
	var in SearchInfo
	if line == "" {
		return in
	}
	var args [12]Arg // the line is read here and not kept: no allocation
	l, err := parseLineInto(line, args[:])
	if err != nil || l.Command != "info" {
		return in
	}
	if v, ok := l.Get("score"); ok {
		if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			in.Score, in.HasScore = f, true
		}
	}
	if v, ok := l.Get("depth"); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			in.Depth = n
		}
	}
	if v, ok := l.Get("nodes"); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			in.Nodes = n
		}
	}
	if v, ok := l.Get("time"); ok {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && f < 1e9 {
			in.Time, in.HasTime = time.Duration(f*float64(time.Second)), true
		}
	}
	if v, ok := l.Get("pv"); ok {
		in.PV = squashSpaces(v)
	}
	return in
}

// squashSpaces is strings.Join(strings.Fields(s), " "): s itself (no copy)
// when it is already words separated by single ASCII spaces, as an
// engine's PV nearly always is (this runs for every move of every game).
func squashSpaces(s string) string {
	prev := byte(' ') // a leading space is not clean
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c != ' ' && asciiSpace(c) || c == ' ' && prev == ' ' {
			return strings.Join(strings.Fields(s), " ")
		}
		prev = c
	}
	if prev == ' ' && s != "" { // a trailing space
		return strings.Join(strings.Fields(s), " ")
	}
	return s
}

// asciiSpace reports the ASCII bytes unicode.IsSpace accepts.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// PDNLine writes a principal variation in Hub notation (a capture lists
// its from and to squares, then every piece taken: "26x17x21") as the
// variant's PDN moves ("26x17"; the long form only where two captures
// share their from and to squares), played from p, the position the
// engine searched. A move the position does not allow ends the reading:
// it and the rest are kept as the engine wrote them, so nothing it said is
// lost.
func PDNLine(p rules.Position, pv string) string {
	return pdnLine(p, pv, nil, "")
}

// PDNLineAfter is PDNLine for the PV of a move the engine played, played
// (its PDN text playedText) in p: a PV that begins with it, as most do,
// takes that text rather than finding the move again among p's legal
// moves. The runner writes every move's PV so, at the end of each game.
func PDNLineAfter(p rules.Position, played rules.Move, playedText, pv string) string {
	return pdnLine(p, pv, &played, playedText)
}

// pdnLine is PDNLine whose first word, when it is played's Hub text, is
// playedText.
func pdnLine(p rules.Position, pv string, played *rules.Move, playedText string) string {
	// Built without the slices of strings.Fields and strings.Join: a PV
	// of one move (the usual one of a fast engine) costs its move text.
	var b []byte
	var first string // the line while it has one word
	n, legal := 0, true
	for w := range strings.FieldsSeq(pv) {
		t := w
		if n == 0 && played != nil && isHubText(w, *played) {
			t, p = playedText, p.Play(*played)
		} else if legal {
			if m, err := p.ParseHubMove(w); err == nil {
				t = p.MoveText(m)
				p = p.Play(m)
			} else {
				legal = false
			}
		}
		switch n {
		case 0:
			first = t
		case 1:
			b = append(append(append(b, first...), ' '), t...)
		default:
			b = append(append(b, ' '), t...)
		}
		n++
	}
	if n <= 1 {
		return first
	}
	return string(b)
}

// isHubText reports whether w is m as rules.HubMove writes it (an engine
// may list a capture's taken squares in another order: then it is not,
// and the move is looked up).
func isHubText(w string, m rules.Move) bool {
	var buf [64]byte
	return string(rules.AppendHubMove(buf[:0], m)) == w
}
