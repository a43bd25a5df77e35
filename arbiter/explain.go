package arbiter

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/draughts-arbiter/arbiter/internal/message"
	"github.com/draughts-arbiter/arbiter/rules"
)

// Explanation says why an attempted move is illegal, in a player's words:
// a message code (the key of a translation) and its arguments. String is
// the English text; a translation uses the same {name} placeholders.
// Article is the article of the federation's rulebook that the broken rule
// stands in (ArticleFor), zero where none is cited; Cited adds it to the
// text.
type Explanation struct {
	Code    string
	Args    map[string]string
	Article Article
}

// Explanation codes. Every code Explain (or the referee) can give is in
// Codes; each has an English template in explainText.
const (
	CodeLegal             = "illegal.none"             // the move is legal after all
	CodeOffBoard          = "illegal.off-board"        // a square that is not on the board
	CodeEmpty             = "illegal.empty"            // no piece on the from square
	CodeNotYourPiece      = "illegal.not-your-piece"   // the opponent's piece
	CodeNoMove            = "illegal.no-move"          // from = to
	CodeOccupied          = "illegal.occupied"         // the destination holds a piece
	CodeNotDiagonal       = "illegal.not-diagonal"     // not along a diagonal
	CodeTooFar            = "illegal.too-far"          // a man (or short king) moving more than one square
	CodeBackward          = "illegal.backward"         // a man moving backward
	CodeBackwardCapture   = "illegal.backward-capture" // a man capturing backward where men may not
	CodeJumpTooFar        = "illegal.jump-too-far"     // a man or short king not landing right behind
	CodeLandBehind        = "illegal.land-behind"      // a king (Thai) not landing right behind
	CodeJumpsOwn          = "illegal.jumps-own"        // jumping a piece of one's own
	CodeTwoPieces         = "illegal.two-pieces"       // two pieces in a row jumped at once
	CodeManTakesKing      = "illegal.man-takes-king"   // Italian: a man may not take a king
	CodeCaptureCompulsory = "illegal.capture-compulsory"
	CodeLongerCapture     = "illegal.longer-capture"     // majority rule
	CodeQualityCapture    = "illegal.quality-capture"    // most kings among equal captures
	CodeKingsFirst        = "illegal.kings-first"        // Italian: the capture meeting kings first
	CodeKingPreference    = "illegal.king-preference"    // a king must capture before a man
	CodeIncompleteCapture = "illegal.incomplete-capture" // the capture stops early
	CodeCrownedStops      = "illegal.crowned-stops"      // a man crowned in a capture goes on
	CodeNotACapture       = "illegal.not-a-capture"      // a capture that is none of the legal ones
	CodeNotLegal          = "illegal.not-legal"          // none of the above
	CodeUnreadable        = "illegal.unreadable"         // text that is no move (SubmitIllegal)
)

// explainText is the English template of each code; {name} is an argument.
var explainText = message.Catalog{
	CodeLegal:             "{move} is a legal move",
	CodeOffBoard:          "square {square} is not on the board",
	CodeEmpty:             "there is no piece on {from}",
	CodeNotYourPiece:      "the piece on {from} is {owner}'s, and it is {side}'s move",
	CodeNoMove:            "the piece on {from} does not move",
	CodeOccupied:          "{to} is occupied",
	CodeNotDiagonal:       "{from} and {to} are not on one diagonal; pieces move diagonally",
	CodeTooFar:            "a {piece} moves one square at a time, and {from}-{to} is {n} squares",
	CodeBackward:          "men move forward only, and {from}-{to} goes backward",
	CodeBackwardCapture:   "men capture forward only in {variant}, and {move} goes backward",
	CodeJumpTooFar:        "a {piece} captures by jumping one piece to the square right behind it ({move})",
	CodeLandBehind:        "a king captures by landing on the square right behind the piece it takes ({move})",
	CodeJumpsOwn:          "a piece cannot jump a piece of its own colour (on {square})",
	CodeTwoPieces:         "a piece jumps one piece at a time, landing behind it before the next (on {square})",
	CodeManTakesKing:      "a man may not capture a king in {variant} (on {square})",
	CodeCaptureCompulsory: "capturing is compulsory: {pieces} can capture ({legal})",
	CodeLongerCapture:     "the capture taking the most pieces is compulsory in {variant}: {max} pieces ({legal}), and {move} takes {n}",
	CodeQualityCapture:    "of captures taking as many pieces, the one taking the most kings is compulsory in {variant} ({legal})",
	CodeKingsFirst:        "of captures taking as many pieces and kings, the one meeting kings first is compulsory in {variant} ({legal})",
	CodeKingPreference:    "a king that can capture must capture rather than a man in {variant} ({legal})",
	CodeIncompleteCapture: "the capture is not finished: the piece must go on capturing from {to} ({legal})",
	CodeCrownedStops:      "a man that reaches the king row during a capture is crowned there and its move ends (on {square})",
	CodeNotACapture:       "{move} is not one of the captures here ({legal})",
	CodeNotLegal:          "{move} is not a legal move here; the legal moves are {legal}",
	CodeUnreadable:        "{text} is not a move: {why}",
}

