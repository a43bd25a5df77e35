package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// This file holds the move notations: PDN move text (short and long form),
// Hub move text and DXP move fields. Decoding always needs the position: a
// text is matched against the legal moves, never trusted on its own.

// splitMoveText splits "32-28", "28x19", "47x38x24", "c3:e5", "a3b4" into
// squares and reports whether a capture separator was used.
func splitMoveText(text string) (parts []string, capture bool, err error) {
	return splitMoveTextInto(nil, text)
}

// splitMoveTextInto is splitMoveText appending the squares to parts (a
// caller's buffer, so that parsing need not allocate).
func splitMoveTextInto(parts []string, text string) (_ []string, capture bool, err error) {
	t := strings.TrimSpace(text)
	t = strings.TrimRight(t, "!?+#*")
	if t == "" {
		return nil, false, fmt.Errorf("%w: empty move", ErrSyntax)
	}
	start := 0
	for i := 0; i < len(t); i++ {
		n := 1 // bytes of the separator
		switch {
		case t[i] == '-':
		case t[i] == 'x', t[i] == 'X', t[i] == ':', t[i] == 0xD7: // 0xD7: × in Latin-1
			capture = true
		case t[i] == 0xC3 && i+1 < len(t) && t[i+1] == 0x97: // × in UTF-8
			capture, n = true, 2
		case isFileLetter(t[i]) && i > start && isFileLetter(t[start]) && t[i-1] >= '0' && t[i-1] <= '9':
			// "a3b4": PDN 3.0 lets alphanumeric moves omit the separator;
			// a file letter after a rank starts the next square.
			parts = append(parts, t[start:i])
			start = i
			continue
		default:
			continue
		}
		parts = append(parts, t[start:i])
		i += n - 1
		start = i + 1
	}
	parts = append(parts, t[start:])
	if len(parts) < 2 {
		return nil, false, fmt.Errorf("%w: move %q has no separator", ErrSyntax, text)
	}
	for _, p := range parts {
		if p == "" {
			return nil, false, fmt.Errorf("%w: move %q has an empty square", ErrSyntax, text)
		}
	}
	return parts, capture, nil
}

// isFileLetter reports whether c can name a file of an alphanumeric square
// (x is the capture separator, never a file).
func isFileLetter(c byte) bool {
	c |= 0x20
	return c >= 'a' && c <= 'w'
}

// MoveSquares reads the squares of move text in v ("32-28", "28x19x10",
// "c3:e5", "a3b4") without asking whether the move is legal: the squares
// an attempt names, for explaining why it is illegal (arbiter.Explain).
func MoveSquares(v *Variant, text string) ([]Square, error) {
	parts, _, err := splitMoveText(text)
	if err != nil {
		return nil, err
	}
	sqs := make([]Square, len(parts))
	for i, s := range parts {
		if sqs[i], err = v.geo.parseSquare(s); err != nil {
			return nil, fmt.Errorf("move %q: %w", text, err)
		}
	}
	return sqs, nil
}

// ParseMove reads PDN move text in p: the short form ("32-28", "28x19"), the
// long form listing landing squares ("47x38x24x13x36"), with "x" or ":" as
// capture separator and numeric or algebraic squares; algebraic squares may
// be written without a separator ("a3b4", "c3e5"), as PDN 3.0 allows. Intermediate squares of
// a long form may be a subset of the landing squares, in order.
func (p Position) ParseMove(text string) (Move, error) {
	found, err := p.MatchMoves(text)
	if err != nil {
		return Move{}, err
	}
	switch len(found) {
	case 0:
		return Move{}, fmt.Errorf("%w: %s", ErrIllegal, text)
	case 1:
		return found[0], nil
	}
	if m, ok := SingleJump(found); ok {
		return m, nil
	}
	return Move{}, fmt.Errorf("%w: %s matches %d legal moves", ErrAmbiguous, text, len(found))
}

// SingleJump returns the one single jump among the readings of a short
// capture text, if there is exactly one. A single jump's long form is its
// short form (b7:d5 beside the longer b7:d7:d5 in Gothic, or a king's jump
// beside its loop to the same square), so that text is how MoveText writes
// it, and ParseMove reads it so; MatchMoves still returns every reading, for
// a reader that lets the rest of a game settle a record written otherwise.
func SingleJump(found []Move) (Move, bool) {
	var one Move
	n := 0
	for _, m := range found {
		if m.IsCapture() && len(m.Path) == 1 {
			one, n = m, n+1
		}
	}
	return one, n == 1
}

