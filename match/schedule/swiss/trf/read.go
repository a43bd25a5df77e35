package trf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/rules/tally"
)

// MaxSize is the largest file Read accepts (a 9999-player event of 30
// rounds is about 4 MB).
const MaxSize = 16 << 20

// Error is a problem in a TRF file, at a line and column (1-based; column 0
// when the whole line is wrong).
type Error struct {
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("trf: line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	if e.Line > 0 {
		return fmt.Sprintf("trf: line %d: %s", e.Line, e.Msg)
	}
	return "trf: " + e.Msg
}

// line is one line of the file as runes, with its number.
type line struct {
	n     int
	runes []rune
}

// field is the text of columns from..to (1-based, inclusive), spaces
// trimmed; "" where the line is shorter.
func (l line) field(from, to int) string {
	if from > len(l.runes) {
		return ""
	}
	to = min(to, len(l.runes))
	return strings.TrimSpace(string(l.runes[from-1 : to]))
}

// raw is the text of columns from..to untrimmed, padded with spaces.
func (l line) raw(from, to int) []rune {
	out := make([]rune, to-from+1)
	for i := range out {
		c := from + i
		if c <= len(l.runes) {
			out[i] = l.runes[c-1]
		} else {
			out[i] = ' '
		}
	}
	return out
}

func (l line) errorf(col int, format string, a ...any) error {
	return &Error{Line: l.n, Column: col, Msg: fmt.Sprintf(format, a...)}
}

// splitLines splits on CR, LF or CR LF: TRF16 ends lines with CR, and
// bbpPairings writes CR alone.
func splitLines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexAny(data, "\r\n")
		if i < 0 {
			out = append(out, data)
			break
		}
		out = append(out, data[:i])
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return out
}