// Codes lists every explanation code, sorted (for translation catalogs).
func Codes() []string { return explainText.Codes() }

// String fills the code's English template with the arguments.
func (e Explanation) String() string { return explainText.Text(e.Code, e.Args) }

// maxLegalListed bounds the legal moves named in an explanation.
const maxLegalListed = 24

// Explain says why m is illegal in p. It reads the rules from the
// variant's parameters and the rules package's move generator (never a
// second rules engine): geometry first (squares, pieces, diagonals,
// direction, distance), then the capture rules (compulsory capture, the
// variant's precedence, a capture that stops early). m may name only
// From and To (and Path): the pieces jumped are then read from the
// board. Explain generates moves and is meant for illegal moves only, not
// for every move of a game. A legal m gets CodeLegal.
func Explain(p rules.Position, m rules.Move) Explanation {
	v := p.Variant()
	side := p.Turn()
	legal := p.LegalMoves()
	e := Explanation{Args: map[string]string{
		"move":    attemptText(v, m),
		"side":    side.String(),
		"variant": v.Name(),
		"legal":   legalList(p, legal),
		"from":    squareName(v, m.From),
		"to":      squareName(v, m.To),
	}}
	set := func(code string, kv ...string) Explanation {
		e.Code = code
		for i := 0; i+1 < len(kv); i += 2 {
			e.Args[kv[i]] = kv[i+1]
		}
		e.Article, _ = articleFor(v, code, e.Args["piece"])
		return e
	}
	n := v.Squares()
	stops := append([]rules.Square{m.From}, m.Path...)
	if len(m.Path) == 0 || m.Path[len(m.Path)-1] != m.To {
		stops = append(stops, m.To)
	}
	for _, sq := range stops {
		if sq < 1 || int(sq) > n {
			return set(CodeOffBoard, "square", squareName(v, sq))
		}
	}
	c, kind, ok := p.Piece(m.From)
	switch {
	case !ok:
		return set(CodeEmpty)
	case c != side:
		return set(CodeNotYourPiece, "owner", c.String())
	case m.From == m.To && !m.IsCapture() && len(m.Path) == 0:
		if slices.ContainsFunc(legal, m.Same) {
			return set(CodeLegal) // Hawaii's opening removals are such moves
		}
		return set(CodeNoMove)
	case m.To != m.From && p.Occupied().Has(m.To):
		return set(CodeOccupied)
	}
	if !classic(v) {
		return explainGeneric(p, m, legal, set)
	}
	man := kind == rules.Man
	piece := "man"
	if !man {
		piece = "king"
	}

	// Walk the segments between the stops when they are on diagonals: the
	// pieces jumped, the direction and the distance of each.
	att := m
	geometric := m.Captured.Empty() || len(m.Path) > 0
	var jumped rules.Set
	type segment struct {
		d          rules.Direction
		dist       int
		pieces     []rules.Square
		backward   bool
		landBehind bool // the landing square is right behind the last piece jumped
	}
	var segs []segment
	if geometric {
		for i := 0; i+1 < len(stops); i++ {
			a, b := stops[i], stops[i+1]
			d, dist, ok := lineDir(v, a, b)
			if !ok {
				return set(CodeNotDiagonal, "from", squareName(v, a), "to", squareName(v, b))
			}
			s := segment{d: d, dist: dist, backward: !forward(v, side, d)}
			for t := v.Next(a, d); t != b; t = v.Next(t, d) {
				if p.Occupied().Has(t) && t != m.From {
					s.pieces = append(s.pieces, t)
					s.landBehind = v.Next(t, d) == b
				} else {
					s.landBehind = false
				}
			}
			segs = append(segs, s)
			for _, t := range s.pieces {
				jumped = jumped.With(t)
			}
		}
		if m.Captured.Empty() {
			att.Captured = jumped
		}
	}
	e.Args["move"] = attemptText(v, att)
	for _, l := range legal {
		if l.Same(att) {
			return set(CodeLegal)
		}
	}

	if att.Captured.Empty() {
		// A plain move.
		s := segs[0]
		switch {
		case man && s.backward:
			return set(CodeBackward)
		case man && s.dist > 1, !man && v.Kings() == rules.ShortKings && s.dist > 1:
			return set(CodeTooFar, "piece", piece, "n", strconv.Itoa(s.dist))
		case len(legal) > 0 && legal[0].IsCapture():
			return set(CodeCaptureCompulsory, listArgs("pieces", capturers(p, legal))...)
		}
		return set(CodeNotLegal)
	}

	// A capture: first what no capture may do.
	for k, s := range segs {
		if man && k > 0 && v.Promotion() == rules.PromoteStop && v.Crowns(side, stops[k]) {
			return set(CodeCrownedStops, "square", squareName(v, stops[k]))
		}
		for i, t := range s.pieces {
			oc, ok, _ := pieceColor(p, t)
			switch {
			case ok && oc == side:
				return set(CodeJumpsOwn, "square", squareName(v, t))
			case i > 0:
				return set(CodeTwoPieces, "square", squareName(v, t))
			case man && !v.MenCaptureKings() && p.Kings().Has(t):
				return set(CodeManTakesKing, "square", squareName(v, t))
			}
		}
		if len(s.pieces) == 0 {
			continue
		}
		switch {
		case man && s.backward && !v.MenCaptureBackward():
			return set(CodeBackwardCapture)
		case (man || v.Kings() == rules.ShortKings) && (s.dist != 2 || len(s.pieces) != 1):
			return set(CodeJumpTooFar, "piece", piece)
		case !man && v.Kings() == rules.FlyingLandBehind && !s.landBehind:
			return set(CodeLandBehind)
		}
	}
	if len(legal) == 0 || !legal[0].IsCapture() {
		return set(CodeNotLegal)
	}
	// Every capture the pieces could make, whatever the precedence rule.
	all := legal
	if fv := freeChoice(v); fv != v {
		all = rules.Setup(fv, side, p.Pieces(rules.White), p.Pieces(rules.Black), p.Kings()).LegalMoves()
	}
	if slices.ContainsFunc(all, att.Same) {
		return precedence(p, att, legal, set)
	}
	for _, c := range all {
		if c.From == att.From && c.Captured != att.Captured && att.Captured.Minus(c.Captured).Empty() {
			var from []rules.Move
			for _, l := range legal {
				if l.From == att.From {
					from = append(from, l)
				}
			}
			if len(from) == 0 {
				// Going on would not make it legal either: the
				// precedence rule wants another capture (the majority),
				// and that is what the player is told.
				return precedence(p, att, legal, set)
			}
			return set(CodeIncompleteCapture, "legal", legalList(p, from))
		}
	}
	return set(CodeNotACapture)
}

