package pdn

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// roster is the seven-tag roster, written first and in this order.
var roster = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// lineWidth is the longest move-text line Write produces (a single longer
// token, such as a long word in a comment, still gets a line of its own).
const lineWidth = 80

// nagSuffixes are the NAGs written as move suffixes rather than $n.
var nagSuffixes = map[int]string{1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}

// Write writes g as PDN 3.0 text followed by a blank line, so that games
// written one after another form a valid file. Tags come first, the
// seven-tag roster (those present) in roster order, then the others in their
// order; a Result tag is added from g.Result when missing. Move text is
// wrapped at 80 columns and ends with the result. Comments are written in
// braces; a comment that itself contains a brace is written as a ; comment
// running to the end of its line, so its text survives unchanged.
func Write(w io.Writer, g *Game) error {
	bw := bufio.NewWriter(w)
	result := g.Result
	if result == "" {
		result = strings.TrimSpace(g.Tag("Result"))
	}
	if result == "" {
		result = "*"
	}
	done := make([]bool, len(g.Tags))
	for _, name := range roster {
		found := false
		for i, t := range g.Tags {
			if !done[i] && strings.EqualFold(t.Name, name) {
				writeTag(bw, t)
				done[i], found = true, true
				break
			}
		}
		if !found && name == "Result" {
			writeTag(bw, Tag{Name: "Result", Value: result})
		}
	}
	for i, t := range g.Tags {
		if !done[i] {
			writeTag(bw, t)
		}
	}
	bw.WriteByte('\n')
	lw := &lineWriter{w: bw}
	lw.comment(g.Comment)
	num, second := 1, false
	if len(g.Moves) > 0 && g.Moves[0].Num > 0 {
		num, second = g.Moves[0].Num, g.Moves[0].Second
	}
	lw.moves(g.Moves, num, second)
	lw.word(result)
	bw.WriteString("\n\n")
	return bw.Flush()
}

func writeTag(w *bufio.Writer, t Tag) {
	name := strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf && isNameByte(byte(r)) {
			return r
		}
		return '_'
	}, t.Name)
	if name == "" {
		name = "_"
	}
	w.WriteByte('[')
	w.WriteString(name)
	w.WriteByte(' ')
	w.WriteString(QuoteTagValue(t.Value))
	w.WriteString("]\n")
}

// lineWriter joins tokens with spaces and wraps lines at lineWidth.
type lineWriter struct {
	w    *bufio.Writer
	col  int
	glue bool     // write the next word without a space before it
	num  [20]byte // number's digits (a local array would escape to the heap)
}

func (l *lineWriter) word(s string) { l.word3("", s, "") }

// word3 writes the word pre+s+post, without making that string (it runs
// for every move and comment of every stored game).
func (l *lineWriter) word3(pre, s, post string) {
	n := utf8.RuneCountInString(pre) + utf8.RuneCountInString(s) + utf8.RuneCountInString(post)
	l.space(n)
	l.w.WriteString(pre)
	l.w.WriteString(s)
	l.w.WriteString(post)
	l.col += n
}

// number writes the move number num followed by dots ("12." or "12..."),
// as word would.
func (l *lineWriter) number(num int, dots string) {
	b := strconv.AppendInt(l.num[:0], int64(num), 10)
	l.space(len(b) + len(dots))
	l.w.Write(b)
	l.w.WriteString(dots)
	l.col += len(b) + len(dots)
}

// space goes where a word of n runes begins: nothing after a glued
// token, else a space, or a new line when the word would pass lineWidth.
func (l *lineWriter) space(n int) {
	if l.glue && l.col+n <= lineWidth {
		l.glue = false
		return
	}
	l.glue = false
	if l.col > 0 {
		if l.col+1+n > lineWidth {
			l.w.WriteByte('\n')
			l.col = 0
		} else {
			l.w.WriteByte(' ')
			l.col++
		}
	}
}

func (l *lineWriter) newline() {
	if l.col > 0 {
		l.w.WriteByte('\n')
		l.col = 0
	}
}

// comment writes a comment, wrapping it between words.
func (l *lineWriter) comment(text string) {
	if strings.ContainsAny(text, "{}") {
		// No escape exists inside braces: a ; comment keeps the text whole.
		words := strings.Fields(text)
		if len(words) == 0 {
			return
		}
		l.word("; " + strings.Join(words, " "))
		l.newline()
		return
	}
	// {first ... last}, word by word, without the slice of the words.
	var prev string
	n := 0
	for w := range strings.FieldsSeq(text) {
		if n > 0 {
			l.keepOffLineStart(brace(n == 1), prev, w)
			l.word3(brace(n == 1), prev, "")
		}
		prev = w
		n++
	}
	if n > 0 {
		l.word3(brace(n == 1), prev, "}")
	}
}

// keepOffLineStart breaks the line before the comment word pre+s when
// the word after it, next, would otherwise begin a line and begins with
// "[" or "%": readers that go line by line take a line beginning with "["
// for a tag ("[%pv 1-5]" of an annotated move: pydraughts' reader, among
// others) and one beginning with "%" for an escape line to skip (PGN
// standard 6). s then begins the line, with next after it. next is
// counted with the "}" that follows a comment's last word.
func (l *lineWriter) keepOffLineStart(pre, s, next string) {
	if next == "" || next[0] != '[' && next[0] != '%' || l.col == 0 {
		return
	}
	end := l.col + 1 + utf8.RuneCountInString(pre) + utf8.RuneCountInString(s)
	if end <= lineWidth && end+1+utf8.RuneCountInString(next)+1 > lineWidth {
		l.newline()
	}
}

// brace is "{" for the first word of a comment, "" for the others.
func brace(first bool) string {
	if first {
		return "{"
	}
	return ""
}

// moves writes a line of moves. A move's own number (Num, Second) is
// written as read; moves without one (Num == 0) continue the count, which
// starts at (num, second).
func (l *lineWriter) moves(ms []Move, num int, second bool) {
	needNum := true
	for _, m := range ms {
		if m.Setup != "" {
			l.word3(`/FEN "`, m.Setup, `"/`) // PDN 3.0's SETUP, one token
			needNum = true
		}
		if m.Num > 0 {
			if m.Num != num || m.Second != second {
				needNum = true // the text's numbering jumps: say so
			}
			num, second = m.Num, m.Second
		}
		switch {
		case !second:
			l.number(num, ".")
		case needNum:
			l.number(num, "...")
		}
		text := m.Text
		var dollars []string
		for i, n := range m.NAGs {
			if s, ok := nagSuffixes[n]; ok && i == 0 {
				text += s
				continue
			}
			dollars = append(dollars, "$"+strconv.Itoa(n))
		}
		l.word(text)
		for _, d := range dollars {
			l.word(d)
		}
		needNum = false
		if m.Comment != "" {
			l.comment(m.Comment)
			needNum = true
		}
		for _, v := range m.Variations {
			if len(v) == 0 {
				continue
			}
			l.word("(")
			l.glue = true // "(" sticks to the move number that follows
			l.moves(v, num, second)
			l.w.WriteByte(')')
			l.col++
			needNum = true
		}
		if second {
			num++
		}
		second = !second
	}
}
