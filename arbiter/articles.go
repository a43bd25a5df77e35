package arbiter

import (
	"maps"
	"strings"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Article is where a rule stands in a federation's rulebook: the body whose
// rulebook it is and the article's number as the rulebook numbers it. An
// Explanation carries the article of the rule it names, for the variants
// whose federation text the arbiter cites (rulebooks); the zero Article
// cites nothing.
type Article struct {
	Body   string // the federation: "FMJD", "WCDF"
	Number string // "4.13"; several joined with ", " ("4.5, 4.6")
}

// Code is the article's message code, the key of its translation
// ("article.fmjd"); "" for the zero Article.
func (a Article) Code() string {
	if a.Number == "" {
		return ""
	}
	return "article." + strings.ToLower(a.Body)
}

// String is the article in English: "FMJD rules, art. 4.13", "WCDF rules,
// 1.20"; "" for the zero Article.
func (a Article) String() string {
	if a.Number == "" {
		return ""
	}
	return articleText.Text(a.Code(), a.args())
}

// Message is the article as a coded message, for a client that says it in
// its own language.
func (a Article) Message() message.Message {
	return message.Message{Code: a.Code(), Args: a.args(), Text: a.String()}
}

func (a Article) args() map[string]string { return map[string]string{"article": a.Number} }

// articleText is the English template of each rulebook's citation.
var articleText = message.Catalog{
	"article.fmjd": "FMJD rules, art. {article}",
	"article.wcdf": "WCDF rules, {article}",
}

// ArticleCodes is the citations' message codes with their English
// templates (for translation catalogs).
func ArticleCodes() message.Catalog { return maps.Clone(articleText) }

// Cited is String followed by the rule's article in parentheses when the
// explanation has one: "capturing is compulsory: 15 can capture (15x22)
// (WCDF rules, 1.20)". The arbiter's English surfaces (a warning, a result's
// reason, `arbiter check`) say this; the explanation's own text stays
// String.
func (e Explanation) Cited() string {
	if e.Article.Number == "" {
		return e.String()
	}
	return e.String() + " (" + e.Article.String() + ")"
}

// Cited is String followed by the draw rule's article in parentheses when
// the evidence has one: "the position occurs for the third time, at the
// start and at moves 3. and 5. (WCDF rules, 1.32.1)". A claim's answer, an
// automatic draw's reason and a claims audit say this, as Explanation.Cited
// does for an illegal move. Evidence of a claim that could not be judged
// on the rule (Problem) cites nothing: the problem is not the rule's.
func (e Evidence) Cited() string {
	if e.Article.Number == "" || e.Problem != "" {
		return e.String()
	}
	return e.String() + " (" + e.Article.String() + ")"
}

// rulebook is one federation's text, with the article of each explanation
// code and each draw rule it has one for.
type rulebook struct {
	variant string // the preset whose rules the text is (rules.Lookup)
	body    string
	// articles maps an explanation code, or a draw rule's Termination
	// ("draw by threefold repetition"), to its article's number; "code
	// man" and "code king" hold the article of a code whose explanation
	// names the piece (its {piece}) where the two differ.
	articles map[string]string
}

// rulebooks are the federation texts the arbiter cites, with where each
// was read (docs/check-and-pdn.md, "Which rules are cited"); a number is
// here only when its article's words were read with it, never from memory.
// Only the preset itself cites them: a custom variant, even one that
// changes a single parameter of a preset, and the other presets cite
// nothing, since no text the arbiter has read numbers their rules. A code
// without an entry cites nothing either: the texts have no article for a
// square off the board or an empty one, and a destination that is taken
// falls under the plain move's article or the capture's, which the code
// does not tell apart.
var rulebooks = []rulebook{
	{
		// FMJD, "Official FMJD rules for international draughts" (Annex 1
		// of the FMJD's rules and regulations), version November 2015;
		// the text read is a public copy (github.com/jagaleanov/Draughts,
		// README.md), articles 4.1-4.5 and 5.4 checked against a second
		// copy of the Annex 1 document (studfile.net/preview/9635026).
		variant: "international",
		body:    "FMJD",
		articles: map[string]string{
			// 3.3: the players play "with their own pieces".
			CodeNotYourPiece: "3.3",
			// 3.4: a man moves "forwards over a diagonal, towards an empty
			// square of the next row"; 3.9: a king moves "over the
			// successive free squares of the diagonal he occupies".
			CodeNotDiagonal: "3.4, 3.9",
			CodeBackward:    "3.4",
			CodeTooFar:      "3.4", // kings fly: only a man is told so
			// 4.1: "One cannot capture one's own pieces"; 4.7: "forbidden
			// to jump over one's own pieces".
			CodeJumpsOwn: "4.1, 4.7",
			// 4.2: a man meeting a piece "behind which is a free square
			// ... is obliged to jump" and occupy that square; 4.3: a king
			// likewise, "either close or in the distance", over a piece
			// "behind which one or more squares are empty".
			CodeCaptureCompulsory: "4.2, 4.3",
			CodeTwoPieces:         "4.2, 4.3",
			CodeJumpTooFar:        "4.2", // kings fly: only a man is told so
			// 4.5 (a man), 4.6 (a king): in the course of a capture it "is
			// obliged to jump" the next piece too.
			CodeIncompleteCapture: "4.5, 4.6",
			// 4.13: "The capture of the largest number of pieces has
			// priority and is obligatory."
			CodeLongerCapture: "4.13",

			// The draws (article 6, "The draw"; read in the first copy
			// only). 6.1: "the same position occurs for the third time,
			// with the same player having to move".
			string(DrawThreefold): "6.1",
			// 6.2: "during 25 successive moves for each player, only the
			// kings have moved, without any man moving or without any
			// capture".
			string(Draw25Move): "6.2",
			// 6.3: three kings, two kings and a man, or a king and two men
			// against one king: a draw "when the players have each played
			// another sixteen moves maximum".
			string(Draw16Move): "6.3",
			// 6.4: two kings, a king and a man, or a king against one
			// king: "another five moves maximum".
			string(Draw5Move): "6.4",
			// 7.3.1: a draw is obtained when "both players agree to a draw
			// by mutual consent".
			string(DrawAgreement): "7.3.1",
		},
	},
	{
		// WCDF, "Rules of Draughts (Checkers)", Section One (the PDF at
		// wcdf.net/rules/rules_of_checkers_english.pdf, dated 19 August
		// 2013 by its server, as a copier records). Its opening (1.1-1.5)
		// was read in a public copy (docslib.org/doc/1233951); rules
		// 1.15-1.21 in verbatim quotations of the same text, with their
		// numbers, in public code.
		variant: "english",
		body:    "WCDF",
		articles: map[string]string{
			// 1.15: a man's ordinary move is "diagonally forward left or
			// right ... to an immediately neighbouring vacant square";
			// 1.17: a king's "diagonally forward or backward".
			CodeNotDiagonal:      "1.15, 1.17",
			CodeTooFar:           "1.15, 1.17",
			CodeTooFar + " man":  "1.15",
			CodeTooFar + " king": "1.17",
			CodeBackward:         "1.15",
			// 1.18: a man captures "over a diagonally adjacent and forward
			// square occupied by an opponent's piece ... on to a vacant
			// square immediately beyond it"; 1.21: a king's capture is
			// "similar ... but may be in a forward or backward direction".
			CodeBackwardCapture:      "1.18",
			CodeJumpsOwn:             "1.18, 1.21",
			CodeTwoPieces:            "1.18, 1.21",
			CodeJumpTooFar:           "1.18, 1.21",
			CodeJumpTooFar + " man":  "1.18",
			CodeJumpTooFar + " king": "1.21",
			// 1.20: "All capturing moves are compulsory ... Once started,
			// a multiple jump must be carried through to completion";
			// 1.19: the capture "is continued until all the jumps are
			// completed".
			CodeCaptureCompulsory: "1.20",
			CodeIncompleteCapture: "1.19, 1.20",
			// 1.16: reaching the king-row a man "becomes a king, and this
			// completes the turn of play"; 1.19: crowned by a capture, it
			// "may not make any further jumps" until the opponent moves.
			CodeCrownedStops: "1.16, 1.19",

			// The draws, read like 1.15-1.21: the words in public copies
			// without numbers, the numbers with quotations in public code.
			// 1.32: "The game is drawn if at any stage both players agree
			// on such a result"; 1.32.1: a player "can demonstrate to the
			// satisfaction of the referee that with their next move they
			// would create the same position for the third time during the
			// game"; 1.32.2: "Neither player has advanced an uncrowned man
			// towards the king-row during their own previous 40 moves" and
			// "No pieces have been removed from the board" in them.
			string(DrawAgreement): "1.32",
			string(DrawThreefold): "1.32.1",
			string(Draw40Move):    "1.32.2",
		},
	},
}

// ArticleFor is the article of v's federation rulebook that the rule of
// the explanation code stands in, and false when the arbiter cites none
// for v (see rulebooks).
func ArticleFor(v *rules.Variant, code string) (Article, bool) { return articleFor(v, code, "") }

// DrawArticle is the article of v's federation rulebook that the draw rule
// kind stands in (DrawThreefold, the N-move rule, the endgame rules,
// DrawAgreement; KindMoveRule is v's N-move rule), and false when the
// arbiter cites none for v: the other presets, custom variants, and the
// rules a preset's rulebook does not have (a 40-move claim in
// international draughts).
func DrawArticle(v *rules.Variant, kind Termination) (Article, bool) {
	if kind == KindMoveRule {
		kind = MoveRuleTermination(v.Draws().MoveRule)
	}
	return articleFor(v, string(kind), "")
}

// articleFor is ArticleFor for an explanation that names the piece ("man",
// "king"; "" when it names none): a rule that differs for the two cites
// the piece's own article.
func articleFor(v *rules.Variant, code, piece string) (Article, bool) {
	for _, b := range rulebooks {
		if v != rules.MustLookup(b.variant) {
			continue
		}
		if n, ok := b.articles[code+" "+piece]; ok && piece != "" {
			return Article{Body: b.body, Number: n}, true
		}
		if n, ok := b.articles[code]; ok {
			return Article{Body: b.body, Number: n}, true
		}
	}
	return Article{}, false
}
