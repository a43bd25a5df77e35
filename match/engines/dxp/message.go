// Package dxp speaks the DamExchange protocol (DXP): fixed-width ASCII
// messages, each ended by a NUL byte on a TCP stream (port 27531 by
// convention). It provides the message codec (Parse, Message.Encode) and a
// match.Player that plays an engine over a socket, either connecting to an
// engine that listens or accepting an engine that connects; the arbiter is
// always the DXP Initiator (it sends GAMEREQ and chooses colours and start
// positions). DXP carries no clock: the referee keeps time.
//
// Message layouts (field widths in bytes, numbers zero-padded):
//
//	R GAMEREQ  version(2)="01" initiator-name(32) follower-colour(1: W|Z)
//	           thinking-time(3, minutes) moves(3, 000 = no limit)
//	           start(1: A = initial position | B) [colour-to-move(1) position(50)]
//	A GAMEACC  follower-name(32) code(1: 0 accept, 1 bad version, 2 refused, 3 no games at all)
//	M MOVE     time(4, seconds) from(2) to(2) count(2) captured(2 each, any order)
//	E GAMEEND  reason(1: 0 unknown, 1 I lose, 2 draw, 3 I win) stop(1: 0 next game welcome, 1 stop)
//	C CHAT     text(1..126)
//	B BACKREQ  move-number(3) colour-to-move(1)
//	K BACKACC  code(1: 0 accept, 1 not supported, 2 refused)
//
// The position has one character per square in standard order: e empty,
// w/z white/black man, W/Z white/black king. The published protocol is for
// 10x10 (50 squares); other boards use the same rule with their own square
// count (32 on 8x8).
//
// Imported by the engine players (match/engines, sparring, the runner) and
// cmd/arbiter; it imports the game (match), the referee and the rules, never
// the people's wing.
package dxp

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/draughts-arbiter/arbiter/rules"
)

// ErrSyntax marks a malformed message.
var ErrSyntax = errors.New("dxp: malformed message")

// Message types (the header byte).
const (
	GameReq byte = 'R'
	GameAcc byte = 'A'
	Move    byte = 'M'
	GameEnd byte = 'E'
	Chat    byte = 'C'
	BackReq byte = 'B'
	BackAcc byte = 'K'
)

// MaxMessage is the longest message the protocol allows (without the NUL).
const MaxMessage = 127

// Message is one DXP message; only the fields of its Type are used.
type Message struct {
	Type byte

	// GAMEREQ
	Version     int
	Name        string      // initiator (R) or follower (A) name, at most 32 bytes
	Follower    rules.Color // colour the follower plays
	Minutes     int         // thinking time per player for the game
	MaxMoves    int         // moves in the game, 0 = no limit
	StartCustom bool        // start from Position (B) instead of the initial position (A)
	ToMove      rules.Color // R with StartCustom, and B
	Position    string      // one character per square: e, w, z, W, Z

	// GAMEACC and BACKACC
	Code byte

	// MOVE
	Seconds  int
	From, To int
	Captured []int

	// GAMEEND
	Reason byte
	Stop   byte

	// CHAT
	Text string

	// BACKREQ
	MoveNumber int
}

