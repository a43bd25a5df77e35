package pdn

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Limits that keep a broken or hostile file from exhausting memory: the
// reader holds one line and one game, and both are bounded.
const (
	maxLine    = 1 << 20 // bytes of one line
	maxComment = 1 << 20 // bytes of comment text in one game
	maxMoves   = 1 << 16 // moves in one game, variations included
	maxTags    = 1 << 10 // tags in one game
	maxDepth   = 64      // nesting of variations
	maxNumber  = 1 << 20 // largest move number or NAG accepted
)

// Reader reads PDN games one at a time from a stream.
type Reader struct {
	br   *bufio.Reader
	file string

	enc     Encoding   // the file's encoding: as set, or as decided
	guessed bool       // enc was decided from the text
	started bool       // the first line was read (UTF-16 is decided before it)
	legacy  *[128]rune // the single-byte encoding of lines that are not UTF-8 (nil: not decided)
	decided Encoding   // with enc Detect: the encoding legacy is
	raw     []byte     // the current line as read, before decoding
	dec     []byte     // the current line decoded, when that changed it

	buf       []byte // the current line without its line end
	pos       int    // next unread byte of buf
	lineNo    int    // number of the line in buf; 0 before the first
	long      bool   // the current line was longer than maxLine and was cut
	prevBlank bool   // the line before buf was blank
	prevTag   bool   // the line before buf started with '['
	atEOF     bool   // nothing follows buf
	err       error  // sticky read error

	games int // games started so far

	// State of the game being read.
	g        *Game
	nmoves   int
	ncomment int
	curNum   int
}

// NewReader returns a Reader reading r; filename is used in error messages
// only (it may be empty). It decides the file's encoding from its text
// (Detect); SetEncoding names it instead.
func NewReader(r io.Reader, filename string) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), file: filename}
}

// SetEncoding reads the file in e rather than the encoding its text
// suggests (Detect, the zero value, goes back to deciding). It must be
// called before the first Next.
func (r *Reader) SetEncoding(e Encoding) { r.enc, r.guessed = e, false }

// Encoding is the encoding the reader reads the file in: the one set, or
// the one it decided (guessed is then true): UTF-16 from the file's first
// bytes, or the encoding of its lines that are not UTF-8. It is Detect
// while every line read so far was ASCII or UTF-8.
func (r *Reader) Encoding() (e Encoding, guessed bool) {
	if r.enc == Detect {
		return r.decided, r.decided != Detect
	}
	return r.enc, r.guessed
}

// syntaxError is a problem found while reading a game, before the game
// number and file are attached.
type syntaxError struct {
	line     int
	text     string
	err      error
	noResync bool // the reader already stands at the start of the next game
}

func (e *syntaxError) Error() string { return e.err.Error() }

func (r *Reader) errorf(line int, text string, format string, a ...any) *syntaxError {
	if len(text) > 60 {
		n := 57
		for n > 0 && !utf8.RuneStart(text[n]) {
			n-- // never cut a character in half
		}
		text = text[:n] + "..."
	}
	return &syntaxError{line: line, text: text, err: fmt.Errorf("%w: %s", rules.ErrSyntax, fmt.Sprintf(format, a...))}
}

// Next returns the next game. At the end of the input it returns io.EOF. A
// malformed game gives a *ParseError; the following call goes on with the
// next game. Other errors (from the underlying reader) are final.
func (r *Reader) Next() (*Game, error) {
	if r.err != nil {
		return nil, r.err
	}
	r.curNum = 0
	ok, err := r.skipWS()
	if err == nil && !ok {
		if r.err != nil {
			return nil, r.err
		}
		return nil, io.EOF
	}
	r.games++
	g := &Game{Number: r.games, Line: r.lineNo}
	if err == nil {
		err = r.parseGame(g)
	}
	if err == nil {
		return g, nil
	}
	if r.err != nil {
		return nil, r.err
	}
	se, ok := err.(*syntaxError)
	if !ok {
		return nil, err
	}
	if !se.noResync {
		r.resync()
	}
	return nil, &ParseError{File: r.file, Line: se.line, Game: g.Number, Move: r.curNum, Text: se.text, Err: se.err, Tags: g.Tags}
}