// Read reads a TRF16 file. Errors are *Error, naming the line and column.
func Read(r io.Reader) (*Event, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("trf: reading: %w", err)
	}
	if len(data) > MaxSize {
		return nil, &Error{Msg: fmt.Sprintf("file larger than %d bytes", MaxSize)}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	ev := &Event{}
	seen := map[string]int{}
	playerLine := map[int]line{}
	accel := map[int]line{}
	var accel250, byes240 []line
	rounds := 0 // line of the XXR or 142 read
	for i, b := range splitLines(data) {
		l := line{n: i + 1}
		if !utf8.Valid(b) {
			return nil, l.errorf(0, "not valid UTF-8")
		}
		// A byte-order mark may start the file, or a file pasted into it.
		s := strings.TrimRight(strings.TrimPrefix(string(b), "\ufeff"), " \t")
		if strings.TrimSpace(s) == "" {
			continue
		}
		l.runes = []rune(s)
		code := string(l.runes[:min(3, len(l.runes))])
		if len(l.runes) > 3 && l.runes[3] != ' ' {
			// "001" followed by text is not a 001 line; keep it as is.
			code = ""
		}
		switch code {
		case "012", "022", "032", "042", "052", "062", "072", "092", "102", "122", "132", "XXR", "XXC", "XXS", "142", "152", "162", "192":
			if prev, ok := seen[code]; ok {
				return nil, l.errorf(1, "a second %s line (the first is line %d)", code, prev)
			}
			seen[code] = l.n
		}
		text := l.field(5, len(l.runes))
		switch code {
		case "001":
			p, err := readPlayer(l)
			if err != nil {
				return nil, err
			}
			if prev, ok := playerLine[p.Number]; ok {
				return nil, l.errorf(5, "start rank %d repeated (also line %d)", p.Number, prev.n)
			}
			playerLine[p.Number] = l
			p.Line = l.n
			ev.Players = append(ev.Players, p)
		case "012":
			ev.Name = text
		case "022":
			ev.City = text
		case "032":
			ev.Federation = text
		case "042":
			ev.StartDate = text
		case "052":
			ev.EndDate = text
		case "062", "072":
			n, err := readInt(text)
			if err != nil || n < 0 {
				return nil, l.errorf(5, "number of players %q is not a number", text)
			}
			if code == "062" {
				ev.NumPlayers = n
			} else {
				ev.RatedPlayers = n
			}
		case "092":
			ev.Type = text
		case "102":
			ev.Arbiter = text
		case "112":
			ev.Deputies = append(ev.Deputies, text)
		case "122":
			ev.TimeControl = text
		case "132":
			ev.RoundDates = readRoundDates(l)
		case "XXR", "142":
			n, err := readInt(text)
			if err != nil || n < 1 || n > maxRounds {
				return nil, l.errorf(5, "number of rounds %q is not a number from 1 to %d", text, maxRounds)
			}
			if rounds > 0 && n != ev.Rounds {
				return nil, l.errorf(5, "%d rounds, but line %d says %d", n, rounds, ev.Rounds)
			}
			ev.Rounds, rounds = n, l.n
		case "152":
			switch text {
			case "W", "w":
				ev.FirstColor = tally.White
			case "B", "b":
				ev.FirstColor = tally.Black
			default:
				return nil, l.errorf(5, "initial colour %q is not W or B", text)
			}
		case "162":
			ps, err := read162(l)
			if err != nil {
				return nil, err
			}
			ev.PointSystem = ps
		case "192":
			ev.System = text
		case "240":
			byes240 = append(byes240, l)
		case "250":
			accel250 = append(accel250, l)
		case "260", "XXP":
			f, err := readForbidden(l, code == "260")
			if err != nil {
				return nil, err
			}
			ev.Forbidden = append(ev.Forbidden, f)
		case "XXC":
			for _, tok := range strings.Fields(text) {
				switch strings.ToLower(tok) {
				case "white1":
					ev.FirstColor = tally.White
				case "black1":
					ev.FirstColor = tally.Black
				}
			}
		case "XXS":
			ps, err := readPointSystem(l)
			if err != nil {
				return nil, err
			}
			ev.PointSystem = ps
		case "XXA":
			n, err := readInt(l.field(5, 8))
			if err != nil || n < 1 {
				return nil, l.errorf(5, "start rank %q is not a number", l.field(5, 8))
			}
			if prev, ok := accel[n]; ok {
				return nil, l.errorf(5, "a second XXA line for player %d (the first is line %d)", n, prev.n)
			}
			accel[n] = l
		default:
			ev.Extra = append(ev.Extra, s)
		}
	}
	index := map[int]int{}
	for i, p := range ev.Players {
		index[p.Number] = i
	}
	for n, l := range accel {
		i, ok := index[n]
		if !ok {
			return nil, l.errorf(5, "XXA for player %d, who has no 001 line", n)
		}
		a, err := readAcceleration(l)
		if err != nil {
			return nil, err
		}
		ev.Players[i].Acceleration = a
	}
	for _, l := range accel250 {
		if err := apply250(ev, index, l); err != nil {
			return nil, err
		}
	}
	for _, l := range byes240 {
		if err := apply240(ev, index, l); err != nil {
			return nil, err
		}
	}
	for _, f := range ev.Forbidden {
		for _, n := range f.Players {
			if _, ok := index[n]; !ok {
				return nil, &Error{Msg: fmt.Sprintf("prohibited pairing names player %d, who has no 001 line", n)}
			}
		}
	}
	for code := range seen {
		switch code {
		case "142", "152", "162", "192":
			ev.Version = TRF26
		}
	}
	if len(accel250) > 0 {
		ev.Version = TRF26
	}
	for i := range ev.Players {
		// Trailing zeros say nothing: XXA "1.0 0.0" is 250's round 1 only.
		a := ev.Players[i].Acceleration
		for len(a) > 0 && a[len(a)-1] == 0 {
			a = a[:len(a)-1]
		}
		if len(a) == 0 {
			a = nil
		}
		ev.Players[i].Acceleration = a
	}
	for _, f := range ev.Forbidden {
		if f.First > 0 {
			ev.Version = TRF26
		}
	}
	ev.HeaderLines = seen
	if err := check(ev, index, func(number, round int, msg string) error {
		col := 0
		if round > 0 {
			col = roundColumn(round)
		}
		return playerLine[number].errorf(col, "%s", msg)
	}); err != nil {
		return nil, err
	}
	return ev, nil
}

// maxRounds bounds the rounds of a file (XXR, 001 and XXA lines).
const maxRounds = 999

// roundColumn is the column where round r (1-based) starts on a 001 line.
func roundColumn(r int) int { return 92 + 10*(r-1) }

func readInt(s string) (int, error) {
	if s == "" || len(s) > 9 {
		return 0, errors.New("not a number")
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, errors.New("not a number")
		}
	}
	return strconv.Atoi(s)
}