// MatchMoves returns every legal move (one per identity, each with a
// capture path through the squares named) that PDN move text could mean,
// read as ParseMove reads it; none when it names no legal move. An error
// means the text cannot be read (it wraps ErrSyntax). ParseMove is
// MatchMoves wanting exactly one; a reader settling an ambiguous short
// form from the rest of a game wants them all.
func (p Position) MatchMoves(text string) ([]Move, error) {
	parts, _, err := splitMoveText(text)
	if err != nil {
		return nil, err
	}
	sqs := make([]Square, len(parts))
	for i, s := range parts {
		if sqs[i], err = p.v.geo.parseSquare(s); err != nil {
			return nil, fmt.Errorf("move %q: %w", text, err)
		}
	}
	from, to, via := sqs[0], sqs[len(sqs)-1], sqs[1:len(sqs)-1]
	var found []Move
	for _, m := range p.LegalPaths() {
		if m.From != from || m.To != to || !p.pathVia(m, via) || containsSame(found, m) {
			continue
		}
		found = append(found, m)
	}
	if len(found) > 1 && len(via) > 0 {
		// A long form that lists a move's whole path names that move, even
		// when its squares also lie, in order, on a longer path (MoveText
		// writes such a form: W:WKe3:Bb6,d4,d6,f6,f4 in Czech, e3:c5:a7
		// beside e3:g5:e7:c5:a7). A short form is left with every reading
		// (see SingleJump).
		var exact []Move
		for _, m := range found {
			if len(m.Path) == len(via)+1 && slices.Equal(m.Path[:len(via)], via) {
				exact = append(exact, m)
			}
		}
		if len(exact) == 1 {
			return exact, nil
		}
	}
	return found, nil
}

// pathVia reports whether the squares via appear in order among the
// landing squares of m's path before its last one. A flying king's path
// (LegalPaths) names the nearest of the squares it could stop on before it
// takes the next piece further along the same line (RULES.md section 1: one
// path, wherever it stopped), so any of those squares stands for that
// landing: "46x28x5" is the path 46x32x5 of W:WK46:B37,19.
func (p Position) pathVia(m Move, via []Square) bool {
	if len(via) == 0 {
		return true
	}
	path := m.Path
	if len(path) == 0 {
		return false
	}
	j := 0
	for i, sq := range path[:len(path)-1] {
		if j < len(via) && (sq == via[j] || p.sameLineStop(m, i, via[j])) {
			j++
		}
	}
	return j == len(via)
}

// sameLineStop reports whether a flying king on m's path, landing i, could
// have stopped on sq instead: when the capture after landing i continues
// along the line it arrived on, sq is any square after path[i] and before
// the piece that capture takes.
func (p Position) sameLineStop(m Move, i int, sq Square) bool {
	if p.v.Kings() != FlyingKings || i+1 >= len(m.Path) {
		return false
	}
	g := p.v.geo
	prev := m.From
	if i > 0 {
		prev = m.Path[i-1]
	}
	d, ok := g.lineDir(prev, m.Path[i])
	if !ok {
		return false
	}
	// Squares after the landing along d up to the next one: sq must come
	// before the piece taken, and the next landing must lie on this line.
	passed := false
	for t := g.next[m.Path[i]][d]; t != 0; t = g.next[t][d] {
		switch {
		case t == m.Path[i+1]:
			return false
		case m.Captured.Has(t):
			passed = true
		case t == sq && !passed:
			d2, ok := g.lineDir(m.Path[i], m.Path[i+1])
			return ok && d2 == d
		}
	}
	return false
}

// lineDir returns the direction from a to b when they share a diagonal.
func (g *geometry) lineDir(a, b Square) (Direction, bool) {
	for d := Direction(0); d < numDirs; d++ {
		for t := g.next[a][d]; t != 0; t = g.next[t][d] {
			if t == b {
				return d, true
			}
		}
	}
	return 0, false
}

// MoveText writes m in PDN: the short form, or the long form with every
// landing square when another legal move shares its from and to squares.
func (p Position) MoveText(m Move) string {
	if !m.IsCapture() {
		return p.moveText(m, false)
	}
	return p.MoveTextAmong(m, p.LegalMoves())
}

// MoveTextAmong is MoveText for a caller that has the legal moves of p at
// hand (legal must be p.LegalMoves()): they are not generated again.
func (p Position) MoveTextAmong(m Move, legal []Move) string {
	long := false
	if m.IsCapture() {
		for _, o := range legal {
			if o.From == m.From && o.To == m.To && !o.Same(m) {
				long = true
				break
			}
		}
	}
	return p.moveText(m, long)
}

// moveText writes m in the short form, or the long form when long.
func (p Position) moveText(m Move, long bool) string {
	sep := byte('-')
	if m.IsCapture() {
		sep = 'x'
		if p.v.p.Notation == Algebraic {
			sep = ':'
		}
	}
	var buf [64]byte
	b := append(buf[:0], p.v.SquareName(m.From)...)
	if long && len(m.Path) > 0 {
		for _, sq := range m.Path {
			b = append(b, sep)
			b = append(b, p.v.SquareName(sq)...)
		}
		return string(b)
	}
	b = append(b, sep)
	b = append(b, p.v.SquareName(m.To)...)
	return string(b)
}

// LongMoveText writes m with all its landing squares ("47x38x24x13x36").
func (p Position) LongMoveText(m Move) string {
	if !m.IsCapture() || len(m.Path) == 0 {
		return p.MoveText(m)
	}
	sep := "x"
	if p.v.p.Notation == Algebraic {
		sep = ":"
	}
	var b strings.Builder
	b.WriteString(p.v.SquareName(m.From))
	for _, sq := range m.Path {
		b.WriteString(sep)
		b.WriteString(p.v.SquareName(sq))
	}
	return b.String()
}

