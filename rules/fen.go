package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseFEN reads a PDN FEN such as "W:W31-50:B1-20" or "B:W18,K24:BK3,12."
// for variant v. Squares may be numbers, ranges ("1-20"), or algebraic names;
// a K prefix marks a king; a trailing dot and spaces are accepted; the side
// lists may come in either order. It is strict about what a position must
// be: the side to move is W or B, and no man stands on its own king row
// (ParseFENLenient reads those as records write them).
func ParseFEN(v *Variant, fen string) (Position, error) {
	s, err := ParseFENLenient(v, fen)
	if err != nil {
		return Position{}, err
	}
	fail := func(format string, a ...any) (Position, error) {
		return Position{}, fmt.Errorf("FEN %q: %w: %s", fen, ErrSyntax, fmt.Sprintf(format, a...))
	}
	if s.UnknownTurn {
		return fail("side to move %q is not W or B", "?")
	}
	if len(s.Crowned) > 0 {
		c, sq := s.Crowned[0].Color, s.Crowned[0].Square
		return fail("%s man on %s stands on its king row, where it would have been crowned (write K%s)", c, v.SquareName(sq), v.SquareName(sq))
	}
	return s.Position, nil
}

// ParsedFEN is a FEN as a game record gives it, with what ParseFENLenient
// had to assume to make a position of it.
type ParsedFEN struct {
	// Position is the position; when UnknownTurn, White is to move in it.
	Position Position
	// UnknownTurn: the FEN gives "?" as the side to move (PDN 3.0's FEN
	// allows it, for a position whose side to move is not known). The
	// reader of the record decides it, from the moves that follow.
	UnknownTurn bool
	// Crowned lists the men written on their own king row, which Position
	// holds as kings: problem collections write a king that way, and a man
	// there could never have stayed one (it is crowned on arrival).
	Crowned []Piece
}

// Piece is a piece of a colour on a square.
type Piece struct {
	Color  Color
	Square Square
}

// ParseFENLenient reads a FEN as ParseFEN does, leniently where records are:
// "?" as the side to move is read (ParsedFEN.UnknownTurn) and a man on its own
// king row is read as a king (ParsedFEN.Crowned). Everything else that
// ParseFEN refuses, ParseFENLenient refuses too.
func ParseFENLenient(v *Variant, fen string) (ParsedFEN, error) {
	if err := v.Ready(); err != nil {
		return ParsedFEN{}, err
	}
	orig := fen
	fen = strings.TrimSpace(fen)
	fen = strings.TrimSuffix(fen, ".")
	fen = strings.Trim(fen, "\"")
	fail := func(format string, a ...any) (ParsedFEN, error) {
		return ParsedFEN{}, fmt.Errorf("FEN %q: %w: %s", orig, ErrSyntax, fmt.Sprintf(format, a...))
	}
	fields := strings.Split(fen, ":")
	if len(fields) < 1 || len(fields) > 3+4 {
		return fail("want side:W...:B...")
	}
	var p Position
	var setup ParsedFEN
	p.v = v
	switch strings.ToUpper(strings.TrimSpace(fields[0])) {
	case "W":
		p.turn = White
	case "B":
		p.turn = Black
	case "?":
		p.turn, setup.UnknownTurn = White, true
	default:
		return fail("side to move %q is not W, B or ?", fields[0])
	}
	seen := [2]bool{}
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		var c Color
		switch f[0] | 0x20 {
		case 'w':
			c = White
		case 'b':
			c = Black
		case 'h', 'f':
			// lidraughts' half-move clock and move number (H0, F1)
			if allDigits(f[1:]) {
				continue
			}
			return fail("field %q is not a piece list, nor H or F and a number", f)
		case 'k', 'r':
			if err := p.readState(f); err != nil {
				return ParsedFEN{}, fmt.Errorf("FEN %q: %w", orig, err)
			}
			continue
		default:
			return fail("piece list %q does not start with W or B", f)
		}
		if seen[c] {
			return fail("two piece lists for %s", c)
		}
		seen[c] = true
		for _, item := range strings.Split(f[1:], ",") {
			item = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(item), "."))
			if item == "" {
				continue
			}
			king, para := false, false
			if item[0] == 'K' || item[0] == 'k' {
				king, item = true, strings.TrimSpace(item[1:])
			} else if (item[0] == 'P' || item[0] == 'p') && v.p.Parachutists {
				para, item = true, strings.TrimSpace(item[1:])
			}
			if item == "" {
				return fail("K or P without a square in %q", f)
			}
			lo, hi := item, item
			if i := strings.IndexByte(item[1:], '-'); i >= 0 {
				lo, hi = item[:i+1], item[i+2:]
			}
			a, err := v.geo.parseSquare(lo)
			if err != nil {
				return ParsedFEN{}, fmt.Errorf("FEN %q: %w", orig, err) // err wraps ErrSyntax already
			}
			b, err := v.geo.parseSquare(hi)
			if err != nil {
				return ParsedFEN{}, fmt.Errorf("FEN %q: %w", orig, err)
			}
			if b < a {
				return fail("range %q runs backwards", item)
			}
			for sq := a; sq <= b; sq++ {
				if p.white.Has(sq) || p.black.Has(sq) {
					return fail("square %s is given twice", v.SquareName(sq))
				}
				if c == White {
					p.white = p.white.With(sq)
				} else {
					p.black = p.black.With(sq)
				}
				if king {
					p.kings = p.kings.With(sq)
				}
				if para {
					p.para = p.para.With(sq)
				}
			}
		}
	}
	// A man on its own king row would have been crowned: the generators
	// would leave it a man that can never move forward (or, where men
	// capture backwards, a man for ever), a position no game can reach.
	for c := White; c <= Black; c++ {
		for sq := range p.Pieces(c).Minus(p.kings).Minus(p.para).All() {
			if v.promotes(c, sq) {
				p.kings = p.kings.With(sq)
				setup.Crowned = append(setup.Crowned, Piece{c, sq})
			}
		}
	}
	setup.Position = p
	return setup, nil
}