// readTenths reads "4.5", "4" or "10.0" (or with a comma) as tenths.
func readTenths(s string) (int, error) {
	whole, frac, dot := strings.Cut(strings.ReplaceAll(s, ",", "."), ".")
	if whole == "" {
		whole = "0"
	}
	w, err := readInt(whole)
	if err != nil || (dot && len(frac) != 1) {
		return 0, errors.New("not a score")
	}
	f := 0
	if dot {
		if f, err = readInt(frac); err != nil {
			return 0, errors.New("not a score")
		}
	}
	return w*10 + f, nil
}

func readPlayer(l line) (Player, error) {
	var p Player
	n, err := readInt(l.field(5, 8))
	if err != nil || n < 1 {
		return p, l.errorf(5, "start rank %q is not a number from 1 to 9999", l.field(5, 8))
	}
	p.Number = n
	p.Sex = l.field(10, 10)
	p.Title = l.field(11, 13)
	p.Name = l.field(15, 47)
	if s := l.field(49, 52); s != "" {
		if p.Rating, err = readInt(s); err != nil {
			return p, l.errorf(49, "rating %q is not a number", s)
		}
	}
	p.Federation = l.field(54, 56)
	p.FIDEID = l.field(58, 68)
	p.Birth = l.field(70, 79)
	if s := l.field(81, 84); s != "" {
		if p.Points, err = readTenths(s); err != nil {
			return p, l.errorf(81, "points %q are not a score such as 4.5", s)
		}
	}
	if s := l.field(86, 89); s != "" {
		if p.Rank, err = readInt(s); err != nil {
			return p, l.errorf(86, "rank %q is not a number", s)
		}
	}
	var hist []tally.Entry
	blank := 0 // empty rounds not yet known to be followed by a filled one
	for r := 1; roundColumn(r) <= len(l.runes); r++ {
		if r > maxRounds {
			return p, l.errorf(roundColumn(r), "more than %d rounds", maxRounds)
		}
		col := roundColumn(r)
		e, empty, err := readEntry(l, col, p.Number)
		if err != nil {
			return p, err
		}
		if empty {
			blank++
			continue
		}
		for ; blank > 0; blank-- {
			hist = append(hist, tally.Entry{Result: tally.ZeroBye})
		}
		hist = append(hist, e)
	}
	p.History = hist
	return p, nil
}

// readEntry reads the round starting at col: opponent (4 columns), colour
// (col+5) and result (col+7).
func readEntry(l line, col, self int) (e tally.Entry, empty bool, err error) {
	raw := l.raw(col, col+7)
	opp := strings.TrimSpace(string(raw[0:4]))
	color, result := raw[5], raw[7]
	if opp == "" && color == ' ' && result == ' ' {
		return e, true, nil
	}
	switch {
	case opp == "" || opp == "0000":
	default:
		n, err := readInt(opp)
		if err != nil {
			return e, false, l.errorf(col, "opponent %q is not a start rank", opp)
		}
		if n == self {
			return e, false, l.errorf(col, "player %d is paired with himself", self)
		}
		e.Opponent = n
	}
	switch color {
	case 'w', 'W':
		e.Color = tally.White
	case 'b', 'B':
		e.Color = tally.Black
	case '-', ' ':
	default:
		return e, false, l.errorf(col+5, "colour %q is not w, b or -", color)
	}
	if result >= 'a' && result <= 'z' {
		result -= 'a' - 'A' // TRF16: letter codes are case-insensitive
	}
	if result == ' ' && e.Opponent == 0 {
		result = rune(tally.ZeroBye) // TRF16: blank is Z
	}
	e.Result = tally.Result(result)
	if msg := entryProblem(e); msg != "" {
		return e, false, l.errorf(col+7, "%s", msg)
	}
	return e, false, nil
}

// entryProblem says what is wrong with one round on its own, "" if nothing.
func entryProblem(e tally.Entry) string {
	switch e.Result {
	case tally.Win, tally.Draw, tally.Loss, tally.UnratedWin, tally.UnratedDraw, tally.UnratedLoss:
		if e.Opponent == 0 {
			return fmt.Sprintf("result %q is a game but there is no opponent", e.Result)
		}
		if e.Color == tally.NoColor {
			return fmt.Sprintf("result %q is a game but there is no colour", e.Result)
		}
	case tally.ForfeitWin, tally.ForfeitLoss:
		if e.Opponent == 0 && e.Color != tally.NoColor {
			return "a forfeit without an opponent has a colour"
		}
	case tally.PairingBye, tally.FullBye, tally.HalfBye, tally.ZeroBye:
		if e.Opponent != 0 {
			return fmt.Sprintf("bye %q has an opponent", e.Result)
		}
		if e.Color != tally.NoColor {
			return fmt.Sprintf("bye %q has a colour", e.Result)
		}
	case tally.Result(' '):
		return "a game without a result"
	default:
		return fmt.Sprintf("result %q is not a TRF16 result code (1 = 0 W D L + - U F H Z)", e.Result)
	}
	return ""
}