// precedence explains a complete capture that the variant's precedence
// rule does not allow.
func precedence(p rules.Position, att rules.Move, legal []rules.Move, set func(string, ...string) Explanation) Explanation {
	v := p.Variant()
	best := legal[0]
	if v.Precedence() == rules.KingsFirst {
		return set(CodeKingPreference, listArgs("pieces", capturers(p, legal))...)
	}
	n, most := att.Captured.Len(), best.Captured.Len()
	if n < most {
		return set(CodeLongerCapture, "n", strconv.Itoa(n), "max", strconv.Itoa(most))
	}
	kings := func(m rules.Move) int { return m.Captured.Intersect(p.Kings()).Len() }
	byKing := p.Kings().Has(best.From) && !p.Kings().Has(att.From)
	switch v.Precedence() {
	case rules.ItalianOrder:
		if byKing {
			return set(CodeKingPreference, listArgs("pieces", capturers(p, legal))...)
		}
		if kings(att) < kings(best) {
			return set(CodeQualityCapture, "n", strconv.Itoa(kings(att)), "max", strconv.Itoa(kings(best)))
		}
		return set(CodeKingsFirst)
	case rules.MajorityThenKings:
		return set(CodeQualityCapture, "n", strconv.Itoa(kings(att)), "max", strconv.Itoa(kings(best)))
	}
	return set(CodeNotACapture)
}

// freeVariants caches, per variant, the same rules with free choice among
// captures: its moves are every capture the pieces can make.
var freeVariants sync.Map // *rules.Variant -> *rules.Variant

func freeChoice(v *rules.Variant) *rules.Variant {
	if v.Precedence() == rules.FreeChoice {
		return v
	}
	if fv, ok := freeVariants.Load(v); ok {
		return fv.(*rules.Variant)
	}
	pr := v.Params()
	pr.Precedence = rules.FreeChoice
	fv, err := rules.NewVariant(pr)
	if err != nil {
		return v // cannot happen: only the precedence differs
	}
	freeVariants.Store(v, fv)
	return fv
}