// FEN writes the position as a PDN FEN with numeric squares (or algebraic
// ones for variants written algebraically) and no ranges, e.g. "W:W31,32:BK1".
func (p Position) FEN() string { return p.writeFEN(p.v.SquareName) }

// NumericFEN writes the FEN with numeric squares whatever the variant's notation.
func (p Position) NumericFEN() string {
	return p.writeFEN(func(sq Square) string { return strconv.Itoa(int(sq)) })
}

func (p Position) writeFEN(name func(Square) string) string {
	var b strings.Builder
	b.WriteByte(p.turn.Letter())
	for _, c := range []Color{White, Black} {
		b.WriteByte(':')
		b.WriteByte(c.Letter())
		first := true
		for sq := range p.Pieces(c).All() {
			if !first {
				b.WriteByte(',')
			}
			first = false
			if p.kings.Has(sq) {
				b.WriteByte('K')
			}
			if p.para.Has(sq) {
				b.WriteByte('P')
			}
			b.WriteString(name(sq))
		}
	}
	for c, st := range p.st {
		switch {
		case st.n > 0:
			fmt.Fprintf(&b, ":K%c%s/%d", Color(c).Letter(), name(st.sq), st.n)
		case st.from != 0:
			fmt.Fprintf(&b, ":R%c%s/%s", Color(c).Letter(), name(st.sq), name(st.from))
		}
	}
	return b.String()
}

// readState reads a FEN field of the state beyond the board (RULES.md
// section 8): "KW46/2", white's king on 46 has made 2 plain moves in a row
// (Frisian); "RWc3/b2", white's piece on c3 came from b2 on white's last
// move and may not go back there (Alquerque).
func (p *Position) readState(f string) error {
	kind := f[0] | 0x20
	if len(f) < 2 {
		return fmt.Errorf("%w: state field %q has no side", ErrSyntax, f)
	}
	var c Color
	switch f[1] | 0x20 {
	case 'w':
		c = White
	case 'b':
		c = Black
	default:
		return fmt.Errorf("%w: state field %q: side %q is not W or B", ErrSyntax, f, f[1:2])
	}
	a, b, ok := strings.Cut(f[2:], "/")
	if !ok {
		return fmt.Errorf("%w: state field %q: want square/count (K) or square/square (R)", ErrSyntax, f)
	}
	sq, err := p.v.geo.parseSquare(a)
	if err != nil {
		return fmt.Errorf("state field %q: %w", f, err)
	}
	if !p.Pieces(c).Has(sq) {
		return fmt.Errorf("%w: state field %q: no %s piece on %s (list the pieces first)", ErrSyntax, f, c, a)
	}
	switch {
	case kind == 'k' && p.v.p.KingMoveLimit > 0:
		n, err := strconv.Atoi(b)
		if err != nil || !allDigits(b) || n < 1 || n > int(p.v.p.KingMoveLimit) {
			return fmt.Errorf("%w: state field %q: count %q is not 1 to %d", ErrSyntax, f, b, p.v.p.KingMoveLimit)
		}
		if !p.kings.Has(sq) {
			return fmt.Errorf("%w: state field %q: %s holds no king", ErrSyntax, f, a)
		}
		p.st[c] = sideState{sq: sq, n: uint8(n)}
	case kind == 'r' && p.v.p.NoReturn:
		from, err := p.v.geo.parseSquare(b)
		if err != nil {
			return fmt.Errorf("state field %q: %w", f, err)
		}
		p.st[c] = sideState{sq: sq, from: from}
	default:
		return fmt.Errorf("%w: state field %q: %s has no such state", ErrSyntax, f, p.v.Name())
	}
	return nil
}

// String returns the FEN.
func (p Position) String() string { return p.FEN() }