// nextLine loads the next line into buf. It returns false at the end of the
// input or on a read error (kept in r.err).
func (r *Reader) nextLine() bool {
	if r.atEOF {
		r.buf, r.pos = r.buf[:0], 0
		return false
	}
	if r.lineNo > 0 {
		t := trimLeft(r.buf)
		r.prevBlank = len(t) == 0
		r.prevTag = len(t) > 0 && t[0] == '['
	}
	if !r.started {
		r.started = true
		r.startUTF16()
	}
	r.raw, r.buf, r.pos, r.long = r.raw[:0], r.buf[:0], 0, false
	n := 0
	for {
		chunk, err := r.br.ReadSlice('\n')
		n += len(chunk)
		if len(r.raw)+len(chunk) <= maxLine {
			r.raw = append(r.raw, chunk...)
		} else {
			r.long = true
		}
		if err == nil {
			break
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		r.atEOF = true
		if err != io.EOF {
			r.err = fmt.Errorf("pdn: reading %s: %w", r.file, err)
			return false
		}
		if n == 0 {
			return false
		}
		break
	}
	r.lineNo++
	for len(r.raw) > 0 && (r.raw[len(r.raw)-1] == '\n' || r.raw[len(r.raw)-1] == '\r') {
		r.raw = r.raw[:len(r.raw)-1]
	}
	if r.lineNo == 1 && bytes.HasPrefix(r.raw, []byte("\xEF\xBB\xBF")) {
		r.raw = r.raw[3:]
	}
	r.buf = trimEscapedCR(r.decode(r.raw))
	return true
}

// startUTF16 reads the rest of the file through a UTF-16 decoder when it
// is set so, or when its first bytes show it (sniffUTF16).
func (r *Reader) startUTF16() {
	order, mark := r.enc, 0
	if r.enc == Detect {
		head, _ := r.br.Peek(4)
		if order, mark = sniffUTF16(head); order != Detect {
			r.enc, r.guessed = order, true
		}
	} else if head, _ := r.br.Peek(2); order == UTF16LE && bytes.Equal(head, []byte{0xFF, 0xFE}) ||
		order == UTF16BE && bytes.Equal(head, []byte{0xFE, 0xFF}) {
		mark = 2
	}
	if order != UTF16LE && order != UTF16BE {
		return
	}
	r.br.Discard(mark)
	r.br = bufio.NewReaderSize(&utf16Reader{src: r.br, order: order}, 64<<10)
}

// decode returns the line b as UTF-8 text (in dec when it must change it). With the encoding to be detected, a line of valid UTF-8
// stays as it is; the first line that is not decides the encoding of all
// such lines of the file (guessLegacy, on that line and what follows it);
// Windows-1252 keeps the valid UTF-8 in them as well (the reading of such
// lines before the encoding was decided per file). A set encoding reads
// every line in it; invalid UTF-8 in a file set to UTF-8 reads as U+FFFD.
func (r *Reader) decode(b []byte) []byte {
	ascii := true
	for _, c := range b {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return b
	}
	switch r.enc {
	case Detect:
		if utf8.Valid(b) {
			return b
		}
		if r.legacy == nil {
			r.decided = r.guess(b)
			r.legacy = r.decided.table()
		}
		if r.legacy == &cp1252 {
			r.dec = decodeMixed(r.dec[:0], b)
			return r.dec
		}
		r.dec = decodeLine(r.dec[:0], b, r.legacy)
		return r.dec
	case UTF8:
		r.dec = append(r.dec[:0], bytes.ToValidUTF8(b, []byte("\uFFFD"))...)
		return r.dec
	case UTF16LE, UTF16BE:
		return b // decoded already
	}
	r.dec = decodeLine(r.dec[:0], b, r.enc.table())
	return r.dec
}

// guess chooses the encoding of the lines that are not UTF-8 from line,
// the first of them, and those among the next lookahead bytes.
func (r *Reader) guess(line []byte) Encoding {
	lines := [][]byte{line}
	ahead, _ := r.br.Peek(lookahead) // what there is, at the end of the file
	for l := range bytes.SplitSeq(ahead, []byte("\n")) {
		if !utf8.Valid(l) {
			lines = append(lines, l)
		}
	}
	return guessLegacy(lines)
}

// trimEscapedCR drops the two characters `\r` ending a line, a line end
// that an exporter wrote as text: the files KNDB's toernooibase and
// Lidraughts' broadcasts gave (Yodachess/BrunoGUI_Dames, e.g. "World Title
// Match Women 2024.pdn") end their tag lines `[Site "wk2024"]\r` and have
// lines of `\r` alone between games. Without this every such game was
// unreadable ("unexpected character" near "\"). A backslash never starts
// a token of PDN, so nothing else is lost.
func trimEscapedCR(b []byte) []byte {
	t := bytes.TrimRight(b, " \t")
	if !bytes.HasSuffix(t, []byte(`\r`)) {
		return b
	}
	return bytes.TrimRight(t[:len(t)-2], " \t")
}

func trimLeft(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// skipWS skips white space and % escape lines (a % in the first column hides
// the rest of its line). It reports whether something is left to read.
func (r *Reader) skipWS() (bool, error) {
	for {
		if r.pos == 0 && len(r.buf) > 0 && r.buf[0] == '%' {
			r.pos = len(r.buf)
		}
		for r.pos < len(r.buf) && isSpace(r.buf[r.pos]) {
			r.pos++
		}
		if r.pos < len(r.buf) {
			return true, nil
		}
		if !r.nextLine() {
			return false, r.err
		}
		if r.long {
			return false, r.errorf(r.lineNo, "", "line longer than %d bytes", maxLine)
		}
	}
}

// resync skips to the start of the next game: the first line that starts
// with '[' and does not follow another tag line.
func (r *Reader) resync() {
	r.pos = len(r.buf)
	for r.nextLine() {
		t := trimLeft(r.buf)
		if len(t) > 0 && t[0] == '[' && !r.prevTag {
			return
		}
	}
}

// tagLine reports whether line looks like a PDN tag pair: [Name "...
func tagLine(line []byte) bool {
	t := trimLeft(line)
	if len(t) < 2 || t[0] != '[' {
		return false
	}
	i := 1
	for i < len(t) && isNameByte(t[i]) {
		i++
	}
	if i == 1 {
		return false
	}
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	return i < len(t) && t[i] == '"'
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseGame reads the tag section and the move text of one game.
func (r *Reader) parseGame(g *Game) error {
	r.g, r.nmoves, r.ncomment, r.curNum = g, 0, 0, 0
tags:
	for {
		ok, err := r.skipWS()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch r.buf[r.pos] {
		case '[':
			if err := r.parseTag(g); err != nil {
				return err
			}
		case '{', ';':
			text, err := r.readComment()
			if err != nil {
				return err
			}
			g.Comment = joinComment(g.Comment, text)
		default:
			break tags
		}
	}
	moves, err := r.parseLine(0, 0, false, 0)
	if err != nil {
		return err
	}
	g.Moves = moves
	if g.Result == "" {
		g.Result = "*"
		if res, ok := result(g.Tag("Result")); ok {
			g.Result = res
		}
	}
	return nil
}

// parseTag reads one [Name "Value"] pair starting at buf[pos] == '['.
func (r *Reader) parseTag(g *Game) error {
	line := strings.TrimSpace(string(r.buf))
	if len(g.Tags) >= maxTags {
		return r.errorf(r.lineNo, line, "more than %d tags", maxTags)
	}
	r.pos++
	r.skipSpace()
	start := r.pos
	for r.pos < len(r.buf) && isNameByte(r.buf[r.pos]) {
		r.pos++
	}
	name := string(r.buf[start:r.pos])
	if q := bytes.IndexByte(r.buf[start:], '"'); q > 0 {
		if english, ok := translatedTag(string(r.buf[start : start+q])); ok {
			name, r.pos = english, start+q
		}
	}
	if end := bytes.IndexAny(r.buf[r.pos:], " \t\"]"); end > 0 {
		// PDN 3.0 reading grammar, Tokens: IDENTIFIER "[A-Z][a-zA-Z0-9_]*".
		bad := string(r.buf[start : r.pos+end])
		if bad[0] == '[' {
			return r.errorf(r.lineNo, line, "a tag opened with [[: remove one [")
		}
		return r.errorf(r.lineNo, line, "tag name %q: a tag name has only letters, digits and _; "+
			"if the file's tag names were translated or encoded, write this one's English name (Event, Site, Date, Round, White, Black, Result, GameType, ...)", bad)
	}
	if name == "" {
		return r.errorf(r.lineNo, line, "tag without a name: a tag is [Name \"value\"] on one line; remove the stray [ or join the tag's lines")
	}
	r.skipSpace()
	var value string
	if r.pos < len(r.buf) && r.buf[r.pos] == '"' {
		r.pos++
		end := tagStringEnd(r.buf[r.pos:])
		if end < 0 {
			return r.errorf(r.lineNo, line, "tag %s: value not closed with \" on its line", name)
		}
		value = unescapeTagValue(r.buf[r.pos : r.pos+end])
		r.pos += end + 1
	} else {
		// Lenient: an unquoted value runs to the closing bracket.
		end := bytes.IndexByte(r.buf[r.pos:], ']')
		if end < 0 {
			return r.errorf(r.lineNo, line, "tag %s not closed with ]", name)
		}
		value = strings.TrimSpace(strings.Map(func(c rune) rune {
			if c < ' ' {
				return ' '
			}
			return c
		}, string(r.buf[r.pos:r.pos+end])))
		r.pos += end
	}
	r.skipSpace()
	if r.pos >= len(r.buf) || r.buf[r.pos] != ']' {
		return r.errorf(r.lineNo, line, "tag %s not closed with ]", name)
	}
	r.pos++
	g.Tags = append(g.Tags, Tag{Name: name, Value: value})
	g.setTagLine(name, r.lineNo)
	return nil
}

func (r *Reader) skipSpace() {
	for r.pos < len(r.buf) && isSpace(r.buf[r.pos]) {
		r.pos++
	}
}

// readComment reads a {} comment (which may span lines) or a ; comment (to
// the end of the line) starting at buf[pos], and returns its text with white
// space collapsed.
func (r *Reader) readComment() (string, error) {
	if r.buf[r.pos] == ';' {
		text := string(r.buf[r.pos+1:])
		r.pos = len(r.buf)
		return r.countComment(collapse(text), r.lineNo)
	}
	start := r.lineNo
	r.pos++
	var b strings.Builder
	for {
		if end := bytes.IndexByte(r.buf[r.pos:], '}'); end >= 0 {
			b.Write(r.buf[r.pos : r.pos+end])
			r.pos += end + 1
			return r.countComment(collapse(b.String()), start)
		}
		b.Write(r.buf[r.pos:])
		b.WriteByte(' ')
		if b.Len() > maxComment {
			return "", r.errorf(start, "", "comment opened here is longer than %d bytes", maxComment)
		}
		if !r.nextLine() {
			if r.err != nil {
				return "", r.err
			}
			return "", r.errorf(start, "", "comment opened with { is not closed at the end of the file")
		}
		if r.long {
			return "", r.errorf(r.lineNo, "", "line longer than %d bytes", maxLine)
		}
		// A tag line after a blank line inside a comment is the next game:
		// the comment was never closed. Stop there so that game is kept.
		if r.prevBlank && tagLine(r.buf) {
			e := r.errorf(start, "", "comment opened with { is not closed before the next game at line %d", r.lineNo)
			e.noResync = true
			return "", e
		}
	}
}

func (r *Reader) countComment(text string, line int) (string, error) {
	r.ncomment += len(text)
	if r.ncomment > maxComment {
		return "", r.errorf(line, "", "comments longer than %d bytes in one game", maxComment)
	}
	return text, nil
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func joinComment(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	}
	return a + " " + b
}

// suffixNAGs maps move suffixes to their NAG numbers.
var suffixNAGs = map[string]int{"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

// parseLine reads a line of moves: the main line (depth 0), which ends with
// the result, the next game's tags or the end of input, or a variation, which
// ends with ')'. num and second number the first move if the text gives no
// number (for a variation, those of the move it replaces); open is the line
// where a variation's ( stands.
func (r *Reader) parseLine(depth int, num int, second bool, open int) ([]Move, error) {
	var moves []Move
	numbered := false         // a move number token was read for the next move
	lead := ""                // comment before the first move of a variation
	setup, setupLine := "", 0 // a set-up (/FEN "..."/) waiting for the move played from it
	// done ends the line; a set-up with no move after it is an error.
	done := func(nextGame bool) ([]Move, error) {
		if setup == "" {
			return moves, nil
		}
		e := r.errorf(setupLine, "/FEN \""+setup+"\"/", "a set-up with no move after it: nothing is checked from it; "+
			"remove it, or write after it the moves played from it (a position to start the game from goes first, or in a FEN tag)")
		e.noResync = nextGame // the reader stands at the next game's [
		return nil, e
	}
	for {
		ok, err := r.skipWS()
		if err != nil {
			return nil, err
		}
		if !ok {
			if depth > 0 {
				return nil, r.errorf(open, "", "variation opened with ( is not closed at the end of the file")
			}
			return done(false)
		}
		c := r.buf[r.pos]
		switch {
		case c == '/':
			line := r.lineNo
			fen, err := r.readSetup()
			if err != nil {
				return nil, err
			}
			if depth == 0 && len(moves) == 0 && setup == "" && strings.TrimSpace(r.g.Tag("FEN")) == "" {
				// PDN 3.0, Setup commands: a set-up before the first move, with
				// no FEN tag, is the position the game starts from.
				r.g.SetTag("FEN", fen)
				r.g.setTagLine("FEN", line)
				continue
			}
			setup, setupLine = fen, line
		case c == '[':
			if depth == 0 {
				return done(true) // the next game starts here
			}
			e := r.errorf(open, "", "variation opened with ( is not closed before the next game at line %d", r.lineNo)
			e.noResync = true // the next game starts at this [
			return nil, e
		case c == '{' || c == ';':
			text, err := r.readComment()
			if err != nil {
				return nil, err
			}
			switch {
			case len(moves) > 0:
				moves[len(moves)-1].Comment = joinComment(moves[len(moves)-1].Comment, text)
			case depth == 0:
				r.g.Comment = joinComment(r.g.Comment, text)
			default:
				lead = joinComment(lead, text)
			}
		case c == '(':
			if len(moves) == 0 {
				return nil, r.errorf(r.lineNo, "(", "variation before any move")
			}
			if depth+1 > maxDepth {
				return nil, r.errorf(r.lineNo, "(", "variations nested deeper than %d", maxDepth)
			}
			r.pos++
			last := moves[len(moves)-1]
			v, err := r.parseLine(depth+1, last.Num, last.Second, r.lineNo)
			if err != nil {
				return nil, err
			}
			if len(v) > 0 {
				moves[len(moves)-1].Variations = append(moves[len(moves)-1].Variations, v)
			}
		case c == '}':
			// PDN 3.0 reading grammar, Tokens: COMMENT "\{[^}]*\}": a comment
			// ends at its first }, so braces inside one do not nest.
			return nil, r.errorf(r.lineNo, "}", "} with no { open: comments do not nest in PDN, the comment before ended at its first }; remove the inner braces")
		case c == ')':
			if depth == 0 {
				return nil, r.errorf(r.lineNo, ")", "unmatched )")
			}
			r.pos++
			return done(false)
		case c == '$':
			start := r.pos
			r.pos++
			n, ok := r.readNumber()
			if !ok {
				return nil, r.errorf(r.lineNo, string(r.buf[start:r.pos]), "NAG without a number")
			}
			if len(moves) > 0 {
				moves[len(moves)-1].NAGs = append(moves[len(moves)-1].NAGs, n)
			}
		case c == '!' || c == '?':
			s := r.readSuffix()
			if n, ok := suffixNAGs[s]; ok && len(moves) > 0 {
				moves[len(moves)-1].NAGs = append(moves[len(moves)-1].NAGs, n)
			}
		case c == '.':
			// A lone ellipsis, as in "12. ... 17-21": the next move is the second half.
			for r.pos < len(r.buf) && r.buf[r.pos] == '.' {
				r.pos++
			}
			if !numbered {
				if len(moves) > 0 {
					last := moves[len(moves)-1]
					num = last.Num
					if last.Second {
						num++
					}
				}
				num = max(num, 1)
			}
			second, numbered = true, true
		case c == '*' || isDigit(c) || isWordByte(c):
			if isDigit(c) {
				if n, dots, ok := r.moveNumber(); ok {
					if dots == 0 {
						return nil, r.errorf(r.lineNo, strconv.Itoa(n), "bad move number")
					}
					if n > 0 { // "0." is no number: the count goes on
						num, second, numbered = n, dots > 1, true
						r.curNum = n
					}
					continue
				}
			}
			line := r.lineNo
			rest := string(r.buf[r.pos:])
			word := r.readWord()
			if res, ok := result(word); ok {
				if depth == 0 {
					r.g.Result = res
					return done(false)
				}
				continue // a result inside a variation says nothing about the game
			}
			if depth == 0 && isTagScore(word, r.g.Tag("Result")) {
				r.g.Result = word
				return done(false)
			}
			if strings.Trim(word, "-") == "" {
				// Collections list games whose moves are lost as "1. - - 2. - -".
				return nil, r.errorf(line, word, "bad move: %q stands for a move the record does not give; the game cannot be checked without its moves (write them, or leave the game out)", word)
			}
			if err := checkMoveText(word); err != nil {
				if name, ok := tagWithoutBracket(rest); ok {
					return nil, r.errorf(line, word, "a tag line without its [: write [%s \"...\"]", name)
				}
				if move, rest, ok := gluedText(word); ok {
					return nil, r.errorf(line, word, "bad move: text glued to the move %s (%q): a comment goes in braces, %s {%s}", move, rest, move, rest)
				}
				return nil, r.errorf(line, word, "bad move: %v", err)
			}
			if !numbered {
				switch {
				case len(moves) > 0 && moves[len(moves)-1].Second:
					num, second = moves[len(moves)-1].Num+1, false
				case len(moves) > 0:
					num, second = moves[len(moves)-1].Num, true
				case num == 0:
					num, second = 1, false
				}
			}
			numbered = false
			r.curNum = num
			r.nmoves++
			if r.nmoves > maxMoves {
				return nil, r.errorf(line, word, "more than %d moves in one game", maxMoves)
			}
			m := Move{Text: word, Num: num, Second: second, Line: line, Setup: setup}
			setup = ""
			if len(moves) == 0 && lead != "" {
				m.Comment, lead = lead, ""
			}
			if r.pos < len(r.buf) && (r.buf[r.pos] == '!' || r.buf[r.pos] == '?') {
				if n, ok := suffixNAGs[r.readSuffix()]; ok {
					m.NAGs = append(m.NAGs, n)
				}
			}
			moves = append(moves, m)
		default:
			_, size := utf8.DecodeRune(r.buf[r.pos:])
			return nil, r.errorf(r.lineNo, string(r.buf[r.pos:r.pos+size]), "unexpected character")
		}
	}
}

// readSetup reads a set-up at buf[pos] == '/', PDN 3.0's SETUP token
// "\/[^\/]*\/" holding a FEN command: /FEN "B:W18,24:B12,16"/ (the quotes
// may be left out), on one line. It returns the FEN.
func (r *Reader) readSetup() (string, error) {
	rest := r.buf[r.pos+1:]
	end := bytes.IndexByte(rest, '/')
	if end < 0 {
		text := string(r.buf[r.pos:])
		return "", r.errorf(r.lineNo, text, "a / that opens no set-up: PDN 3.0 writes a position set up in the moves as /FEN \"W:W31-50:B1-20\"/ on one line")
	}
	text := string(r.buf[r.pos : r.pos+end+2])
	r.pos += end + 2
	body := strings.TrimSpace(string(rest[:end]))
	if len(body) < 3 || !strings.EqualFold(body[:3], "FEN") {
		return "", r.errorf(r.lineNo, text, "set-up %s: PDN 3.0 writes a position set up in the moves as /FEN \"W:W31-50:B1-20\"/", text)
	}
	fen := strings.TrimSpace(body[3:])
	if q, ok := strings.CutPrefix(fen, `"`); ok {
		v, after, closed := strings.Cut(q, `"`)
		if !closed || strings.TrimSpace(after) != "" {
			return "", r.errorf(r.lineNo, text, "set-up %s: the position goes in quotes, /FEN \"W:W31-50:B1-20\"/", text)
		}
		fen = strings.TrimSpace(v)
	}
	if fen == "" || strings.ContainsAny(fen, "\" \t") {
		return "", r.errorf(r.lineNo, text, "set-up %s: no position in it; PDN 3.0 writes /FEN \"W:W31-50:B1-20\"/", text)
	}
	return fen, nil
}

// readNumber reads decimal digits at buf[pos].
func (r *Reader) readNumber() (int, bool) {
	start := r.pos
	for r.pos < len(r.buf) && isDigit(r.buf[r.pos]) {
		r.pos++
	}
	if r.pos == start || r.pos-start > 7 {
		return 0, false
	}
	n, err := strconv.Atoi(string(r.buf[start:r.pos]))
	return n, err == nil && n <= maxNumber
}

// moveNumber reads a move number token ("12." or "12...") at buf[pos] if
// there is one; it leaves pos alone otherwise.
func (r *Reader) moveNumber() (n, dots int, ok bool) {
	i := r.pos
	for i < len(r.buf) && isDigit(r.buf[i]) {
		i++
	}
	if i >= len(r.buf) || r.buf[i] != '.' {
		return 0, 0, false
	}
	if i-r.pos > 7 {
		return 0, 0, false
	}
	n, err := strconv.Atoi(string(r.buf[r.pos:i]))
	if err != nil || n > maxNumber {
		return 0, 0, false
	}
	for i < len(r.buf) && r.buf[i] == '.' {
		i++
		dots++
	}
	r.pos = i
	return n, dots, true
}

// isWordByte reports whether c may be part of a move or result token.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) ||
		c == '-' || c == ':' || c == '/' || c == '*' || c >= 0x80
}

func (r *Reader) readWord() string {
	start := r.pos
	if r.buf[r.pos] == '*' {
		r.pos++
		return "*"
	}
	r.pos = wordEnd(r.buf, r.pos)
	if j, ok := paddedMove(r.buf, start, r.pos); ok {
		// A move with spaces in it, as fixed-width exporters write squares
		// ("1- 7", "47x 9"): one move, read without the spaces.
		var w []byte
		for i := start; i < j; i++ {
			if r.buf[i] != ' ' && r.buf[i] != '\t' {
				w = append(w, r.buf[i])
			}
		}
		r.pos = j
		return string(w)
	}
	return string(r.buf[start:r.pos])
}

func wordEnd(b []byte, i int) int {
	for i < len(b) && isWordByte(b[i]) && b[i] != '*' {
		i++
	}
	return i
}

// paddedMove looks for a move whose squares are padded with spaces, the
// word b[start:end] being its first part: "1-" then " 7" ("1- 7", squares
// right-aligned in columns), or "1" then " - 7" or " -7" (spaces around the
// separator, the example the PDN 3.0 standard gives of what writers must not
// do, so readers meet it). Such a word is no move or result on its own (a
// move needs a square after its separator; a number alone is nothing), so
// joining it with what follows on the line takes nothing away from text
// that reads already. It returns the end of the whole move.
func paddedMove(b []byte, start, end int) (int, bool) {
	joined := false
	for {
		next, nextEnd, ok := paddedPart(b, start, end)
		if !ok {
			return end, joined
		}
		start, end, joined = next, nextEnd, true // "26x 17x 10": go on
	}
}

// paddedPart finds the square that continues the word b[start:end] after
// spaces, and returns where it starts and ends.
func paddedPart(b []byte, start, end int) (int, int, bool) {
	w := b[start:end]
	if len(w) == 0 || !isDigit(w[0]) {
		return 0, 0, false
	}
	skip := func(i int) int {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		return i
	}
	sep := func(c byte) bool { return c == '-' || c == 'x' || c == 'X' || c == ':' }
	i := end
	if !sep(w[len(w)-1]) {
		for _, c := range w {
			if !isDigit(c) {
				return 0, 0, false // a whole word ("32-28", "1-0"): nothing to join
			}
		}
		// "1 - 7", "1 -7": a number, spaces, then a separator.
		i = skip(i)
		if i == end || i >= len(b) || !sep(b[i]) {
			return 0, 0, false
		}
		i++
	}
	// After a separator: spaces, then the next square.
	j := skip(i)
	if j >= len(b) || !isDigit(b[j]) {
		return 0, 0, false
	}
	if j == i && i == end {
		return 0, 0, false // nothing was padded
	}
	k := j
	for k < len(b) && isDigit(b[k]) {
		k++
	}
	if k < len(b) && b[k] == '.' {
		return 0, 0, false // "22- 3. 9-13": a move number, not a square
	}
	return j, wordEnd(b, j), true
}

func (r *Reader) readSuffix() string {
	start := r.pos
	for r.pos < len(r.buf) && (r.buf[r.pos] == '!' || r.buf[r.pos] == '?') {
		r.pos++
	}
	return string(r.buf[start:r.pos])
}

// isTagScore says whether word, read where a move or the result stands, is
// the result its game's Result tag gives in a form the PDN standard does
// not list: Dambase exports of Dutch tournaments end "4-6" or "1-9" (match
// points) with the same text in the Result tag, and a Polish team
// championship's file ends its unfinished games "-" under [Result "-"].
// PDN 3.0's reading grammar (tokens WIN1 to DOUBLEFORFEIT) knows only 1-0,
// 1/2-1/2, 0-1, 2-0, 1-1, 0-2 and 0-0 (and "*"), so without this the word
// is read as a last move that cannot be played. Only the exact text of the
// tag counts: a Result tag that spells a move is no record anyone writes.
func isTagScore(word, tag string) bool {
	tag = strings.TrimSpace(tag)
	if word != tag {
		return false
	}
	a, b, ok := strings.Cut(tag, "-")
	return tag == "-" || ok && allDigits(a) && allDigits(b)
}

func allDigits(s string) bool {
	if s == "" || len(s) > 2 {
		return false
	}
	for i := range len(s) {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// tagWithoutBracket says whether a line read as moves is a tag that lost
// its opening bracket (`Event "Club 2025"]`, as in a file of the Suriname
// veterans' championship 2025), and names it.
func tagWithoutBracket(line string) (string, bool) {
	name, value, ok := strings.Cut(strings.TrimSpace(line), " ")
	value = strings.TrimSpace(value)
	if !ok || name == "" || !strings.HasPrefix(value, `"`) || !strings.HasSuffix(value, `"]`) {
		return "", false
	}
	for i := range len(name) {
		if !isNameByte(name[i]) {
			return "", false
		}
	}
	return name, true
}

// gluedText splits a word that is a move with words glued to it, as an
// export that dropped a comment's braces and spaces writes it (CheckerBoard's
// tinsley.pdn: "8-11Redoversteppedthetimecontrolonthismove."). The rest must
// start with three letters, so an alphanumeric move ("c3d4") is never split.
func gluedText(word string) (move, rest string, ok bool) {
	for k := len(word) - 3; k >= 3; k-- {
		if isLetter(word[k]) && isLetter(word[k+1]) && isLetter(word[k+2]) && checkMoveText(word[:k]) == nil {
			return word[:k], word[k:], true
		}
	}
	return "", "", false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// checkMoveText checks the shape of a move: two or more squares (numbers,
// or a file letter and a rank) joined by -, x, : or ×; squares with a file
// letter may follow each other without one ("a3b4").
func checkMoveText(s string) error {
	s = strings.ReplaceAll(s, "×", "x")
	squares := 0
	for i := 0; i < len(s); {
		start := i
		if c := s[i] | 0x20; c >= 'a' && c <= 'w' {
			i++
			for i < len(s) && isDigit(s[i]) {
				i++
			}
			if i == start+1 || i-start > 3 {
				return fmt.Errorf("%q is not a square", s[start:min(len(s), max(i, start+1))])
			}
		} else {
			for i < len(s) && isDigit(s[i]) {
				i++
			}
			if i == start || i-start > 3 {
				return fmt.Errorf("square expected at %q", s[start:])
			}
		}
		squares++
		if i == len(s) {
			break
		}
		if alpha := s[start] | 0x20; alpha >= 'a' && alpha <= 'w' {
			if c := s[i] | 0x20; c >= 'a' && c <= 'w' {
				continue // "a3b4": PDN 3.0 lets alphanumeric moves omit the separator
			}
		}
		switch s[i] {
		case '-', 'x', 'X', ':':
			i++
			if i == len(s) {
				return fmt.Errorf("square expected after %q", s)
			}
		default:
			return fmt.Errorf("separator (-, x or :) expected at %q", s[i:])
		}
	}
	if squares < 2 {
		return fmt.Errorf("a move needs two squares")
	}
	return nil
}