// complement is the result the opponent must have.
func complement(r tally.Result) []tally.Result {
	switch r {
	case tally.Win:
		return []tally.Result{tally.Loss}
	case tally.Loss:
		return []tally.Result{tally.Win}
	case tally.Draw:
		return []tally.Result{tally.Draw}
	case tally.UnratedWin:
		return []tally.Result{tally.UnratedLoss}
	case tally.UnratedLoss:
		return []tally.Result{tally.UnratedWin}
	case tally.UnratedDraw:
		return []tally.Result{tally.UnratedDraw}
	case tally.ForfeitWin:
		return []tally.Result{tally.ForfeitLoss}
	case tally.ForfeitLoss:
		return []tally.Result{tally.ForfeitWin, tally.ForfeitLoss} // double forfeit
	}
	return nil
}

// check verifies what one line alone cannot: each round's opponent exists and
// has the same game from the other side (opposite colours, the complementary
// result). Read and Write share it; fail builds the error for a player
// (by start rank) and round (1-based, 0 for the whole player).
func check(ev *Event, index map[int]int, fail func(number, round int, msg string) error) error {
	for _, p := range ev.Players {
		for r, e := range p.History {
			if e.Opponent == 0 {
				continue
			}
			j, ok := index[e.Opponent]
			if !ok {
				return fail(p.Number, r+1, fmt.Sprintf("opponent %d has no 001 line", e.Opponent))
			}
			q := ev.Players[j]
			if r >= len(q.History) || q.History[r].Opponent != p.Number {
				return fail(p.Number, r+1, fmt.Sprintf("round %d: player %d has opponent %d, but player %d does not have opponent %d", r+1, p.Number, e.Opponent, e.Opponent, p.Number))
			}
			o := q.History[r]
			if e.Color != tally.NoColor && e.Color == o.Color {
				return fail(p.Number, r+1, fmt.Sprintf("round %d: players %d and %d both have %s", r+1, p.Number, e.Opponent, colorName(e.Color)))
			}
			okResult := false
			for _, c := range complement(e.Result) {
				okResult = okResult || c == o.Result
			}
			if !okResult {
				return fail(p.Number, r+1, fmt.Sprintf("round %d: player %d has %q against %d, who has %q", r+1, p.Number, e.Result, e.Opponent, o.Result))
			}
		}
	}
	return nil
}

func colorName(c tally.Color) string {
	if c == tally.White {
		return "white"
	}
	return "black"
}

