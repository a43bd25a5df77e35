// Package pdn reads and writes PDN 3.0, the Portable Draughts Notation used
// for game records of every draughts variant.
//
// The Reader streams: it holds one line and one game at a time, so a file of
// any size is read in constant memory. It is lenient in what it accepts (both
// result styles, CRLF, a UTF-8 byte order mark, `{}` and `;` comments, `%`
// escape lines, nested variations, NAGs and `!`/`?` suffixes, move numbers
// written `12.` or `12...`) and strict about what it cannot read: a malformed
// game gives a *ParseError naming the file, line, game and move, and the next
// call to Next carries on with the following game.
//
// The reader also takes the forms of PDN 3.0's reading grammar and of the
// files people wrote: squares padded with spaces ("1- 7", "47x 9", "1 - 7"),
// alphanumeric moves without a separator ("a3b4"), positions set up in the
// move text (/FEN "..."/, Move.Setup), tag names translated into French
// ([Blanc], [R&#x00e9;sultat], [Type de jeu]). It reads files in the
// encodings the programs saved them in (Encoding): UTF-8, UTF-16, and for
// the rest Windows-1252, Windows-1251 or KOI8-R as the text suggests.
//
// The reader checks only the syntax of move text. Whether the moves are legal
// is the business of Replay, which plays the main line under a variant chosen
// by VariantOf (the Variant or GameType tag, else a fallback, else ByMoves:
// the variant under which the moves are legal). Replay reads the FEN tag as
// records write it ("?" as the side to move, a man on its king row).
// Audit ties the two together; it is the code path of `arbiter check`.
//
// Anyone may import it; it imports only rules.
package pdn

import (
	"fmt"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
)

// Tag is one PDN tag pair, e.g. [White "Sijbrands, T."].
type Tag struct{ Name, Value string }

// Move is one move of a game record as written, with its annotations. The
// text is not checked against a position here; see Replay.
type Move struct {
	// Text is the move as written, without suffixes: "32-28", "26x17x10x1", "c3:e5".
	Text string
	// NAGs are the numeric annotation glyphs: $n tokens, and the suffixes
	// ! ? !! ?? !? ?! read as $1 to $6.
	NAGs []int
	// Comment is the text of the comments after the move, whitespace collapsed.
	Comment string
	// Variations are alternatives to this move, each a line starting in the
	// position before it.
	Variations [][]Move
	// Num is the move number of the move ("12" of "12. 32-28" or "12... 17-21")
	// as read (numbers given in the text win, the others continue the count).
	// Zero in a hand-built game means "count from 1.".
	Num int
	// Second marks the second half-move of Num (written "12..." when it
	// stands alone).
	Second bool
	// Line is the line of the file the move was read from (0 if not read).
	Line int
	// Setup is a position set up on the board before the move, written
	// /FEN "W:W31-50:B1-20"/ in the move text (PDN 3.0's SETUP command: an
	// irregularity corrected, a recognition failure of an electronic board,
	// a side step in analysis): the move is played from it, not from the
	// position the move before left. Empty: none.
	Setup string
}

// Label is the move number as written before the move: "12." or "12...".
func (m Move) Label() string {
	if m.Second {
		return fmt.Sprintf("%d...", m.Num)
	}
	return fmt.Sprintf("%d.", m.Num)
}

// Game is one game record.
type Game struct {
	Tags  []Tag
	Moves []Move // the main line
	// Result is the game termination marker: "1-0", "0-1", "1/2-1/2", "2-0",
	// "0-2", "1-1", "0-0" or "*". When the text has none, the Result tag (or
	// "*") stands in. A score outside the standard that the text and the
	// Result tag both give ("4-6", Dambase's match points) is kept as written.
	Result string
	// Comment is the text of the comments before the first move.
	Comment string
	// Number is the game's position in its file (1 = first game); Line is
	// the line where it starts. Both are zero for games not read from a file.
	Number, Line int

	tagLines map[string]int // the line of each tag read, by lower-case name
}

// setTagLine records the line of the named tag, unless one of that name
// was read before (Tag reads the first).
func (g *Game) setTagLine(name string, line int) {
	if _, seen := g.tagLines[strings.ToLower(name)]; seen {
		return
	}
	if g.tagLines == nil {
		g.tagLines = map[string]int{}
	}
	g.tagLines[strings.ToLower(name)] = line
}

// tagLine is the line the named tag was read from (0: not read from a file).
func (g *Game) tagLine(name string) int { return g.tagLines[strings.ToLower(name)] }

// Tag returns the value of the named tag (case-insensitive), or "".
func (g *Game) Tag(name string) string {
	for _, t := range g.Tags {
		if strings.EqualFold(t.Name, name) {
			return t.Value
		}
	}
	return ""
}

// SetTag sets the named tag, replacing an existing one (matched
// case-insensitively) or appending a new one.
func (g *Game) SetTag(name, value string) {
	for i, t := range g.Tags {
		if strings.EqualFold(t.Name, name) {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{Name: name, Value: value})
}

// ParseError is a malformed game: where it is and what is wrong.
type ParseError struct {
	File string // file name given to NewReader
	Line int    // line of the problem (1-based)
	Game int    // game number in the file (1-based)
	Move int    // move number in the game text where it happened; 0 before the first move
	Text string // the offending text, if any
	Err  error  // what is wrong; wraps rules.ErrSyntax
	// Tags are the tags of the game read before the problem (none when the
	// problem is in them): the players and event name the game in a report.
	Tags []Tag
}

func (e *ParseError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	fmt.Fprintf(&b, "%d: game %d", e.Line, e.Game)
	if e.Move > 0 {
		fmt.Fprintf(&b, ", move %d", e.Move)
	}
	if e.Text != "" {
		fmt.Fprintf(&b, ": %q", e.Text)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// result reads a game termination marker (rules.ParseResult) and returns
// it in its one spelling ("½-½" is written "1/2-1/2"); ok is false for text
// that is not a result.
func result(s string) (string, bool) {
	o, wide, err := rules.ParseResult(s)
	if err != nil || strings.TrimSpace(s) == "" {
		return "", false
	}
	return o.PDN(wide), true
}