// Parse reads one message (without its NUL terminator).
func Parse(s string) (Message, error) {
	var m Message
	if len(s) == 0 {
		return m, fmt.Errorf("%w: empty message", ErrSyntax)
	}
	if len(s) > MaxMessage {
		return m, fmt.Errorf("%w: %d bytes, at most %d", ErrSyntax, len(s), MaxMessage)
	}
	for i := 0; i < len(s); i++ {
		if s[i] == 0 || s[i] > 127 {
			return m, fmt.Errorf("%w: byte %#02x at %d is not ASCII 1-127", ErrSyntax, s[i], i)
		}
	}
	r := reader{s: s, i: 1}
	m.Type = s[0]
	switch m.Type {
	case GameReq:
		m.Version = r.int(2, "version")
		m.Name = strings.TrimRight(r.field(32, "initiator name"), " ")
		m.Follower = r.color("follower colour")
		m.Minutes = r.int(3, "thinking time")
		m.MaxMoves = r.int(3, "number of moves")
		switch start := r.field(1, "starting position"); start {
		case "A":
		case "B":
			m.StartCustom = true
			m.ToMove = r.color("colour to move")
			m.Position = r.rest()
			if m.Position == "" && r.err == nil {
				r.err = fmt.Errorf("%w: GAMEREQ with start B but no position", ErrSyntax)
			}
			for i := 0; i < len(m.Position) && r.err == nil; i++ {
				if !strings.ContainsRune("ewzWZ", rune(m.Position[i])) {
					r.err = fmt.Errorf("%w: position square %d is %q (want e, w, z, W or Z)", ErrSyntax, i+1, m.Position[i])
				}
			}
		default:
			if r.err == nil {
				r.err = fmt.Errorf("%w: starting position %q (want A or B)", ErrSyntax, start)
			}
		}
	case GameAcc:
		m.Name = strings.TrimRight(r.field(32, "follower name"), " ")
		m.Code = r.code("acceptance code", "0123")
	case Move:
		m.Seconds = r.int(4, "time")
		m.From = r.int(2, "from field")
		m.To = r.int(2, "to field")
		n := r.int(2, "number captured")
		if r.err == nil && len(s)-r.i != 2*n {
			r.err = fmt.Errorf("%w: MOVE says %d captured pieces but has %d bytes for them", ErrSyntax, n, len(s)-r.i)
		}
		for k := 0; k < n && r.err == nil; k++ {
			m.Captured = append(m.Captured, r.int(2, "captured piece"))
		}
	case GameEnd:
		m.Reason = r.code("reason", "0123")
		m.Stop = r.code("stop code", "01")
	case Chat:
		m.Text = r.rest()
	case BackReq:
		m.MoveNumber = r.int(3, "move number")
		m.ToMove = r.color("colour to move")
	case BackAcc:
		m.Code = r.code("acceptance code", "012")
	default:
		return m, fmt.Errorf("%w: unknown message type %q", ErrSyntax, s[0])
	}
	if r.err == nil && r.i != len(s) {
		r.err = fmt.Errorf("%w: %d extra bytes after a %c message", ErrSyntax, len(s)-r.i, m.Type)
	}
	if r.err != nil {
		return Message{}, fmt.Errorf("%w (message %q)", r.err, s)
	}
	return m, nil
}

type reader struct {
	s   string
	i   int
	err error
}

func (r *reader) field(n int, what string) string {
	if r.err != nil {
		return ""
	}
	if r.i+n > len(r.s) {
		r.err = fmt.Errorf("%w: message ends inside the %s", ErrSyntax, what)
		return ""
	}
	f := r.s[r.i : r.i+n]
	r.i += n
	return f
}

func (r *reader) rest() string {
	f := r.s[r.i:]
	r.i = len(r.s)
	return f
}

func (r *reader) int(n int, what string) int {
	f := r.field(n, what)
	if r.err != nil {
		return 0
	}
	v := 0
	for i := 0; i < len(f); i++ {
		if f[i] < '0' || f[i] > '9' {
			r.err = fmt.Errorf("%w: %s %q is not %d digits", ErrSyntax, what, f, n)
			return 0
		}
		v = v*10 + int(f[i]-'0')
	}
	return v
}

func (r *reader) color(what string) rules.Color {
	switch f := r.field(1, what); f {
	case "W":
		return rules.White
	case "Z":
		return rules.Black
	default:
		if r.err == nil {
			r.err = fmt.Errorf("%w: %s %q (want W or Z)", ErrSyntax, what, f)
		}
	}
	return rules.White
}

func (r *reader) code(what, allowed string) byte {
	f := r.field(1, what)
	if r.err != nil {
		return 0
	}
	if !strings.Contains(allowed, f) {
		r.err = fmt.Errorf("%w: %s %q (want one of %s)", ErrSyntax, what, f, allowed)
		return 0
	}
	return f[0]
}