func readRoundDates(l line) []string {
	var out []string
	for r := 1; roundColumn(r) <= len(l.runes); r++ {
		out = append(out, l.field(roundColumn(r), roundColumn(r)+7))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func readAcceleration(l line) ([]int, error) {
	var out []int
	for c, r := 10, 1; c <= len(l.runes); c, r = c+5, r+1 {
		if r > maxRounds {
			return nil, l.errorf(c, "more than %d rounds", maxRounds)
		}
		s := l.field(c, c+3)
		v := 0
		if s != "" {
			var err error
			if v, err = readTenths(s); err != nil {
				return nil, l.errorf(c, "acceleration %q is not a score such as 1.0", s)
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// xxsCodes are JaVaFo's XXS codes and the fields they set.
var xxsCodes = map[string][]func(*PointSystem) *int{
	"W":   {func(p *PointSystem) *int { return &p.Win }},
	"WW":  {func(p *PointSystem) *int { return &p.Win }},
	"BW":  {func(p *PointSystem) *int { return &p.Win }},
	"D":   {func(p *PointSystem) *int { return &p.Draw }},
	"WD":  {func(p *PointSystem) *int { return &p.Draw }},
	"BD":  {func(p *PointSystem) *int { return &p.Draw }},
	"L":   {func(p *PointSystem) *int { return &p.Loss }},
	"WL":  {func(p *PointSystem) *int { return &p.Loss }},
	"BL":  {func(p *PointSystem) *int { return &p.Loss }},
	"FW":  {func(p *PointSystem) *int { return &p.ForfeitWin }},
	"FL":  {func(p *PointSystem) *int { return &p.ForfeitLoss }},
	"PAB": {func(p *PointSystem) *int { return &p.PairingBye }},
	"FPB": {func(p *PointSystem) *int { return &p.FullBye }},
	"HPB": {func(p *PointSystem) *int { return &p.HalfBye }},
	"ZPB": {func(p *PointSystem) *int { return &p.ZeroBye }},
}

// readPointSystem reads "XXS W=1.0 D=0.5 ...": JaVaFo's codes (W D L, or
// by colour WW BW WD BD WL BL; FW FL forfeits; PAB FPB HPB ZPB byes). Codes
// the line does not give keep FIDE's values. Colour-dependent values that
// differ (WW=1 BW=1.5) are an error: the pairing here has no such scoring.
func readPointSystem(l line) (*PointSystem, error) {
	ps := FIDEPoints
	set := map[*int]string{}
	for _, t := range tokens(l, 5) {
		tok, col := t.text, t.col
		k, v, ok := strings.Cut(tok, "=")
		setters, known := xxsCodes[strings.ToUpper(k)]
		if !ok || !known {
			return nil, l.errorf(col, "%q is not CODE=points with a JaVaFo code (W D L WW BW WD BD WL BL FW FL PAB FPB HPB ZPB)", tok)
		}
		n, err := readTenths(v)
		if err != nil || n > 9999 {
			return nil, l.errorf(col, "points %q in %q are not a score from 0 to 999.9", v, tok)
		}
		for _, f := range setters {
			ptr := f(&ps)
			if prev, dup := set[ptr]; dup && *ptr != n {
				return nil, l.errorf(col, "%s gives %s, but %s gave %s: colour-dependent points are not supported", tok, formatTenths(n), prev, formatTenths(*ptr))
			}
			*ptr = n
			set[ptr] = tok
		}
	}
	return &ps, nil
}

type token struct {
	text string
	col  int
}

// tokens splits the line from column from on spaces and tabs, keeping each
// token's column.
func tokens(l line, from int) []token {
	var out []token
	start := -1
	for c := from; c <= len(l.runes)+1; c++ {
		space := c > len(l.runes) || l.runes[c-1] == ' ' || l.runes[c-1] == '\t'
		switch {
		case !space && start < 0:
			start = c
		case space && start >= 0:
			out = append(out, token{string(l.runes[start-1 : c-1]), start})
			start = -1
		}
	}
	return out
}

// read162 reads TRF-2026's point system: from column 6, every 9 columns, a
// result code and its points in the next 4 columns. W is a win over the
// board or by forfeit and a full-point bye; D a draw and a half-point
// bye; L a loss; A an absence (zero-point bye, forfeit loss); P the
// pairing-allocated bye (W's points when not given). X (an unknown
// result, as a draw) is not supported: this program has no such result.
func read162(l line) (*PointSystem, error) {
	ps := FIDEPoints
	pab := false
	for c := 6; c <= len(l.runes); c += 9 {
		code := l.field(c, c)
		v, err := readTenths(l.field(c+1, c+4))
		if err != nil || v > 9999 {
			return nil, l.errorf(c+1, "points %q are not a score such as 1.0", l.field(c+1, c+4))
		}
		switch code {
		case "W":
			ps.Win, ps.ForfeitWin, ps.FullBye = v, v, v
			if !pab {
				ps.PairingBye = v
			}
		case "D":
			ps.Draw, ps.HalfBye = v, v
		case "L":
			ps.Loss = v
		case "A":
			ps.ZeroBye, ps.ForfeitLoss = v, v
		case "P":
			ps.PairingBye, pab = v, true
		case "X":
			return nil, l.errorf(c, "result code X (an unknown result) is not supported")
		default:
			return nil, l.errorf(c, "result code %q is not W, D, L, A or P (each every 9 columns from column 6)", code)
		}
		if rest := l.field(c+5, c+8); rest != "" {
			return nil, l.errorf(c+5, "%q where columns %d-%d should be blank", rest, c+5, c+8)
		}
	}
	return &ps, nil
}

// readForbidden reads a 260 record (first and last round, then the
// players, each field apart by blanks) or an XXP line (the players).
func readForbidden(l line, rounds bool) (Forbidden, error) {
	var f Forbidden
	toks := tokens(l, 5)
	if rounds {
		if len(toks) < 2 {
			return f, l.errorf(5, "a prohibited pairing (260) needs its first and last round")
		}
		var err error
		if f.First, err = readInt(toks[0].text); err != nil || f.First < 1 || f.First > maxRounds {
			return f, l.errorf(toks[0].col, "first round %q is not a number from 1 to %d", toks[0].text, maxRounds)
		}
		if f.Last, err = readInt(toks[1].text); err != nil || f.Last < f.First || f.Last > maxRounds {
			return f, l.errorf(toks[1].col, "last round %q is not a number from %d to %d", toks[1].text, f.First, maxRounds)
		}
		toks = toks[2:]
	}
	for _, t := range toks {
		n, err := readInt(t.text)
		if err != nil || n < 1 || n > 9999 {
			return f, l.errorf(t.col, "player %q is not a start rank", t.text)
		}
		f.Players = append(f.Players, n)
	}
	if len(f.Players) < 2 {
		return f, l.errorf(5, "a prohibited pairing needs two players or more")
	}
	return f, nil
}

// apply250 sets the accelerations of a 250 record on the players it names:
// fictitious game points (columns 10-13) in rounds 15-17 to 19-21 for the
// players 23-26 to 28-31.
func apply250(ev *Event, index map[int]int, l line) error {
	if mp := l.field(5, 8); mp != "" {
		if v, err := readTenths(mp); err != nil || v != 0 {
			return l.errorf(5, "match points %q: an individual event has none", mp)
		}
	}
	pts, err := readTenths(l.field(10, 13))
	if err != nil || pts == 0 {
		return l.errorf(10, "fictitious points %q are not a score other than 0.0", l.field(10, 13))
	}
	num := func(from, to int, what string, lo, hi int) (int, error) {
		n, err := readInt(l.field(from, to))
		if err != nil || n < lo || n > hi {
			return 0, l.errorf(from, "%s %q is not a number from %d to %d", what, l.field(from, to), lo, hi)
		}
		return n, nil
	}
	r1, err := num(15, 17, "first round", 1, maxRounds)
	if err != nil {
		return err
	}
	r2, err := num(19, 21, "last round", r1, maxRounds)
	if err != nil {
		return err
	}
	p1, err := num(23, 26, "first player", 1, 9999)
	if err != nil {
		return err
	}
	p2, err := num(28, 31, "last player", p1, 9999)
	if err != nil {
		return err
	}
	for n := p1; n <= p2; n++ {
		i, ok := index[n]
		if !ok {
			continue // a gap in the start ranks
		}
		a := ev.Players[i].Acceleration
		for len(a) < r2 {
			a = append(a, 0)
		}
		for r := r1; r <= r2; r++ {
			a[r-1] = pts
		}
		ev.Players[i].Acceleration = a
	}
	return nil
}

// apply240 records a 240 bye (type in column 5: F, H or Z; round 7-9;
// players from 11, every 5 columns) in the players' histories: as the
// round's entry when the 001 line stops before it (the round to pair),
// checked against the entry when the line has it.
func apply240(ev *Event, index map[int]int, l line) error {
	var res tally.Result
	switch l.field(5, 5) {
	case "F":
		res = tally.FullBye
	case "H":
		res = tally.HalfBye
	case "Z":
		res = tally.ZeroBye
	default:
		return l.errorf(5, "type of bye %q is not F, H or Z", l.field(5, 5))
	}
	r, err := readInt(l.field(7, 9))
	if err != nil || r < 1 || r > maxRounds {
		return l.errorf(7, "round %q is not a number from 1 to %d", l.field(7, 9), maxRounds)
	}
	toks := tokens(l, 11)
	if len(toks) == 0 {
		return l.errorf(11, "a bye record (240) names no player")
	}
	for _, t := range toks {
		n, err := readInt(t.text)
		if err != nil {
			return l.errorf(t.col, "player %q is not a start rank", t.text)
		}
		i, ok := index[n]
		if !ok {
			return l.errorf(t.col, "player %d has no 001 line", n)
		}
		p := &ev.Players[i]
		switch {
		case len(p.History) == r-1:
			p.History = append(p.History, tally.Entry{Result: res})
		case len(p.History) >= r:
			if e := p.History[r-1]; e.Opponent != 0 || e.Result != res {
				return l.errorf(t.col, "player %d: a %q bye in round %d, but the 001 line has %q", n, res, r, e.Result)
			}
		default:
			return l.errorf(t.col, "player %d: a bye in round %d, but the 001 line stops at round %d", n, r, len(p.History))
		}
	}
	return nil
}