// lineDir returns the direction and the distance from a to b when they
// share a diagonal.
func lineDir(v *rules.Variant, a, b rules.Square) (rules.Direction, int, bool) {
	for d := rules.UpLeft; d <= rules.DownRight; d++ {
		n := 0
		for t := v.Next(a, d); t != 0; t = v.Next(t, d) {
			n++
			if t == b {
				return d, n, true
			}
		}
	}
	return 0, 0, false
}

// forward reports whether d is a forward direction for a man of side c
// (the side's heading: usually White up the diagram, towards row 0).
func forward(v *rules.Variant, c rules.Color, d rules.Direction) bool {
	up := d == rules.UpLeft || d == rules.UpRight
	return up == (v.Forward(c) == rules.TowardTop)
}

// classic reports whether v is a diagonal variant whose moves Explain can
// read square by square: dark squares, the diagonal directions, no state
// beyond the board and a precedence rule it can name. The others (Frisian,
// Alquerque, Dameo, ...) get explainGeneric.
func classic(v *rules.Variant) bool {
	p := v.Params()
	return p.Layout == rules.DarkSquares && p.MenMoves == 0 && p.MenCaptures == 0 && p.MenLaterCaptures == 0 &&
		p.KingMoves == 0 && p.KingCaptures == 0 && !p.LinearMoves && !p.RemoveAtOnce && !p.NoTurnBack &&
		p.KingMoveLimit == 0 && !p.NoReturn && p.Precedence <= rules.KingsFirst && p.Promotion <= rules.PromoteOnlyIfEnding
}

// explainGeneric explains a move of a variant whose geometry Explain does
// not read (classic is false): a capture that was due, or else not a legal
// move, with the legal moves.
func explainGeneric(p rules.Position, m rules.Move, legal []rules.Move, set func(string, ...string) Explanation) Explanation {
	for _, l := range legal {
		if l.From == m.From && l.To == m.To && (m.Captured.Empty() || l.Captured == m.Captured) {
			return set(CodeLegal)
		}
	}
	if len(legal) > 0 && legal[0].IsCapture() {
		return set(CodeCaptureCompulsory, listArgs("pieces", capturers(p, legal))...)
	}
	return set(CodeNotLegal)
}

func pieceColor(p rules.Position, sq rules.Square) (rules.Color, bool, rules.Kind) {
	c, k, ok := p.Piece(sq)
	return c, ok, k
}

func squareName(v *rules.Variant, sq rules.Square) string {
	if sq < 1 || int(sq) > v.Squares() {
		return strconv.Itoa(int(sq))
	}
	return v.SquareName(sq)
}

// attemptText writes an attempted move: from-to, or the capture with its
// path when one was given.
func attemptText(v *rules.Variant, m rules.Move) string {
	if len(m.Path) < 2 {
		return moveText(v, m)
	}
	sep := "x"
	if v.Notation() == rules.Algebraic {
		sep = ":"
	}
	var b strings.Builder
	b.WriteString(squareName(v, m.From))
	for _, sq := range m.Path {
		b.WriteString(sep)
		b.WriteString(squareName(v, sq))
	}
	return b.String()
}

// legalList writes moves in PDN, comma-separated, at most maxLegalListed.
func legalList(p rules.Position, ms []rules.Move) string {
	if len(ms) == 0 {
		return "none"
	}
	all := p.LegalMoves()
	parts := make([]string, 0, min(len(ms), maxLegalListed+1))
	for i, m := range ms {
		if i == maxLegalListed {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, p.MoveTextAmong(m, all))
	}
	return strings.Join(parts, ", ")
}

// ListSuffix marks the argument that carries a list's items: an argument
// naming several things ("pieces") has its English text under its own
// name ("12, 17 and 23") and the items, comma-separated, under the name
// with ListSuffix ("pieces_list": "12,17,23"), so that a translation
// joins them with its own word for "and" (the browser's i18n.js does).
// Items (square names) never hold a comma.
const ListSuffix = "_list"

// listArgs is the argument pairs of a list (see ListSuffix).
func listArgs(name string, items []string) []string {
	return []string{name, joinAnd(items), name + ListSuffix, strings.Join(items, ",")}
}

// capturers names the squares of the pieces that can capture.
func capturers(p rules.Position, legal []rules.Move) []string {
	var sqs []rules.Square
	for _, m := range legal {
		if !slices.Contains(sqs, m.From) {
			sqs = append(sqs, m.From)
		}
	}
	slices.Sort(sqs)
	names := make([]string, len(sqs))
	for i, sq := range sqs {
		names[i] = p.Variant().SquareName(sq)
	}
	return names
}