// HubMove writes m in the Hub protocol: "32-28" for a plain move and
// "from x to x captured x captured ..." for a capture (numeric squares;
// captured squares in increasing order, though readers must accept any).
func HubMove(m Move) string {
	var buf [64]byte
	return string(AppendHubMove(buf[:0], m))
}

// AppendHubMove appends HubMove(m) to b: a caller that only compares the
// text allocates nothing.
func AppendHubMove(b []byte, m Move) []byte {
	b = strconv.AppendInt(b, int64(m.From), 10)
	if !m.IsCapture() {
		b = append(b, '-')
		return strconv.AppendInt(b, int64(m.To), 10)
	}
	b = append(b, 'x')
	b = strconv.AppendInt(b, int64(m.To), 10)
	for sq := range m.Captured.All() {
		b = append(b, 'x')
		b = strconv.AppendInt(b, int64(sq), 10)
	}
	return b
}

// ParseHubMove reads a Hub move and matches it against the legal moves of p.
// The captured squares form a set: any order is accepted, duplicates are not.
// A capture written without them ("28x19") is accepted when exactly one
// legal capture goes from the first square to the second (ErrAmbiguous when
// several do).
func (p Position) ParseHubMove(text string) (Move, error) {
	m, _, err := p.ParseHubMoveLegal(text)
	return m, err
}

// ParseHubMoveLegal is ParseHubMove that also returns p's legal moves when
// it had to generate them (a capture, or a position whose plain moves the
// bitboard generator cannot answer alone; nil otherwise), so that the
// referee can take the move without a second generation
// (arbiter.Referee.SubmitChecked).
func (p Position) ParseHubMoveLegal(text string) (Move, []Move, error) {
	// Every move an engine plays passes here: parse into buffers on the
	// stack.
	var partBuf [16]string
	parts, capture, err := splitMoveTextInto(partBuf[:0], text)
	if err != nil {
		return Move{}, nil, fmt.Errorf("hub move: %w", err)
	}
	var sqBuf [16]Square
	sqs := sqBuf[:0]
	for _, s := range parts {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > p.v.geo.n {
			return Move{}, nil, fmt.Errorf("hub move %q: %w: bad square %q", text, ErrSyntax, s)
		}
		sqs = append(sqs, Square(n))
	}
	var captured Set
	for _, sq := range sqs[2:] {
		if captured.Has(sq) {
			return Move{}, nil, fmt.Errorf("hub move %q: %w: square %d captured twice", text, ErrSyntax, sq)
		}
		captured = captured.With(sq)
	}
	if !capture && len(sqs) > 2 {
		return Move{}, nil, fmt.Errorf("hub move %q: %w: plain move with more than two squares", text, ErrSyntax)
	}
	if capture && len(sqs) == 2 {
		// The protocol lists the captured squares, but a capture written
		// like PDN ("28x19") that only one legal move fits says everything.
		m, err := p.onlyCapture(sqs[0], sqs[1], text)
		return m, nil, err
	}
	m, legal, ok := p.findLegal(sqs[0], sqs[1], captured)
	if !ok {
		return Move{}, legal, fmt.Errorf("%w: %s", ErrIllegal, text)
	}
	return m, legal, nil
}

// onlyCapture is the one legal capture from from to to (text is for errors).
func (p Position) onlyCapture(from, to Square, text string) (Move, error) {
	var found Move
	n := 0
	for _, m := range p.LegalMoves() {
		if m.From == from && m.To == to && m.IsCapture() {
			found = m
			n++
		}
	}
	switch n {
	case 0:
		return Move{}, fmt.Errorf("%w: %s", ErrIllegal, text)
	case 1:
		return found, nil
	}
	return Move{}, fmt.Errorf("%w: %s: %d captures go from %d to %d; list the captured squares", ErrAmbiguous, text, n, from, to)
}

// DXPMove returns the DXP fields of m: from, to and the captured squares.
func DXPMove(m Move) (from, to int, captured []int) {
	for sq := range m.Captured.All() {
		captured = append(captured, int(sq))
	}
	return int(m.From), int(m.To), captured
}

// FindDXPMove matches DXP move fields against the legal moves of p.
func (p Position) FindDXPMove(from, to int, captured []int) (Move, error) {
	bad := func(n int) bool { return n < 1 || n > p.v.geo.n }
	if bad(from) || bad(to) {
		return Move{}, fmt.Errorf("dxp move %d-%d: %w: square off the board", from, to, ErrSyntax)
	}
	var set Set
	for _, c := range captured {
		if bad(c) || set.Has(Square(c)) {
			return Move{}, fmt.Errorf("dxp move %d-%d: %w: bad captured square %d", from, to, ErrSyntax, c)
		}
		set = set.With(Square(c))
	}
	m, ok := p.Find(Square(from), Square(to), set)
	if !ok {
		return Move{}, fmt.Errorf("%w: dxp move %d-%d capturing %v", ErrIllegal, from, to, captured)
	}
	return m, nil
}