// Encode writes the message in its fixed-width form (without the NUL). It
// fails on a field that does not fit its width.
func (m Message) Encode() (string, error) {
	var b strings.Builder
	var err error
	num := func(v, n int, what string) {
		if err != nil {
			return
		}
		s := strconv.Itoa(v)
		if v < 0 || len(s) > n {
			err = fmt.Errorf("dxp: %s %d does not fit %d digits", what, v, n)
			return
		}
		b.WriteString(strings.Repeat("0", n-len(s)))
		b.WriteString(s)
	}
	name := func(s string) {
		if err != nil {
			return
		}
		if len(s) > 32 {
			s = s[:32]
		}
		if !printable(s) {
			err = fmt.Errorf("dxp: name %q is not printable ASCII", s)
			return
		}
		b.WriteString(s)
		b.WriteString(strings.Repeat(" ", 32-len(s)))
	}
	color := func(c rules.Color) {
		if c == rules.White {
			b.WriteByte('W')
		} else {
			b.WriteByte('Z')
		}
	}
	b.WriteByte(m.Type)
	switch m.Type {
	case GameReq:
		num(m.Version, 2, "version")
		name(m.Name)
		color(m.Follower)
		num(m.Minutes, 3, "thinking time")
		num(m.MaxMoves, 3, "number of moves")
		if m.StartCustom {
			b.WriteByte('B')
			color(m.ToMove)
			b.WriteString(m.Position)
		} else {
			b.WriteByte('A')
		}
	case GameAcc:
		name(m.Name)
		b.WriteByte(m.Code)
	case Move:
		num(m.Seconds, 4, "time")
		num(m.From, 2, "from field")
		num(m.To, 2, "to field")
		num(len(m.Captured), 2, "number captured")
		for _, c := range m.Captured {
			num(c, 2, "captured piece")
		}
	case GameEnd:
		b.WriteByte(m.Reason)
		b.WriteByte(m.Stop)
	case Chat:
		if !printable(m.Text) {
			err = fmt.Errorf("dxp: chat text %q is not printable ASCII", m.Text)
		}
		b.WriteString(m.Text)
	case BackReq:
		num(m.MoveNumber, 3, "move number")
		color(m.ToMove)
	case BackAcc:
		b.WriteByte(m.Code)
	default:
		return "", fmt.Errorf("dxp: unknown message type %q", m.Type)
	}
	if err != nil {
		return "", err
	}
	s := b.String()
	if len(s) > MaxMessage {
		return "", fmt.Errorf("dxp: message of %d bytes is longer than %d", len(s), MaxMessage)
	}
	if _, perr := Parse(s); perr != nil {
		return "", fmt.Errorf("dxp: encoding would not parse back: %w", perr)
	}
	return s, nil
}

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// MaxSkip bounds the bytes ReadMessage skips after an overlong message
// while it looks for the NUL that ends it: a stream without NULs is not
// DXP, and a reader must not spend itself on it for ever.
const MaxSkip = 64 << 10

// ErrNoNUL is returned by ReadMessage after MaxSkip bytes without a NUL.
var ErrNoNUL = fmt.Errorf("dxp: no NUL in %d bytes (a message has at most %d): not a DXP stream", MaxSkip, MaxMessage)

// ReadMessage reads one NUL-terminated message. A message longer than
// MaxMessage is returned cut, with an error wrapping ErrSyntax; the rest up
// to the next NUL is skipped, or ErrNoNUL is returned when that NUL does not
// come within MaxSkip bytes. Memory stays within MaxMessage whatever the
// peer sends.
func ReadMessage(br *bufio.Reader) (string, error) {
	var buf []byte
	n := 0
	for {
		c, err := br.ReadByte()
		if err != nil {
			return "", err
		}
		if c == 0 {
			break
		}
		n++
		if n <= MaxMessage+1 {
			buf = append(buf, c)
		} else if n > MaxSkip {
			return "", ErrNoNUL
		}
	}
	if len(buf) > MaxMessage {
		return string(buf[:MaxMessage]), fmt.Errorf("%w: longer than %d bytes", ErrSyntax, MaxMessage)
	}
	return string(buf), nil
}

// PositionString writes p's squares in DXP form (without the side to move).
func PositionString(p rules.Position) string {
	return string(p.AppendSquares(nil, dxpLetters))
}

// dxpLetters are DXP's square letters (z, "zwart", is black).
var dxpLetters = rules.SquareLetters{Empty: 'e', WhiteMan: 'w', BlackMan: 'z', WhiteKing: 'W', BlackKing: 'Z'}

// ParsePosition reads a DXP position (squares only) with toMove to move.
func ParsePosition(v *rules.Variant, toMove rules.Color, s string) (rules.Position, error) {
	if len(s) != v.Squares() {
		return rules.Position{}, fmt.Errorf("%w: position of %d squares, %s has %d", ErrSyntax, len(s), v.Name(), v.Squares())
	}
	w, bl, k, bad := rules.ReadSquares(s, dxpLetters)
	if bad > 0 {
		return rules.Position{}, fmt.Errorf("%w: square %d is %q", ErrSyntax, bad, s[bad-1])
	}
	// the board of a start with state beyond it (Parachute) means that start
	return rules.Setup(v, toMove, w, bl, k).WithStartState(), nil
}

// MoveMessage builds the MOVE message of m.
func MoveMessage(m rules.Move, seconds int) Message {
	from, to, caps := rules.DXPMove(m)
	return Message{Type: Move, Seconds: min(max(seconds, 0), 9999), From: from, To: to, Captured: caps}
}
